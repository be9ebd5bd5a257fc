import ArgumentParser
import FramePipeline
import Foundation
import LatencyReport

struct DiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Draw the talk's pipeline diagram of a scenario.",
        discussion: """
        Rows Multi-Touch, App, Core Animation, GPU and Display; a column per display \
        frame; boxes coloured by display buffer (two colours when double buffered, three \
        when triple); commits as dots; one touch followed from its scan to its photon.
        Writes diagram-SCENARIO.png, .svg, and the .gp/.dat to re-render them.

        Example: latsim diagram ios8-complex --frames 10 --out charts/
        """
    )

    @Argument(help: "A built-in scenario name or a YAML file.") var scenario: String
    @Option(help: "Display frames to draw.") var frames: Int = 8
    @Option(help: "Output directory.") var out: String = "."
    @Option(name: .customLong("set"), help: ArgumentHelp("Override a configuration key.", valueName: "PATH=VALUE"))
    var overrides: [String] = []

    func validate() throws {
        guard (1...60).contains(frames) else { throw ValidationError("--frames must be 1...60, got \(frames)") }
    }

    func run() throws {
        try CLI.guarded {
            let s = try Scenario.named(scenario)
            let warmUp = 12
            let seconds = Double(warmUp + frames + 8) / (try s.configuration(overrides: overrides)).displayHz.doubleValue
            let c = try s.configuration(overrides: overrides, duration: "\(Int((seconds * 1000).rounded(.up)))ms")
            let r = try PipelineRun.run(c, keepLog: true)
            guard let chart = PipelineDiagramBuilder.diagram(r, scenario: s.name, frames: frames, warmUpFrames: warmUp) else {
                throw InputError("\(s.name): no touch reached the display in the drawn frames (is the finger down? try more --frames)")
            }
            let output = try Gnuplot.system().render(chart, directory: URL(fileURLWithPath: out), basename: "diagram-\(s.name)")
            CLI.report(output)
        }
    }
}

extension CLI {
    /// Says where a chart went, or how to render it without gnuplot.
    static func report(_ output: ChartOutput) {
        if output.rendered {
            say(output.images.map(\.path).joined(separator: "\n"))
        } else {
            say(output.script.path)
            if let hint = output.hint { warn(hint) }
        }
        if !output.warnings.isEmpty { warn("gnuplot: " + output.warnings) }
    }
}
