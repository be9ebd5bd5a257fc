import SimKernel

/// The Android platform's stylus-prediction metrics
/// (frameworks/native libs/input/MotionPredictorMetricsManager.cpp, statsd
/// atom `STYLUS_PREDICTION_METRICS_REPORTED`), accumulated in constant
/// memory against the noise-free truth.
///
/// Android files each prediction under the multiple of the prediction
/// interval (4 166 666 ns, 240 Hz) nearest to how far ahead it reached:
/// bucket `k = round((target − origin) / interval − 1)`, labelled
/// `interval/1 ms × (k + 1)` = 4, 8, 12, 16, 20 ms (integer milliseconds).
/// A prediction outside buckets 0…4 is counted apart.
///
/// It resolves the error `e = prediction − truth(target)` against the
/// direction of motion: Android uses the step between the two newest
/// ground-truth samples, here the true velocity at the target time (the
/// limit of that step as samples get denser). The *along-trajectory* error
/// is `e · v/|v|` (positive ahead of the finger), the *off-trajectory*
/// error `e × v/|v|`; when the finger is still, both are `|e|`. Per bucket:
/// - along-trajectory mean and standard deviation, off-trajectory RMSE;
/// - in the last two buckets, when the true speed exceeds 1100 points/s,
///   high-velocity along and off RMSEs;
/// - scale-invariant along and off RMSEs: errors divided by the length of
///   the true path over the last 5 intervals before the target, plus 0.001.
///
/// Android reports an atom per stroke; here every stroke is pooled. Pressure
/// is not modelled, so its RMSE is absent.
public struct AndroidPredictionScorecard: Sendable {
    /// `prediction-interval` of motion_predictor_config.xml.
    public static let defaultPredictionInterval: SimTime = 4_166_666
    /// The model's outputs, one bucket each.
    public static let defaultBucketCount = 5
    /// `HIGH_VELOCITY_THRESHOLD`, points per second.
    public static let highVelocityThreshold = 1100.0
    /// `PATH_LENGTH_EPSILON`, points.
    public static let pathLengthEpsilon = 0.001

    /// The spacing of the buckets, ns.
    public let predictionInterval: SimTime
    var buckets: [AndroidBucketSums]
    var unbucketed = 0
    var withoutTruth = 0

    /// An empty scorecard with Android's interval and bucket count unless given.
    public init(predictionInterval: SimTime = defaultPredictionInterval, bucketCount: Int = defaultBucketCount) {
        precondition(predictionInterval > 0 && bucketCount > 0)
        self.predictionInterval = predictionInterval
        buckets = Array(repeating: AndroidBucketSums(), count: bucketCount)
    }

    /// The bucket of a prediction reaching `ahead` ns past its origin, or
    /// nil outside the buckets.
    public func bucket(ahead: SimTime) -> Int? {
        let k = (Double(ahead) / Double(predictionInterval) - 1).rounded()
        guard k >= 0 && k < Double(buckets.count) else { return nil }
        return Int(k)
    }

    /// One prediction: `predicted`, made when the newest sample was at
    /// `originTime`, for `targetTime`; `truth` is the noise-free finger at
    /// `targetTime`. `truthPathLength` is the length of the true path over
    /// the bucket count × interval before `targetTime` (Android sums its
    /// last 6 ground-truth samples); when nil, `speed × bucketCount ×
    /// interval`, exact at constant speed.
    public mutating func record(predicted: TouchPoint, originTime: SimTime, targetTime: SimTime,
                                truth: FingerState, truthPathLength: Double? = nil) {
        guard let k = bucket(ahead: targetTime - originTime) else { unbucketed += 1; return }
        let e = predicted - truth.position
        let speed = truth.velocity.length
        var along = e.length, off = e.length
        if speed > 0 {
            let direction = truth.velocity / speed
            along = e.dot(direction)
            off = direction.cross(e)
        }
        let window = Double(buckets.count) * Double(predictionInterval) / 1e9
        let path = (truthPathLength ?? speed * window) + AndroidPredictionScorecard.pathLengthEpsilon
        let highVelocity = k + 2 >= buckets.count && speed > AndroidPredictionScorecard.highVelocityThreshold
        buckets[k].add(along: along, off: off, path: path, highVelocity: highVelocity)
    }

    /// A prediction for an instant with no ground truth (the finger was
    /// lifted then): counted, not scored, as Android never matches one.
    public mutating func recordWithoutTruth() { withoutTruth += 1 }

    /// The figures so far.
    public var result: AndroidPredictionMetrics {
        let unitMs = Int(predictionInterval / Nanos.perMillisecond)
        let out = buckets.enumerated().map { k, b in b.summary(deltaTimeBucketMilliseconds: unitMs * (k + 1)) }
        var alongAverage: Double?, offAverage: Double?
        if out.allSatisfy({ $0.count > 0 }) {
            alongAverage = out.reduce(0) { $0 + $1.scaleInvariantAlongTrajectoryRmse! } / Double(out.count)
            offAverage = out.reduce(0) { $0 + $1.scaleInvariantOffTrajectoryRmse! } / Double(out.count)
        }
        return AndroidPredictionMetrics(predictionInterval: predictionInterval, buckets: out, unbucketed: unbucketed,
                                        withoutTruth: withoutTruth,
                                        scaleInvariantAlongTrajectoryRmseAverage: alongAverage,
                                        scaleInvariantOffTrajectoryRmseAverage: offAverage)
    }
}

