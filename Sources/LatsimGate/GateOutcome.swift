import Experiments
import Foundation
import LatsimOutput
import SimKernel
import TouchModel

/// What one pass of the gate found: every run, the comparison with the
/// baseline, and the ways to report it (text, JUnit XML, GitHub
/// annotations, a Markdown summary).
///
/// Everything is counted in *entries* (one item × predictor × horizon) and,
/// for regressions, also in *metrics*; each report names which.
public struct GateOutcome: Sendable {
    /// The baseline file compared with (or written).
    public var baselineFile: String
    /// The metrics gated and their tolerances.
    public var rules: [MetricRule]
    /// Every run, in corpus order (item, horizon, predictor).
    public var results: [PredictionCorpus.CellResult]
    /// The baseline as it was read (empty when it was written and none could be read).
    public var stored: PredictionBaseline
    /// The entries scored now (runs that scored nothing or gave unusable figures left out).
    public var current: PredictionBaseline
    /// Every gated metric that moved beyond its tolerance, and entries on one side only.
    public var changes: [MetricChange]
    /// Entries present in both.
    public var compared: Int
    /// True when this pass wrote the baseline.
    public var recorded: Bool
    /// Wall time of the pass, seconds.
    public var seconds: Double
    /// How the report says to accept a change (the command line names its flag).
    public var advice = RecordAdvice()
    /// True for a pass that was asked to record the baseline (it did not
    /// when ``recorded`` is false: its figures were unusable).
    public var recording = false
    /// The settings the runs were scored under (``GateSpec/settings(of:)``).
    public var settings: [String: String] = [:]
    /// The spec file, when the spec was read from one.
    public var specFile: String?
    /// What the report says besides (a baseline whose settings could not
    /// be checked), one sentence each.
    public var notes: [String] = []
    /// The line of the baseline file on which each of ``stored``'s entries
    /// begins (empty when unknown): where an annotation points.
    public var baselineLines: [Int] = []

    /// An outcome from its parts.
    public init(baselineFile: String, rules: [MetricRule], results: [PredictionCorpus.CellResult], stored: PredictionBaseline,
                current: PredictionBaseline, changes: [MetricChange], compared: Int, recorded: Bool, seconds: Double,
                advice: RecordAdvice = RecordAdvice(), recording: Bool = false, settings: [String: String] = [:], specFile: String? = nil) {
        self.baselineFile = baselineFile
        self.rules = rules
        self.results = results
        self.stored = stored
        self.current = current
        self.changes = changes
        self.compared = compared
        self.recorded = recorded
        self.seconds = seconds
        self.advice = advice
        self.recording = recording
        self.settings = settings
        self.specFile = specFile
    }

    // MARK: What was found

    /// The changes that make things worse (missing entries among them).
    public var regressions: [MetricChange] { changes.filter(\.isRegression) }
    /// The gated metrics that regressed (missing entries not among them).
    public var regressedMetrics: [MetricChange] { changes.filter { $0.isRegression && $0.metric != "entry" } }
    /// The entries with at least one regressed metric, in report order.
    public var regressedEntries: [EntryID] { Self.distinct(regressedMetrics.map { EntryID($0.item, $0.predictor, $0.horizonMs) }) }
    /// Baseline entries that this pass did not score (coverage lost; an
    /// entry with unusable figures is not among them).
    public var missingEntries: [EntryID] {
        Self.distinct(changes.filter { $0.metric == "entry" && $0.isRegression }.map { EntryID($0.item, $0.predictor, $0.horizonMs) })
    }
    /// Entries scored now that the baseline does not hold.
    public var newEntries: [EntryID] {
        Self.distinct(changes.filter { $0.metric == "entry" && !$0.isRegression }.map { EntryID($0.item, $0.predictor, $0.horizonMs) })
    }
    /// Runs whose figures are unusable (not finite, or beyond
    /// ``PredictionMetric/sensibleLimit``): the predictor's answers make no
    /// sense. Each fails the gate; none is compared or recorded.
    public var unusableRuns: [PredictionCorpus.CellResult] { GateOutcome.unusable(results) }
    /// Runs that scored nothing (never recorded).
    public var emptyRuns: [PredictionCorpus.CellResult] { results.filter { $0.score.samples == 0 } }

