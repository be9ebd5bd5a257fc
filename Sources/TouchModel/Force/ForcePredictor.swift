import SimKernel

/// Extrapolates the force of delivered touches to a predicted touch
/// (Docs/Force.md, "Predicted force"), with the method of the app's
/// position predictor where it can be applied to one number.
///
/// latsim's predictors are polynomial extrapolations and a Kalman filter per
/// axis: each works on any coordinate, so the force is predicted by the
/// same method fed `(force, 0)` as a position. The 1€ filter is left out:
/// its speed coefficient is tuned in points per second and would hold a
/// press's force back by about a tenth of a second. The platforms'
/// predictors (Chromium's, androidx's) and a user's own predict positions
/// only: their predicted touches carry the newest delivered force.
public struct ForcePredictor: Sendable {
    var method: BuiltinPredictor

    /// The force predictor for an app predicting with `spec`; nil when
    /// `spec` cannot extrapolate force (no prediction, or a platform predictor).
    public init?(_ spec: PredictorSpec?) {
        guard case .latsim(let c)? = spec, c.kind != .none else { return nil }
        method = BuiltinPredictor(PredictorConfiguration(kind: c.kind))
    }

    /// A stroke begins.
    public mutating func reset() { method.reset() }

    /// A delivered touch's force at its sample time.
    public mutating func observe(time: SimTime, force: Double) {
        method.observe(TouchSample(time: time, position: TouchPoint(x: force, y: 0)))
    }

    /// The force `horizon` after the newest observed touch, kept from 0 to
    /// `maximum`; nil until the method has enough history.
    public mutating func predict(horizon: SimTime, maximum: Double) -> Double? {
        guard let p = method.predict(horizon: horizon) else { return nil }
        return Swift.min(maximum, Swift.max(0, p.x))
    }
}