/// The running sums of one bucket.
struct AndroidBucketSums: Sendable, Hashable {
    var count = 0, alongSum = 0.0, alongSquares = 0.0, offSquares = 0.0
    var highVelocityCount = 0, highVelocityAlongSquares = 0.0, highVelocityOffSquares = 0.0
    var scaledAlongSquares = 0.0, scaledOffSquares = 0.0

    mutating func add(along: Double, off: Double, path: Double, highVelocity: Bool) {
        count += 1
        alongSum += along
        alongSquares += along * along
        offSquares += off * off
        if highVelocity {
            highVelocityCount += 1
            highVelocityAlongSquares += along * along
            highVelocityOffSquares += off * off
        }
        scaledAlongSquares += (along / path) * (along / path)
        scaledOffSquares += (off / path) * (off / path)
    }

    func summary(deltaTimeBucketMilliseconds: Int) -> AndroidPredictionBucket {
        var b = AndroidPredictionBucket(deltaTimeBucketMilliseconds: deltaTimeBucketMilliseconds, count: count,
                                        highVelocityCount: highVelocityCount)
        guard count > 0 else { return b }
        let n = Double(count)
        let mean = alongSum / n
        b.alongTrajectoryErrorMean = mean
        b.alongTrajectoryErrorStd = Swift.max(0, alongSquares / n - mean * mean).squareRoot()
        b.offTrajectoryRmse = (offSquares / n).squareRoot()
        b.scaleInvariantAlongTrajectoryRmse = (scaledAlongSquares / n).squareRoot()
        b.scaleInvariantOffTrajectoryRmse = (scaledOffSquares / n).squareRoot()
        if highVelocityCount > 0 {
            b.highVelocityAlongTrajectoryRmse = (highVelocityAlongSquares / Double(highVelocityCount)).squareRoot()
            b.highVelocityOffTrajectoryRmse = (highVelocityOffSquares / Double(highVelocityCount)).squareRoot()
        }
        return b
    }
}

/// One time bucket of the Android metrics. Distances are in points
/// (Android's pixels); nil means the bucket has no data (Android's
/// `NO_DATA_SENTINEL`).
public struct AndroidPredictionBucket: Sendable, Hashable, Codable {
    /// How far ahead the bucket's predictions reached, whole milliseconds
    /// (4, 8, 12, 16, 20 for Android's interval).
    public var deltaTimeBucketMilliseconds: Int
    /// Predictions in the bucket.
    public var count: Int
    /// Mean along-trajectory error, points: positive ahead of the finger.
    public var alongTrajectoryErrorMean: Double?
    /// Standard deviation of the along-trajectory error, points.
    public var alongTrajectoryErrorStd: Double?
    /// Root mean square of the off-trajectory error, points.
    public var offTrajectoryRmse: Double?
    /// Predictions counted as high-velocity (last two buckets only, true
    /// speed above 1100 points/s).
    public var highVelocityCount: Int
    /// RMS along-trajectory error of the high-velocity predictions, points.
    public var highVelocityAlongTrajectoryRmse: Double?
    /// RMS off-trajectory error of the high-velocity predictions, points.
    public var highVelocityOffTrajectoryRmse: Double?
    /// RMS of the along-trajectory error divided by the recent true path
    /// length (no unit).
    public var scaleInvariantAlongTrajectoryRmse: Double?
    /// RMS of the off-trajectory error divided by that path length (no unit).
    public var scaleInvariantOffTrajectoryRmse: Double?

    /// An empty bucket.
    public init(deltaTimeBucketMilliseconds: Int, count: Int = 0, highVelocityCount: Int = 0) {
        self.deltaTimeBucketMilliseconds = deltaTimeBucketMilliseconds
        self.count = count
        self.highVelocityCount = highVelocityCount
    }
}

/// What the Android metrics say of a run (see ``AndroidPredictionScorecard``).
public struct AndroidPredictionMetrics: Sendable, Hashable, Codable {
    /// `NO_DATA_SENTINEL`: what Android logs for a figure without data.
    public static let noDataSentinel = Int32.min

    /// The bucket spacing, ns.
    public var predictionInterval: SimTime
    /// The buckets, nearest first.
    public var buckets: [AndroidPredictionBucket]
    /// Predictions that reached less than half an interval or beyond the
    /// last bucket, and so were not scored.
    public var unbucketed: Int
    /// Predictions for an instant with the finger lifted (no ground truth),
    /// not scored.
    public var withoutTruth: Int
    /// The atom's scale-invariant along-trajectory RMSE (reported with the
    /// last bucket): the mean over the buckets of their RMSEs; nil unless
    /// every bucket has data.
    public var scaleInvariantAlongTrajectoryRmseAverage: Double?
    /// The same for the off-trajectory error.
    public var scaleInvariantOffTrajectoryRmseAverage: Double?

    /// A figure as Android logs it: `Int32(value × 1000)` (milli-pixels or
    /// milli-units, truncated), or ``noDataSentinel`` for nil.
    public static func milliunits(_ value: Double?) -> Int32 {
        guard let value, value.isFinite else { return noDataSentinel }
        let x = (value * 1000).rounded(.towardZero)
        return x >= Double(Int32.max) ? Int32.max : x <= -Double(Int32.max) ? -Int32.max : Int32(x)
    }
}
