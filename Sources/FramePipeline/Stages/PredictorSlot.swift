import SimKernel
import TouchModel

/// The app's predictor: the built-ins without an existential, or a user's
/// own type behind one (called once per delivery, never per event).
enum PredictorSlot {
    case builtin(BuiltinPredictor)
    case custom(any TouchPredictor)

    mutating func reset() {
        switch self {
        case .builtin(var p): p.reset(); self = .builtin(p)
        case .custom(var p): p.reset(); self = .custom(p)
        }
    }

    mutating func observe(_ s: TouchSample) {
        switch self {
        case .builtin(var p): p.observe(s); self = .builtin(p)
        case .custom(var p): p.observe(s); self = .custom(p)
        }
    }

    mutating func predict(horizon: SimTime) -> TouchPoint? {
        switch self {
        case .builtin(var p):
            let r = p.predict(horizon: horizon)
            self = .builtin(p)
            return r
        case .custom(var p):
            let r = p.predict(horizon: horizon)
            self = .custom(p)
            return r
        }
    }
}
