import Foundation
import SimKernel

/// The figures of one scored run that the regression gate compares (one
/// per ``PredictionMetric``), as stored in a baseline file.
public struct BaselineMetrics: Sendable, Codable, Hashable {
    /// Error magnitude, rms, points.
    public var errorRms: Double
    /// Error magnitude, 95th percentile, points.
    public var errorP95: Double
    /// Error magnitude, maximum, points.
    public var errorMax: Double
    /// Signed along-track mean, points (+ overshoot, − lateness).
    public var alongTrackMean: Double
    /// Cross-track rms, points.
    public var crossTrackRms: Double
    /// Jitter (rms change of the error vector), points.
    public var jitter: Double
    /// Photon-time error, rms, points.
    public var photonRms: Double
    /// Photon-time error, 95th percentile, points.
    public var photonP95: Double

    /// Metrics from their values.
    public init(errorRms: Double, errorP95: Double, errorMax: Double, alongTrackMean: Double,
                crossTrackRms: Double, jitter: Double, photonRms: Double, photonP95: Double) {
        self.errorRms = errorRms
        self.errorP95 = errorP95
        self.errorMax = errorMax
        self.alongTrackMean = alongTrackMean
        self.crossTrackRms = crossTrackRms
        self.jitter = jitter
        self.photonRms = photonRms
        self.photonP95 = photonP95
    }

    /// The metrics of a score, rounded to 1e-6 points so that a stored
    /// baseline does not churn in its last digits.
    public init(_ s: PredictionScore) {
        func r(_ m: PredictionMetric) -> Double { let x = m.value(s); return x.isFinite ? (x * 1e6).rounded() / 1e6 : 0 }
        self.init(errorRms: r(.errorRms), errorP95: r(.errorP95), errorMax: r(.errorMax), alongTrackMean: r(.alongTrackMean),
                  crossTrackRms: r(.crossTrackRms), jitter: r(.jitter), photonRms: r(.photonRms), photonP95: r(.photonP95))
    }

    /// The value of one metric.
    public subscript(metric: PredictionMetric) -> Double {
        switch metric {
        case .errorRms: return errorRms
        case .errorP95: return errorP95
        case .errorMax: return errorMax
        case .alongTrackMean: return alongTrackMean
        case .crossTrackRms: return crossTrackRms
        case .jitter: return jitter
        case .photonRms: return photonRms
        case .photonP95: return photonP95
        }
    }
}

/// One corpus item scored with one predictor at one horizon.
public struct BaselineEntry: Sendable, Codable, Hashable {
    /// The corpus item (a trajectory name).
    public var item: String
    /// The predictor's name (``PredictorConfiguration/name``).
    public var predictor: String
    /// The prediction horizon, milliseconds.
    public var horizonMs: Double
    /// The figures.
    public var metrics: BaselineMetrics

    /// An entry from its parts.
    public init(item: String, predictor: String, horizonMs: Double, metrics: BaselineMetrics) {
        self.item = item
        self.predictor = predictor
        self.horizonMs = horizonMs
        self.metrics = metrics
    }

    /// What identifies the entry across runs.
    var key: EntryKey { EntryKey(item: item, predictor: predictor, horizonMs: horizonMs) }
}

/// The identity of a baseline entry, ordered by item, predictor, horizon.
struct EntryKey: Hashable, Comparable {
    var item: String
    var predictor: String
    var horizonMs: Double
    static func < (a: EntryKey, b: EntryKey) -> Bool {
        (a.item, a.predictor, a.horizonMs) < (b.item, b.predictor, b.horizonMs)
    }
}

/// A stored set of prediction scores: what `latsim regress` compares a new
/// run against.
public struct PredictionBaseline: Sendable, Codable, Hashable {
    /// The file format's version.
    public static let currentVersion = 1
    /// This baseline's format version.
    public var version: Int
    /// The scored runs.
    public var entries: [BaselineEntry]
    /// The settings the entries were scored under (the gate spec's, one
    /// text per key: scenario, rates, tool, horizons, corpus, smoothing);
    /// nil in a baseline written before they were recorded.
    public var spec: [String: String]?

