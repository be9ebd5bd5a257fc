/// A duration parameter of the model: a fixed value or a distribution of
/// values (MODEL.md section 3). Draws are integer nanoseconds, never negative.
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

    /// Draws one duration. A fixed value consumes no random number.
    @inlinable
    public func draw(_ rng: inout SeededRandom) -> SimTime {
        switch self {
        case .fixed(let v): return v
        case .uniform(let lo, let hi):
            return lo + roundHalfUp(Double(hi - lo) * rng.nextUnit())
        case .normal(let m, let sd):
            return Swift.max(0, roundHalfUp(Double(m) + Double(sd) * rng.nextGaussian()))
        case .lognormal(let median, let sigma):
            return Swift.max(0, roundHalfUp(Double(median) * expOf(sigma * rng.nextGaussian())))
        case .empirical(let values):
            return values[Int(rng.next() % UInt64(values.count))]
        }
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
    public static func parse(_ text: String, framePeriod: Rational) throws(DurationSyntax.Failure) -> DurationDistribution {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard let open = t.firstIndex(of: "("), t.hasSuffix(")") else {
            let v = try DurationSyntax.parse(t, framePeriod: framePeriod)
            guard v >= 0 else { throw .init(message: "'\(text)' is negative: a duration must be 0 or more") }
            return .fixed(v)
        }
        let name = t[..<open].trimmingCharacters(in: .whitespaces)
        let args = t[t.index(after: open)..<t.index(before: t.endIndex)]
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        return try make(name: name, args: args, text: text, framePeriod: framePeriod)
    }

    /// Builds a distribution from its name and textual arguments (shared by
    /// the command-line form and the YAML mapping form).
    public static func make(name: String, args: [String], text: String, framePeriod: Rational) throws(DurationSyntax.Failure) -> DurationDistribution {
        func dur(_ s: String) throws(DurationSyntax.Failure) -> SimTime {
            let v = try DurationSyntax.parse(s, framePeriod: framePeriod)
            guard v >= 0 else { throw .init(message: "'\(s)' in '\(text)' is negative: durations must be 0 or more") }
            return v
        }
        switch (name, args.count) {
        case ("uniform", 2):
            let lo = try dur(args[0]), hi = try dur(args[1])
            guard lo <= hi else { throw .init(message: "'\(text)': the upper bound is below the lower bound") }
            return .uniform(lo, hi)
        case ("normal", 2):
            return .normal(mean: try dur(args[0]), sd: try dur(args[1]))
        case ("lognormal", 2):
            guard let sigma = Double(args[1]), sigma >= 0, sigma.isFinite else {
                throw .init(message: "'\(text)': sigma '\(args[1])' must be a number >= 0 (no unit)")
            }
            return .lognormal(median: try dur(args[0]), sigma: sigma)
        case ("empirical", let n) where n >= 1 && !args[0].isEmpty:
            var vs: [SimTime] = []
            for a in args { vs.append(try dur(a)) }
            return .empirical(vs)
        default:
            throw .init(message: "'\(text)' is not a distribution: write a duration (4ms) or uniform(2ms,6ms), normal(4ms,1ms), lognormal(4ms,0.3), empirical(1ms,2ms,5ms)")
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

@inlinable func expOf(_ x: Double) -> Double { exp(x) }
