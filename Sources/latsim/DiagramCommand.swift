import ArgumentParser
import FramePipeline
import Foundation
import LatencyReport
import Scenarios
import SimKernel

struct DiagramCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diagram",
        abstract: "Draw the talk's pipeline diagram of a scenario.",
        discussion: """
        Rows Multi-Touch, App, Core Animation, GPU and Display; a column per display \
        frame; boxes coloured by display buffer (two colours when double buffered, three \
        when triple); commits as dots; one touch followed from its scan to its photon.
        An Android scenario gets rows Input, UI thread, RenderThread, GPU, SurfaceFlinger \
        and Display, vsync-app and vsync-sf ticks, boxes coloured by BufferQueue buffer, \
        and the resampled point the followed touch was drawn at.
        Writes diagram-SCENARIO.png, .svg, and the .gp/.dat to re-render them.

        Examples:
          latsim diagram ios8-complex --frames 10 --out charts/
          latsim diagram android-slow-app --frames 12
        """
    )

    @Argument(help: "A built-in scenario name or a YAML file.") var scenario: String
    @Option(parsing: .unconditional, help: "Display frames to draw.") var frames: Int = 8
    @Option(help: "Output directory.") var out: String = "."
    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Override a configuration key.", valueName: "PATH=VALUE"))
    var overrides: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("Draw it on a device preset (`latsim devices` lists them).", valueName: "NAME"))
    var device: String?

    func validate() throws {
        guard (1...60).contains(frames) else { throw ValidationError("--frames must be 1...60, got \(frames)") }
    }

    func run() throws {
        try CLI.preflight(files: [], directories: [out])
        let s = try CLI.scenario(scenario, device: device)
        let warmUp = 12
        var c = try s.configuration(overrides.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) })
        // the warm-up, the frames drawn and a few more for the last touch to reach the screen
        c.duration = c.vsyncClock.tick(Int64(warmUp + frames + 8))
        let r = try PipelineRun.run(c, keepLog: true)
        guard let chart = PipelineDiagramBuilder.diagram(r, scenario: s.name, frames: frames, warmUpFrames: warmUp) else {
            throw LatsimError(file: s.file, problem: "no touch reached the display in the drawn frames",
                              expected: "a finger that is down (more frames may help)")
        }
        let output = try Gnuplot.system().render(chart, directory: URL(fileURLWithPath: out), basename: "diagram-\(s.name)")
        CLI.report(output)
    }
}
