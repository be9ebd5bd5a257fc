/// A duration parameter of the model: a fixed value or a distribution of
/// values (Docs/Model.md, "Durations"). Draws are integer nanoseconds, never
/// negative, and never above ``maximumDraw``.
public enum DurationDistribution: Sendable, Hashable, CustomStringConvertible {
    case fixed(SimTime)
    /// Uniform on [low, high].
    case uniform(SimTime, SimTime)
    /// Normal with this mean and standard deviation, clamped at 0.
    case normal(mean: SimTime, sd: SimTime)
    /// Log-normal: `median * exp(sigma * Z)`, Z standard normal.
    case lognormal(median: SimTime, sigma: Double)
    /// One of these values, each equally likely.
    case empirical([SimTime])

    /// The largest value a draw takes: a draw of an unbounded distribution
    /// (normal, lognormal) beyond it is cut to it. It is far beyond any
    /// duration a frame pipeline meets (about 106 days), and keeps every
    /// instant the model derives from a draw inside 64-bit nanoseconds.
    public static let maximumDraw: SimTime = 1 << 53

    /// Draws one duration. A fixed value consumes no random number.
    @inlinable
    public func draw(_ rng: inout SeededRandom) -> SimTime {
        switch self {
        case .fixed(let v): return v
        case .uniform(let lo, let hi):
            return lo + roundHalfUp(Double(hi - lo) * rng.nextUnit())
        case .normal(let m, let sd):
            return Self.clamped(Double(m) + Double(sd) * rng.nextGaussian())
        case .lognormal(let median, let sigma):
            return Self.clamped(Double(median) * expOf(sigma * rng.nextGaussian()))
        case .empirical(let values):
            return values[Int(rng.next() % UInt64(values.count))]
        }
    }

    /// `x` rounded half up to ns, within 0 ... ``maximumDraw`` (NaN is 0).
    @inlinable
    static func clamped(_ x: Double) -> SimTime {
        guard x > 0 else { return 0 }
        guard x < Double(maximumDraw) else { return maximumDraw }
        return roundHalfUp(x)
    }

    /// True when every draw is the same value.
    public var isFixed: Bool {
        if case .fixed = self { return true }
        return false
    }

    /// The smallest value a draw can take (for analytic lower bounds).
    public var lowerBound: SimTime {
        switch self {
        case .fixed(let v): return v
        case .uniform(let lo, _): return lo
        case .normal, .lognormal: return 0
        case .empirical(let vs): return vs.min() ?? 0
        }
    }

    /// The largest duration written in it (a bound, a mean, a deviation, a
    /// median or a value), for range checks.
    public var largestParameter: SimTime {
        switch self {
        case .fixed(let v): return v
        case .uniform(_, let hi): return hi
        case .normal(let m, let sd): return Swift.max(m, sd)
        case .lognormal(let median, _): return median
        case .empirical(let vs): return vs.max() ?? 0
        }
    }

    /// The command-line form: `4ms`, `uniform(2ms,6ms)`, `normal(4ms,1ms)`,
    /// `lognormal(4ms,0.3)`, `empirical(1ms,2ms,5ms)`.
    public var description: String {
        let f = DurationSyntax.format
        switch self {
        case .fixed(let v): return f(v)
        case .uniform(let a, let b): return "uniform(\(f(a)),\(f(b)))"
        case .normal(let m, let sd): return "normal(\(f(m)),\(f(sd)))"
        case .lognormal(let m, let s): return "lognormal(\(f(m)),\(formatDecimal(s, places: 6)))"
        case .empirical(let vs): return "empirical(\(vs.map(f).joined(separator: ",")))"
        }
    }

    /// Parses the command-line form. Durations use ``DurationSyntax``.
    public static func parse(_ text: String, framePeriod: Rational) throws(LatsimError) -> DurationDistribution {
        // a plain duration (no parenthesis at all) goes straight to its parser
        // (a byte search where the string's bytes are at hand: iterating
        // its UTF-8 view cost some 40 instructions a byte)
        let parenthesis = UInt8(ascii: "(")
        let named = text.utf8.withContiguousStorageIfAvailable { $0.contains(parenthesis) } ?? text.utf8.contains(parenthesis)
        let t = named ? text.trimmedWhitespace : text
        guard named, let open = t.firstIndex(of: "("), t.hasSuffix(")") else {
            let v: SimTime
            do { v = try DurationSyntax.parse(t, framePeriod: framePeriod) } catch {
                throw LatsimError(value: text, problem: error.problem, expected: expected)
            }
            guard v >= 0 else { throw LatsimError(value: text, problem: "is negative", expected: "a duration of 0 or more") }
            return .fixed(v)
        }
        let name = t[..<open].trimmedWhitespace
        let args = t[t.index(after: open)..<t.index(before: t.endIndex)]
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmedWhitespace }
        return try make(name: name, args: args, text: text, framePeriod: framePeriod)
    }

    /// Builds a distribution from its name and textual arguments (shared by
    /// the command-line form and the YAML mapping form).
    public static func make(name: String, args: [String], text: String, framePeriod: Rational) throws(LatsimError) -> DurationDistribution {
        func dur(_ s: String) throws(LatsimError) -> SimTime {
            let v: SimTime
            do { v = try DurationSyntax.parse(s, framePeriod: framePeriod) } catch {
                throw LatsimError(value: text, problem: "'\(s)' is \(error.problem == "not a duration" ? "not a duration" : error.problem)",
                                  expected: DurationSyntax.expected)
            }
            guard v >= 0 else { throw LatsimError(value: text, problem: "'\(s)' is negative", expected: "durations of 0 or more") }
            return v
        }
        switch (name, args.count) {
        case ("uniform", 2):
            let lo = try dur(args[0]), hi = try dur(args[1])
            guard lo <= hi else { throw LatsimError(value: text, problem: "the upper bound is below the lower bound", expected: "uniform(LOW,HIGH) with LOW <= HIGH") }
            return .uniform(lo, hi)
        case ("normal", 2):
            return .normal(mean: try dur(args[0]), sd: try dur(args[1]))
        case ("lognormal", 2):
            guard let sigma = NumberSyntax.double(args[1]), sigma >= 0, sigma <= maximumSigma else {
                throw LatsimError(value: text, problem: "sigma '\(args[1])' is not a number from 0 to \(formatDecimal(maximumSigma, places: 0))",
                                  expected: "lognormal(MEDIAN,SIGMA) with SIGMA a plain number, e.g. lognormal(4ms,0.3)")
            }
            return .lognormal(median: try dur(args[0]), sigma: sigma)
        case ("empirical", let n) where n >= 1 && !args[0].isEmpty:
            var vs: [SimTime] = []
            for a in args { vs.append(try dur(a)) }
            return .empirical(vs)
        default:
            throw LatsimError(value: text, problem: "not a distribution", expected: expected)
        }
    }

    /// The largest lognormal sigma accepted: at 4 the 99.9th percentile is
    /// already 200,000 times the median.
    public static let maximumSigma = 4.0

    /// What a duration parameter accepts, for messages.
    public static let expected = "a duration (4ms) or a distribution: uniform(2ms,6ms), normal(4ms,1ms), lognormal(4ms,0.3), empirical(1ms,2ms,5ms)"
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

@inlinable func expOf(_ x: Double) -> Double { exp(x) }
