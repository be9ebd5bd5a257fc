import LatsimOutput
import SimKernel
import TouchModel

/// Which scorecards `latsim predict` shows: latsim's own metrics, Chromium's
/// UMA prediction metrics, Android's MotionPredictor metrics.
public enum ScorecardName: String, Sendable, CaseIterable, Keyword {
    /// latsim's own (``PredictionScorer``): the table `latsim predict` has
    /// always printed.
    case latsim
    /// Chromium's (``ChromiumPredictionScorecard``).
    case chromium
    /// Android's (``AndroidPredictionScorecard``).
    case android
}

/// The JSON of the platform scorecards, as `latsim predict --json` writes
/// them under their names. Distances are in points (the platforms' pixels).
public enum ScorecardJSON {
    /// Chromium's metrics: the histogram layout (UMA's `FactoryGet(name, 1,
    /// 1000, 50)`), the prefix Chromium gives these histograms for ink, the
    /// counts, and per histogram its count, exact mean and largest value and
    /// its non-empty buckets `{from, to, count}` (`to` exclusive, null for
    /// the overflow bucket).
    public static func chromium(_ m: ChromiumPredictionMetrics) -> JSONValue {
        func histogram(_ h: ChromiumHistogram) -> JSONValue {
            let bounds = ChromiumHistogram.lowerBounds
            let buckets: [JSONValue] = h.nonEmptyBuckets.map { b in
                let index = bounds.firstIndex(of: b.lowerBound) ?? 0
                let upper: JSONValue = index + 1 < bounds.count ? .int(bounds[index + 1]) : .null
                return .object([("from", .int(b.lowerBound)), ("to", upper), ("count", .int(b.count))])
            }
            return .object([("count", .int(h.count)), ("meanPx", .ms(h.mean)), ("maxPx", .ms(h.count > 0 ? h.largest : nil)),
                            ("buckets", .array(buckets))])
        }
        return .object([
            ("histogramPrefix", .string("Renderer.DelegatedInkTrail.Prediction.")),
            ("histogramRange", .object([("min", .int(ChromiumHistogram.minimum)), ("max", .int(ChromiumHistogram.maximum)),
                                        ("buckets", .int(ChromiumHistogram.bucketCount))])),
            ("evaluated", .int(m.evaluated)),
            ("skipped", .int(m.skipped)),
            ("OverPrediction", histogram(m.overPrediction)),
            ("UnderPrediction", histogram(m.underPrediction)),
            ("PredictionScore", histogram(m.predictionScore)),
            ("FrameOverPrediction", histogram(m.frameOverPrediction)),
            ("FrameUnderPrediction", histogram(m.frameUnderPrediction)),
            ("FramePredictionScore", histogram(m.framePredictionScore)),
            ("PredictionJitter", histogram(m.predictionJitter)),
            ("VisualJitter", histogram(m.visualJitter)),
            ("WrongDirection", .object([("true", .int(m.wrongDirection)), ("false", .int(m.rightDirection)),
                                        ("fraction", .ms(m.wrongDirectionFraction))])),
        ])
    }

    /// Android's metrics: the bucket spacing, then per bucket the along-
    /// and off-trajectory figures with their high-velocity and
    /// scale-invariant variants (null: Android's `NO_DATA_SENTINEL`), and the
    /// atom's scale-invariant averages.
    public static func android(_ m: AndroidPredictionMetrics) -> JSONValue {
        let buckets: [JSONValue] = m.buckets.map { b in
            .object([
                ("deltaTimeBucketMs", .int(b.deltaTimeBucketMilliseconds)),
                ("count", .int(b.count)),
                ("alongTrajectoryErrorMeanPx", .ms(b.alongTrajectoryErrorMean)),
                ("alongTrajectoryErrorStdPx", .ms(b.alongTrajectoryErrorStd)),
                ("offTrajectoryRmsePx", .ms(b.offTrajectoryRmse)),
                ("highVelocityCount", .int(b.highVelocityCount)),
                ("highVelocityAlongTrajectoryRmsePx", .ms(b.highVelocityAlongTrajectoryRmse)),
                ("highVelocityOffTrajectoryRmsePx", .ms(b.highVelocityOffTrajectoryRmse)),
                ("scaleInvariantAlongTrajectoryRmse", .ms(b.scaleInvariantAlongTrajectoryRmse)),
                ("scaleInvariantOffTrajectoryRmse", .ms(b.scaleInvariantOffTrajectoryRmse)),
            ])
        }
        return .object([
            ("predictionIntervalMs", .ms(Double(m.predictionInterval) / 1e6)),
            ("unbucketed", .int(m.unbucketed)),
            ("withoutTruth", .int(m.withoutTruth)),
            ("buckets", .array(buckets)),
            ("scaleInvariantAlongTrajectoryRmseAverage", .ms(m.scaleInvariantAlongTrajectoryRmseAverage)),
            ("scaleInvariantOffTrajectoryRmseAverage", .ms(m.scaleInvariantOffTrajectoryRmseAverage)),
        ])
    }
}

