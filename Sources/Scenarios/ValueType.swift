import FramePipeline
import SimKernel
import TouchModel

/// What a value is parsed against: the display period (durations may be
/// written in frames).
public struct ParseContext: Sendable {
    /// The display period, ns.
    public var framePeriod: Rational
    /// The folder relative paths in the value are read from (the scenario
    /// file's; nil: the working folder).
    public var folder: String?
    /// A context for a display period.
    public init(framePeriod: Rational, folder: String? = nil) {
        self.framePeriod = framePeriod
        self.folder = folder
    }
}

/// The type of a configuration key's value: how its text is parsed and
/// range-checked, and what is accepted, said once for messages and help.
///
/// Every range is the physically sensible one, chosen so that no value that
/// passes can overflow the model's 64-bit nanosecond arithmetic
/// (Docs/Limits.md).
public struct ValueType<Value>: Sendable {
    /// What is accepted, e.g. `a duration from 0 to 1h, e.g. 4ms`.
    public let expected: String
    let parse: @Sendable (String, ParseContext) throws(LatsimError) -> Value

    init(_ expected: String, _ parse: @escaping @Sendable (String, ParseContext) throws(LatsimError) -> Value) {
        self.expected = expected
        self.parse = parse
    }
}

/// The limits of the model's values (Docs/Limits.md).
public enum ValueLimits {
    /// The longest simulated duration: about 116 days.
    public static let duration: SimTime = 10_000_000 * Nanos.perSecond
    /// The longest model duration (a handler, a delay, a GPU job): an hour.
    public static let stage: SimTime = 3_600 * Nanos.perSecond
    /// The longest prediction horizon: a second.
    public static let horizon: SimTime = Nanos.perSecond
    /// Display refresh rates, Hz.
    public static let displayHz: ClosedRange<Double> = 1...1_000
    /// Digitizer scan rates, Hz.
    public static let scanHz: ClosedRange<Double> = 1...10_000

    /// A limit as a reader says it: `3600s (an hour)`.
    public static func describe(_ limit: SimTime) -> String {
        switch limit {
        case duration: return "10000000s (about 116 days)"
        case stage: return "3600s (an hour)"
        default: return DurationSyntax.format(limit)
        }
    }
}

extension ValueType {
    static func failure(_ text: String, _ problem: String, _ expected: String) -> LatsimError {
        LatsimError(value: text, problem: problem, expected: expected)
    }
}

extension ValueType where Value == SimTime {
    /// A duration from `minimum` to `maximum` ns (`positive`: above 0).
    static func duration(upTo maximum: SimTime, positive: Bool = false, example: String = "4ms") -> ValueType {
        let expected = "a duration \(positive ? "above 0" : "from 0") up to \(ValueLimits.describe(maximum)), e.g. \(example) (units ns, us, ms, s, or frames)"
        return ValueType(expected) { text, ctx throws(LatsimError) in
            let v: SimTime
            do throws(LatsimError) { v = try DurationSyntax.parse(text, framePeriod: ctx.framePeriod) } catch {
                throw failure(text, error.problem, expected)
            }
            if v < 0 { throw failure(text, "a duration cannot be negative", expected) }
            if positive && v == 0 { throw failure(text, "must be above zero", expected) }
            if v > maximum { throw failure(text, "is longer than \(ValueLimits.describe(maximum))", expected) }
            return v
        }
    }
}

extension ValueType where Value == DurationDistribution {
    /// A duration or a distribution of durations, every value (and every
    /// bound of a distribution) at most `maximum`.
    static func distribution(upTo maximum: SimTime) -> ValueType {
        let expected = DurationDistribution.expected + ", or measured durations empirical(@FILE.csv:COLUMN); values up to \(ValueLimits.describe(maximum))"
        return ValueType(expected) { text, ctx throws(LatsimError) in
            if MeasuredDurations.isFileForm(text) {
                return try MeasuredDurations.distribution(text, relativeTo: ctx.folder, upTo: maximum, framePeriod: ctx.framePeriod)
            }
            let d: DurationDistribution
            do throws(LatsimError) { d = try DurationDistribution.parse(text, framePeriod: ctx.framePeriod) } catch {
                throw failure(text, error.problem, error.expected ?? expected)
            }
            if d.largestParameter > maximum {
                throw failure(text, "has a value above \(ValueLimits.describe(maximum))", expected)
            }
            return d
        }
    }
}

