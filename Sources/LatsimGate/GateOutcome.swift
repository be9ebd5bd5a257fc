import Experiments
import Foundation
import LatsimOutput
import SimKernel
import TouchModel

/// What one pass of the gate found: every run, the comparison with the
/// baseline, and the ways to report it (text, JUnit XML, GitHub
/// annotations).
public struct GateOutcome: Sendable {
    /// The baseline file compared with (or written).
    public var baselineFile: String
    /// The tolerance, percent.
    public var tolerancePercent: Double
    /// Every run, in corpus order (item, horizon, predictor).
    public var results: [PredictionCorpus.CellResult]
    /// The baseline as it was read (empty when it was written and none could be read).
    public var stored: PredictionBaseline
    /// The entries scored now (runs that scored nothing left out).
    public var current: PredictionBaseline
    /// Every metric that moved beyond the tolerance, and entries on one side only.
    public var changes: [MetricChange]
    /// Entries present in both.
    public var compared: Int
    /// True when this pass wrote the baseline (`record`).
    public var recorded: Bool
    /// Wall time of the pass, seconds.
    public var seconds: Double
    /// How the report says to accept a change (the command line names its flag).
    public var advice = RecordAdvice()

    /// The changes that make things worse.
    public var regressions: [MetricChange] { changes.filter(\.isRegression) }
    /// True when nothing regressed (always after a record).
    public var passed: Bool { recorded || regressions.isEmpty }
    /// 0 when the gate passed, 1 when something regressed.
    public var exitStatus: Int32 { passed ? 0 : 1 }
    /// Runs that scored nothing (never recorded).
    public var emptyRuns: [PredictionCorpus.CellResult] { results.filter { $0.score.samples == 0 } }

    /// The identity of an entry.
    static func key(_ e: BaselineEntry) -> String { "\(e.item)\u{0}\(e.predictor)\u{0}\(e.horizonMs)" }

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

    /// The distinct values of a field of the current entries, in order.
    func distinct(_ field: (BaselineEntry) -> String) -> [String] {
        var seen: [String] = []
        for e in current.entries where !seen.contains(field(e)) { seen.append(field(e)) }
        return seen
    }

    /// `12 items x 5 predictors x 3 horizons`.
    public var shape: String {
        let items = Set(results.map(\.item)).count, predictors = Set(results.map(\.predictor)).count
        let horizons = Set(results.map(\.horizon)).count
        return "\(items) item\(items == 1 ? "" : "s") x \(predictors) predictor\(predictors == 1 ? "" : "s") x \(horizons) horizon\(horizons == 1 ? "" : "s")"
    }

