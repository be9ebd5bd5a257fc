import ArgumentParser
import Foundation
import FramePipeline
import Report
import Scenarios
import SimKernel

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Run the built-in scenarios and write the report with its charts.",
        discussion: """
        Runs the talk's table, pipeline diagrams, every built-in scenario, sweeps of GPU \
        and handler time, the prediction comparison and the published measurements on their devices \
        (latsim validate); writes README.md with PNG and SVG \
        charts (and their .gp/.dat) into the output directory. Without gnuplot the numbers, \
        .gp and .dat files are still written, with a line saying how to render them.
        """
    )

    @Option(help: "Output directory.") var out: String = "Reports"
    @Option(parsing: .unconditional, help: "Simulated time of each run.") var duration: String = "10s"
    @Option(parsing: .unconditional, help: "Random seed.") var seed: String = "1"
    @OptionGroup var limits: WorkLimitOptions

    func run() throws {
        try CLI.preflight(files: [], directories: [out])
        // --duration and --seed are checked as the keys they set
        let checked = try Scenario.named("ios8").configuration([
            Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration")),
            Assignment(path: "seed", value: seed, source: SettingSource(file: "--seed")),
        ])
        // the report makes about 150 runs of --duration (scenarios, sweeps, prediction)
        let typical = try Scenario.named("ios9-coalescing-120hz").configuration([
            Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration"))])
        try WorkEstimate.check(events: 150 * WorkEstimate.events(typical), runs: 150, limit: limits.maxEvents)
        let started = Date()
        let writer = ReportWriter(directory: URL(fileURLWithPath: out), duration: duration, seed: checked.seed,
                                  progress: { CLI.warn("report: " + $0) })
        let page = try writer.write()
        CLI.say(page.path)
        CLI.warn("report written in \(formatDecimal(Date().timeIntervalSince(started), places: 1, fixed: true)) s")
    }
}
