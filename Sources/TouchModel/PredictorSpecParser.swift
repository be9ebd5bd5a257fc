import SimKernel

/// Reads a ``PredictorSpec`` from its text. One rule decides every match:
/// ``fold(_:)`` (spaces around a part dropped, letters lowercased) is applied
/// to the names, the options and the `+1e` suffix alike.
struct SpecParser {
    let text: String

    init(_ text: String) { self.text = text }

    /// The form every part is compared in.
    static func fold(_ part: Substring) -> String {
        trim(part).lowercased()
    }

    /// `part` without spaces and tabs at either end.
    static func trim(_ part: Substring) -> Substring {
        var s = part
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }

    func fail(_ problem: String, expected: String) -> LatsimError {
        LatsimError(.badInput, value: text, problem: problem, expected: expected)
    }

    var allNames: String {
        "one of " + PredictorSpec.names.joined(separator: ", ")
            + ", with options in parentheses and +1e for 1€ smoothing where allowed"
    }

    struct Option {
        var word: String
        var value: Substring?
    }

    func parse() throws(LatsimError) -> PredictorSpec {
        var body = Substring(text)
        var smoothed = false, filter2019 = false
        if SpecParser.fold(body).hasSuffix("+1e2019") {
            smoothed = true
            filter2019 = true
            body = SpecParser.trim(body).dropLast(7)
        } else if SpecParser.fold(body).hasSuffix("+1e") {
            smoothed = true
            body = SpecParser.trim(body).dropLast(3)
        }
        var options: [Option] = []
        if let open = body.firstIndex(of: "(") {
            let rest = body[body.index(after: open)...]
            guard let close = rest.firstIndex(of: ")"), SpecParser.fold(rest[rest.index(after: close)...]).isEmpty else {
                throw fail("the option list is not closed by a final ')'", expected: "name(option,option)")
            }
            options = try parseOptions(rest[..<close])
            body = body[..<open]
        } else if body.contains(")") {
            throw fail("a ')' without '('", expected: "name(option,option)")
        }
        let name = SpecParser.fold(body)
        if name.isEmpty { throw fail("no predictor named", expected: allNames) }
        if let kind = PredictorKind.allCases.first(where: { SpecParser.fold(Substring($0.rawValue)) == name }) {
            if let first = options.first {
                throw fail("\(kind.rawValue) has no option '\(first.word)'", expected: "\(kind.rawValue) alone, or \(kind.rawValue)+1e")
            }
            if filter2019 { throw fail("+1e2019 is Chromium's 2019 1€ filter, for chromium.* predictors", expected: "\(kind.rawValue)+1e (latsim's filter)") }
            return .latsim(PredictorConfiguration(kind: kind, oneEuro: smoothed ? OneEuroParameters() : nil))
        }
        if name.hasPrefix("chromium."),
           let chromium = ChromiumName.allCases.first(where: { "chromium." + SpecParser.fold(Substring($0.rawValue)) == name }) {
            let kind = try chromiumKind(chromium, options)
            return .platform(.chromium(ChromiumPredictorConfiguration(kind, oneEuro: smoothed, oneEuroVersion: filter2019 ? .v2019 : nil)))
        }
        if name == "androidx.kalman" {
            if smoothed { throw fail("androidx.kalman has no 1€ filter", expected: "androidx.kalman without +1e") }
            return .platform(.androidx(try androidx(options)))
        }
        throw fail("unknown predictor '\(SpecParser.trim(body))'", expected: allNames)
    }

