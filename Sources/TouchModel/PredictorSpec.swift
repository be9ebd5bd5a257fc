import SimKernel

/// A predictor as a user names it: latsim's own or a platform's, with its
/// options. It parses and prints the names typed in scenario files and on
/// the command line, and makes the predictor.
///
/// Grammar (every name and option matched case-insensitively, with spaces
/// around the parts ignored; printed in the canonical spelling below):
///
///     spec     = name [ "(" option { "," option } ")" ] [ "+1e" ]
///     option   = word [ "=" number ]
///
/// | name | options |
/// |---|---|
/// | `none`, `linearFirst`, `linearSecond`, `leastSquares`, `kalman` | none (latsim's ``BuiltinPredictor``; `+1e`: latsim's 1€ filter, defaults of ``OneEuroParameters``) |
/// | `chromium.empty`, `chromium.linearFirst`, `chromium.linearSecond`, `chromium.leastSquares` | none |
/// | `chromium.kalman` | `heuristics`, `directionCutOff` |
/// | `chromium.linearResampling` | at most one latency variant: `time[=ms]` (default 3.3), `frames[=ratio]` (default 0.5), `experiment`, `fixedMs[=ms]` (default −5), `fractional=ratio` (see ``ResampleLatency``) |
/// | `androidx.kalman` | one strategy of `balanced` (default), `safe`, `aggressive`; one tool of `finger`, `stylus` (default: the input's, as androidx reads each MotionEvent's tool type); `offset=ms` (whole) |
///
/// `+1e` on a Chromium name adds Chromium's 1€ filter with Chromium's
/// defaults (``ChromiumOneEuroFilter``); androidx applies none.
///
/// Examples: `kalman+1e`, `chromium.kalman(heuristics,directionCutOff)`,
/// `chromium.linearResampling(frames=0.375)+1e`, `androidx.kalman(safe)`.
public enum PredictorSpec: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// One of latsim's predictors.
    case latsim(PredictorConfiguration)
    /// One of the platforms' predictors.
    case platform(PlatformPredictorConfiguration)

    /// Every predictor name, in the order they are listed to a user.
    public static let names: [String] = PredictorKind.allCases.map(\.rawValue)
        + ChromiumName.allCases.map { "chromium." + $0.rawValue } + ["androidx.kalman"]

    /// The spec `text` names; a ``LatsimError`` (bad input, the text as its
    /// value) saying what is wrong and what was expected otherwise.
    public init(parsing text: String) throws(LatsimError) {
        self = try SpecParser(text).parse()
    }

    /// The spec `description` names, or nil if it names none.
    public init?(_ description: String) {
        guard let spec = try? PredictorSpec(parsing: description) else { return nil }
        self = spec
    }

    /// The spec from its name (a string in JSON and YAML).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            self = try PredictorSpec(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// The spec as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The canonical name, which parses back to this spec. A latsim
    /// predictor's smoothing prints as `+1e` whatever its parameters (as
    /// ``PredictorConfiguration/name`` does).
    public var description: String {
        switch self {
        case .latsim(let c):
            return c.name
        case .platform(.chromium(let c)):
            var options: [String] = []
            let name: ChromiumName
            switch c.kind {
            case .empty: name = .empty
            case .linearFirst: name = .linearFirst
            case .linearSecond: name = .linearSecond
            case .leastSquares: name = .leastSquares
            case .kalman(let o):
                name = .kalman
                if o.contains(.heuristics) { options.append("heuristics") }
                if o.contains(.directionCutOff) { options.append("directionCutOff") }
            case .linearResampling(let latency):
                name = .linearResampling
                switch latency {
                case .standard: break
                case .time(let ms): options.append(ms == 3.3 ? "time" : "time=" + PredictorSpec.format(ms))
                case .frames(let r): options.append(r == 0.5 ? "frames" : "frames=" + PredictorSpec.format(r))
                case .experiment: options.append("experiment")
                case .fixedMilliseconds(let ms): options.append(ms == -5 ? "fixedMs" : "fixedMs=" + PredictorSpec.format(ms))
                case .fractional(let r): options.append("fractional=" + PredictorSpec.format(r))
                }
            }
            return "chromium." + name.rawValue + PredictorSpec.parenthesized(options) + c.oneEuroSuffix
        case .platform(.androidx(let c)):
            var options: [String] = []
            if c.strategy != .balanced { options.append(c.strategy.rawValue) }
            if let tool = c.tool { options.append(tool.rawValue) }
            if c.offsetMilliseconds != 0 { options.append("offset=\(c.offsetMilliseconds)") }
            return "androidx.kalman" + PredictorSpec.parenthesized(options)
        }
    }

    /// This spec on an input of a stylus (`stylus`) or a finger: androidx's
    /// predictor with no tool written takes the input's (androidx reads it
    /// from each MotionEvent), so on a stylus it runs with the stylus's
    /// confidence ranges and is named `androidx.kalman(stylus)`; every other
    /// spec is unchanged.
    public func forInput(stylus: Bool) -> PredictorSpec {
        guard stylus, case .platform(.androidx(var c)) = self, c.tool == nil else { return self }
        c.tool = .stylus
        return .platform(.androidx(c))
    }

    /// The predictor this spec names, with no history. `frameInterval` is
    /// the display's frame interval assumed by a platform predictor when a
    /// request does not give one (``PlatformPredictor/frameInterval``).
    public func makePredictor(frameInterval: SimTime = PlatformPredictor.defaultFrameInterval) -> ConfiguredPredictor {
        switch self {
        case .latsim(let c): return .builtin(BuiltinPredictor(c))
        case .platform(let c): return .platform(PlatformPredictor(c, frameInterval: frameInterval))
        }
    }

    /// latsim's predictor of `kind`, unsmoothed: `PredictorSpec(.kalman)`.
    public init(_ kind: PredictorKind) {
        self = .latsim(PredictorConfiguration(kind: kind))
    }

    /// True for `none` without smoothing: the raw touch, no prediction.
    public var isNone: Bool {
        if case .latsim(let c) = self { return c.kind == .none && c.oneEuro == nil }
        return false
    }

    /// The same predictor followed by its family's 1€ filter, as `+1e` on its
    /// name says: latsim's (``OneEuroParameters`` defaults, unless already
    /// smoothed) for latsim's predictors, Chromium's for Chromium's; nil for
    /// `androidx.kalman`, which has none.
    public var withOneEuro: PredictorSpec? {
        switch self {
        case .latsim(var c):
            if c.oneEuro == nil { c.oneEuro = OneEuroParameters() }
            return .latsim(c)
        case .platform(.chromium(var c)):
            c.oneEuro = true
            return .platform(.chromium(c))
        case .platform(.androidx):
            return nil
        }
    }

    /// Splits a list of specs at the commas outside parentheses:
    /// `kalman,chromium.kalman(heuristics,directionCutOff)` is two specs.
    /// Parts are trimmed; empty parts are dropped.
    public static func splitList(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var depth = 0
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth = Swift.max(0, depth - 1) }
            if c == "," && depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        return parts.map { String(SpecParser.trim(Substring($0))) }.filter { !$0.isEmpty }
    }

    static func parenthesized(_ options: [String]) -> String {
        options.isEmpty ? "" : "(" + options.joined(separator: ",") + ")"
    }

    /// A number as short as it reads: whole numbers without a decimal point.
    static func format(_ x: Double) -> String {
        if x == x.rounded(), Swift.abs(x) < 1e15 { return String(Int64(x)) }
        return "\(x)"
    }
}

/// The names of Chromium's predictors after `chromium.`.
enum ChromiumName: String, CaseIterable {
    case empty, linearFirst, linearSecond, leastSquares, kalman, linearResampling
}
