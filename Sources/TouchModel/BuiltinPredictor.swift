import SimKernel

/// The built-in predictors behind one concrete type: a `switch` on the kind,
/// fixed-size state, no allocation per call.
///
/// How each kind predicts `h` after the newest sample `p2` (times `t0 < t1 <
/// t2`, the last three samples):
/// - `none`: `p2`. Needs 1 sample.
/// - `linearFirst`: `p2 + v h` with `v = (p2 − p1) / (t2 − t1)`, the
///   first-order predictor of Chromium's ui/base/prediction/linear_predictor.cc.
///   Exact on constant velocity. Needs 2 samples.
/// - `linearSecond`: `p2 + v h + a h²/2`. Chromium's second-order
///   LinearPredictor takes the velocity of the last interval and the change
///   between the last two interval velocities divided by the last interval;
///   that lags under acceleration (the interval velocity belongs to the
///   interval's middle) and is biased when sampling is irregular. Here the
///   same two velocities are used with the two corrections that make it
///   exact for constant acceleration at any sampling: `a` divides by the
///   distance between the interval midpoints, `(t2 − t0) / 2`, and the
///   velocity is carried from the last interval's middle to `t2`,
///   `v = v12 + a (t2 − t1) / 2`. With two samples it predicts first order,
///   as Chromium does.
/// - `leastSquares`: the least-squares quadratic in time through the last
///   three samples (Docs/Model.md, "Prediction"; with three points it interpolates
///   them), solved from the normal equations on a normalised time axis, and
///   evaluated at `t2 + h`. With two samples, the line through them.
///   `linearSecond` and `leastSquares` agree in exact arithmetic; they are
///   two derivations that check each other.
/// - `kalman`: a constant-acceleration Kalman filter per axis
///   (``KalmanAxis``, Chromium's constants), predicting `p2 + v h + a h²/2`
///   from the newest measured position and the filtered velocity and
///   acceleration. Chromium weights the acceleration term by a further 0.5;
///   the full kinematic term is kept here so that a constant acceleration is
///   reproduced once the filter has converged. Available after 4 samples,
///   Chromium's stability count.
///
/// A sample with the same timestamp as the newest replaces it; a sample
/// older than the newest starts a new stroke (the history is reset). With
/// ``PredictorConfiguration/oneEuro`` set, predicted positions pass through a
/// ``OneEuroFilter`` in the order of their target times; a query whose target
/// time is not after the previous one is filtered from the state before that
/// previous one, so repeated and out-of-order queries give stable answers.
public struct BuiltinPredictor: TouchPredictor {
    /// Samples before the kalman predictor answers (Chromium's kStableIterNum).
    public static let kalmanStableCount = 4

    /// What this predictor runs.
    public let configuration: PredictorConfiguration
    var history = SampleHistory()
    var kx = KalmanAxis(), ky = KalmanAxis()
    /// The filters before the newest sample, to redo it when that sample
    /// is replaced by one at the same time.
    var kxBefore = KalmanAxis(), kyBefore = KalmanAxis()
    var smoother: OneEuroFilter?
    var smootherBefore: OneEuroFilter?

    /// A predictor with no history.
    public init(_ configuration: PredictorConfiguration) {
        self.configuration = configuration
        if let p = configuration.oneEuro {
            smoother = OneEuroFilter(parameters: p)
            smootherBefore = smoother
        }
    }

    /// A predictor of `kind`, unsmoothed.
    public init(kind: PredictorKind) { self.init(PredictorConfiguration(kind: kind)) }

    /// Forget history (a new stroke begins).
    public mutating func reset() {
        history.removeAll()
        kx = KalmanAxis(); ky = KalmanAxis()
        kxBefore = kx; kyBefore = ky
        smoother?.reset()
        smootherBefore = smoother
    }

    /// Number of samples in the history (at most 3).
    public var historyCount: Int { history.count }

    /// A sample delivered to the app, in time order.
    public mutating func observe(_ sample: TouchSample) {
        if history.count > 0 {
            let newest = history.newest
            if sample.time < newest.time {
                reset()
            } else if sample.time == newest.time {
                history.replaceNewest(sample)
                if configuration.kind == .kalman { redoKalman(sample) }
                return
            }
        }
        let previous = history.count > 0 ? history.newest.time : sample.time
        history.append(sample)
        if configuration.kind == .kalman {
            kxBefore = kx; kyBefore = ky
            let dtMs = Double(sample.time - previous) / 1e6
            kx.update(sample.position.x, dt: dtMs)
            ky.update(sample.position.y, dt: dtMs)
        }
    }

    mutating func redoKalman(_ sample: TouchSample) {
        let previous = history.count > 1 ? history[history.count - 2].time : sample.time
        let dtMs = Double(sample.time - previous) / 1e6
        kx = kxBefore; ky = kyBefore
        kx.update(sample.position.x, dt: dtMs)
        ky.update(sample.position.y, dt: dtMs)
    }

