import SimKernel

/// Accumulates prediction errors against the noise-free true trajectory
/// (Docs/Model.md, "Prediction"), in constant memory.
///
/// For a prediction `p` of an instant whose truth is at `q` moving with
/// velocity `v`, the error is `e = p − q`. Its along-track part is
/// `e · v/|v|` (positive ahead of the finger, negative behind) and its
/// cross-track part `e × v/|v|`. When the finger is (nearly) still, slower
/// than ``movingSpeed``, there is no direction of motion: such a prediction
/// counts in the error magnitude and in jitter but in neither the
/// along-track mean nor the cross-track rms, which are averages over moving
/// instants only.
///
/// Jitter is the root mean square of `|e_k − e_(k−1)|` between consecutive
/// predictions of a stroke: a predictor that is consistently late has large
/// error and small jitter; one that wobbles has jitter.
public struct PredictionScorer: Sendable {
    /// Below this true speed, points per second, the finger counts as still
    /// (0.16 mm/s at 6.4 points/mm: no visible motion).
    public static let movingSpeed = 1.0
    /// Percentile resolution, steps per point.
    static let resolution = 1e4
    /// Largest error tracked exactly by the percentiles, points.
    static let highest = 1e5

    var error = StreamingStats(resolution: resolution, highestValue: highest)
    var errorMoments = RunningMoments()
    var along = CompensatedSum()
    var moving = 0
    var cross = RunningMoments()
    var jitter = RunningMoments()
    var previousError: TouchPoint?
    var photon = StreamingStats(resolution: resolution, highestValue: highest)
    var photonMoments = RunningMoments()

    /// An empty scorer.
    public init() {}

    /// Predictions recorded so far.
    public var count: Int { error.count }

    /// One prediction: `predicted` for the instant whose noise-free truth is
    /// `truth` (`truth.velocity` gives the along-track direction).
    public mutating func recordPrediction(predicted: TouchPoint, truth: FingerState) {
        let e = predicted - truth.position
        let magnitude = e.length
        error.record(magnitude)
        errorMoments.record(magnitude)
        let speed = truth.velocity.length
        if speed >= PredictionScorer.movingSpeed {
            let direction = truth.velocity / speed
            along.add(e.dot(direction))
            cross.record(direction.cross(e))
            moving += 1
        }
        if let previous = previousError { jitter.record((e - previous).length) }
        previousError = e
    }

    /// What the eye sees: position drawn on screen vs the true position at
    /// photon time.
    public mutating func recordPhoton(drawn: TouchPoint, truth: TouchPoint) {
        let d = drawn.distance(to: truth)
        photon.record(d)
        photonMoments.record(d)
    }

    /// A new stroke: the next prediction's error has no predecessor for jitter.
    public mutating func strokeBegan() { previousError = nil }

    /// Adds another scorer's records, as if they came after this one's
    /// (jitter is not computed across the seam).
    public mutating func merge(_ other: PredictionScorer) {
        error.merge(other.error)
        errorMoments.merge(other.errorMoments)
        along.add(other.along)
        moving += other.moving
        cross.merge(other.cross)
        jitter.merge(other.jitter)
        previousError = other.previousError
        photon.merge(other.photon)
        photonMoments.merge(other.photonMoments)
    }

    /// The summary, with millimetre figures derived from `pointsPerMM`.
    public func score(pointsPerMM: Double) -> PredictionScore {
        let stats = ErrorStats(rms: errorMoments.rms ?? 0, p50: error.percentile(50) ?? 0,
                               p95: error.percentile(95) ?? 0, max: error.count > 0 ? error.max : 0)
        let photonStats = PhotonStats(samples: photon.count, rms: photonMoments.rms ?? 0,
                                      p95: photon.percentile(95) ?? 0)
        return PredictionScore(
            samples: error.count, movingSamples: moving, errorPx: stats,
            alongTrackMeanPx: moving > 0 ? along.value / Double(moving) : 0,
            crossTrackRmsPx: cross.rms ?? 0, jitterPx: jitter.rms ?? 0,
            photonErrorPx: photonStats, pointsPerMM: pointsPerMM)
    }
}
