/// Distribution of an error magnitude.
public struct ErrorStats: Sendable, Codable, Hashable {
    /// Root mean square.
    public var rms: Double
    /// Median.
    public var p50: Double
    /// 95th percentile.
    public var p95: Double
    /// Largest value.
    public var max: Double

    /// Statistics from their values.
    public init(rms: Double = 0, p50: Double = 0, p95: Double = 0, max: Double = 0) {
        self.rms = rms
        self.p50 = p50
        self.p95 = p95
        self.max = max
    }

    /// Every value multiplied by `k` (a change of unit).
    public func scaled(by k: Double) -> ErrorStats {
        ErrorStats(rms: rms * k, p50: p50 * k, p95: p95 * k, max: max * k)
    }
}

/// Distribution of the distance between what is drawn and where the finger
/// truly is when the photons leave the panel.
public struct PhotonStats: Sendable, Codable, Hashable {
    /// Photon instants recorded.
    public var samples: Int
    /// Root mean square.
    public var rms: Double
    /// 95th percentile.
    public var p95: Double

    /// Statistics from their values.
    public init(samples: Int = 0, rms: Double = 0, p95: Double = 0) {
        self.samples = samples
        self.rms = rms
        self.p95 = p95
    }

    /// Distances multiplied by `k` (a change of unit).
    public func scaled(by k: Double) -> PhotonStats {
        PhotonStats(samples: samples, rms: rms * k, p95: p95 * k)
    }
}

/// How well a predictor did (Docs/Model.md, "Prediction"). Figures named `Px` are
/// in points (the screen's unit; one point is one pixel of the $1 traces);
/// those named `MM` are the same in millimetres. An empty score is all zeros.
public struct PredictionScore: Sendable, Codable, Hashable {
    /// Predictions scored.
    public var samples: Int
    /// Predictions made while the finger was moving (speed ≥
    /// ``PredictionScorer/movingSpeed``): those that have an along-track and
    /// a cross-track part.
    public var movingSamples: Int
    /// Magnitude of predicted − true.
    public var errorPx: ErrorStats
    /// Mean of the error projected on the true direction of motion: positive
    /// is overshoot (ahead of the finger), negative is lateness.
    public var alongTrackMeanPx: Double
    /// Root mean square of the error across the direction of motion.
    public var crossTrackRmsPx: Double
    /// Root mean square of the change of the error vector from one
    /// prediction to the next within a stroke.
    public var jitterPx: Double
    /// Distance between the drawn position and the true one at photon time.
    public var photonErrorPx: PhotonStats
    /// ``errorPx`` in millimetres.
    public var errorMM: ErrorStats
    /// ``alongTrackMeanPx`` in millimetres.
    public var alongTrackMeanMM: Double
    /// ``crossTrackRmsPx`` in millimetres.
    public var crossTrackRmsMM: Double
    /// ``jitterPx`` in millimetres.
    public var jitterMM: Double
    /// ``photonErrorPx`` in millimetres.
    public var photonErrorMM: PhotonStats

    /// A score from its point figures; the millimetre figures are derived
    /// with `pointsPerMM`.
    public init(samples: Int, movingSamples: Int, errorPx: ErrorStats, alongTrackMeanPx: Double,
                crossTrackRmsPx: Double, jitterPx: Double, photonErrorPx: PhotonStats, pointsPerMM: Double) {
        self.samples = samples
        self.movingSamples = movingSamples
        self.errorPx = errorPx
        self.alongTrackMeanPx = alongTrackMeanPx
        self.crossTrackRmsPx = crossTrackRmsPx
        self.jitterPx = jitterPx
        self.photonErrorPx = photonErrorPx
        let k = 1 / pointsPerMM
        errorMM = errorPx.scaled(by: k)
        alongTrackMeanMM = alongTrackMeanPx * k
        crossTrackRmsMM = crossTrackRmsPx * k
        jitterMM = jitterPx * k
        photonErrorMM = photonErrorPx.scaled(by: k)
    }
}