    /// A baseline of these entries, in the current format.
    public init(version: Int = PredictionBaseline.currentVersion, entries: [BaselineEntry], spec: [String: String]? = nil) {
        self.version = version
        self.entries = entries
        self.spec = spec
    }

    /// Deterministic JSON: entries sorted by item, predictor and horizon,
    /// keys sorted, two-space indentation, `.` decimals, a final newline.
    public func encodedJSON() throws -> Data {
        var sorted = self
        sorted.entries.sort { $0.key < $1.key }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(sorted)
        data.append(0x0A)
        return data
    }

    /// Reads a baseline written by ``encodedJSON()``.
    public static func decode(_ data: Data) throws -> PredictionBaseline {
        try JSONDecoder().decode(PredictionBaseline.self, from: data)
    }

    /// The largest horizon an entry can have, ms (`app.prediction.horizon`'s limit).
    public static let maximumHorizonMs = 1_000.0

    /// Reads a baseline file's bytes (`file` names it in errors), checking
    /// what a hand edit can break, since the gate trusts what it reads: a
    /// key given twice in an object (JSON leaves it undefined; the decoder
    /// kept the last), the format version, values a score cannot take (not
    /// finite, beyond ``PredictionMetric/sensibleLimit``, a negative
    /// magnitude, a horizon outside 0 to 1000 ms) and two entries for one
    /// item, predictor and horizon. `remedy` is what makes a good baseline.
    public static func read(_ data: Data, file: String, remedy: String) throws(LatsimError) -> PredictionBaseline {
        if let d = JSONKeys.firstDuplicate(in: data) {
            throw LatsimError(file: file, problem: "the key '\(LatsimError.shortened(d.key))' is given twice in \(d.path.isEmpty ? "the top-level object" : "'\(LatsimError.shortened(d.path))'")",
                              expected: "each key once in an object (JSON leaves a repeated key undefined)")
        }
        let b: PredictionBaseline
        do { b = try decode(data) } catch {
            throw LatsimError(file: file, problem: "not a prediction baseline (\(decodingReason(error)))", expected: remedy)
        }
        if b.version != currentVersion {
            throw LatsimError(file: file, problem: "baseline format version \(b.version), this latsim reads version \(currentVersion)", expected: remedy)
        }
        var seen: [EntryKey: Int] = [:]
        for (i, e) in b.entries.enumerated() {
            let place = "entries[\(i)]"
            guard e.horizonMs.isFinite, (0...maximumHorizonMs).contains(e.horizonMs) else {
                throw LatsimError(file: file, key: place + ".horizonMs", value: "\(e.horizonMs)", problem: "is no prediction horizon",
                                  expected: "a horizon from 0 to \(formatDecimal(maximumHorizonMs, places: 0)) ms, as the gate records it")
            }
            for m in PredictionMetric.allCases {
                let v = e.metrics[m]
                let problem: String? = !v.isFinite ? "is not a finite number"
                    : Swift.abs(v) > PredictionMetric.sensibleLimit ? "is beyond the \(Int(PredictionMetric.sensibleLimit)) points a score can sensibly take"
                    : !m.isSigned && v < 0 ? "is negative, and \(m.rawValue) is a magnitude" : nil
                if let problem {
                    let range = m.isSigned ? "-\(Int(PredictionMetric.sensibleLimit)) to \(Int(PredictionMetric.sensibleLimit))" : "0 to \(Int(PredictionMetric.sensibleLimit))"
                    throw LatsimError(file: file, key: "\(place).metrics.\(m.rawValue)", value: "\(v)", problem: problem,
                                      expected: "a figure from \(range) points, as the gate records it")
                }
            }
            if let first = seen[e.key] {
                throw LatsimError(file: file, problem: "entries[\(first)] and \(place) are both \(LatsimError.shortened(e.item)) \(LatsimError.shortened(e.predictor))@\(formatDecimal(e.horizonMs, places: 6))ms",
                                  expected: "one entry per item, predictor and horizon")
            }
            seen[e.key] = i
        }
        return b
    }

