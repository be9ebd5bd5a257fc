import SimKernel

/// androidx.input.motionprediction's one-axis Kalman filter
/// (kalman/PointerKalmanFilter.java over kalman/KalmanFilter.java):
/// state (position, velocity, acceleration, jerk) per *sample*, tuned with
/// a normalised `dt = 1`: `F = [[1,1,0.5,0.16],[0,1,1,0.5],[0,0,1,1],[0,0,0,1]]`
/// (0.16, not 1/6, as androidx writes it), process noise `σp · g gᵀ` with
/// `g = (0.16, 0.5, 1, 1)`, `σp = 0.01`, measurement variance `σm = 1`,
/// `P₀ = I`; the first measurement only sets the position; the covariance
/// update is the short form `P − K H P`.
struct AndroidxKalmanFilter: Sendable {
    static let sigmaProcess = 0.01
    static let sigmaMeasurement = 1.0
    static let transition = (SIMD4<Double>(1, 1, 0.5, 0.16), SIMD4<Double>(0, 1, 1, 0.5),
                             SIMD4<Double>(0, 0, 1, 1), SIMD4<Double>(0, 0, 0, 1))
    static let noiseShape = SIMD4<Double>(0.16, 0.5, 1, 1)

    /// Position, velocity (points per sample), acceleration, jerk.
    var state = SIMD4<Double>(repeating: 0)
    /// Covariance rows.
    var p0 = SIMD4<Double>(1, 0, 0, 0), p1 = SIMD4<Double>(0, 1, 0, 0)
    var p2 = SIMD4<Double>(0, 0, 1, 0), p3 = SIMD4<Double>(0, 0, 0, 1)

    mutating func update(_ z: Double, first: Bool) {
        guard !first else { state[0] = z; return }
        let f = AndroidxKalmanFilter.transition
        // predict: x = F x, P = F P Fᵀ + Q
        state = SIMD4((f.0 * state).sum(), (f.1 * state).sum(), (f.2 * state).sum(), (f.3 * state).sum())
        let fp = (rowTimes(f.0), rowTimes(f.1), rowTimes(f.2), rowTimes(f.3))
        // Q = σp g gᵀ: row i of Q is g · σp gᵢ
        let g = AndroidxKalmanFilter.noiseShape, q = g * AndroidxKalmanFilter.sigmaProcess
        p0 = SIMD4((fp.0 * f.0).sum(), (fp.0 * f.1).sum(), (fp.0 * f.2).sum(), (fp.0 * f.3).sum()) + g * q[0]
        p1 = SIMD4((fp.1 * f.0).sum(), (fp.1 * f.1).sum(), (fp.1 * f.2).sum(), (fp.1 * f.3).sum()) + g * q[1]
        p2 = SIMD4((fp.2 * f.0).sum(), (fp.2 * f.1).sum(), (fp.2 * f.2).sum(), (fp.2 * f.3).sum()) + g * q[2]
        p3 = SIMD4((fp.3 * f.0).sum(), (fp.3 * f.1).sum(), (fp.3 * f.2).sum(), (fp.3 * f.3).sum()) + g * q[3]
        // update with H = (1, 0, 0, 0)
        let s = p0[0] + AndroidxKalmanFilter.sigmaMeasurement
        let gain = SIMD4(p0[0], p1[0], p2[0], p3[0]) / s
        state += gain * (z - state[0])
        let h = p0
        p0 -= gain[0] * h; p1 -= gain[1] * h; p2 -= gain[2] * h; p3 -= gain[3] * h
    }

    /// Row `f` of F times P (a row of F P).
    private func rowTimes(_ f: SIMD4<Double>) -> SIMD4<Double> { f[0] * p0 + f[1] * p1 + f[2] * p2 + f[3] * p3 }
}

