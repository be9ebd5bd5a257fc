import Charts
import Experiments
import FramePipeline
import LatsimOutput
import Measures
import Scenarios
import SimKernel

/// The outputs of `latsim validate` (Docs/Devices.md, "Validation"): the
/// JSON rows, the text table and the chart.
public enum ValidationOutput {
    /// One object per row: `id`, `device`, `scenario`, `measure`,
    /// `published`, `simulated`, `errorPct`, `pass`, then the details.
    public static func json(_ results: [ValidationResult]) -> JSONValue {
        .array(results.map { r in
            .object([
                ("id", .string(r.row.id)),
                ("device", .string(r.row.device)),
                ("scenario", .string(r.row.scenario)),
                ("measure", .string(r.row.measure.rawValue)),
                ("published", .ms(r.published)),
                ("simulated", .ms(r.simulated)),
                ("errorPct", .number(r.errorPercent, places: 3)),
                ("pass", .bool(r.passes)),
                ("expected", .string(r.row.expectedMiss ? "miss" : "pass")),
                ("verdict", .string(r.verdict.rawValue)),
                ("asExpected", .bool(r.asExpected)),
                ("statistic", .string(r.row.statistic.rawValue)),
                ("spread", r.row.spread.map { .array([.ms(Double($0.low) / 1e6), .ms(Double($0.high) / 1e6)]) } ?? .null),
                ("errorMs", .ms(r.errorMs)),
                ("toleranceMs", .ms(r.toleranceMs)),
                ("distribution", RunSummary.stats(r.distribution)),
                ("stages", .array(r.composition.map { .object([("stage", .string($0.stage)), ("ms", .ms($0.ms))]) })),
                ("source", .string(r.row.source)),
                ("tag", .string(r.row.tag)),
                ("what", .string(r.row.what)),
                ("note", r.row.note.isEmpty ? .null : .string(r.row.note)),
                ("reason", r.row.reason.isEmpty ? .null : .string(r.row.reason)),
            ])
        })
    }

    /// The readable table: published against simulated, the error and the verdict.
    public static func table(_ results: [ValidationResult]) -> String {
        var t = TextTable(header: ["measurement", "device", "app", "measure", "published ms", "simulated ms", "p5-p95 ms",
                                   "error ms", "error", "verdict"],
                          rightAligned: [4, 5, 6, 7, 8])
        for r in results {
            t.rows.append([r.row.id, r.row.device, r.row.scenario, r.row.measure.rawValue + (r.row.statistic == .mean ? "" : " p50"),
                           published(r), formatDecimal(r.simulated, places: 1), percentiles(r),
                           signed(r.errorMs, places: 1), signed(r.errorPercent, places: 1) + "%", r.verdict.text])
        }
        return t.render()
    }

    /// `48.8 (47.3-50.2)`.
    public static func published(_ r: ValidationResult) -> String {
        var s = formatDecimal(r.published, places: 1)
        if let sp = r.row.spread {
            s += " (\(formatDecimal(Double(sp.low) / 1e6, places: 1))-\(formatDecimal(Double(sp.high) / 1e6, places: 1)))"
        }
        return s
    }

    static func percentiles(_ r: ValidationResult) -> String {
        let q = r.distribution.percentiles([5, 95])
        guard let lo = q[0], let hi = q[1] else { return "-" }
        return "\(formatDecimal(lo, places: 1))-\(formatDecimal(hi, places: 1))"
    }

    public static func signed(_ x: Double, places: Int) -> String { (x >= 0 ? "+" : "") + formatDecimal(x, places: places) }

    /// The closing line of `validate`: how many rows pass, how many miss as
    /// the table expects, and which rows failed the check.
    public static func summary(_ results: [ValidationResult]) -> String {
        let passed = results.filter { $0.verdict == .pass }.count
        let expected = results.filter { $0.verdict == .expectedMiss }.count
        var s = "\(passed) of \(results.count) measurements within 10% or 5 ms"
        if expected > 0 { s += ", \(expected) expected miss\(expected == 1 ? "" : "es") (each with its reason)" }
        let missed = results.filter { $0.verdict == .miss }.map(\.row.id)
        let unexpected = results.filter { $0.verdict == .unexpectedPass }.map(\.row.id)
        if !missed.isEmpty { s += "; missed, expected to pass: " + missed.joined(separator: ", ") }
        if !unexpected.isEmpty { s += "; passes, expected to miss (remove its expected: miss): " + unexpected.joined(separator: ", ") }
        return s
    }

    /// The chart of the rows.
    public static func chart(_ results: [ValidationResult]) -> ValidationChart {
        ValidationChart(rows: results.map { r in
            let q = r.distribution.percentiles([5, 25, 75, 95])
            return ValidationChart.Row(id: r.row.id, detail: "\(r.row.device), \(r.row.scenario)", published: r.published,
                                       spread: r.row.spread.map { (Double($0.low) / 1e6, Double($0.high) / 1e6) },
                                       tolerance: r.toleranceMs, simulated: r.simulated,
                                       p5: q[0] ?? r.simulated, p25: q[1] ?? r.simulated, p75: q[2] ?? r.simulated,
                                       p95: q[3] ?? r.simulated, passes: r.passes,
                                       expectedMiss: r.row.expectedMiss)
        })
    }
}
