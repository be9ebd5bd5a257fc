import SimKernel

/// Scores predicted force against the finger's true force, as
/// ``PredictionScorer`` scores positions (Docs/Force.md, "Predicted
/// force"): the error at the predicted instant (magnitude rms, p50, p95,
/// max and its signed mean, + ahead of the press, − behind) and, what the
/// drawn stroke shows, the error at photon time.
public struct ForcePredictionScorer: Sendable {
    var error = StreamingStats(resolution: 1e5, highestValue: 1_000)
    var errorMoments = RunningMoments()
    var signed = CompensatedSum()
    var photon = StreamingStats(resolution: 1e5, highestValue: 1_000)
    var photonMoments = RunningMoments()

    /// Nothing scored yet.
    public init() {}

    /// Predictions scored.
    public var count: Int { error.count }

    /// A prediction `predicted` of an instant whose true force is `truth`.
    public mutating func recordPrediction(predicted: Double, truth: Double) {
        let e = predicted - truth
        error.record(Swift.abs(e))
        errorMoments.record(e)
        signed.add(e)
    }

    /// A frame shows `drawn` when the finger's true force is `truth`.
    public mutating func recordPhoton(drawn: Double, truth: Double) {
        let e = Swift.abs(drawn - truth)
        photon.record(e)
        photonMoments.record(e)
    }

    /// Settles pending values (``StreamingStats/settle()``).
    public mutating func settle() {
        error.settle()
        photon.settle()
    }

    /// The figures, or nil when nothing was predicted.
    public var score: ForcePredictionScore? {
        guard count > 0 else { return nil }
        let q = error.percentiles([50, 95])
        let pq = photon.percentiles([95])
        return ForcePredictionScore(predictions: count, errorRms: errorMoments.rms ?? 0, errorP50: q[0] ?? 0,
                                    errorP95: q[1] ?? 0, errorMax: error.max, meanSignedError: signed.value / Double(count),
                                    photonErrorRms: photonMoments.rms, photonErrorP95: pq[0] ?? nil)
    }
}

/// Predicted force's accuracy, in units of force (1.0 an average touch).
public struct ForcePredictionScore: Sendable, Hashable {
    /// Predictions scored.
    public var predictions: Int
    /// Root mean square of the error at the predicted instant.
    public var errorRms: Double
    /// Median magnitude of that error.
    public var errorP50: Double
    /// 95th percentile of its magnitude.
    public var errorP95: Double
    /// Its largest magnitude.
    public var errorMax: Double
    /// Its mean with sign: + predicted above the true force, − below.
    public var meanSignedError: Double
    /// Root mean square of `|drawn − true force at photon time|` (nil when no frame was measured).
    public var photonErrorRms: Double?
    /// Its 95th percentile.
    public var photonErrorP95: Double?
}