    /// True when nothing regressed, no baseline entry is missing and every
    /// figure is usable (after a record: when it was written).
    public var passed: Bool {
        unusableRuns.isEmpty && (recorded || (regressedMetrics.isEmpty && missingEntries.isEmpty))
    }
    /// 0 when the gate passed, 1 when it failed.
    public var exitStatus: Int32 { passed ? 0 : 1 }

    /// An entry's identity: item, predictor, horizon.
    public struct EntryID: Sendable, Hashable, CustomStringConvertible {
        public var item: String
        public var predictor: String
        public var horizonMs: Double
        public init(_ item: String, _ predictor: String, _ horizonMs: Double) {
            self.item = item
            self.predictor = predictor
            self.horizonMs = horizonMs
        }
        /// `strokes-seed1 kalman @ 16.667 ms`.
        public var description: String { "\(item) \(predictor) @ \(formatDecimal(horizonMs, places: 3)) ms" }
    }

    static func distinct(_ ids: [EntryID]) -> [EntryID] {
        var seen: Set<EntryID> = []
        return ids.filter { seen.insert($0).inserted }
    }

    /// The runs of `results` whose figures are unusable.
    static func unusable(_ results: [PredictionCorpus.CellResult]) -> [PredictionCorpus.CellResult] {
        results.filter { $0.score.samples > 0 && PredictionMetric.unusableReason($0.score) != nil }
    }

    /// The identity of an entry.
    static func key(_ e: BaselineEntry) -> String { key(e.item, e.predictor, e.horizonMs) }
    /// The identity of an entry from its parts.
    static func key(_ item: String, _ predictor: String, _ horizonMs: Double) -> String { "\(item)\u{0}\(predictor)\u{0}\(horizonMs)" }

    // MARK: Words