    /// A short reason a decoding error gives, without Swift's internals.
    public static func decodingReason(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.dataCorrupted(let c):
            return c.underlyingError.map { _ in "not valid JSON" } ?? c.debugDescription
        case DecodingError.keyNotFound(let key, let c):
            return "missing key '\(path(c.codingPath + [key]))'"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "wrong type at '\(path(c.codingPath))'"
        default:
            return "\(error)"
        }
    }
}

/// One metric of one entry that moved beyond the tolerance, or an entry
/// present on one side only.
public struct MetricChange: Sendable, Hashable, CustomStringConvertible {
    /// The corpus item.
    public var item: String
    /// The predictor's name.
    public var predictor: String
    /// The horizon, milliseconds.
    public var horizonMs: Double
    /// The metric's name (a ``PredictionMetric``), or `"entry"` when the
    /// whole entry is missing on one side.
    public var metric: String
    /// The baseline's value; nil when the entry is new.
    public var old: Double?
    /// The current value; nil when the entry disappeared.
    public var new: Double?
    /// `(new − old) / |old|` in percent; nil when either side is missing or
    /// the old value is 0.
    public var changePercent: Double?
    /// True when the change makes things worse (or an entry disappeared).
    public var isRegression: Bool

    /// A change from its parts.
    public init(item: String, predictor: String, horizonMs: Double, metric: String,
                old: Double?, new: Double?, changePercent: Double?, isRegression: Bool) {
        self.item = item
        self.predictor = predictor
        self.horizonMs = horizonMs
        self.metric = metric
        self.old = old
        self.new = new
        self.changePercent = changePercent
        self.isRegression = isRegression
    }

    /// One line: `item predictor@4ms metric: old -> new (+12.5%) REGRESSION`,
    /// or `item predictor@4ms: missing from the current run REGRESSION` /
    /// `...: new entry` for an entry on one side only.
    public var description: String {
        let head = "\(item) \(predictor)@\(formatDecimal(horizonMs, places: 6))ms"
        if metric == "entry" {
            return head + (isRegression ? ": missing from the current run REGRESSION" : ": new entry")
        }
        func f(_ x: Double?) -> String { x.map { formatDecimal($0, places: 6) } ?? "missing" }
        let pct = changePercent.map { ($0 >= 0 ? " (+" : " (") + formatDecimal($0, places: 2) + "%)" } ?? ""
        return "\(head) \(metric): \(f(old)) -> \(f(new))\(pct)\(isRegression ? " REGRESSION" : "")"
    }
}

/// How one metric is gated: how far it may move, and which moves fail.
public struct MetricRule: Sendable, Hashable, CustomStringConvertible {
    /// How far a metric may move before the move counts.
    public enum Tolerance: Sendable, Hashable, CustomStringConvertible {
        /// A percentage of the baseline value (never less than the rule's floor).
        case percent(Double)
        /// A number of points.
        case points(Double)

        /// `5%` or `0.5pt`.
        public var description: String {
            switch self {
            case .percent(let p): return formatDecimal(p, places: 6) + "%"
            case .points(let d): return formatDecimal(d, places: 6) + "pt"
            }
        }
    }

    /// Which moves beyond the tolerance fail.
    public enum Fails: String, Sendable, Hashable, CaseIterable {
        /// Moves the wrong way (``PredictionMetric/better``).
        case worse
        /// Any move: the metric must stay where it is.
        case both
    }

    /// The metric.
    public var metric: PredictionMetric
    /// How far it may move.
    public var tolerance: Tolerance
    /// The least a percentage tolerance allows, points: it keeps metrics
    /// near zero from flapping.
    public var floor: Double
    /// Which moves fail.
    public var fails: Fails

    /// A rule from its parts; by default moves for the worse fail, and a
    /// percentage allows at least 0.01 points.
    public init(_ metric: PredictionMetric, tolerance: Tolerance, floor: Double = MetricRule.defaultFloor, fails: Fails = .worse) {
        self.metric = metric
        self.tolerance = tolerance
        self.floor = floor
        self.fails = fails
    }

    /// The floor of a percentage tolerance unless set, points.
    public static let defaultFloor = 0.01

    /// Every metric at `percent`, moves for the worse failing: the gate's
    /// rules when no spec chooses them.
    public static func all(percent: Double, floor: Double = defaultFloor) -> [MetricRule] {
        PredictionMetric.allCases.map { MetricRule($0, tolerance: .percent(percent), floor: floor) }
    }

