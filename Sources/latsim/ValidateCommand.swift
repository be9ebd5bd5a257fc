import ArgumentParser
import Charts
import Experiments
import Foundation
import FramePipeline
import Measures
import Report
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
        --measurements the shipped table runs (Docs/Devices.md, "The shipped \
        rows"); a table of your own, in the same YAML format, runs your devices \
        (Docs/Devices.md, "Validation"). A row the model is known to miss says \
        so (expected: miss, with its reason): exit status 0 when every other row \
        passes and every expected miss still misses, 1 when a row misses that should \
        pass or an expected miss starts passing, so it can run as a CI check.

        Examples:
          latsim validate
          latsim validate --json - --chart charts/
          latsim validate --measurements Examples/devices/our-devices.yaml
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
        let results = try Validation.run(table, jobs: Parallel.availableCPUs)
        let wall = Date().timeIntervalSince(started)
        if let json {
            try CLI.write(ResultHeader.document("validate", command: CLI.command, [("rows", ValidationOutput.json(results))]).text() + "\n", to: json)
        }
        if json != "-" {
            CLI.say(ValidationOutput.table(results))
            CLI.say("")
            for r in results {
                CLI.say("\(r.row.id): \(r.stagesSentence)")
                if !r.row.note.isEmpty { CLI.say("  note: \(r.row.note)") }
                if r.row.expectedMiss { CLI.say("  expected to miss: \(r.row.reason)") }
            }
            CLI.say("")
            CLI.say(ValidationOutput.summary(results) + " (\(table.file), \(formatDecimal(wall, places: 2, fixed: true)) s)")
        }
        // the chart after the table: a chart that cannot be drawn leaves the table printed
        if let chart {
            let output = try Gnuplot.system().render(ValidationOutput.chart(results), directory: URL(fileURLWithPath: chart),
                                                     basename: "validation")
            if json != "-" { CLI.report(output) }
        }
        if !results.allSatisfy(\.asExpected) { throw ExitCode(ExitStatus.checkFailed) }
    }
}