    /// `1 entry`, `2 entries`: a count and its noun, singular or plural.
    public static func count(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? singular : plural ?? singular + "s")
    }

    /// `N items (a, b, ...) x predictors (p, q)` for a message.
    static func describe(_ entries: [BaselineEntry]) -> String {
        func list(_ names: [String]) -> String {
            var seen: [String] = []
            for n in names where !seen.contains(n) { seen.append(n) }
            let shown = seen.prefix(4).joined(separator: ", ")
            return seen.count > 4 ? shown + ", ... \(seen.count) in all" : shown
        }
        if entries.isEmpty { return "nothing" }
        return "items \(list(entries.map(\.item))); predictors \(list(entries.map(\.predictor)))"
    }

    /// `12 items x 5 predictors x 3 horizons`.
    public var shape: String {
        let items = Set(results.map(\.item)).count, predictors = Set(results.map(\.predictor)).count
        let horizons = Set(results.map(\.horizon)).count
        return "\(Self.count(items, "item")) x \(Self.count(predictors, "predictor")) x \(Self.count(horizons, "horizon"))"
    }

    /// The setting in one line: `scenario ios9-prediction, scan 120 Hz,
    /// display 60 Hz, finger; horizons ...; gated: photonRms 5%, ...`.
    public var settingLine: String {
        var parts: [String] = []
        if let s = settings["scenario"] { parts.append("scenario \(s)" + (settings["device"].map { $0 == "none" ? "" : " on \($0)" } ?? "")) }
        if let s = settings["scanHz"] { parts.append("scan \(s) Hz") }
        if let d = settings["displayHz"] { parts.append("display \(d) Hz") }
        if let t = settings["tool"] { parts.append(t) }
        if let h = settings["horizons"] { parts.append("horizons \(h)") }
        if let s = settings["smoothing"], s != "none" { parts.append("smoothing \(s)") }
        let gated = rules.map { "\($0.metric.rawValue) \($0.tolerance)\($0.fails == .both ? " (any move)" : "")" }.joined(separator: ", ")
        return "spec \(specFile ?? "(default)"): " + parts.joined(separator: ", ") + "; gated: " + gated
    }

    /// The verdict in one line, as every report gives it: `FAILED: 8 of 42
    /// entries regressed (16 metrics); 2 baseline entries missing from this
    /// run`, `passed: 42 entries compared, no gated metric beyond its
    /// tolerance`, `wrote 15 entries (...) to FILE`.
    public var verdict: String {
        let unusable = unusableRuns.count
        if recording {
            if !recorded {
                return "FAILED: \(Self.count(unusable, "run")) with unusable figures; nothing written to \(baselineFile)"
            }
            return "wrote \(Self.count(current.entries.count, "entry", "entries")) (\(shape)) to \(baselineFile)"
        }
        let regressed = regressedEntries.count, metrics = regressedMetrics.count, missing = missingEntries.count
        if passed {
            let moved = changes.filter { $0.metric != "entry" }.count
            var line = "passed: \(Self.count(compared, "entry", "entries")) compared, "
            line += moved == 0 ? "no gated metric beyond its tolerance" : "\(Self.count(moved, "metric")) moved beyond \(moved == 1 ? "its" : "their") tolerance, none for the worse (\(advice.afterImprovement))"
            if !newEntries.isEmpty { line += "; \(Self.count(newEntries.count, "entry", "entries")) new" }
            return line
        }
        var parts: [String] = []
        if regressed > 0 { parts.append("\(regressed) of \(Self.count(compared, "entry", "entries")) regressed (\(Self.count(metrics, "metric")))") }
        if missing > 0 { parts.append("\(Self.count(missing, "baseline entry", "baseline entries")) missing from this run") }
        if unusable > 0 { parts.append("\(Self.count(unusable, "run")) with unusable figures") }
        return "FAILED: " + parts.joined(separator: "; ")
    }

    // MARK: The readable report

    /// The readable report: the setting, what was compared, the changes
    /// with REGRESSION on those that are worse, missing and new entries,
    /// unusable runs, runs that scored nothing, and the verdict line.
    public var report: String {
        var lines: [String] = [settingLine]
        if !recording {
            let count = compared == current.entries.count ? "\(compared)" : "\(compared) of \(current.entries.count)"
            lines.append("compared \(count) \(compared == 1 ? "entry" : "entries") (\(shape)) with \(baselineFile)")
        }
        lines += notes.map { "note: " + $0 }
        let moved = changes.filter { $0.metric != "entry" }
        if !moved.isEmpty { lines += ["", table(moved)] }
        let unusable = unusableRuns
        if !unusable.isEmpty {
            lines += ["", "\(Self.count(unusable.count, "run")) gave unusable figures (the predictor's answers are not finite or absurd; "
                      + "such a predictor fails the gate\(recording ? " and is not recorded" : "")):"]
            for r in unusable.prefix(10) {
                lines.append("  \(EntryID(r.item, r.predictor, r.horizonMs)): \(PredictionMetric.unusableReason(r.score) ?? "")")
            }
            if unusable.count > 10 { lines.append("  ... \(unusable.count - 10) more") }
        }
        if !recording {
            let missing = missingEntries
            if !missing.isEmpty {
                lines += ["", "\(Self.count(missing.count, "baseline entry", "baseline entries")) missing from this run (coverage lost; each fails the gate):"]
                lines += missing.prefix(10).map { "  \($0)" }
                if missing.count > 10 { lines.append("  ... \(missing.count - 10) more") }
            }
            let new = newEntries
            if !new.isEmpty {
                lines += ["", "\(Self.count(new.count, "entry", "entries")) new in this run (not in the baseline; \(advice.afterImprovement)): "
                          + new.prefix(5).map(\.description).joined(separator: "; ") + (new.count > 5 ? "; ..." : "")]
            }
        }
        let empty = emptyRuns
        if !empty.isEmpty {
            lines += ["", "\(Self.count(empty.count, "run")) scored nothing and \(empty.count == 1 ? "is" : "are") not in the baseline: "
                      + empty.prefix(5).map { EntryID($0.item, $0.predictor, $0.horizonMs).description }.joined(separator: "; ")
                      + (empty.count > 5 ? "; ..." : "")]
        }
        lines += ["", verdict]
        if !passed && !regressedMetrics.isEmpty && !recording {
            lines.append("if the change is intended, \(advice.afterRegression)")
        }
        return lines.joined(separator: "\n")
    }

    /// The tolerance of a metric as written: `2%`; `-` when it is not gated.
    func tolerance(of metric: String) -> String {
        rules.first { $0.metric.rawValue == metric }.map { "\($0.tolerance)" } ?? "-"
    }

    /// The metric changes as a table.
    func table(_ changes: [MetricChange]) -> String {
        var t = TextTable(header: ["item", "predictor", "horizon ms", "metric", "old", "new", "change %", "tolerance", "verdict"],
                          rightAligned: [2, 4, 5, 6, 7])
        func f(_ x: Double?) -> String { x.map { formatDecimal($0, places: 6) } ?? "-" }
        for c in changes {
            let pct = c.changePercent.map { ($0 > 0 ? "+" : "") + formatDecimal($0, places: 2) } ?? "-"
            let marker = c.isRegression ? "REGRESSION" : (abs(c.new ?? 0) < abs(c.old ?? 0) ? "better" : "changed")
            t.rows.append([c.item, c.predictor, formatDecimal(c.horizonMs, places: 3), c.metric, f(c.old), f(c.new), pct,
                           tolerance(of: c.metric), marker])
        }
        return t.render()
    }

    /// One entry's every metric, old and new, as a small table (the body of
    /// a JUnit failure and of a GitHub annotation); metrics not gated are
    /// marked so.
    func metricTable(_ id: EntryID) -> String {
        let key = GateOutcome.key(id.item, id.predictor, id.horizonMs)
        let old = stored.entries.first { GateOutcome.key($0) == key }?.metrics
        let new = current.entries.first { GateOutcome.key($0) == key }?.metrics
        let flagged = Set(regressedMetrics.filter { EntryID($0.item, $0.predictor, $0.horizonMs) == id }.map(\.metric))
        var t = TextTable(header: ["metric", "baseline", "now", "change %", "tolerance", "verdict"], rightAligned: [1, 2, 3, 4])
        for m in PredictionMetric.allCases {
            let a = old?[m], b = new?[m]
            var pct = "-"
            if let a, let b, a != 0 { pct = (b >= a ? "+" : "") + formatDecimal((b - a) / abs(a) * 100, places: 2) }
            let gated = tolerance(of: m.rawValue)
            t.rows.append([m.rawValue, a.map { formatDecimal($0, places: 6) } ?? "-", b.map { formatDecimal($0, places: 6) } ?? "-",
                           pct, gated == "-" ? "not gated" : gated, flagged.contains(m.rawValue) ? "REGRESSION" : ""])
        }
        return t.render()
    }

    /// Why one entry's figures are unusable; nil when they are usable.
    func unusableReason(_ id: EntryID) -> String? {
        unusableRuns.first { EntryID($0.item, $0.predictor, $0.horizonMs) == id }.flatMap { PredictionMetric.unusableReason($0.score) }
    }

    /// The regressed metrics of one entry, one phrase each: `photonRms 5.1 -> 6.2 (+21.57%, tolerance 5%)`.
    func regressionSummary(_ id: EntryID) -> String {
        regressedMetrics.filter { EntryID($0.item, $0.predictor, $0.horizonMs) == id }.map { c -> String in
            let pct = c.changePercent.map { ($0 > 0 ? "+" : "") + formatDecimal($0, places: 2) + "%, " } ?? ""
            return "\(c.metric) \(formatDecimal(c.old ?? 0, places: 6)) -> \(formatDecimal(c.new ?? 0, places: 6)) (\(pct)tolerance \(tolerance(of: c.metric)))"
        }.joined(separator: ", ")
    }

    /// The entries that fail, in corpus order, each with what a report
    /// says of it: unusable figures first within an entry, then its
    /// regressed metrics.
    func failures() -> [(id: EntryID, unusable: String?, regression: String)] {
        var out: [(EntryID, String?, String)] = []
        for c in testCases() {
            let reason = unusableReason(c.id)
            let summary = regressionSummary(c.id)
            if reason != nil || !summary.isEmpty { out.append((c.id, reason, summary)) }
        }
        return out
    }

    /// The runs of this pass as test cases, in corpus order, each once.
    func testCases() -> [(id: EntryID, scored: Bool)] {
        var out: [(EntryID, Bool)] = []
        var seen: Set<EntryID> = []
        for r in results {
            let id = EntryID(r.item, r.predictor, r.horizonMs)
            guard seen.insert(id).inserted else { continue }
            out.append((id, r.score.samples > 0))
        }
        return out
    }
}

/// How a gate's report tells its reader to accept changes.
public struct RecordAdvice: Sendable {
    /// After `if the change is intended, `.
    public var afterRegression: String
    /// After `N changes for the better or new; `.
    public var afterImprovement: String

    /// Advice; by default in terms of ``PredictionGate/record(predictors:own:)``.
    public init(afterRegression: String = "record the baseline again and commit it",
                afterImprovement: String = "recording the baseline again keeps them") {
        self.afterRegression = afterRegression
        self.afterImprovement = afterImprovement
    }
}
