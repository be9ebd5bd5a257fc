import SimKernel
import TouchModel

/// The platforms' prediction scorecards a run can keep besides latsim's own
/// (``PredictionScorer``), each against the noise-free finger. Neither is
/// kept unless asked for: a run without them pays nothing for them.
public struct PredictionScorecards: OptionSet, Sendable, Hashable {
    /// The scorecards as bits.
    public var rawValue: UInt8
    /// Scorecards from their bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Chromium's UMA prediction metrics (``ChromiumPredictionScorecard``),
    /// both axes scored, as for ink rather than scrolling.
    public static let chromium = PredictionScorecards(rawValue: 1)
    /// Android's MotionPredictor metrics (``AndroidPredictionScorecard``).
    public static let android = PredictionScorecards(rawValue: 2)
}

/// The platform scorecards of one run and the truth they are scored on.
///
/// Each prediction is judged at the instant the predictor says it stands for
/// (``PredictionMade/stamp``: the target for latsim's and Chromium's
/// extrapolators, the resample time for `chromium.linearResampling`, the last
/// predicted sample's time for androidx). Chromium's *frame* variants are
/// judged at the target the app asked for (newest touch + horizon), which
/// is the `predict_time` (frame time) the platform predictor was given.
/// Android files a prediction under `stamp − origin`; the recent true path
/// length of its scale-invariant figures is measured on the truth over the
/// bucket count × interval before `stamp`, one interval per step, as
/// Android sums its ground-truth samples. A prediction whose instant has
/// the finger lifted has no truth: Chromium skips it, Android counts it.
struct PlatformScorecards {
    var chromium: ChromiumPredictionScorecard?
    var android: AndroidPredictionScorecard?
    /// A cursor of its own, so that reading back in time does not disturb
    /// the measurement's.
    var truth: TrajectoryCursor

    init(_ cards: PredictionScorecards, trajectory: Trajectory) {
        truth = TrajectoryCursor(trajectory)
        if cards.contains(.chromium) { chromium = ChromiumPredictionScorecard() }
        if cards.contains(.android) { android = AndroidPredictionScorecard() }
    }

    mutating func strokeBegan() {
        chromium?.strokeBegan()
    }

    @inline(never)
    mutating func record(_ p: PredictionMade) {
        let at = truth.state(at: p.stamp)
        if chromium != nil {
            let frame = p.stamp == p.target ? at : truth.state(at: p.target)
            chromium!.record(predicted: p.position, truth: at, frameTruth: frame)
        }
        if android != nil {
            guard at.isDown else { android!.recordWithoutTruth(); return }
            let interval = android!.predictionInterval
            var path = 0.0
            var later = at
            for step in 1...AndroidPredictionScorecard.defaultBucketCount {
                let earlier = truth.state(at: p.stamp - SimTime(step) * interval)
                if earlier.isDown && later.isDown { path += earlier.position.distance(to: later.position) }
                later = earlier
            }
            android!.record(predicted: p.position, originTime: p.origin, targetTime: p.stamp, truth: at, truthPathLength: path)
        }
    }
}
