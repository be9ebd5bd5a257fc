import SimKernel

/// Chromium's constants shared by its predictors (ui/base/prediction/
/// input_predictor.h), in nanoseconds.
public enum ChromiumPrediction {
    /// `kMaxTimeDelta`: an event more than this after the newest one starts a
    /// new trajectory (the predictor resets).
    public static let maxTimeDelta: SimTime = 20 * Nanos.perMillisecond
    /// `kTimeInterval`: the event interval assumed before there is data.
    public static let defaultTimeInterval: SimTime = 8 * Nanos.perMillisecond
    /// `kMinTimeInterval`: the floor of an estimated event interval.
    public static let minTimeInterval: SimTime = 2_500_000
    /// `kMaxResampleTime`: how far Blink lets a resampled scroll or pointer
    /// event reach past its timestamp. latsim's callers choose the horizon;
    /// the predictors here do not apply this cap.
    public static let maxResampleTime: SimTime = 20 * Nanos.perMillisecond
    /// `kMaxPredictionTime`: how far past the newest event Blink generates
    /// `PointerEvent.getPredictedEvents()`. Not applied by the predictors here.
    public static let maxPredictionTime: SimTime = 25 * Nanos.perMillisecond
    /// `kResampleMinDelta` of LinearResampling: its two events must be at
    /// least this far apart.
    public static let resampleMinDelta: SimTime = 2 * Nanos.perMillisecond
    /// `kResampleMaxPrediction` of LinearResampling: the furthest its sample
    /// time may lie after the newest event (also at most half their interval).
    public static let resampleMaxPrediction: SimTime = 8 * Nanos.perMillisecond
}

/// The state of Chromium's predictors that keep a short event queue:
/// `EmptyPredictor` (1 event), `LinearPredictor` (2 or 3),
/// `LeastSquaresPredictor` (3) and `LinearResampling` (2). Times are in
/// Chromium's unit, milliseconds, when they enter the arithmetic.
struct ChromiumQueueState: Sendable {
    /// The last three events; a predictor uses the newest `window` of them.
    var events = SampleHistory()
    /// Velocity of the last interval and of the one before, points per ms
    /// (`LinearPredictor`'s `cur_velocity_` and `last_velocity_`).
    var currentVelocity = TouchPoint.zero
    var lastVelocity = TouchPoint.zero
    /// Interval between the two newest events, ns (`events_dt_`).
    var eventsDt: SimTime = 0

    /// How many events `kind` keeps.
    static func capacity(_ kind: ChromiumPredictorKind) -> Int {
        switch kind {
        case .empty: return 1
        case .linearFirst, .linearResampling: return 2
        case .linearSecond, .leastSquares: return 3
        case .kalman: return 0
        }
    }

    /// Events the predictor of `kind` holds.
    func window(_ kind: ChromiumPredictorKind) -> Int { min(events.count, ChromiumQueueState.capacity(kind)) }

    mutating func reset() { events.removeAll() }

    /// `Update`: a gap of more than 20 ms after the newest event resets the
    /// queue (every predictor here but `EmptyPredictor`, which keeps only
    /// the newest event anyway).
    mutating func update(_ sample: TouchSample) {
        if events.count > 0 && sample.time - events.newest.time > ChromiumPrediction.maxTimeDelta { reset() }
        events.append(sample)
        guard events.count >= 2 else { return }
        let previous = events[events.count - 2]
        lastVelocity = currentVelocity
        eventsDt = sample.time - previous.time
        let dtMs = Double(eventsDt) / 1e6
        currentVelocity = dtMs > 0 ? (sample.position - previous.position) / dtMs : .zero
    }