extension ValueType where Value == Rational {
    /// A rate in Hz within `range`.
    /// At most 6 decimals: the period `1e9 * denominator / numerator` ns
    /// and every tick derived from it then stay within 64-bit arithmetic.
    static func rate(_ range: ClosedRange<Double>, example: String) -> ValueType {
        let expected = "a rate in Hz from \(formatDecimal(range.lowerBound, places: 3)) to \(formatDecimal(range.upperBound, places: 3)) with at most 6 decimals, e.g. \(example)"
        return ValueType(expected) { text, _ throws(LatsimError) in
            guard let r = Rational(decimal: text) else { throw failure(text, "not a number", expected) }
            guard range.contains(r.doubleValue) else { throw failure(text, "is outside the range", expected) }
            guard r.denominator <= 1_000_000 else { throw failure(text, "has more than 6 decimals", expected) }
            return r
        }
    }

    /// A fraction from 0 to 1.
    static func fraction(_ what: String) -> ValueType {
        let expected = "a number from 0 to 1 (\(what))"
        return ValueType(expected) { text, _ throws(LatsimError) in
            guard let r = Rational(decimal: text) else { throw failure(text, "not a number", expected) }
            guard !r.isNegative, r.numerator <= r.denominator else { throw failure(text, "is outside 0...1", expected) }
            return r
        }
    }
}

extension ValueType where Value == Double {
    /// A number within `range` (`above`: the lower bound excluded).
    static func number(_ range: ClosedRange<Double>, above: Bool = false, what: String) -> ValueType {
        let low = formatDecimal(range.lowerBound, places: 6), high = formatDecimal(range.upperBound, places: 6)
        let expected = above ? "a number above \(low) and at most \(high) (\(what))" : "a number from \(low) to \(high) (\(what))"
        return ValueType(expected) { text, _ throws(LatsimError) in
            guard let v = NumberSyntax.double(text) else { throw failure(text, "not a number", expected) }
            guard range.contains(v), !(above && v == range.lowerBound) else { throw failure(text, "is outside the range", expected) }
            return v
        }
    }
}

extension ValueType where Value == Int {
    /// A whole number within `range`.
    static func integer(_ range: ClosedRange<Int>, what: String) -> ValueType {
        let expected = "a whole number from \(range.lowerBound) to \(range.upperBound) (\(what))"
        return ValueType(expected) { text, _ throws(LatsimError) in
            guard let v = NumberSyntax.integer(text) else { throw failure(text, "not a whole number", expected) }
            guard range.contains(v) else { throw failure(text, "is outside the range", expected) }
            return v
        }
    }
}

extension ValueType where Value == UInt64 {
    /// An unsigned 64-bit whole number.
    static var unsigned: ValueType {
        let expected = "a whole number from 0 to 18446744073709551615"
        return ValueType(expected) { text, _ throws(LatsimError) in
            guard let v = NumberSyntax.unsigned(text) else { throw failure(text, "not an unsigned whole number", expected) }
            return v
        }
    }
}

extension ValueType where Value == Bool {
    /// `true` or `false` (also yes/no, on/off, 1/0).
    static var bool: ValueType {
        ValueType("true or false") { text, _ throws(LatsimError) in
            switch text.trimmedWhitespace.lowercased() {
            case "true", "yes", "on", "1": return true
            case "false", "no", "off", "0": return false
            default: throw failure(text, "not true or false", "true or false")
            }
        }
    }
}

extension ValueType where Value == LatchUnsignaledSetting {
    /// `auto`, or true or false.
    static var latchUnsignaled: ValueType {
        let expected = "auto (the release's default: before the fence up to 7.0, on an HWC1 build to 8.1, and from 13 (AutoSingleLayer); after it otherwise), true or false"
        return ValueType(expected) { text, _ throws(LatsimError) in
            switch text.trimmedWhitespace.lowercased() {
            case "auto": return .auto
            case "true", "yes", "on", "1": return .always
            case "false", "no", "off", "0": return .never
            default: throw failure(text, "not auto, true or false", expected)
            }
        }
    }
}

