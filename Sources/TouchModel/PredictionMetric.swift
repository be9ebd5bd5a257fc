/// The figures of a prediction score that the regression gate compares and
/// the prediction table ranks, each declared once: its name, how it is read
/// from a score, and which way is better.
public enum PredictionMetric: String, CaseIterable, Sendable, Codable {
    /// Error magnitude, rms, points.
    case errorRms
    /// Error magnitude, 95th percentile, points.
    case errorP95
    /// Error magnitude, maximum, points.
    case errorMax
    /// Signed along-track mean, points (+ overshoot, − lateness).
    case alongTrackMean
    /// Cross-track rms, points.
    case crossTrackRms
    /// Jitter (rms change of the error vector), points.
    case jitter
    /// Photon-time error, rms, points.
    case photonRms
    /// Photon-time error, 95th percentile, points.
    case photonP95

    /// The value in a score.
    public func value(_ s: PredictionScore) -> Double {
        switch self {
        case .errorRms: return s.errorPx.rms
        case .errorP95: return s.errorPx.p95
        case .errorMax: return s.errorPx.max
        case .alongTrackMean: return s.alongTrackMeanPx
        case .crossTrackRms: return s.crossTrackRmsPx
        case .jitter: return s.jitterPx
        case .photonRms: return s.photonErrorPx.rms
        case .photonP95: return s.photonErrorPx.p95
        }
    }

    /// True for the signed metric, whose best value is 0 (the others: the
    /// smallest).
    public var isSigned: Bool { self == .alongTrackMean }

    /// Which way a metric is better.
    public enum Better: String, Sendable, CaseIterable, Codable {
        /// A magnitude: smaller is better.
        case smaller
        /// A signed figure: closer to 0 is better.
        case closerToZero
    }

    /// Which way this metric is better.
    public var better: Better { isSigned ? .closerToZero : .smaller }

    /// How bad a value is: its magnitude for the signed metric, itself for
    /// the others. Smaller is better.
    public func cost(_ value: Double) -> Double { isSigned ? Swift.abs(value) : value }

    /// The largest magnitude a metric can sensibly take, points: 10^6
    /// points is some 350 m at 72 points per inch, far beyond any screen.
    /// A figure beyond it (or not finite) means the predictor's answers
    /// were unusable (a predictor answering 1e308, say), not that it did
    /// badly: such a score is never compared, ranked or recorded.
    public static let sensibleLimit = 1e6

    /// True when `value` is a figure this metric can take: finite and
    /// within ``sensibleLimit``.
    public func isSensible(_ value: Double) -> Bool { value.isFinite && Swift.abs(value) <= Self.sensibleLimit }

    /// The metrics of a score that are not sensible, with their values, in
    /// declaration order; empty for a usable score.
    public static func unusable(_ s: PredictionScore) -> [(metric: PredictionMetric, value: Double)] {
        allCases.compactMap { m in
            let v = m.value(s)
            return m.isSensible(v) ? nil : (m, v)
        }
    }

    /// Why a score is unusable, one phrase: `not finite: errorRms,
    /// photonRms; beyond 1000000 points: errorP95 (1e+308)`; nil for a
    /// usable score.
    public static func unusableReason(_ s: PredictionScore) -> String? {
        let bad = unusable(s)
        if bad.isEmpty { return nil }
        let infinite = bad.filter { !$0.value.isFinite }.map(\.metric.rawValue)
        let huge = bad.filter { $0.value.isFinite }.map { "\($0.metric.rawValue) (\($0.value))" }
        var parts: [String] = []
        if !infinite.isEmpty { parts.append("not finite: " + infinite.joined(separator: ", ")) }
        if !huge.isEmpty { parts.append("beyond \(Int(sensibleLimit)) points: " + huge.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
