import SimKernel

/// Something that guesses where the finger will be (Docs/Model.md, "Prediction").
///
/// At each delivery the app gives it the delivered samples, in time order,
/// and asks for positions up to a horizon ahead. A conforming type may keep
/// any history it likes, but it must never see a sample before it has been
/// delivered: the pipeline only calls ``observe(_:)`` with delivered ones.
public protocol TouchPredictor: Sendable {
    /// Forget history (a new stroke begins).
    mutating func reset()
    /// A sample delivered to the app, in time order. Never called with a
    /// later sample than has been delivered.
    mutating func observe(_ sample: TouchSample)
    /// The position predicted `horizon` ns after the newest observed
    /// sample's time, or nil when there is not enough history yet.
    mutating func predict(horizon: SimTime) -> TouchPoint?
    /// The position predicted `horizon` ns after the newest observed
    /// sample's time, for a display whose frames are `frameInterval` ns
    /// apart, or nil when there is not enough history yet.
    ///
    /// A horizon alone does not say how fast the display refreshes, and some
    /// platform predictors depend on it: Chromium's resampler can aim a
    /// fraction of a frame interval ahead (its frame-based latency variants),
    /// and Chromium passes the interval with every prediction request, so a
    /// variable-refresh display can change it frame by frame. A predictor
    /// that ignores the interval need not implement this: the default calls
    /// ``predict(horizon:)``.
    mutating func predict(horizon: SimTime, frameInterval: SimTime) -> TouchPoint?
}

extension TouchPredictor {
    /// The prediction `horizon` after the newest sample; the frame interval
    /// is ignored.
    public mutating func predict(horizon: SimTime, frameInterval: SimTime) -> TouchPoint? {
        predict(horizon: horizon)
    }
}

/// The built-in prediction methods.
public enum PredictorKind: String, CaseIterable, Sendable, Codable, Hashable {
    /// The newest sample's position: no prediction at all.
    case none
    /// Extrapolates the velocity of the last two samples.
    case linearFirst
    /// Extrapolates velocity and acceleration from the last three samples.
    case linearSecond
    /// Extrapolates the least-squares quadratic through the last three samples.
    case leastSquares
    /// A constant-acceleration Kalman filter per axis.
    case kalman
}

/// The parameters of the 1€ filter (Casiez, Roussel and Vogel, "1€ Filter:
/// a simple speed-based low-pass filter for noisy input in interactive
/// systems", CHI 2012): a first-order low-pass whose cutoff rises with the
/// filtered speed, `cutoff = minCutoff + beta * |speed|`.
public struct OneEuroParameters: Sendable, Hashable, Codable {
    /// Cutoff at rest, Hz. Lower removes more jitter when the finger is
    /// still. Default 1 Hz, the paper's and its reference code's starting value.
    public var minCutoff: Double
    /// How fast the cutoff rises with speed, Hz per (point/s). Higher removes
    /// more lag when moving. The reference code starts at 0 and the paper
    /// tunes it upward; the default 0.05 is tuned here for points: at 600
    /// points/s along a diagonal (424 per axis) the cutoff is about 22 Hz, a
    /// time constant near 7 ms.
    public var beta: Double
    /// Cutoff of the speed estimate, Hz. Default 1 Hz, as in the paper.
    public var derivativeCutoff: Double

    /// Filter parameters; the defaults are documented on each property.
    public init(minCutoff: Double = 1.0, beta: Double = 0.05, derivativeCutoff: Double = 1.0) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }
}

/// Which predictor to run, and whether to smooth its output.
public struct PredictorConfiguration: Sendable, Hashable, Codable {
    /// The prediction method.
    public var kind: PredictorKind
    /// 1€ smoothing of the predicted positions; nil = no smoothing.
    public var oneEuro: OneEuroParameters?

    /// A configuration; by default no prediction and no smoothing.
    public init(kind: PredictorKind = .none, oneEuro: OneEuroParameters? = nil) {
        self.kind = kind
        self.oneEuro = oneEuro
    }

    /// A short name for reports: the kind, with `+1e` when smoothed.
    public var name: String { oneEuro == nil ? kind.rawValue : kind.rawValue + "+1e" }
}
