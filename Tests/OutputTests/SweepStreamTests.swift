import Experiments
import Foundation
import LatsimOutput
import Report
import Scenarios
import SimKernel
import Testing

/// A sweep's outputs written row by row (``SweepStream``) are byte for byte
/// those made of the whole result: CSV, long CSV, JSON and table.
@Suite struct SweepStreamTests {
    static func assignments(_ sets: [String]) throws -> [Assignment] {
        try sets.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) }
    }

    @Test(arguments: [
        ("ios8", ["gpu.render=2ms...16ms:1ms"], 1),
        ("ios9-coalescing-120hz", ["gpu.render=2ms...10ms:4ms", "os.buffering=double,adaptive"], 3),
        ("android-default", ["android.sfCompose=1ms,3ms"], 2),
    ])
    func streamedOutputsAreTheWholeResults(scenario: String, vary: [String], seeds: Int) throws {
        let s = try Scenario.named(scenario)
        let a = try Self.assignments(["duration=500ms", "app.handler=normal(4ms,1ms)"])
        var result = try Sweep.run(scenario: s, assignments: a, axes: try vary.map { try SweepAxis(parsing: $0) }, seeds: seeds, jobs: 2)
        result.command = "latsim sweep \(scenario)"
        result.settings = try s.settings(with: a).resolved()
        var head = result
        head.rows = []
        let csv = ByteSink.memory(), long = ByteSink.memory(), json = ByteSink.memory()
        let stream = try SweepStream(head: head, csv: csv, csvLong: long, json: json, table: true, keepRows: false)
        for row in result.rows { try stream.add(row) }
        try stream.finish()
        func text(_ sink: ByteSink) -> String { String(decoding: sink.bytes, as: UTF8.self) }
        #expect(text(csv) == SweepOutput.csv(result))
        #expect(text(long) == SweepOutput.longCSV(result))
        #expect(text(json) == SweepOutput.json(result).text() + "\n")
        let table = ByteSink.memory()
        try stream.table!.write(to: table)
        #expect(text(table) == SweepOutput.table(result) + "\n")
        #expect(SweepOutput.heading(head, first: stream.first) == SweepOutput.heading(result))
        #expect(stream.rows.isEmpty && stream.withRows(head).rows.isEmpty)
    }
}