    /// The position predicted `horizon` ns after the newest sample, or nil
    /// when the history is too short for this kind; smoothed when configured.
    public mutating func predict(horizon: SimTime) -> TouchPoint? {
        guard let raw = rawPrediction(horizon: horizon) else { return nil }
        guard smoother != nil else { return raw }
        let target = history.newest.time + horizon
        if let last = smoother!.lastTime, target <= last {
            var replay = smootherBefore!
            return replay.filter(raw, at: target)
        }
        smootherBefore = smoother
        return smoother!.filter(raw, at: target)
    }

    /// The unsmoothed prediction; it changes no state. Inlined: called from
    /// ``predict(horizon:)``, a mutating method, it made a copy of the whole
    /// predictor (578 bytes) per prediction.
    @inline(__always)
    public func rawPrediction(horizon: SimTime) -> TouchPoint? {
        let n = history.count
        guard n > 0 else { return nil }
        let p2 = history.newest
        let h = Double(horizon) / 1e9
        switch configuration.kind {
        case .none:
            return p2.position
        case .linearFirst:
            guard n >= 2 else { return nil }
            return BuiltinPredictor.firstOrder(history[n - 2], p2, h)
        case .linearSecond:
            guard n >= 2 else { return nil }
            guard n >= 3 else { return BuiltinPredictor.firstOrder(history[0], p2, h) }
            let s0 = history[0], s1 = history[1]
            let d1 = Double(s1.time - s0.time) / 1e9, d2 = Double(p2.time - s1.time) / 1e9
            let v01 = (s1.position - s0.position) / d1
            let v12 = (p2.position - s1.position) / d2
            let a = (v12 - v01) / ((d1 + d2) / 2)
            let v = v12 + a * (d2 / 2)
            return p2.position + v * h + a * (h * h / 2)
        case .leastSquares:
            guard n >= 2 else { return nil }
            return BuiltinPredictor.quadraticFit(history, h)
        case .kalman:
            guard kx.updates >= BuiltinPredictor.kalmanStableCount else { return nil }
            let hm = Double(horizon) / 1e6
            let q = hm * hm / 2
            return TouchPoint(x: p2.position.x + kx.velocity * hm + kx.acceleration * q,
                              y: p2.position.y + ky.velocity * hm + ky.acceleration * q)
        }
    }

    @inline(__always)
    static func firstOrder(_ a: TouchSample, _ b: TouchSample, _ h: Double) -> TouchPoint {
        let dt = Double(b.time - a.time) / 1e9
        return b.position + (b.position - a.position) * (h / dt)
    }

    /// Least-squares polynomial of degree min(n − 1, 2) through the history,
    /// evaluated `h` seconds after the newest sample. Time is measured from
    /// the newest sample in units of the history's span, which keeps the
    /// normal equations well conditioned.
    static func quadraticFit(_ hist: SampleHistory, _ h: Double) -> TouchPoint {
        let n = hist.count
        let newest = hist.newest.time
        let span = Double(newest - hist[0].time) / 1e9
        let u = h / span
        if n == 2 {
            let p0 = hist[0].position, p1 = hist[1].position
            return p1 + (p1 - p0) * u
        }
        // sums of powers of the normalised times and of the moments of x, y
        var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var bx0 = 0.0, bx1 = 0.0, bx2 = 0.0, by0 = 0.0, by1 = 0.0, by2 = 0.0
        for i in 0..<n {
            let s = hist[i]
            let tau = Double(s.time - newest) / 1e9 / span
            let t2 = tau * tau
            s1 += tau; s2 += t2; s3 += t2 * tau; s4 += t2 * t2
            bx0 += s.position.x; bx1 += s.position.x * tau; bx2 += s.position.x * t2
            by0 += s.position.y; by1 += s.position.y * tau; by2 += s.position.y * t2
        }
        let s0 = Double(n)
        // normal matrix [[s0 s1 s2] [s1 s2 s3] [s2 s3 s4]], solved by Cramer's rule
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        func solve(_ b0: Double, _ b1: Double, _ b2: Double) -> Double {
            let c0 = (b0 * (s2 * s4 - s3 * s3) - s1 * (b1 * s4 - s3 * b2) + s2 * (b1 * s3 - s2 * b2)) / det
            let c1 = (s0 * (b1 * s4 - b2 * s3) - b0 * (s1 * s4 - s3 * s2) + s2 * (s1 * b2 - b1 * s2)) / det
            let c2 = (s0 * (s2 * b2 - s3 * b1) - s1 * (s1 * b2 - b1 * s2) + b0 * (s1 * s3 - s2 * s2)) / det
            return c0 + u * (c1 + u * c2)
        }
        return TouchPoint(x: solve(bx0, bx1, bx2), y: solve(by0, by1, by2))
    }
}