    /// The readable report: what was compared, the changes with
    /// REGRESSION on those that are worse, runs that scored nothing, and a
    /// verdict line.
    public var report: String {
        var lines: [String] = []
        let tolerance = formatDecimal(tolerancePercent, places: 3)
        if recorded {
            if !changes.isEmpty { lines += [GateOutcome.table(changes), ""] }
            lines.append("wrote \(current.entries.count) entries (\(shape)) to \(baselineFile)")
        } else {
            let count = compared == current.entries.count ? "\(compared)" : "\(compared) of \(current.entries.count)"
            lines.append("compared \(count) entries (\(shape)) with \(baselineFile), tolerance \(tolerance)%")
            if changes.isEmpty {
                lines.append("no metric moved beyond the tolerance")
            } else {
                lines += ["", GateOutcome.table(changes), ""]
                let n = regressions.count
                if n > 0 {
                    lines.append("\(n) regression\(n == 1 ? "" : "s"); if the change is intended, \(advice.afterRegression)")
                } else {
                    lines.append("no regression (\(changes.count) change\(changes.count == 1 ? "" : "s") for the better or new; \(advice.afterImprovement))")
                }
            }
        }
        let empty = emptyRuns
        if !empty.isEmpty {
            let names = empty.prefix(5).map { "\($0.item) \($0.predictor) @ \(formatDecimal($0.horizonMs, places: 3)) ms" }
            lines.append("\(empty.count) run\(empty.count == 1 ? "" : "s") scored nothing and \(empty.count == 1 ? "is" : "are") not in the baseline: "
                         + names.joined(separator: "; ") + (empty.count > 5 ? "; ..." : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// The change list as a table.
    public static func table(_ changes: [MetricChange]) -> String {
        var t = TextTable(header: ["item", "predictor", "horizon ms", "metric", "old", "new", "change %", ""],
                          rightAligned: [2, 4, 5, 6])
        func f(_ x: Double?) -> String { x.map { formatDecimal($0, places: 6) } ?? "-" }
        for c in changes {
            let pct = c.changePercent.map { ($0 > 0 ? "+" : "") + formatDecimal($0, places: 2) } ?? "-"
            let marker: String
            if c.metric == "entry" {
                marker = c.isRegression ? "REGRESSION (missing from this run)" : "new entry"
            } else {
                marker = c.isRegression ? "REGRESSION" : (abs(c.new ?? 0) < abs(c.old ?? 0) ? "better" : "changed")
            }
            t.rows.append([c.item, c.predictor, formatDecimal(c.horizonMs, places: 3),
                           c.metric == "entry" ? "-" : c.metric, f(c.old), f(c.new), c.metric == "entry" ? "-" : pct, marker])
        }
        return t.render()
    }

    /// One entry's every metric, old and new, as a small table (the body of
    /// a JUnit failure and of a GitHub annotation).
    func metricTable(item: String, predictor: String, horizonMs: Double) -> String {
        let key = "\(item)\u{0}\(predictor)\u{0}\(horizonMs)"
        let old = stored.entries.first { GateOutcome.key($0) == key }?.metrics
        let new = current.entries.first { GateOutcome.key($0) == key }?.metrics
        let flagged = Set(changes.filter { $0.item == item && $0.predictor == predictor && $0.horizonMs == horizonMs && $0.isRegression }.map(\.metric))
        var t = TextTable(header: ["metric", "baseline", "now", "change %", ""], rightAligned: [1, 2, 3])
        for m in PredictionMetric.allCases {
            let a = old?[m], b = new?[m]
            var pct = "-"
            if let a, let b, a != 0 { pct = (b >= a ? "+" : "") + formatDecimal((b - a) / abs(a) * 100, places: 2) }
            t.rows.append([m.rawValue, a.map { formatDecimal($0, places: 6) } ?? "-", b.map { formatDecimal($0, places: 6) } ?? "-",
                           pct, flagged.contains(m.rawValue) ? "REGRESSION" : ""])
        }
        return t.render()
    }

    /// The regressions of one entry, one phrase each: `photonRms 5.1 -> 6.2 (+21.57%)`.
    func regressionSummary(item: String, predictor: String, horizonMs: Double) -> String {
        regressions.filter { $0.item == item && $0.predictor == predictor && $0.horizonMs == horizonMs }.map { c -> String in
            if c.metric == "entry" { return "missing from this run" }
            let pct = c.changePercent.map { " (" + ($0 > 0 ? "+" : "") + formatDecimal($0, places: 2) + "%)" } ?? ""
            return "\(c.metric) \(formatDecimal(c.old ?? 0, places: 6)) -> \(formatDecimal(c.new ?? 0, places: 6))\(pct)"
        }.joined(separator: ", ")
    }

    /// The entries of the gate, for the test reports: every run of this
    /// pass and every baseline entry no run scored, in corpus order.
    func testCases() -> [(item: String, predictor: String, horizonMs: Double, scored: Bool)] {
        var out: [(String, String, Double, Bool)] = []
        var seen: Set<String> = []
        for r in results {
            let k = "\(r.item)\u{0}\(r.predictor)\u{0}\(r.horizonMs)"
            guard seen.insert(k).inserted else { continue }
            out.append((r.item, r.predictor, r.horizonMs, r.score.samples > 0))
        }
        for e in stored.entries where !seen.contains(GateOutcome.key(e)) {
            seen.insert(GateOutcome.key(e))
            out.append((e.item, e.predictor, e.horizonMs, false))
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
