import Foundation
import SimKernel
import TouchModel

extension GateOutcome {
    /// The most `::error` annotations GitHub shows for one step (10 error
    /// annotations and 10 warnings per step; more are dropped): a pass
    /// writes at most one less for its entries, then its summary.
    public static let annotationLimit = 10

    /// The outcome as JUnit XML (the Ant JUnit schema every CI reads): a
    /// `testsuites` root with one `testsuite` per corpus item and one
    /// `testcase` per item x predictor x horizon run, named `PREDICTOR @ H ms`
    /// with the item as its class name. A regression is a `failure` whose
    /// message lists the metrics that got worse and whose text is the
    /// entry's metric table; unusable figures are a `failure` of type
    /// `UnusablePrediction`; a run that scored nothing is `skipped`.
    /// Baseline entries this pass did not score are not test cases (they
    /// were not run): one `missing` suite holds a single failing case that
    /// lists them.
    ///
    /// `timestamp` (UTC, no zone, as the schema wants) and `hostname` are
    /// the suite's required attributes; the runs share the cores, so each
    /// case's time is the pass's wall time shared out over its runs.
    public func junitXML(timestamp: Date = Date(), hostname: String = ProcessInfo.processInfo.hostName) -> String {
        let cases = testCases()
        var items: [String] = []
        for c in cases where !items.contains(c.id.item) { items.append(c.id.item) }
        let perCase = cases.isEmpty ? 0 : seconds / Double(cases.count)
        let head = Self.suiteHead(timestamp: timestamp, hostname: hostname)
        let properties = junitProperties()

        var suites: [String] = []
        for (index, item) in items.enumerated() {
            var body: [String] = []
            var failures = 0, skipped = 0, count = 0
            for c in cases where c.id.item == item {
                count += 1
                let name = "\(c.id.predictor) @ \(formatDecimal(c.id.horizonMs, places: 3)) ms"
                let open = "    <testcase name=\"\(Self.xml(name))\" classname=\"\(Self.xml(item))\" time=\"\(Self.time(perCase))\""
                let summary = regressionSummary(c.id)
                if let reason = unusableReason(c.id) {
                    failures += 1
                    body.append(open + ">")
                    body.append("      <failure type=\"UnusablePrediction\" message=\"\(Self.xml("unusable figures: " + reason))\">"
                                + Self.xml("The predictor's answers make these figures not finite or absurd (beyond \(Int(PredictionMetric.sensibleLimit)) points): \(reason)")
                                + "</failure>")
                    body.append("    </testcase>")
                } else if !summary.isEmpty {
                    failures += 1
                    body.append(open + ">")
                    body.append("      <failure type=\"PredictionRegression\" message=\"\(Self.xml("regression: " + summary))\">"
                                + Self.xml(metricTable(c.id)) + "</failure>")
                    body.append("    </testcase>")
                } else if !c.scored {
                    skipped += 1
                    body.append(open + ">")
                    body.append("      <skipped message=\"scored nothing: no prediction was made\"/>")
                    body.append("    </testcase>")
                } else {
                    body.append(open + "/>")
                }
            }
            suites.append("  <testsuite name=\"\(Self.xml(item))\" package=\"latsim.prediction\" id=\"\(index)\" \(head) "
                          + "tests=\"\(count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\" "
                          + "time=\"\(Self.time(perCase * Double(count)))\">")
            suites += properties
            suites += body
            suites.append("    <system-out></system-out>")
            suites.append("    <system-err></system-err>")
            suites.append("  </testsuite>")
        }
        let missing = recording ? [] : missingEntries
        if !missing.isEmpty {
            let list = missing.map(\.description).joined(separator: "\n")
            suites.append("  <testsuite name=\"missing\" package=\"latsim.prediction\" id=\"\(items.count)\" \(head) "
                          + "tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0.000\">")
            suites += properties
            suites.append("    <testcase name=\"baseline entries missing from this run\" classname=\"missing\" time=\"0.000\">")
            suites.append("      <failure type=\"MissingEntries\" message=\"\(Self.xml(Self.count(missing.count, "baseline entry", "baseline entries") + " not scored by this run (coverage lost)"))\">"
                          + Self.xml(list) + "</failure>")
            suites.append("    </testcase>")
            suites.append("    <system-out></system-out>")
            suites.append("    <system-err></system-err>")
            suites.append("  </testsuite>")
        }
        // the schema's root has no attributes: the totals are the suites' sums
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n" + suites.joined(separator: "\n")
            + (suites.isEmpty ? "" : "\n") + "</testsuites>\n"
    }

