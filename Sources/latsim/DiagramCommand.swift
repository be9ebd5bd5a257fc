import ArgumentParser
import Charts
import Foundation
import FramePipeline
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

        --timeline draws instead the touch-to-photon of every frame over the whole \
        run (--duration, default the scenario's): transients such as animations \
        switching low latency off, lift-offs or triple buffering, with hitches and \
        drops marked; it writes timeline-SCENARIO.png and the rest.

        Examples:
          latsim diagram ios8-complex --frames 10 --out charts/
          latsim diagram android-slow-app --frames 12
          latsim diagram ios9-low-latency --timeline --set app.animations=2s..4s
        """
    )

    @Argument(help: "A built-in scenario name or a YAML file.") var scenario: String
    @Option(parsing: .unconditional, help: "Display frames to draw.") var frames: Int = 8
    @Option(help: "Output directory.") var out: String = "."
    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Override a configuration key.", valueName: "PATH=VALUE"))
    var overrides: [String] = []
    @Flag(help: "Draw latency over the whole run instead of the pipeline diagram.") var timeline = false
    @Option(parsing: .unconditional, help: "With --timeline: simulated time, e.g. 10s (default: the scenario's, else 10s).")
    var duration: String?
    @OptionGroup var limits: WorkLimitOptions
    @Option(parsing: .unconditional, help: ArgumentHelp("Draw it on a device preset (`latsim devices` lists them).", valueName: "NAME"))
    var device: String?

    func validate() throws {
        guard (1...60).contains(frames) else { throw ValidationError("--frames must be 1...60, got \(frames)") }
        if duration != nil && !timeline { throw ValidationError("--duration draws a --timeline; the pipeline diagram's length is --frames") }
    }

    func run() throws {
        try CLI.preflight(files: [], directories: [out])
        let s = try CLI.scenario(scenario, device: device)
        var assignments = try overrides.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) }
        if timeline {
            if let duration { assignments.append(Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration"))) }
            let c = try s.configuration(assignments)
            try WorkEstimate.check([c], keepLog: true, limit: limits.maxEvents, logLimit: limits.maxLogEvents)
            let r = try PipelineRun.run(c, keepLog: true)
            guard let chart = LatencyTimelineChart(r, scenario: s.name), !chart.points.isEmpty else {
                throw LatsimError(file: s.file, problem: "no frame with new touch content reached the display in the run",
                                  expected: "a finger that is down (a longer --duration may help)")
            }
            let output = try Gnuplot.system().render(chart, directory: URL(fileURLWithPath: out), basename: "timeline-\(s.name)")
            CLI.report(output)
            return
        }
        let warmUp = 12
        var c = try s.configuration(assignments)
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
