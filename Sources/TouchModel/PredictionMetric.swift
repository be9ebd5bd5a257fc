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

    /// How bad a value is: its magnitude for the signed metric, itself for
    /// the others. Smaller is better.
    public func cost(_ value: Double) -> Double { isSigned ? Swift.abs(value) : value }
}