extension ValueType where Value: Keyword {
    /// One of the keyword's spellings (matched as ``Keyword`` says).
    static func keyword(_ notes: String = "") -> ValueType {
        let expected = Value.spellings + notes
        return ValueType(expected) { text, _ throws(LatsimError) in
            guard let v = Value(keyword: text) else { throw failure(text, "not a valid choice", expected) }
            return v
        }
    }
}

extension ValueType where Value == String {
    /// Any non-empty text.
    static func text(_ expected: String) -> ValueType {
        ValueType(expected) { text, _ throws(LatsimError) in
            let t = text.trimmedWhitespace
            guard !t.isEmpty else { throw failure(text, "empty value", expected) }
            return t
        }
    }
}

extension ValueType where Value == AnimationSchedule {
    /// `never`, `always`, or half-open intervals `2s..4s,6s..7s`.
    static var animations: ValueType {
        let expected = "never, always, or intervals such as 2s..4s,6s..7s (each from 0, ending after it starts)"
        return ValueType(expected) { text, ctx throws(LatsimError) in
            let t = text.trimmedWhitespace
            if t == "never" { return .never }
            if t == "always" { return .always }
            var ranges: [Range<SimTime>] = []
            for part in t.split(separator: ",") {
                let ends = part.components(separatedBy: "..")
                guard ends.count == 2, !ends[1].hasPrefix(".") else {
                    throw failure(text, "'\(part)' is not an interval like 2s..4s", expected)
                }
                let lo: SimTime, hi: SimTime
                do throws(LatsimError) {
                    lo = try DurationSyntax.parse(ends[0], framePeriod: ctx.framePeriod)
                    hi = try DurationSyntax.parse(ends[1], framePeriod: ctx.framePeriod)
                } catch { throw failure(text, "'\(part)': \(error.problem)", expected) }
                guard lo >= 0, lo <= hi else { throw failure(text, "interval '\(part)' must start at 0 or later and end after it starts", expected) }
                guard hi <= ValueLimits.duration else { throw failure(text, "interval '\(part)' ends after the longest run", expected) }
                ranges.append(lo..<hi)
            }
            guard !ranges.isEmpty else { throw failure(text, "no interval", expected) }
            return .intervals(ranges.sorted { $0.lowerBound < $1.lowerBound })
        }
    }
}

extension ValueType where Value == MeasureRow {
    /// A fraction of the screen height, or `touch`.
    static var row: ValueType {
        let fraction = ValueType<Rational>.fraction("the screen row whose scan-out is the photon time")
        let expected = fraction.expected + " or touch"
        return ValueType(expected) { text, ctx throws(LatsimError) in
            if text.trimmedWhitespace == "touch" { return .touch }
            do throws(LatsimError) { return .fraction(try fraction.parse(text, ctx)) } catch {
                throw failure(text, error.problem, expected)
            }
        }
    }
}

extension ValueType where Value == WorkDuration {
    /// `auto`, or a duration from 0 to `maximum`.
    static func workDuration(upTo maximum: SimTime, auto: String) -> ValueType {
        let plain = ValueType<SimTime>.duration(upTo: maximum, example: "16.6ms")
        let expected = "auto (\(auto)) or " + plain.expected
        return ValueType(expected) { text, ctx throws(LatsimError) in
            if text.trimmedWhitespace.lowercased() == "auto" { return .auto }
            do throws(LatsimError) { return .fixed(try plain.parse(text, ctx)) } catch {
                throw failure(text, error.problem, expected)
            }
        }
    }
}

extension ValueType where Value == SimTime? {
    /// `unset`, or a duration of either sign up to `maximum` in magnitude.
    static func phaseOffset(upTo maximum: SimTime) -> ValueType {
        let expected = "unset, or a duration from -\(DurationSyntax.format(maximum)) to \(DurationSyntax.format(maximum)), e.g. 7.5ms (set with the other phase offset, instead of the work durations)"
        return ValueType(expected) { text, ctx throws(LatsimError) in
            let t = text.trimmedWhitespace
            if t.lowercased() == "unset" { return nil }
            let negative = t.hasPrefix("-")
            let v: SimTime
            do throws(LatsimError) {
                v = try DurationSyntax.parse(negative ? String(t.dropFirst()) : t, framePeriod: ctx.framePeriod)
            } catch { throw failure(text, error.problem, expected) }
            if v < 0 || v > maximum { throw failure(text, "is outside the range", expected) }
            return negative ? -v : v
        }
    }
}