    /// How far the metric may move from `old`, points.
    public func threshold(old: Double) -> Double {
        switch tolerance {
        case .percent(let p): return Swift.max(Swift.abs(old) * p / 100, floor)
        case .points(let d): return d
        }
    }

    /// `photonRms: 5% (at least 0.01pt), smaller is better` or `jitter: 0.05pt, any move fails`.
    public var description: String {
        var text = "\(metric.rawValue): \(tolerance)"
        if case .percent = tolerance { text += " (at least \(formatDecimal(floor, places: 6))pt)" }
        switch fails {
        case .worse: text += metric.better == .smaller ? ", smaller is better" : ", closer to 0 is better"
        case .both: text += ", any move fails"
        }
        return text
    }
}

/// Compares a current run with a baseline, metric by metric.
///
/// A metric changed when `|new − old|` exceeds
/// `max(tolerancePercent% of |old|, absoluteFloor)`; the floor keeps metrics
/// near zero from flapping. Worse means larger for every magnitude metric;
/// for the signed along-track mean it means a larger `|value|` (further
/// towards overshoot or lateness); a sign flip at the same distance from 0
/// is a change but not a regression. An entry of the baseline missing from
/// the current run is a regression (coverage was lost); a new entry is
/// reported as a change that is not one.
///
/// Returns the changes sorted by item, predictor, horizon and metric order;
/// with `includeUnchanged`, every compared metric is returned.
public func compareBaselines(baseline: PredictionBaseline, current: PredictionBaseline,
                             tolerancePercent: Double, absoluteFloor: Double = 0.01,
                             includeUnchanged: Bool = false) -> [MetricChange] {
    compareBaselines(baseline: baseline, current: current, rules: MetricRule.all(percent: tolerancePercent, floor: absoluteFloor),
                     includeUnchanged: includeUnchanged)
}

/// Compares a current run with a baseline on the metrics of `rules` only,
/// each by its own rule: a metric changed when `|new − old|` exceeds the
/// rule's threshold, and regressed when the change fails the rule (for
/// ``MetricRule/Fails/worse``, when its cost, ``PredictionMetric/cost(_:)``,
/// grew by more than the threshold). Entries on one side only are treated as
/// ``compareBaselines(baseline:current:tolerancePercent:absoluteFloor:includeUnchanged:)``
/// treats them.
public func compareBaselines(baseline: PredictionBaseline, current: PredictionBaseline, rules: [MetricRule],
                             includeUnchanged: Bool = false) -> [MetricChange] {
    var old: [EntryKey: BaselineMetrics] = [:]
    for e in baseline.entries { old[e.key] = e.metrics }
    var new: [EntryKey: BaselineMetrics] = [:]
    for e in current.entries { new[e.key] = e.metrics }
    var changes: [MetricChange] = []
    for key in Set(old.keys).union(new.keys).sorted() {
        switch (old[key], new[key]) {
        case let (o?, n?):
            for rule in rules {
                let metric = rule.metric
                let a = o[metric], b = n[metric]
                let threshold = rule.threshold(old: a)
                let changed = Swift.abs(b - a) > threshold
                let worse = rule.fails == .both ? changed : metric.cost(b) - metric.cost(a) > threshold
                guard changed || includeUnchanged else { continue }
                changes.append(MetricChange(item: key.item, predictor: key.predictor, horizonMs: key.horizonMs,
                                            metric: metric.rawValue, old: a, new: b,
                                            changePercent: a != 0 ? (b - a) / Swift.abs(a) * 100 : nil,
                                            isRegression: worse))
            }
        case (_?, nil):
            changes.append(MetricChange(item: key.item, predictor: key.predictor, horizonMs: key.horizonMs,
                                        metric: "entry", old: nil, new: nil, changePercent: nil, isRegression: true))
        case (nil, _?):
            changes.append(MetricChange(item: key.item, predictor: key.predictor, horizonMs: key.horizonMs,
                                        metric: "entry", old: nil, new: nil, changePercent: nil, isRegression: false))
        case (nil, nil):
            break
        }
    }
    return changes
}
