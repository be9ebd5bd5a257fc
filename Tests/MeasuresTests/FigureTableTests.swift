import Experiments
import FramePipeline
import Measures
import Scenarios
import Testing

/// The report's scenario tables (``FigureTable/grouped(_:)``) hold every
/// figure each run produces, in a row of that run, and nothing it does not.
@Suite struct FigureTableTests {
    static func run(_ name: String, _ device: String? = nil) throws -> RunResult {
        var s = try Scenario.named(name)
        if let device { s = try s.applying(device: try DevicePreset.named(device)) }
        let settings = try s.settings(with: [Assignment(path: "duration", value: "2s", source: SettingSource(file: "test"))])
        return try PipelineRun.run(try settings.configuration())
    }

    @Test func everyFigureARunProducesIsInTheReportsTables() throws {
        let results: [(name: String, result: RunResult)] = [
            ("ios9-low-latency", try Self.run("ios9-low-latency")), ("android-default", try Self.run("android-default")),
            ("agawi-glkit", try Self.run("agawi-glkit", "iphone-5")), ("ios9-peek-pop", try Self.run("ios9-peek-pop")),
            ("ios9-prediction", try Self.run("ios9-prediction")), ("android-scroll", try Self.run("android-scroll", "nexus-5")),
            ("android-ink-front", try Self.run("android-ink-front")),
        ]
        let tables = FigureTable.grouped(results)
        #expect(tables.count == FigureTable.groups.count)
        for (name, r) in results {
            for f in Figure.allCases {
                // the cell of this run under this figure's column, wherever it is
                let cells = tables.compactMap { _, t -> String? in
                    guard let col = t.header.firstIndex(of: f.column), let row = t.rows.first(where: { $0[0] == name }) else { return nil }
                    return row[col]
                }
                if f.isProduced(by: r) {
                    #expect(cells.count == 1, "\(name) \(f): \(cells)")
                    #expect(cells.first == FigureTable.cell(f.value(r), f), "\(name) \(f)")
                } else {
                    #expect(cells.allSatisfy { $0 == "-" }, "\(name) \(f): \(cells)")
                }
            }
        }
        // a column per figure, once across the tables
        let columns = tables.flatMap { $0.table.header.dropFirst() }
        #expect(Set(columns).count == columns.count)
    }
}