/// androidx.input.motionprediction's Kalman predictor for one pointer
/// (kalman/SinglePointerPredictor.java), with its horizon rule
/// (common/PredictionEstimator.java), as of androidx commit
/// 62575c42a6eac6d15f9b43652b4aca8a63d5e110 (the version with the
/// strategies and the never-retract loop). Times enter the arithmetic as
/// androidx sees them: `MotionEvent` times, whole milliseconds (the sample
/// time truncated), so at a 120 Hz scan the report interval is the mean of
/// gaps of 8 and 9 ms (about 8.3 ms, not 8.333), and the predicted sample's
/// time is whole milliseconds too.
///
/// - Update: a sample at the same position as the newest accepted one and
///   at most 20 ms after it is ignored (`EVENT_TIME_IGNORED_THRESHOLD_MS`).
///   The report interval is the mean gap over the first 20 gaps of the
///   stroke, then frozen. androidx marks "no sample yet" with time 0 and
///   position (0, 0), so its first sample is mishandled when it falls at
///   time 0 or at the origin; here a flag does that job.
/// - Prediction, after 4 accepted samples (`MIN_KALMAN_FILTER_ITERATIONS`),
///   for a target of `T` whole milliseconds: confidence
///   `speedFactor · jerkFactor` (see `confidence(speed:jerk:tool:)`),
///   `n = ceil(T / interval · confidence)` steps (aggressive: confidence 1;
///   safe: at least one step), each `a += 0.1 j; v += 0.5 a; p += v` from
///   the newest accepted position, one report interval apart; the steps
///   continue, whatever `n`, until they reach the time of the last sample
///   predicted before, so the predicted ink never retracts.
/// - Not modelled: pressure (androidx filters it too and may stop at a
///   predicted lift), since latsim's samples carry none; `setReportRate`.
///   A report interval of 0 (every accepted sample at one time) gives no
///   prediction, where androidx would divide by zero.
struct AndroidxKalmanState: Sendable {
    static let minIterations = 4
    static let ignoredWithin = 20.0
    static let reportRateSamples = 20
    static let jerkInfluence = 0.1, accelerationInfluence = 0.5, velocityInfluence = 1.0
    /// `MAX_PREDICTION_MS` of the horizon rule.
    static let maxTargetMilliseconds = 32

    var x = AndroidxKalmanFilter(), y = AndroidxKalmanFilter()
    var iterations = 0
    var lastPosition = TouchPoint.zero
    var lastSeen = 0.0
    var seen = false
    var gapCount = 0
    var gapSum = 0.0
    /// The report interval, ms (`mReportRateMs`).
    var reportInterval = 0.0
    /// Time of the last predicted sample, ms (`mLastPredictEventTime`); 0
    /// before any.
    var lastPredicted = 0.0

    /// A new stroke (androidx builds a new `SinglePointerPredictor` on DOWN).
    mutating func reset() { self = AndroidxKalmanState() }

    mutating func update(_ sample: TouchSample) {
        // androidx sees `MotionEvent` times: whole milliseconds (a long)
        let t = Double(sample.time / Nanos.perMillisecond)
        if seen && sample.position == lastPosition && t <= lastSeen + AndroidxKalmanState.ignoredWithin { return }
        x.update(sample.position.x, first: iterations == 0)
        y.update(sample.position.y, first: iterations == 0)
        iterations += 1
        lastPosition = sample.position
        if gapCount < AndroidxKalmanState.reportRateSamples && seen {
            gapSum += t - lastSeen
            gapCount += 1
            reportInterval = gapSum / Double(gapCount)
        }
        lastSeen = t
        seen = true
    }

    /// `(x − low) / (high − low)` clamped to [0, 1] with Java's `Math.min`
    /// and `Math.max`, which pass NaN through (a 0…0 range at 0 speed).
    static func normalize(_ x: Double, _ low: Double, _ high: Double) -> Double {
        let n = (x - low) / (high - low)
        if n.isNaN { return .nan }
        return Swift.min(1, Swift.max(n, 0))
    }

