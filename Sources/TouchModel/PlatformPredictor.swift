import SimKernel

/// The platforms' own touch predictors behind one concrete type: Chromium's
/// (ui/base/prediction) and androidx.input.motionprediction's Kalman, each
/// with the platform's filters, time-interval rules and reset rules. A
/// `switch` on the configuration picks the code; the state is fixed-size and
/// nothing allocates per call.
///
/// **From a horizon to the platforms' interfaces.** The protocol asks for a
/// position `horizon` after the newest observed sample; the platforms ask
/// for one at a time. Here the target time is `newest sample time + horizon`:
/// - Chromium's `GeneratePrediction(predict_time, frame_interval)` gets
///   `predict_time = target`. For `linearResampling` that is the *frame
///   time*: it samples at `target + latency` (−5 ms by default, then clamped
///   to `min(8 ms, Δt/2)` after the newest event), so its point stands for an
///   earlier instant than the target; ``predictedTime`` says which. The
///   frame interval of the frame-based latency variants is the one given to
///   ``predict(horizon:frameInterval:)``, or ``frameInterval``.
/// - androidx's `predict(predictionTargetMs)` gets the horizon as androidx's
///   own estimate of "time since the newest event plus a frame", truncated
///   to whole milliseconds, plus the configured offset, capped at 32 ms
///   (PredictionEstimator's rule). The point returned is the *last* sample
///   androidx predicts, which lies a whole number of report intervals after
///   the newest accepted sample (see ``predictedTime``); when androidx
///   predicts no sample (balanced strategy, no confidence) it is the newest
///   accepted position, which is what the app would draw.
///
/// Blink's caps on how far ahead it asks (``ChromiumPrediction/maxResampleTime``,
/// ``ChromiumPrediction/maxPredictionTime``) belong to its callers and are
/// not applied: the horizon is the caller's choice.
///
/// **Smoothing.** With ``ChromiumPredictorConfiguration/oneEuro``, every
/// prediction request passes through Chromium's 1€ filter at the target
/// time, as Blink's scroll predictor does once per frame: a request with no
/// prediction still feeds the filter the newest sample's position, but
/// returns nil. Each request is one frame to the filter (and, for androidx,
/// to its "never retract" rule): asking twice advances the state twice.
///
/// **Order and repeats.** Samples are taken as the platforms take them: a
/// sample at the newest one's time is a new event with a zero gap, and only
/// the platforms' own gap rules reset; ``reset()`` begins a new stroke.
public struct PlatformPredictor: TouchPredictor {
    /// The frame interval assumed by ``predict(horizon:)``: 60 Hz.
    public static let defaultFrameInterval: SimTime = 16_666_667

    /// What this predictor runs.
    public let configuration: PlatformPredictorConfiguration
    /// The frame interval used when a request does not give one, ns.
    public var frameInterval: SimTime
    var queue = ChromiumQueueState()
    var kalman = ChromiumKalmanState()
    var androidx = AndroidxKalmanState()
    var smoother: ChromiumOneEuroFilter?
    /// Time of the newest observed sample; nil before the first.
    public private(set) var newestTime: SimTime?
    /// The instant the last returned point stands for, in the platform's own
    /// terms: the target time for Chromium's extrapolators, the newest event's
    /// time for `chromium.empty`, the resample time for `linearResampling`,
    /// the time of androidx's last predicted sample. Nil after a request that
    /// returned nil.
    public private(set) var predictedTime: SimTime?

    /// A predictor with no history.
    public init(_ configuration: PlatformPredictorConfiguration, frameInterval: SimTime = PlatformPredictor.defaultFrameInterval) {
        self.configuration = configuration
        self.frameInterval = frameInterval
        if case .chromium(let c) = configuration, c.oneEuro { smoother = ChromiumOneEuroFilter(c.oneEuroVersion ?? .current) }
    }

    /// Forget history (a new stroke begins).
    public mutating func reset() {
        queue.reset()
        kalman.reset()
        androidx.reset()
        smoother?.reset()
        newestTime = nil
        predictedTime = nil
    }

    /// A sample delivered to the app, in time order.
    public mutating func observe(_ sample: TouchSample) {
        newestTime = sample.time
        switch configuration {
        case .chromium(let c):
            switch c.kind {
            case .kalman: kalman.update(sample)
            default: queue.update(sample)
            }
        case .androidx:
            androidx.update(sample)
        }
    }

    /// The platform's prediction for `newest sample time + horizon`, with
    /// frames ``frameInterval`` apart; nil when the platform has none.
    public mutating func predict(horizon: SimTime) -> TouchPoint? {
        predict(horizon: horizon, frameInterval: frameInterval)
    }

    /// The platform's prediction for `newest sample time + horizon`, with
    /// frames `frameInterval` ns apart; nil when the platform has none.
    public mutating func predict(horizon: SimTime, frameInterval: SimTime) -> TouchPoint? {
        predictedTime = nil
        guard let newest = newestTime else { return nil }
        let target = newest + horizon
        switch configuration {
        case .chromium(let c):
            var result: (TouchPoint, SimTime)?
            switch c.kind {
            case .kalman(let options):
                result = kalman.predict(options, target: target).map { ($0, target) }
            default:
                result = queue.predict(c.kind, target: target, frameInterval: frameInterval)
            }
            if smoother != nil {
                let fed = result?.0 ?? newestPosition(c.kind)
                let smoothed = smoother!.filter(fed, at: target)
                if result != nil { result!.0 = smoothed }
            }
            predictedTime = result?.1
            return result?.0
        case .androidx(let c):
            let t = AndroidxKalmanState.target(horizon: horizon, offsetMilliseconds: c.offsetMilliseconds)
            guard let (p, time) = androidx.predict(targetMs: t, configuration: c) else { return nil }
            predictedTime = time
            return p
        }
    }

    /// The newest sample the Chromium predictor holds.
    func newestPosition(_ kind: ChromiumPredictorKind) -> TouchPoint {
        if case .kalman = kind { return kalman.newest.position }
        return queue.events.newest.position
    }

    /// The platform's event interval estimate, ns: Chromium's
    /// `TimeInterval()` (the spacing Blink gives predicted pointer events),
    /// or androidx's report interval (the spacing of its predicted samples;
    /// 0 before two accepted samples).
    public var timeInterval: SimTime {
        switch configuration {
        case .chromium(let c):
            if case .kalman = c.kind { return kalman.timeInterval }
            return queue.timeInterval(c.kind)
        case .androidx:
            return androidx.reportIntervalNanos
        }
    }
}
