import SimKernel

/// Any predictor a ``PredictorSpec`` names, as one concrete type: latsim's
/// own (``BuiltinPredictor``) or a platform's (``PlatformPredictor``),
/// dispatched by a `switch`, with no existential and no allocation per call.
public enum ConfiguredPredictor: TouchPredictor {
    /// One of latsim's predictors.
    case builtin(BuiltinPredictor)
    /// One of the platforms' predictors.
    case platform(PlatformPredictor)

    /// Forget history (a new stroke begins).
    public mutating func reset() {
        switch self {
        case .builtin(var p): p.reset(); self = .builtin(p)
        case .platform(var p): p.reset(); self = .platform(p)
        }
    }

    /// A sample delivered to the app, in time order.
    public mutating func observe(_ sample: TouchSample) {
        switch self {
        case .builtin(var p): p.observe(sample); self = .builtin(p)
        case .platform(var p): p.observe(sample); self = .platform(p)
        }
    }

    /// The position predicted `horizon` after the newest sample, or nil.
    public mutating func predict(horizon: SimTime) -> TouchPoint? {
        switch self {
        case .builtin(var p):
            let r = p.predict(horizon: horizon)
            self = .builtin(p)
            return r
        case .platform(var p):
            let r = p.predict(horizon: horizon)
            self = .platform(p)
            return r
        }
    }

    /// The position predicted `horizon` after the newest sample for frames
    /// `frameInterval` apart (only the platform predictors use the interval).
    public mutating func predict(horizon: SimTime, frameInterval: SimTime) -> TouchPoint? {
        switch self {
        case .builtin(var p):
            let r = p.predict(horizon: horizon)
            self = .builtin(p)
            return r
        case .platform(var p):
            let r = p.predict(horizon: horizon, frameInterval: frameInterval)
            self = .platform(p)
            return r
        }
    }

    /// The instant the last returned point stands for, when it is not the
    /// target time (newest sample + horizon): a platform predictor's
    /// ``PlatformPredictor/predictedTime``; nil for latsim's predictors, whose
    /// points stand for the target.
    public var predictedTime: SimTime? {
        switch self {
        case .builtin: return nil
        case .platform(let p): return p.predictedTime
        }
    }
}