    /// JUnit XML for a gate that could not run (bad input, a predictor that
    /// broke the protocol, the environment): one suite, one case, one
    /// `error` naming what went wrong, so that a CI step publishing the
    /// file never shows "no results".
    public static func junitXML(error: LatsimError, baselineFile: String?, timestamp: Date = Date(),
                                hostname: String = ProcessInfo.processInfo.hostName) -> String {
        let type: String
        switch error.kind {
        case .badInput: type = "BadInput"
        case .environment: type = "EnvironmentFailure"
        case .internal: type = "InternalFailure"
        }
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<testsuites>",
                     "  <testsuite name=\"prediction gate\" package=\"latsim.prediction\" id=\"0\" \(suiteHead(timestamp: timestamp, hostname: hostname)) "
                     + "tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000\">",
                     "    <properties>"]
        if let baselineFile { lines.append("      <property name=\"baseline\" value=\"\(xml(baselineFile))\"/>") }
        lines += ["    </properties>",
                  "    <testcase name=\"the gate runs\" classname=\"prediction gate\" time=\"0.000\">",
                  "      <error type=\"\(type)\" message=\"\(xml(error.description))\">\(xml(error.description))</error>",
                  "    </testcase>",
                  "    <system-out></system-out>",
                  "    <system-err></system-err>",
                  "  </testsuite>",
                  "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `properties` of every suite: the baseline, the spec, each gated
    /// metric's tolerance.
    func junitProperties() -> [String] {
        var out = ["    <properties>",
                   "      <property name=\"baseline\" value=\"\(Self.xml(baselineFile))\"/>",
                   "      <property name=\"spec\" value=\"\(Self.xml(specFile ?? "(default)"))\"/>"]
        for r in rules {
            out.append("      <property name=\"tolerance.\(r.metric.rawValue)\" value=\"\(Self.xml("\(r.tolerance)" + (r.fails == .both ? " (any move)" : "")))\"/>")
        }
        for key in settings.keys.sorted() {
            out.append("      <property name=\"setting.\(Self.xml(key))\" value=\"\(Self.xml(settings[key]!))\"/>")
        }
        out.append("    </properties>")
        return out
    }

    /// `timestamp="..." hostname="..."`.
    static func suiteHead(timestamp: Date, hostname: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let host = hostname.trimmedWhitespace.isEmpty ? "localhost" : hostname
        return "timestamp=\"\(formatter.string(from: timestamp))\" hostname=\"\(xml(host))\""
    }

    static func time(_ s: Double) -> String { formatDecimal(s, places: 3, fixed: true) }

    /// Text for XML content and attributes: `& < > " '` escaped, and
    /// characters XML 1.0 cannot hold dropped.
    static func xml(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t": out += "&#9;"
            case _ where u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF: continue
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// GitHub Actions workflow commands: an `::error` for each of the first
    /// failing entries (title: the entry; message: what got worse, then its
    /// metric table; a baseline entry this pass did not score, after the
    /// runs), on the baseline file at the line where the entry begins, then
    /// one summary: an `::error` with the verdict when the gate failed
    /// (saying how many failing entries were not annotated), a `::notice`
    /// when it passed. GitHub shows ``annotationLimit`` error annotations
    /// per step, so at most ``annotationLimit`` − 1 entries are annotated and
    /// the summary, last, is always shown.
    ///
    /// `file=` is the path relative to `workspace` (GitHub's
    /// `GITHUB_WORKSPACE`, where annotations are resolved) when the file
    /// lies inside it, else the path as given.
    public func githubAnnotations(workspace: String? = GateOutcome.githubWorkspace) -> [String] {
        var out: [String] = []
        let path = Self.githubPath(baselineFile, workspace: workspace)
        let file = "file=\(Self.githubProperty(path)),"
        func place(_ id: EntryID) -> String {
            guard let index = stored.entries.firstIndex(where: { EntryID($0.item, $0.predictor, $0.horizonMs) == id }),
                  index < baselineLines.count else { return file }
            return file + "line=\(baselineLines[index]),"
        }
        var failing: [(id: EntryID, title: String, message: String)] = failures().map { f in
            if let reason = f.unusable {
                return (f.id, "unusable prediction: \(f.id)", "the predictor's answers make figures not finite or absurd: " + reason)
            }
            return (f.id, "prediction regression: \(f.id)", f.regression + "\n" + metricTable(f.id))
        }
        if !recording {
            failing += missingEntries.map { ($0, "baseline entry missing: \($0)", "this baseline entry was not scored by this run (coverage lost): "
                                             + "the corpus, predictors or horizons no longer include it") }
        }
        let shown = Self.annotationLimit - 1
        for f in failing.prefix(shown) {
            out.append("::error \(place(f.id))title=\(Self.githubProperty(f.title))::\(Self.githubData(f.message))")
        }
        var summary = verdict
        if failing.count > shown {
            summary += " (\(Self.count(failing.count - shown, "more failing entry", "more failing entries")) not annotated: see the job's log)"
        }
        if !emptyRuns.isEmpty { summary += "; \(Self.count(emptyRuns.count, "run")) scored nothing" }
        out.append((passed ? "::notice " : "::error ") + "\(file)title=\(Self.githubProperty("prediction gate"))::\(Self.githubData(summary))")
        return out
    }

    /// An error as a GitHub annotation, on the file and line it names.
    public static func githubAnnotation(_ error: LatsimError, workspace: String? = GateOutcome.githubWorkspace) -> String {
        var place = ""
        if let f = error.file, !f.hasPrefix("--"), FileManager.default.fileExists(atPath: f) {
            place = "file=\(githubProperty(githubPath(f, workspace: workspace))),"
            if let l = error.line { place += "line=\(l)," }
        }
        return "::error \(place)title=\(githubProperty("latsim regress"))::\(githubData(error.description))"
    }

    /// `$GITHUB_WORKSPACE`, when set: the checkout GitHub resolves an
    /// annotation's `file=` against.
    public static var githubWorkspace: String? {
        ProcessInfo.processInfo.environment["GITHUB_WORKSPACE"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `path` as an annotation names it: relative to `workspace` when it
    /// lies inside it (a relative path is taken from the current
    /// directory; `.` and `..` are resolved, then symbolic links when that
    /// does not place it), else as given.
    static func githubPath(_ path: String, workspace: String?, currentDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        guard let workspace, !workspace.isEmpty else { return path }
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        let file = URL(fileURLWithPath: absolute).standardizedFileURL, root = URL(fileURLWithPath: workspace).standardizedFileURL
        func inside(_ file: String, _ root: String) -> String? {
            let base = root.hasSuffix("/") ? root : root + "/"
            guard file.hasPrefix(base), file.count > base.count else { return nil }
            return String(file.dropFirst(base.count))
        }
        if let r = inside(file.path, root.path) { return r }
        if let r = inside(file.resolvingSymlinksInPath().path, root.resolvingSymlinksInPath().path) { return r }
        return path
    }

    /// A workflow command's message: `%`, CR and LF escaped.
    static func githubData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property: also `:` and `,`.
    static func githubProperty(_ s: String) -> String {
        githubData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    // MARK: Markdown

    /// The outcome as Markdown, for a CI job's summary
    /// (`$GITHUB_STEP_SUMMARY`): the verdict, the counts in entries, the
    /// setting, then the failing entries' metrics (the first 50 rows) and
    /// the missing entries.
    public var markdownSummary: String {
        var md = ["## Prediction gate: \(passed ? "passed" : "FAILED")", "", verdict, ""]
        if !recording {
            md += ["| entries | count |", "|---|---:|",
                   "| compared with the baseline | \(compared) |",
                   "| regressed (\(Self.count(regressedMetrics.count, "metric"))) | \(regressedEntries.count) |",
                   "| missing from this run | \(missingEntries.count) |",
                   "| unusable figures | \(unusableRuns.count) |",
                   "| new (not in the baseline) | \(newEntries.count) |",
                   "| scored nothing | \(emptyRuns.count) |", ""]
        }
        md += ["Baseline `\(Self.md(baselineFile))`; " + Self.md(settingLine) + ".", ""]
        let rows = regressedMetrics
        if !rows.isEmpty {
            md += ["### Regressions", "", "| item | predictor | horizon ms | metric | baseline | now | change | tolerance |",
                   "|---|---|---:|---|---:|---:|---:|---:|"]
            for c in rows.prefix(50) {
                let pct = c.changePercent.map { ($0 > 0 ? "+" : "") + formatDecimal($0, places: 2) + "%" } ?? "-"
                md.append("| \(Self.md(c.item)) | \(Self.md(c.predictor)) | \(formatDecimal(c.horizonMs, places: 3)) | \(c.metric) | "
                          + "\(formatDecimal(c.old ?? 0, places: 6)) | \(formatDecimal(c.new ?? 0, places: 6)) | \(pct) | \(tolerance(of: c.metric)) |")
            }
            if rows.count > 50 { md += ["", "... \(rows.count - 50) more rows in the job's log."] }
            md.append("")
        }
        let unusable = unusableRuns
        if !unusable.isEmpty {
            md += ["### Unusable figures", ""]
            md += unusable.prefix(20).map { "- \(Self.md(EntryID($0.item, $0.predictor, $0.horizonMs).description)): \(PredictionMetric.unusableReason($0.score) ?? "")" }
            if unusable.count > 20 { md.append("- ... \(unusable.count - 20) more") }
            md.append("")
        }
        let missing = recording ? [] : missingEntries
        if !missing.isEmpty {
            md += ["### Missing from this run", ""]
            md += missing.prefix(20).map { "- \(Self.md($0.description))" }
            if missing.count > 20 { md.append("- ... \(missing.count - 20) more") }
            md.append("")
        }
        return md.joined(separator: "\n")
    }

    /// Markdown for a gate that could not run.
    public static func markdownSummary(error: LatsimError) -> String {
        "## Prediction gate: ERROR\n\nThe gate could not run:\n\n```\n\(error.description)\n```\n"
    }

    /// Text for a Markdown table cell: `|` escaped, lines joined.
    static func md(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
