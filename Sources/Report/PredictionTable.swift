import Experiments
import FramePipeline
import LatsimOutput
import Measures
import Scenarios
import TouchModel

/// One line of the `latsim predict` table: a predictor at a horizon on one
/// motion, and how much it cuts the photon-time error of drawing the raw
/// touch.
public struct PredictionTableRow: Sendable {
    /// The motion's name (a synthetic kind, or a trace path).
    public var motion: String
    /// The predictor's report name (`kalman`, `kalman+1e`).
    public var predictor: String
    /// The horizon, ms.
    public var horizonMs: Double
    /// The horizon in display frames.
    public var horizonFrames: Double
    /// The accuracy figures.
    public var score: PredictionScore
    /// `(none − this) / none` of the photon-time error rms, in percent, with
    /// `none` at the same horizon on the same motion; positive is better. Nil
    /// when there is no `none` row to compare with or its error is 0.
    public var photonCutPercent: Double?
    /// Chromium's prediction metrics, when they were kept.
    public var chromium: ChromiumPredictionMetrics?
    /// Android's prediction metrics, when they were kept.
    public var android: AndroidPredictionMetrics?

    /// A row from its parts.
    public init(motion: String, predictor: String, horizonMs: Double, horizonFrames: Double,
                score: PredictionScore, photonCutPercent: Double?,
                chromium: ChromiumPredictionMetrics? = nil, android: AndroidPredictionMetrics? = nil) {
        self.motion = motion
        self.predictor = predictor
        self.horizonMs = horizonMs
        self.horizonFrames = horizonFrames
        self.score = score
        self.photonCutPercent = photonCutPercent
        self.chromium = chromium
        self.android = android
    }
}

/// The rows, comparisons and JSON of `latsim predict`.
public enum PredictionTable {
    /// The name of the reference predictor: no prediction, the raw touch.
    public static let reference = PredictorKind.none.rawValue

    /// Why `linearSecond` and `leastSquares` print the same rows, when a
    /// table lists both (nil otherwise).
    public static func twinNote(_ rows: [PredictionTableRow]) -> String? {
        let names = Set(rows.map(\.predictor))
        guard names.contains(PredictorKind.linearSecond.rawValue), names.contains(PredictorKind.leastSquares.rawValue) else { return nil }
        return "linearSecond and leastSquares give the same rows by construction: through three samples the least-squares quadratic passes through all three, so it is the parabola whose second difference linearSecond extrapolates. latsim keeps both as two derivations that check each other (Docs/Prediction.md). Chromium's second-order predictor is a different formula that lags under acceleration: chromium.linearSecond."
    }

    /// Rows in the order of `results`, each with its photon-time error cut
    /// against the `none` result of the same motion and horizon.
    public static func rows(_ results: [PredictionCorpus.CellResult]) -> [PredictionTableRow] {
        var references: [String: Double] = [:]
        for r in results where r.predictor == reference {
            references[key(r.item, r.horizon)] = r.score.photonErrorPx.rms
        }
        return results.map { r in
            var cut: Double?
            if let ref = references[key(r.item, r.horizon)], ref > 0 {
                cut = (ref - r.score.photonErrorPx.rms) / ref * 100
            }
            return PredictionTableRow(motion: r.item, predictor: r.predictor, horizonMs: r.horizonMs,
                                      horizonFrames: r.horizonFrames, score: r.score, photonCutPercent: cut,
                                      chromium: r.chromium, android: r.android)
        }
    }

    static func key(_ item: String, _ horizon: Int64) -> String { "\(item)\u{0}\(horizon)" }

    /// A figure of the table that has a best value.
    public enum Metric: Hashable, Sendable, CaseIterable {
        /// One of the compared metrics.
        case metric(PredictionMetric)
        /// Photon-time error cut vs `none`: larger is better.
        case photonCut

        /// Every column the table ranks, in its order.
        public static var allCases: [Metric] { PredictionMetric.allCases.map { .metric($0) } + [.photonCut] }

        /// The value of the metric in a row, oriented so that smaller is
        /// better; nil when the row has none.
        public func cost(_ row: PredictionTableRow) -> Double? {
            switch self {
            case .metric(let m): return m.cost(m.value(row.score))
            case .photonCut: return row.photonCutPercent.map { -$0 }
            }
        }
    }

    /// Indices of the best rows for `metric` within each group of rows with
    /// the same motion and horizon. Values are compared as shown, rounded
    /// to `places` decimals, so that ties on screen are all marked; rows
    /// that scored nothing are never best.
    public static func best(_ metric: Metric, in rows: [PredictionTableRow], places: Int = 3) -> Set<Int> {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        var bestByGroup: [String: Double] = [:]
        var costs: [Double?] = []
        for r in rows {
            let c = r.score.samples > 0 ? metric.cost(r).map { ($0 * scale).rounded() } : nil
            costs.append(c)
            guard let c else { continue }
            let k = r.motion + "\u{0}" + String(r.horizonMs)
            bestByGroup[k] = min(bestByGroup[k] ?? c, c)
        }
        var out: Set<Int> = []
        for (i, r) in rows.enumerated() {
            if let c = costs[i], c == bestByGroup[r.motion + "\u{0}" + String(r.horizonMs)] { out.insert(i) }
        }
        return out
    }

    /// One row as JSON: `predictor`, `horizonMs`, then latsim's scorecard
    /// (with `latsim`): `samples`, `errorPx {rms, p50, p95, max}`,
    /// `alongTrackMeanPx`, `crossTrackRmsPx`, `jitterPx`, `photonErrorPx {rms,
    /// p95}` (the keys of the summary JSON's `prediction`), then `motion`,
    /// `horizonFrames`, and with `latsim` `movingSamples`, the millimetre
    /// figures and `photonCutPercent` (null without a reference); then each
    /// platform scorecard kept, as an object under its name (`chromium`,
    /// `android`; see ``ScorecardJSON``).
    public static func json(_ row: PredictionTableRow, latsim: Bool = true) -> JSONValue {
        let s = row.score
        var fields: [(String, JSONValue)] = [("predictor", .string(row.predictor)), ("horizonMs", .ms(row.horizonMs))]
        if latsim { fields += PredictionJSON.fields(s) }
        fields += [("motion", .string(row.motion)), ("horizonFrames", .ms(row.horizonFrames))]
        if latsim {
            fields += [
                ("movingSamples", .int(s.movingSamples)),
                ("crossTrackRmsMM", .ms(s.crossTrackRmsMM)),
                ("jitterMM", .ms(s.jitterMM)),
                ("photonCutPercent", .ms(row.photonCutPercent)),
            ]
        }
        if let c = row.chromium { fields.append(("chromium", ScorecardJSON.chromium(c))) }
        if let a = row.android { fields.append(("android", ScorecardJSON.android(a))) }
        return .object(fields)
    }

    /// The whole table as a JSON array, in row order; latsim's own figures
    /// with `latsim`.
    public static func json(_ rows: [PredictionTableRow], latsim: Bool = true) -> JSONValue {
        .array(rows.map { json($0, latsim: latsim) })
    }
}