    /// androidx's confidence from the filtered speed (points per ms) and
    /// jerk magnitude (points per sample³); NaN when androidx's arithmetic
    /// gives NaN (a stylus at rest), which yields no steps.
    static func confidence(speed: Double, jerk: Double, tool: AndroidxTool) -> Double {
        switch tool {
        case .finger: return normalize(speed, 0, 2) * (1 - normalize(jerk, 0.02, 0.2))
        case .stylus: return normalize(speed, 0, 0) * (1 - normalize(jerk, 0.1, 0.2))
        }
    }

    /// Java's `(int) Math.ceil(x)`: NaN → 0, saturating.
    static func ceilToInt(_ x: Double) -> Int {
        if x.isNaN { return 0 }
        let c = x.rounded(.up)
        if c >= Double(Int32.max) { return Int(Int32.max) }
        if c <= Double(Int32.min) { return Int(Int32.min) }
        return Int(c)
    }

    /// The target of a horizon: whole milliseconds plus the offset, at most
    /// 32 (`min(MAX_PREDICTION_MS, estimate + offset)`).
    static func target(horizon: SimTime, offsetMilliseconds: Int) -> Int {
        let whole = Int(horizon / Nanos.perMillisecond)
        return Swift.min(maxTargetMilliseconds, whole + offsetMilliseconds)
    }

    /// The last predicted sample for a target of `targetMs` and its time
    /// (ns), or nil before 4 accepted samples; with no step, the newest
    /// accepted position at its own time.
    mutating func predict(targetMs: Int, configuration c: AndroidxKalmanConfiguration) -> (TouchPoint, SimTime)? {
        guard iterations >= AndroidxKalmanState.minIterations, reportInterval > 0 else { return nil }
        var p = lastPosition
        var v = TouchPoint(x: x.state[1], y: y.state[1])
        var a = TouchPoint(x: x.state[2], y: y.state[2])
        let j = TouchPoint(x: x.state[3], y: y.state[3])
        var confidence = AndroidxKalmanState.confidence(speed: v.length / reportInterval, jerk: j.length, tool: c.tool ?? .finger)
        if c.strategy == .aggressive { confidence = 1 }
        var steps = AndroidxKalmanState.ceilToInt(Double(targetMs) / reportInterval * confidence)
        if c.strategy == .safe { steps = Swift.max(steps, 1) }
        var predictedTime = lastSeen
        var next = lastSeen + reportInterval
        var i = 0
        while i < steps || next <= lastPredicted {
            a += j * AndroidxKalmanState.jerkInfluence
            v += a * AndroidxKalmanState.accelerationInfluence
            p += v * AndroidxKalmanState.velocityInfluence
            predictedTime = next
            next += reportInterval
            i += 1
        }
        lastPredicted = predictedTime
        // the predicted event's time is `(long) nextPredictedEventTime`: whole milliseconds
        return (p, SimTime(predictedTime.rounded(.towardZero)) * Nanos.perMillisecond)
    }

    /// The report interval, ns; 0 before two accepted samples.
    var reportIntervalNanos: SimTime { roundHalfUp(reportInterval * 1e6) }
}

extension AndroidxKalmanConfiguration {
    /// androidx's prediction target (common/PredictionEstimator.java):
    /// `min(32, ⌊now − lastEventTime + 1000 / maxRefreshRate⌋ + offset)` whole
    /// milliseconds, where `sinceLastEvent` is `now − lastEventTime` (whole
    /// milliseconds, as `MotionEvent` times are) and `maxRefreshRate` the
    /// display's fastest mode, Hz. The predictor applies the truncation, the
    /// offset and the cap to any horizon it is given, so a pipeline that
    /// models an androidx app passes `now − lastEventTime + 1000/maxRefreshRate`
    /// itself as the horizon, not this target (see ``PlatformPredictor``).
    public func predictionTarget(sinceLastEvent: SimTime, maxRefreshRate: Double) -> Int {
        let frameMs = Double(Float(1000 / maxRefreshRate))
        let estimate = Int((Double(sinceLastEvent / Nanos.perMillisecond) + frameMs).rounded(.towardZero))
        return min(AndroidxKalmanState.maxTargetMilliseconds, estimate + offsetMilliseconds)
    }
}