    /// `GeneratePrediction(predict_time = target, frame_interval)`: the
    /// position and the time Chromium stamps on it, or nil without enough
    /// history.
    func predict(_ kind: ChromiumPredictorKind, target: SimTime, frameInterval: SimTime) -> (TouchPoint, SimTime)? {
        let n = window(kind)
        guard n > 0 else { return nil }
        let newest = events.newest
        let dt = Double(target - newest.time) / 1e6
        switch kind {
        case .empty:
            return (newest.position, newest.time)
        case .linearFirst, .linearSecond:
            guard n >= 2 else { return nil }
            var p = newest.position + currentVelocity * dt
            if case .linearSecond = kind, n == 3, eventsDt > 0 {
                // the velocity change over the two last intervals, divided by
                // the last interval only (Chromium's choice)
                let a = (currentVelocity - lastVelocity) / (Double(eventsDt) / 1e6)
                p += a * (0.5 * dt * dt)
            }
            return (p, target)
        case .leastSquares:
            guard n == 3 else { return nil }
            let t1 = Double(events[1].time - events[0].time) / 1e6
            let t2 = Double(events[2].time - events[0].time) / 1e6
            let u = Double(target - events[0].time) / 1e6
            guard let x = ChromiumQueueState.quadratic(events[0].position.x, events[1].position.x, events[2].position.x, t1, t2, u),
                  let y = ChromiumQueueState.quadratic(events[0].position.y, events[1].position.y, events[2].position.y, t1, t2, u)
            else { return nil }
            return (TouchPoint(x: x, y: y), target)
        case .linearResampling(let latency):
            guard n == 2, eventsDt >= ChromiumPrediction.resampleMinDelta else { return nil }
            let previous = events[events.count - 2]
            var sampleTime = target + latency.latency(frameInterval: frameInterval)
            if latency.clampsSampleTime {
                let reach = min(ChromiumPrediction.resampleMaxPrediction, eventsDt / 2)
                sampleTime = min(sampleTime, newest.time + reach)
            }
            let alpha = Double(sampleTime - newest.time) / Double(newest.time - previous.time)
            return (newest.position + (newest.position - previous.position) * alpha, sampleTime)
        case .kalman:
            return nil
        }
    }

    /// `LeastSquaresPredictor`'s fit of one axis: values `y0, y1, y2` at
    /// times `0, t1, t2` ms, evaluated at `u` ms.
    ///
    /// Three equal values (within `DBL_EPSILON`) give the newest value, as
    /// in Chromium. Otherwise the least-squares quadratic through three
    /// points is the interpolating one; it is evaluated in double, in
    /// Lagrange form, equal to Chromium's `(XᵀX)⁻¹Xᵀy` in exact arithmetic
    /// and better conditioned. Chromium (least_squares_predictor.cc) builds
    /// `X` and `XᵀX` in single precision (`gfx::Matrix3F`) and gives up only
    /// when `Matrix3F::Inverse` finds `|det(XᵀX)|` below `FLT_EPSILON`.
    ///
    /// Deliberate difference: here a repeated timestamp (`t1 = 0` or
    /// `t1 = t2`, where the exact determinant is 0) gives nil. Chromium in
    /// float usually does *not* give up there: rounding leaves a determinant
    /// far from 0 (about −0.087 for `t1 = t2 = 8.333` ms, reenacting its
    /// float products), so it returns the ill-conditioned fit; only times
    /// exact in float (`t1 = t2 = 5` ms) give it an exact 0 and no prediction.
    /// The same test on the exact determinant rejects nearly repeated times.
    static func quadratic(_ y0: Double, _ y1: Double, _ y2: Double, _ t1: Double, _ t2: Double, _ u: Double) -> Double? {
        if Swift.abs(y0 - y1) < Double.ulpOfOne && Swift.abs(y1 - y2) < Double.ulpOfOne { return y2 }
        // det(XᵀX) = det(X)², X the Vandermonde matrix of (0, t1, t2)
        let vandermonde = t1 * t2 * (t2 - t1)
        guard vandermonde * vandermonde >= Double(Float.ulpOfOne) else { return nil }
        let l0 = (u - t1) * (u - t2) / (t1 * t2)
        let l1 = u * (u - t2) / (t1 * (t1 - t2))
        let l2 = u * (u - t1) / (t2 * (t2 - t1))
        return y0 * l0 + y1 * l1 + y2 * l2
    }

    /// `TimeInterval()` of the predictor of `kind`, ns.
    func timeInterval(_ kind: ChromiumPredictorKind) -> SimTime {
        let n = window(kind)
        switch kind {
        case .empty, .kalman:
            return ChromiumPrediction.defaultTimeInterval
        case .linearFirst, .linearSecond, .leastSquares:
            guard n > 1 else { return ChromiumPrediction.defaultTimeInterval }
            let span = events.newest.time - events[events.count - n].time
            return max(ChromiumPrediction.minTimeInterval, span / SimTime(n - 1))
        case .linearResampling:
            return n == 2 ? eventsDt : ChromiumPrediction.defaultTimeInterval
        }
    }
}