/// The readable tables of the platform scorecards: one line per predictor
/// and horizon for Chromium, one per non-empty time bucket for Android.
public enum ScorecardTables {
    static func f(_ x: Double?) -> String { x.map { formatDecimal($0, places: 3, fixed: true) } ?? "-" }

    /// Chromium's headline metrics: predictions scored, the means of
    /// `PredictionScore`, `OverPrediction` and `UnderPrediction` (with the
    /// share of predictions ahead of the finger), the frame-time
    /// `FramePredictionScore`, the two jitters and `WrongDirection`.
    public static func chromium(_ rows: [PredictionTableRow]) -> String {
        var t = TextTable(header: ["predictor", "horizon ms", "scored", "score mean", "score p50 bucket", "over %", "over mean",
                                   "under mean", "frame score mean", "jitter mean", "visual jitter mean", "wrong dir %"],
                          rightAligned: Set(1...11))
        for r in rows {
            guard let m = r.chromium else { continue }
            let n = m.overPrediction.count + m.underPrediction.count
            let wrong = m.wrongDirectionFraction.map { formatDecimal($0 * 100, places: 1, fixed: true) } ?? "-"
            t.rows.append([r.predictor, formatDecimal(r.horizonMs, places: 3, fixed: true), String(m.evaluated),
                           f(m.predictionScore.mean), medianBucket(m.predictionScore),
                           n > 0 ? formatDecimal(Double(m.overPrediction.count) / Double(n) * 100, places: 1, fixed: true) : "-",
                           f(m.overPrediction.mean), f(m.underPrediction.mean), f(m.framePredictionScore.mean),
                           f(m.predictionJitter.mean), f(m.visualJitter.mean), wrong])
        }
        return t.render() + "\n\nChromium's UMA prediction metrics (Renderer.DelegatedInkTrail.Prediction.*, both axes), points; "
            + "means of the exact values; score p50 bucket: the UMA bucket [from, to) holding the median PredictionScore."
    }

    /// The UMA bucket `[from, to)` that holds the median sample, or `-`.
    static func medianBucket(_ h: ChromiumHistogram) -> String {
        guard h.count > 0 else { return "-" }
        var seen = 0
        let bounds = ChromiumHistogram.lowerBounds
        for (i, c) in h.counts.enumerated() {
            seen += c
            if 2 * seen >= h.count {
                return "[\(bounds[i]), " + (i + 1 < bounds.count ? "\(bounds[i + 1]))" : "inf)")
            }
        }
        return "-"
    }

    /// Android's per-bucket metrics: every bucket that holds predictions, with
    /// the along-trajectory mean and standard deviation, the off-trajectory
    /// RMSE, the high-velocity RMSEs and the scale-invariant RMSEs; rows that
    /// fall in no bucket say how many were left out.
    public static func android(_ rows: [PredictionTableRow]) -> String {
        var t = TextTable(header: ["predictor", "horizon ms", "bucket ms", "n", "along mean", "along std", "off rmse",
                                   "hv n", "hv along rmse", "hv off rmse", "si along rmse", "si off rmse", "unbucketed"],
                          rightAligned: Set(1...12))
        for r in rows {
            guard let m = r.android else { continue }
            let filled = m.buckets.filter { $0.count > 0 }
            let left = String(m.unbucketed + m.withoutTruth)
            if filled.isEmpty {
                t.rows.append([r.predictor, formatDecimal(r.horizonMs, places: 3, fixed: true), "-", "0", "-", "-", "-", "-", "-", "-", "-", "-", left])
            }
            for b in filled {
                t.rows.append([r.predictor, formatDecimal(r.horizonMs, places: 3, fixed: true), String(b.deltaTimeBucketMilliseconds),
                               String(b.count), f(b.alongTrajectoryErrorMean), f(b.alongTrajectoryErrorStd), f(b.offTrajectoryRmse),
                               String(b.highVelocityCount), f(b.highVelocityAlongTrajectoryRmse), f(b.highVelocityOffTrajectoryRmse),
                               f(b.scaleInvariantAlongTrajectoryRmse), f(b.scaleInvariantOffTrajectoryRmse), left])
            }
        }
        return t.render() + "\n\nAndroid's MotionPredictor metrics per 4.167 ms bucket (how far ahead the prediction's own time stamp lies), points; "
            + "along: + ahead of the finger; hv: true speed above 1100 pt/s, last two buckets only; si: divided by the recent true path length; "
            + "unbucketed: predictions reaching under 2 ms or past 22.9 ms, or with the finger lifted."
    }
}