extension ValueType where Value == BufferCount {
    /// `auto`, or a whole number of buffers from 2 to 64.
    static var bufferCount: ValueType {
        let limit = AndroidTiming.maximumBuffers
        let expected = "auto (maxAcquired + 2) or a whole number from 2 to \(limit)"
        return ValueType(expected) { text, _ throws(LatsimError) in
            let t = text.trimmedWhitespace
            if t.lowercased() == "auto" { return .auto }
            guard let n = NumberSyntax.integer(t) else { throw failure(text, "not a whole number", expected) }
            guard (2...limit).contains(n) else { throw failure(text, "is outside the range", expected) }
            return .count(n)
        }
    }
}

extension ValueType where Value == PredictorSpec {
    /// What `app.prediction.predictor` accepts: every ``PredictorSpec`` name,
    /// and how `+1e` relates to `app.prediction.smoothing`.
    static let predictorNames = "latsim's none, linearFirst, linearSecond, leastSquares or kalman; "
        + "Chromium's chromium.empty, chromium.linearFirst, chromium.linearSecond, chromium.leastSquares, "
        + "chromium.kalman[(heuristics,directionCutOff)] or chromium.linearResampling[(time[=ms] | frames[=ratio] | "
        + "experiment | fixedMs[=ms] | fractional=ratio)]; androidx.kalman[(balanced|safe|aggressive, finger|stylus, offset=ms)]. "
        + "A +1e suffix adds the family's 1€ filter (latsim's after latsim's predictors, Chromium's current one after chromium.*, "
        + "+1e2019 Chromium's 2019 one; "
        + "androidx.kalman has none); app.prediction.smoothing: oneEuro adds the same filter to the predictor named here, "
        + "so kalman+1e and kalman with smoothing oneEuro are one predictor"

    /// A predictor spec (``PredictorSpec/init(parsing:)``).
    static var predictor: ValueType {
        ValueType(predictorNames) { text, _ throws(LatsimError) in
            do throws(LatsimError) { return try PredictorSpec(parsing: text) } catch {
                throw failure(text, error.problem, error.expected ?? predictorNames)
            }
        }
    }
}

extension ValueType where Value == DurationDistribution? {
    /// `auto` (nil), or a duration or distribution up to `maximum`.
    static func touchDownDelay(upTo maximum: SimTime, event: String = "contact") -> ValueType {
        let plain = ValueType<DurationDistribution>.distribution(upTo: maximum)
        let expected = "auto (the end of the first scan window that begins at or after the \(event), plus device.digitizerDelay) or " + plain.expected
        return ValueType(expected) { text, ctx throws(LatsimError) in
            if text.trimmedWhitespace.lowercased() == "auto" { return nil }
            do throws(LatsimError) { return try plain.parse(text, ctx) } catch {
                throw failure(text, error.problem, expected)
            }
        }
    }
}

extension ValueType where Value == Rational? {
    /// `none` (nil), or a rate in Hz within `range`.
    static func optionalRate(_ range: ClosedRange<Double>, example: String) -> ValueType {
        let plain = ValueType<Rational>.rate(range, example: example)
        let expected = "none or " + plain.expected
        return ValueType(expected) { text, ctx throws(LatsimError) in
            if text.trimmedWhitespace.lowercased() == "none" { return nil }
            do throws(LatsimError) { return try plain.parse(text, ctx) } catch {
                throw failure(text, error.problem, expected)
            }
        }
    }
}

extension ValueType where Value == SimTime? {
    /// `off`, or a positive duration up to `maximum`: a timer that may be absent.
    static func timer(upTo maximum: SimTime, example: String) -> ValueType {
        let plain = ValueType<SimTime>.duration(upTo: maximum, positive: true, example: example)
        let expected = "off or " + plain.expected
        return ValueType(expected) { text, ctx throws(LatsimError) in
            if text.trimmedWhitespace.lowercased() == "off" { return nil }
            do throws(LatsimError) { return try plain.parse(text, ctx) } catch {
                throw failure(text, error.problem, expected)
            }
        }
    }
}
