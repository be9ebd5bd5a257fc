import ArgumentParser
import Experiments
import Foundation
import FramePipeline
import LatsimOutput
import Measures
import Scenarios
import SimKernel

struct TableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table",
        abstract: "Reproduce the talk's latency table (Docs/Model.md, \"The talk's table\").",
        discussion: """
        Runs each scenario the talk discusses with fixed durations that fit in a frame \
        and prints our pipeline-frames value beside the talk's figure. "every frame" \
        shows the range over every displayed frame: one value means all frames agree.
        Exit status 1 if any row disagrees with the talk.
        """
    )

    @Option(parsing: .unconditional, help: "Simulated time per scenario.") var duration: String = "10s"
    @Option(help: ArgumentHelp("Write the rows as JSON to PATH ('-' for stdout).", valueName: "PATH")) var json: String?
    @OptionGroup var limits: WorkLimitOptions

    func run() throws {
        try CLI.preflight(files: [json])
        let assignments = [Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration"))]
        try WorkEstimate.check(try TalkTable.rows.map { try Scenario.named($0.scenario).configuration(assignments) }, limit: limits.maxEvents)
        let rows = try TalkTableRun.run(assignments)
        if let json {
            let doc = ResultHeader.document("table", command: CLI.command, [("rows", .array(rows.map(\.json)))])
            try CLI.write(doc.text() + "\n", to: json)
            if json == "-" { if !rows.allSatisfy(\.agrees) { throw ExitCode(1) }; return }
        }
        var t = TextTable(header: ["scenario", "talk says", "talk", "simulated", "every frame", "effective", "t2p p50 ms", "verdict"],
                          rightAligned: [2, 3, 4, 5, 6])
        for r in rows {
            t.rows.append([r.row.scenario, r.row.label, formatDecimal(r.row.talkFrames, places: 2),
                           formatDecimal(r.compared, places: 3), r.range, formatDecimal(r.effectiveFrames, places: 3),
                           formatDecimal(r.touchToPhotonMsP50, places: 3), r.agrees ? "ok" : "DIFFERS"])
        }
        CLI.say(t.render())
        if !rows.allSatisfy(\.agrees) { throw ExitCode(1) }
    }
}
