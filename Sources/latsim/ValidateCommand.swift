import ArgumentParser
import Experiments
import FramePipeline
import Foundation
import LatencyReport
import Scenarios
import SimKernel

/// `latsim validate`: published measurements against the model.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Run published touch and display measurements on their devices and compare (Docs/Devices.md).",
        discussion: """
        Runs every row of a table of published measurements: the app the \
        measurement used (a built-in scenario such as walt-screen or agawi-glkit) on \
        the device it was taken on (a preset, `latsim devices`), for 60 s simulated, \
        and prints the published figure beside the simulated one with the error and \
        a verdict: pass within 10% or 5 ms, whichever is larger. Without \
        --measurements the shipped table runs (references/measurements.md, section \
        2); a table of your own, in the same YAML format, runs your devices \
        (Docs/Devices.md, "Validation"). Exit status 1 when a row misses.

        Examples:
          latsim validate
          latsim validate --json - --chart charts/
          latsim validate --measurements our-devices.yaml
        """
    )

    @Option(help: ArgumentHelp("A YAML table of measurements (default: the shipped table).", valueName: "FILE"))
    var measurements: String?
    @Option(help: ArgumentHelp("Write one object per row as JSON to PATH ('-' for stdout, then nothing else is printed there).", valueName: "PATH"))
    var json: String?
    @Option(help: ArgumentHelp("Write the chart (published beside simulated) into DIR as validation.png, .svg, .gp and .dat.", valueName: "DIR"))
    var chart: String?

    func run() throws {
        let table: MeasurementTable
        if let measurements {
            table = try MeasurementTable.load(file: measurements)
        } else {
            table = try MeasurementTable.builtin()
        }
        try CLI.preflight(files: [json], directories: [chart])
        let started = Date()
        let results = try Validation.run(table, jobs: ProcessInfo.processInfo.activeProcessorCount)
        let wall = Date().timeIntervalSince(started)
        var chartOutput: ChartOutput?
        if let chart {
            chartOutput = try Gnuplot.system().render(ValidationOutput.chart(results), directory: URL(fileURLWithPath: chart),
                                                      basename: "validation")
        }
        if let json {
            try CLI.write(ResultHeader.document("validate", command: CLI.command, [("rows", ValidationOutput.json(results))]).text() + "\n", to: json)
        }
        if json != "-" {
            CLI.say(ValidationOutput.table(results))
            CLI.say("")
            for r in results {
                CLI.say("\(r.row.id): \(r.stagesSentence)")
                if !r.row.note.isEmpty { CLI.say("  note: \(r.row.note)") }
            }
            let passed = results.filter(\.passes).count
            CLI.say("")
            CLI.say("\(passed) of \(results.count) measurements within 10% or 5 ms (\(table.file), \(formatDecimal(wall, places: 2, fixed: true)) s)")
            if let chartOutput { CLI.report(chartOutput) }
        }
        if !results.allSatisfy(\.passes) { throw ExitCode(ExitStatus.checkFailed) }
    }
}