    func parseOptions(_ list: Substring) throws(LatsimError) -> [Option] {
        if SpecParser.fold(list).isEmpty { return [] }
        var out: [Option] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let word = SpecParser.fold(parts[0])
            if word.isEmpty { throw fail("an empty option", expected: "options separated by single commas") }
            out.append(Option(word: word, value: parts.count > 1 ? parts[1] : nil))
        }
        return out
    }

    func number(_ option: Option, _ canonical: String) throws(LatsimError) -> Double? {
        guard let raw = option.value else { return nil }
        guard let x = Double(SpecParser.fold(raw)), x.isFinite else {
            throw fail("\(canonical)= needs a number, not '\(SpecParser.trim(raw))'", expected: "\(canonical)=<number>, e.g. \(canonical)=0.5")
        }
        return x
    }

    func noValue(_ option: Option, _ canonical: String) throws(LatsimError) {
        if option.value != nil { throw fail("\(canonical) takes no value", expected: canonical) }
    }

    func chromiumKind(_ name: ChromiumName, _ options: [Option]) throws(LatsimError) -> ChromiumPredictorKind {
        let full = "chromium." + name.rawValue
        switch name {
        case .empty, .linearFirst, .linearSecond, .leastSquares:
            if let first = options.first { throw fail("\(full) has no option '\(first.word)'", expected: "\(full) alone, or \(full)+1e") }
            switch name {
            case .empty: return .empty
            case .linearFirst: return .linearFirst
            case .linearSecond: return .linearSecond
            default: return .leastSquares
            }
        case .kalman:
            var set: ChromiumKalmanOptions = []
            for o in options {
                let flag: ChromiumKalmanOptions, canonical: String
                switch o.word {
                case "heuristics": flag = .heuristics; canonical = "heuristics"
                case "directioncutoff": flag = .directionCutOff; canonical = "directionCutOff"
                default: throw fail("\(full) has no option '\(o.word)'", expected: "heuristics and/or directionCutOff")
                }
                try noValue(o, canonical)
                if set.contains(flag) { throw fail("\(canonical) is given twice", expected: "each option once") }
                set.insert(flag)
            }
            return .kalman(set)
        case .linearResampling:
            let variants = "one of time[=ms], frames[=ratio], experiment, fixedMs[=ms], fractional=ratio"
            guard options.count <= 1 else { throw fail("\(full) takes one latency variant, not \(options.count)", expected: variants) }
            guard let o = options.first else { return .linearResampling(.standard) }
            switch o.word {
            case "time": return .linearResampling(.time(milliseconds: try number(o, "time") ?? 3.3))
            case "frames": return .linearResampling(.frames(ratio: try number(o, "frames") ?? 0.5))
            case "experiment": try noValue(o, "experiment"); return .linearResampling(.experiment)
            case "fixedms": return .linearResampling(.fixedMilliseconds(try number(o, "fixedMs") ?? -5))
            case "fractional":
                guard let r = try number(o, "fractional") else { throw fail("fractional needs a ratio", expected: "fractional=<ratio of the frame interval>, e.g. fractional=0.25") }
                return .linearResampling(.fractional(r))
            default: throw fail("\(full) has no option '\(o.word)'", expected: variants)
            }
        }
    }

    func androidx(_ options: [Option]) throws(LatsimError) -> AndroidxKalmanConfiguration {
        var c = AndroidxKalmanConfiguration()
        var strategy: AndroidxStrategy?, tool: AndroidxTool?, offset: Int?
        for o in options {
            if let s = AndroidxStrategy.allCases.first(where: { $0.rawValue == o.word }) {
                try noValue(o, s.rawValue)
                if let earlier = strategy { throw fail("two strategies, \(earlier.rawValue) and \(s.rawValue)", expected: "one of balanced, safe, aggressive") }
                strategy = s
            } else if let t = AndroidxTool.allCases.first(where: { $0.rawValue == o.word }) {
                try noValue(o, t.rawValue)
                if let earlier = tool { throw fail("two tools, \(earlier.rawValue) and \(t.rawValue)", expected: "one of finger, stylus") }
                tool = t
            } else if o.word == "offset" {
                guard let raw = o.value, let ms = Int(SpecParser.fold(raw)) else {
                    throw fail("offset needs a whole number of milliseconds", expected: "offset=<ms>, e.g. offset=-4")
                }
                if offset != nil { throw fail("offset is given twice", expected: "each option once") }
                offset = ms
            } else {
                throw fail("androidx.kalman has no option '\(o.word)'", expected: "balanced, safe or aggressive; finger or stylus; offset=<ms>")
            }
        }
        c.strategy = strategy ?? .balanced
        c.tool = tool
        c.offsetMilliseconds = offset ?? 0
        return c
    }
}
