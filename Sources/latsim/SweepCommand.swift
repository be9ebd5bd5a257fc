import ArgumentParser
import FramePipeline
import Foundation
import LatencyReport
import Experiments
import Scenarios
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Vary one or two configuration keys over a grid and measure every point.",
        discussion: """
        Each --vary names a configuration key (`latsim keys`) and its values, as
          a range  PATH=FROM...TO[:STEP]  gpu.render=2ms...16ms:1ms
                                          device.scanHz=60...240:60
                                          app.commits=1...3
          a list   PATH=A,B,C             os.buffering=double,triple,adaptive
                                          device.scanHz=60,120,240
        A range's default step is 1 for whole numbers, else a tenth of the \
        range; TO is included when it lies on the grid. Separate a list with \
        ';' when its values hold commas (app.animations=never;2s..4s,6s..7s).

        One --vary gives a line of points, two a grid (at most 100000 points). \
        Every point is run --seeds times (seeds S, S+1, ...): latency \
        percentiles and means come from the seeds' frames merged, counts and \
        rates are the mean across seeds. Points run in parallel; the output is \
        the same at any --jobs.

        The table (stdout) shows per point: touch-to-photon p50/p99 (ms), \
        pipeline frames p50, effective frames p50, frames presented per second, \
        dropped frames per run, hitch time (ms per s) and the time spent triple \
        buffered. --csv and --json write every point with the columns: the \
        varied keys, t2pP50Ms, t2pP99Ms, t2pMeanMs, framesP50, framesMean, \
        effectiveFramesP50, fps, droppedFrames, repeatedFrames, hitchMsPerS, \
        tripleBufferedFraction, wastedUpdates, runs. --plot draws p50/p99 \
        latency and fps against the first key (one line per value of the \
        second) into DIR/sweep.png, .svg, .gp and .dat, marking where adaptive \
        buffering goes triple. The wall time goes to stderr, never into files.

        Examples:
          latsim sweep ios8 --vary gpu.render=2ms...16ms:1ms --plot out
          latsim sweep ios9-coalescing-120hz --vary gpu.render=1ms...20ms:0.5ms \\
              --vary app.handler=1ms...25ms:1ms --csv grid.csv
          latsim sweep ios9-low-latency --vary device.scanHz=60,120,240 \\
              --set 'app.handler=normal(4ms,1ms)' --seeds 8
        """
    )

    @Argument(help: "A built-in scenario name or a YAML file.") var scenario: String
    @Option(help: ArgumentHelp("A key and its values: PATH=FROM...TO[:STEP] or PATH=A,B,C. Once or twice.", valueName: "PATH=VALUES"))
    var vary: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("Runs per grid point, with seeds S, S+1, ...", valueName: "N"))
    var seeds: Int = 1
    @Option(parsing: .unconditional, help: ArgumentHelp("Threads to run on (default: every core).", valueName: "N"))
    var jobs: Int?
    @OptionGroup var options: RunOptions
    @Option(help: ArgumentHelp("Write one CSV row per grid point to PATH ('-' for stdout, then nothing else is printed there).", valueName: "PATH"))
    var csv: String?
    @Option(help: ArgumentHelp("Write the rows as a JSON array to PATH ('-' for stdout, then nothing else is printed there).", valueName: "PATH"))
    var json: String?
    @Option(help: ArgumentHelp("Draw the chart into DIR as sweep.png, sweep.svg, sweep.gp and sweep.dat (needs gnuplot for the images).", valueName: "DIR"))
    var plot: String?

    func run() throws {
        // check every input before running anything: nothing half-done on bad input
        if seeds < 1 || seeds > Sweep.maximumSeeds {
            throw CLI.badFlag("--seeds", String(seeds), "runs per grid point must be from 1 to \(Sweep.maximumSeeds)")
        }
        let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        if jobs < 1 { throw CLI.badFlag("--jobs", String(jobs), "the number of threads must be 1 or more") }
        if vary.isEmpty {
            var e = CLI.badFlag("--vary", nil, "no key to vary", expected: "one or two --vary PATH=VALUES, e.g. --vary gpu.render=2ms...16ms:1ms")
            e.seeAlso = .keys
            throw e
        }
        if vary.count > 2 {
            throw CLI.badFlag("--vary", nil, "given \(vary.count) times: a sweep varies one or two keys (a line or a grid)",
                              expected: "the other keys fixed with --set PATH=VALUE")
        }
        try CLI.preflight(files: [csv, json], directories: [plot])
        let axes = try vary.map { try SweepAxis(parsing: $0, source: SettingSource(file: "--vary")) }
        let s = try Scenario.named(scenario)

        let bar = ProgressBar(enabled: isatty(2) != 0)
        var progress: (@Sendable (SweepProgress) -> Void)?
        if bar.enabled { progress = { bar.update($0) } }
        let result: SweepResult = try Sweep.run(scenario: s, assignments: try options.assignments(), axes: axes, seeds: seeds, jobs: jobs,
                                                maxEvents: options.maxEvents,
                                                progress: progress)
        bar.clear()

        if let csv { try CLI.write(SweepOutput.csv(result), to: csv) }
        if let json { try CLI.write(SweepOutput.json(result).text() + "\n", to: json) }
        if let plot {
            let out = try Gnuplot.system().render(SweepOutput.chart(result), directory: URL(fileURLWithPath: plot), basename: "sweep")
            if let hint = out.hint { CLI.warn(hint) }
            if !out.warnings.isEmpty { CLI.warn("gnuplot: " + out.warnings) }
            if out.rendered { CLI.warn("chart: " + out.images.map(\.path).joined(separator: ", ")) }
        }
        if csv != "-" && json != "-" {
            CLI.say(SweepOutput.heading(result))
            CLI.say("")
            CLI.say(SweepOutput.table(result))
        }
        CLI.warn("\(result.runs) run\(result.runs == 1 ? "" : "s") in \(formatDecimal(result.wallSeconds, places: result.wallSeconds < 1 ? 2 : 1, fixed: true)) s")
    }
}

/// The progress bar of a long sweep, on stderr: drawn only when stderr is a
/// terminal and the sweep has run for more than a second, redrawn at most
/// ten times a second, erased at the end.
final class ProgressBar: Sendable {
    let enabled: Bool
    private struct State {
        var drawnAt = -1.0
        var width = 0
    }
    private let state = Locked(State())

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ p: SweepProgress) {
        state.withLock { st in
            guard p.elapsedSeconds > 1, p.elapsedSeconds - st.drawnAt >= 0.1 || p.completed == p.total else { return }
            st.drawnAt = p.elapsedSeconds
            let cells = 10
            let done = p.total > 0 ? p.completed * cells / p.total : cells
            let text = "[" + String(repeating: "#", count: done) + String(repeating: "-", count: cells - done) + "] "
                + "\(p.completed)/\(p.total) runs, \(formatDecimal(p.elapsedSeconds, places: 1, fixed: true)) s"
            let padded = text + String(repeating: " ", count: max(0, st.width - text.count))
            st.width = max(st.width, text.count)
            FileHandle.standardError.write(Data(("\r" + padded).utf8))
        }
    }

    func clear() {
        state.withLock { st in
            guard st.width > 0 else { return }
            FileHandle.standardError.write(Data(("\r" + String(repeating: " ", count: st.width) + "\r").utf8))
            st.width = 0
        }
    }
}
