/// Chromium's prediction metrics (ui/base/prediction/
/// prediction_metrics_handler.cc, the `Event.InputEventPrediction.Scroll.*`
/// and `Renderer.DelegatedInkTrail.Prediction.*` UMA histograms),
/// accumulated in constant memory against the noise-free truth.
///
/// Chromium judges a prediction `p` stamped with time `t` and made for the
/// frame at `f` by the real events around those times: `interpolated` (the
/// real trajectory at `t`), the next real event after `t`, and the same two
/// at `f`. Here the truth takes their place: `interpolated` is the true
/// position at `t`, the direction towards the next real event is the true
/// velocity at `t` (the limit of Chromium's secant as events get denser),
/// and likewise at `f`. With a truth that is the piecewise-linear path
/// through real events, the two agree exactly (see the tests).
///
/// For each prediction, with `e = p − truth(t)` and `v` the true velocity:
/// - score `s = ±|e|`, positive when `v · e ≥ 0` (ahead of, or beside, the
///   finger, including every error while the finger is still), negative
///   otherwise; `s ≥ 0` goes to `OverPrediction`, `−s` to
///   `UnderPrediction`, `|s|` to `PredictionScore`;
/// - the same at the frame time `f`: `FrameOverPrediction`,
///   `FrameUnderPrediction`, `FramePredictionScore`;
/// - with a previous prediction `p₀` in the stroke (and its truths):
///   `PredictionJitter = |(truth(t) − p) − (truth(t₀) − p₀)|`,
///   `VisualJitter = |(truth(f) − p) − (truth(f₀) − p₀)|`, and the legacy
///   boolean `WrongDirection`, `v · (p − p₀) < 0`.
///
/// Chromium waits until real events exist past both `t` and `f`; a
/// prediction whose truth has the finger lifted at either time never gets
/// them, so it is skipped here.
public struct ChromiumPredictionScorecard: Sendable {
    /// Whether only the y axis is scored, as Chromium does for scrolling
    /// (every point and velocity becomes `(0, y)`).
    public let scrollAxisOnly: Bool
    var over = ChromiumHistogram(name: "OverPrediction")
    var under = ChromiumHistogram(name: "UnderPrediction")
    var score = ChromiumHistogram(name: "PredictionScore")
    var frameOver = ChromiumHistogram(name: "FrameOverPrediction")
    var frameUnder = ChromiumHistogram(name: "FrameUnderPrediction")
    var frameScore = ChromiumHistogram(name: "FramePredictionScore")
    var jitter = ChromiumHistogram(name: "PredictionJitter")
    var visualJitter = ChromiumHistogram(name: "VisualJitter")
    var wrong = 0, right = 0, skipped = 0
    /// The previous prediction of the stroke and its truths at `t` and `f`.
    var last: (predicted: TouchPoint, truth: TouchPoint, frameTruth: TouchPoint)?

    /// An empty scorecard; by default both axes are scored.
    public init(scrollAxisOnly: Bool = false) {
        self.scrollAxisOnly = scrollAxisOnly
    }

    /// A new stroke: the next prediction has no predecessor (Chromium's
    /// `Reset()` on a new scroll).
    public mutating func strokeBegan() { last = nil }

    @inline(__always)
    func axis(_ p: TouchPoint) -> TouchPoint { scrollAxisOnly ? TouchPoint(x: 0, y: p.y) : p }

    /// Signed distance of `p` from `q` along the motion `v` (`≥ 0` counts as
    /// ahead).
    @inline(__always)
    static func signedScore(_ p: TouchPoint, _ q: TouchPoint, _ v: TouchPoint) -> Double {
        let e = p - q
        return v.dot(e) >= 0 ? e.length : -e.length
    }

    /// One prediction: `predicted`, the noise-free truth at the instant the
    /// prediction stands for (`truth`; for latsim's and Chromium's
    /// extrapolators the target time, for Chromium's resampler or androidx
    /// see ``PlatformPredictor/predictedTime``) and at the frame time that
    /// shows it (`frameTruth`).
    public mutating func record(predicted: TouchPoint, truth: FingerState, frameTruth: FingerState) {
        guard truth.isDown && frameTruth.isDown else { skipped += 1; return }
        let p = axis(predicted), q = axis(truth.position), v = axis(truth.velocity)
        let qf = axis(frameTruth.position), vf = axis(frameTruth.velocity)
        let s = ChromiumPredictionScorecard.signedScore(p, q, v)
        if s >= 0 { over.record(s) } else { under.record(-s) }
        score.record(Swift.abs(s))
        let sf = ChromiumPredictionScorecard.signedScore(p, qf, vf)
        if sf >= 0 { frameOver.record(sf) } else { frameUnder.record(-sf) }
        frameScore.record(Swift.abs(sf))
        if let l = last {
            jitter.record(((q - p) - (l.truth - l.predicted)).length)
            visualJitter.record(((qf - p) - (l.frameTruth - l.predicted)).length)
            if v.dot(p - l.predicted) < 0 { wrong += 1 } else { right += 1 }
        }
        last = (p, q, qf)
    }

    /// The figures so far.
    public var result: ChromiumPredictionMetrics {
        ChromiumPredictionMetrics(
            overPrediction: over, underPrediction: under, predictionScore: score,
            frameOverPrediction: frameOver, frameUnderPrediction: frameUnder, framePredictionScore: frameScore,
            predictionJitter: jitter, visualJitter: visualJitter,
            wrongDirection: wrong, rightDirection: right, skipped: skipped)
    }
}

/// What Chromium's prediction metrics say of a run (see
/// ``ChromiumPredictionScorecard``). Every distance is in points (Chromium's
/// pixels), with UMA's buckets and the exact count, mean and largest value.
public struct ChromiumPredictionMetrics: Sendable, Hashable, Codable {
    /// `OverPrediction`: distance of predictions at or ahead of the true
    /// position at their timestamp, along the true motion.
    public var overPrediction: ChromiumHistogram
    /// `UnderPrediction`: distance of predictions behind it.
    public var underPrediction: ChromiumHistogram
    /// `PredictionScore`: the distance of every prediction from the true
    /// position at its timestamp.
    public var predictionScore: ChromiumHistogram
    /// `FrameOverPrediction`: as ``overPrediction``, against the truth at the
    /// frame time.
    public var frameOverPrediction: ChromiumHistogram
    /// `FrameUnderPrediction`: as ``underPrediction``, at the frame time.
    public var frameUnderPrediction: ChromiumHistogram
    /// `FramePredictionScore`: distance from the true position at the frame
    /// time, what the user sees when the frame shows.
    public var framePredictionScore: ChromiumHistogram
    /// `PredictionJitter`: change of the error vector (truth − prediction at
    /// the timestamp) from one prediction to the next in a stroke.
    public var predictionJitter: ChromiumHistogram
    /// `VisualJitter`: the same with the truth at the frame times.
    public var visualJitter: ChromiumHistogram
    /// `WrongDirection` true: predictions that moved against the true motion
    /// since the previous prediction of the stroke.
    public var wrongDirection: Int
    /// `WrongDirection` false: predictions that did not.
    public var rightDirection: Int
    /// Predictions not scored because the finger was lifted at their
    /// timestamp or frame time.
    public var skipped: Int

    /// Predictions scored.
    public var evaluated: Int { predictionScore.count }
    /// Fraction of the judged predictions that went the wrong way; nil
    /// before any was judged.
    public var wrongDirectionFraction: Double? {
        wrongDirection + rightDirection > 0 ? Double(wrongDirection) / Double(wrongDirection + rightDirection) : nil
    }
}
