import ArgumentParser
import Charts
import Experiments
import Foundation
import FramePipeline
import LatsimOutput
import Report
import Scenarios
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `latsim sweep`: a grid run (the default) or the merge of a sharded one.
struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Vary one or two configuration keys over a grid and measure every point.",
        discussion: "`latsim sweep SCENARIO --vary ...` runs a grid (see `latsim sweep run --help`); `latsim sweep merge PARTS...` joins the parts of a sweep run in shards on several machines.",
        subcommands: [SweepRunCommand.self, SweepMergeCommand.self],
        defaultSubcommand: SweepRunCommand.self
    )
}

struct SweepRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
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
        rates are the mean across seeds. With --seeds N > 1 each point also \
        keeps every seed's own figures: the table shows each as the mean over \
        the seeds ± the half-width of its 95% interval (Student's t), the CSV \
        adds NAMESeedMean and NAMEHalfWidth95 columns, the JSON each point's \
        `seeds` (as `run --seeds` writes it), and the chart a band around each \
        latency line and error bars on the frame rate. Points run in parallel; \
        the output is the same at any --jobs. Rows are written as they \
        complete, in grid order, while the other points run (the files are \
        put in place at the end, the table printed then); when a point \
        fails, no later point runs and the files are left as they were.

        The table (stdout) shows per point every figure the scenario produces, \
        its headline first (Docs/Figures.md; `latsim figures` lists them), with \
        the run table's column names. --csv and --json write every point with \
        the columns: the varied keys, each of those figures by its sweep key \
        (touchToPhotonP50, touchToPhotonP99, ..., fps, repeatedFrames, \
        hitchTimeRatio, triplePercent, ...: the names of `latsim figures`), runs; \
        a numeric key's column holds numbers, its unit in the header \
        (gpu.render_ms). --csv-long writes the same as a long (tidy) table: \
        one row per point and figure (figure, value, unit, runs, ci95Low, \
        ci95High), for ggplot, seaborn or Vega-Lite. --plot draws p50/p99 \
        latency and fps against the first key (one line per value of the \
        second) into DIR/sweep.png, .svg, .gp and .dat, marking where adaptive \
        buffering goes triple. The wall time goes to stderr, never into files.

        With --shard I/N (shards numbered from 0) only the I-th block of grid \
        points runs, each with all its seeds, and --part FILE receives its \
        rows; `latsim sweep merge` joins the parts of all N shards into the \
        same CSV, JSON, table and chart as one machine gives. --shard auto \
        takes I and N from a Slurm job array numbered from 0 (SLURM_ARRAY_TASK_ID, \
        _MIN, _MAX, _COUNT), a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, \
        with LATSIM_SHARD_COUNT) or LATSIM_SHARD_INDEX and LATSIM_SHARD_COUNT; \
        to re-run one shard of a Slurm array, set LATSIM_SHARD_COUNT=N and \
        the task ID is the shard. Examples/cluster/ has both.

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
    @Option(parsing: .unconditional, help: ArgumentHelp("Threads to run on (default: the CPUs this process may use: the affinity mask, e.g. taskset or a Slurm task's binding, and the cgroup's CPU quota).", valueName: "N"))
    var jobs: Int?
    @OptionGroup var options: RunOptions
    @Option(help: ArgumentHelp("Write one CSV row per grid point to PATH ('-' for stdout, then nothing else is printed there).", valueName: "PATH"))
    var csv: String?
    @Option(name: .customLong("csv-long"), help: ArgumentHelp("Write the sweep as a long (tidy) CSV to PATH ('-' for stdout): one row per grid point and figure, with the varied keys, figure, value, unit, runs, ci95Low, ci95High.", valueName: "PATH"))
    var csvLong: String?
    @Option(help: ArgumentHelp("Write the sweep as JSON to PATH ('-' for stdout, then nothing else is printed there): one object with the grid's axes, the settings and `points`, one per grid point (Docs/Results.md).", valueName: "PATH"))
    var json: String?
    @Option(help: ArgumentHelp("Draw the chart into DIR as sweep.png, sweep.svg, sweep.gp and sweep.dat (needs gnuplot for the images).", valueName: "DIR"))
    var plot: String?
    @Option(help: ArgumentHelp("Run only shard I of N (I from 0), or `auto` from a Slurm array or Kubernetes Indexed Job; needs --part.", valueName: "I/N"))
    var shard: String?
    @Option(help: ArgumentHelp("With --shard: write this shard's rows to FILE, for `latsim sweep merge`.", valueName: "FILE"))
    var part: String?

    func run() throws {
        let theShard = try shard.map { try ShardOption.resolve($0) }
        if theShard != nil && part == nil { throw CLI.badFlag("--shard", shard, "needs --part FILE", expected: "--part FILE for this shard's rows") }
        if theShard == nil && part != nil { throw CLI.badFlag("--part", part, "needs --shard I/N") }
        if theShard != nil && (csv != nil || csvLong != nil || json != nil || plot != nil) {
            throw CLI.badFlag("--shard", shard, "a shard holds only its rows", expected: "--csv, --csv-long, --json and --plot given to `latsim sweep merge`")
        }
        // check every input before running anything: nothing half-done on bad input
        if seeds < 1 || seeds > Sweep.maximumSeeds {
            throw CLI.badFlag("--seeds", String(seeds), "runs per grid point must be from 1 to \(Sweep.maximumSeeds)")
        }
        let jobs = self.jobs ?? Parallel.availableCPUs
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
        try CLI.preflight(files: [csv, csvLong, json, part], directories: [plot])
        let axes = try vary.map { try SweepAxis(parsing: $0, source: SettingSource(file: "--vary")) }
        let s = try options.scenario(scenario)

        let bar = ProgressBar(enabled: isatty(2) != 0)
        var progress: (@Sendable (SweepProgress) -> Void)?
        if bar.enabled { progress = { bar.update($0) } }
        let assignments = try options.assignments()
        let settings = try s.settings(with: assignments).resolved()
        let prepared = try Sweep.prepare(scenario: s, assignments: assignments, axes: axes, seeds: seeds, jobs: jobs,
                                         maxEvents: options.maxEvents, shard: theShard)
        var head = prepared.head
        head.command = CLI.command
        head.settings = settings
        if let part {
            let rows = Locked([SweepRow]())
            var result = try prepared.run(jobs: jobs, progress: progress) { row in rows.withLock { $0.append(row) } }
            bar.clear()
            result.command = head.command
            result.settings = settings
            result.rows = rows.current
            try OutputDestination.write(try SweepPart(result).encoded(), to: part)
            CLI.warn("shard \(result.shard!): \(result.rows.count) of \(result.grid.count) points, \(result.runs) runs in \(formatDecimal(result.wallSeconds, places: 1, fixed: true)) s -> \(part)")
            return
        }
        // the rows written as they come, in grid order, while the runs go on
        try SweepRunCommand.write(head, csv: csv, csvLong: csvLong, json: json, plot: plot) { each in
            defer { bar.clear() }
            return try prepared.run(jobs: jobs, progress: progress, each: each)
        }
    }

    /// Writes a sweep's outputs as `produce` hands its rows to `each` (in
    /// grid order), then draws its chart and prints its table (unless
    /// stdout is an output). `head` is the sweep's result without rows;
    /// `produce` returns it with the wall time. The files are replaced
    /// only once every row is written: when `produce` throws, each is left
    /// as it was.
    static func write(_ head: SweepResult, csv: String?, csvLong: String?, json: String?, plot: String?,
                      produce: (@escaping @Sendable (SweepRow) throws -> Void) throws -> SweepResult) throws {
        let printsTable = csv != "-" && csvLong != "-" && json != "-"
        var stream: SweepStream?
        var result = head
        try OutputDestination.stream(to: [csv, csvLong, json]) { sinks in
            let s = try SweepStream(head: head, csv: sinks[0], csvLong: sinks[1], json: sinks[2], table: printsTable, keepRows: plot != nil)
            stream = s
            result = try produce { try s.add($0) }
            try s.finish()
        }
        let written = stream!
        if let plot {
            let out = try Gnuplot.system().render(SweepOutput.chart(written.withRows(result)), directory: URL(fileURLWithPath: plot), basename: "sweep")
            if let hint = out.hint { CLI.warn(hint) }
            if !out.warnings.isEmpty { CLI.warn("gnuplot: " + out.warnings) }
            if out.rendered { CLI.warn("chart: " + out.images.map(\.path).joined(separator: ", ")) }
        }
        if let table = written.table {
            CLI.say(SweepOutput.heading(result, first: written.first))
            CLI.say("")
            Console.out(streaming: { try table.write(to: $0) })
        }
        CLI.warn("\(result.runs) run\(result.runs == 1 ? "" : "s") in \(formatDecimal(result.wallSeconds, places: result.wallSeconds < 1 ? 2 : 1, fixed: true)) s")
    }
}

/// `latsim sweep merge`: the parts of a sharded sweep joined into one result.
struct SweepMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the parts of a sweep run in shards.",
        discussion: """
        Reads the part files that `latsim sweep ... --shard I/N --part FILE` wrote, one per \
        shard, in any order, and writes the sweep's CSV, JSON, table and chart: byte for \
        byte what the sweep gives run on one machine. Every shard must be there once, \
        all of one sweep.

        Example: latsim sweep merge parts/part-*.json --csv sweep.csv
        """
    )

    @Argument(help: "The part files.") var parts: [String] = []
    @Option(help: ArgumentHelp("Write one CSV row per grid point to PATH ('-' for stdout).", valueName: "PATH"))
    var csv: String?
    @Option(name: .customLong("csv-long"), help: ArgumentHelp("Write the sweep as a long (tidy) CSV to PATH ('-' for stdout): one row per grid point and figure.", valueName: "PATH"))
    var csvLong: String?
    @Option(help: ArgumentHelp("Write the merged sweep as JSON to PATH ('-' for stdout): one object with the grid's axes, the settings and `points`, one per grid point (Docs/Results.md).", valueName: "PATH"))
    var json: String?
    @Option(help: ArgumentHelp("Draw the chart into DIR.", valueName: "DIR"))
    var plot: String?

    func run() throws {
        try CLI.preflight(files: [csv, csvLong, json], directories: [plot], inputs: parts)
        // read one at a time: only the rows are kept
        let result = try SweepPart.merge(reading: parts)
        var head = result
        head.rows = []
        try SweepRunCommand.write(head, csv: csv, csvLong: csvLong, json: json, plot: plot) { each in
            for row in result.rows { try each(row) }
            return head
        }
    }
}

/// `--shard I/N` or `auto`.
///
/// `auto` maps what the cluster says to a shard, and refuses what it cannot
/// map rather than guess (a re-run of one array task looks like a job of one
/// task):
/// 1. `LATSIM_SHARD_INDEX` and `LATSIM_SHARD_COUNT`: that shard.
/// 2. `LATSIM_SHARD_COUNT` with `SLURM_ARRAY_TASK_ID` (a re-run of some
///    tasks, `sbatch --array=3`): the task ID is the shard index.
/// 3. A Slurm array numbered from 0 with step 1 (`--array=0-7`): index
///    `SLURM_ARRAY_TASK_ID`, count `SLURM_ARRAY_TASK_COUNT`, which must
///    agree with `SLURM_ARRAY_TASK_MAX` + 1; anything else (an array from 1,
///    a step, a list, one task other than 0) is refused.
/// 4. `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job) with
///    `LATSIM_SHARD_COUNT`.
enum ShardOption {
    /// The shard named, or taken from the job array's environment for `auto`.
    static func resolve(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Shard {
        guard text == "auto" else {
            do { return try Shard(parsing: text) } catch { throw error.located(file: "--shard") }
        }
        /// A variable that is set must be a whole number.
        func number(_ name: String) throws -> Int? {
            guard let raw = environment[name] else { return nil }
            guard let v = NumberSyntax.integer(raw) else {
                throw CLI.badFlag("--shard", "auto", "\(name) is '\(LatsimError.shortened(raw))'", expected: "a whole number")
            }
            return v
        }
        func shard(_ index: Int, _ count: Int, _ source: String) throws -> Shard {
            do { return try Shard(index: index, count: count) } catch { throw error.located(file: "--shard auto (\(source))") }
        }
        let explicitCount = try number("LATSIM_SHARD_COUNT")
        if let index = try number("LATSIM_SHARD_INDEX") {
            guard let explicitCount else {
                throw CLI.badFlag("--shard", "auto", "LATSIM_SHARD_INDEX is set but LATSIM_SHARD_COUNT is not",
                                  expected: "both, or neither")
            }
            return try shard(index, explicitCount, "LATSIM_SHARD_INDEX/LATSIM_SHARD_COUNT")
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            if let explicitCount {
                return try shard(id, explicitCount, "SLURM_ARRAY_TASK_ID of LATSIM_SHARD_COUNT")
            }
            let min = try number("SLURM_ARRAY_TASK_MIN"), max = try number("SLURM_ARRAY_TASK_MAX")
            let count = try number("SLURM_ARRAY_TASK_COUNT"), step = try number("SLURM_ARRAY_TASK_STEP") ?? 1
            let rerun = "set LATSIM_SHARD_COUNT to the number of shards: each task ID is then its shard's index (re-run shard 3 of 8 with LATSIM_SHARD_COUNT=8 sbatch --array=3)"
            guard let min, let max, let count else {
                throw CLI.badFlag("--shard", "auto", "Slurm gives SLURM_ARRAY_TASK_ID \(id) without SLURM_ARRAY_TASK_MIN, _MAX and _COUNT",
                                  expected: "a job array (sbatch --array=0-N), or " + rerun)
            }
            guard min == 0, step == 1, count >= 1, max == count - 1, (0...max).contains(id) else {
                let what = count == 1 && id != 0
                    ? "a job array of the one task \(id) (a re-run of one shard?) cannot say how many shards there are"
                    : "the job array \(min)-\(max) (step \(step), \(count) tasks) is not numbered 0 to N-1"
                throw CLI.badFlag("--shard", "auto", what, expected: "an array submitted as sbatch --array=0-N, or " + rerun)
            }
            return try shard(id, count, "Slurm")
        }
        if let id = try number("JOB_COMPLETION_INDEX") {
            guard let explicitCount else {
                throw CLI.badFlag("--shard", "auto", "a Kubernetes Indexed Job gives JOB_COMPLETION_INDEX but not the number of shards",
                                  expected: "LATSIM_SHARD_COUNT set to the job's completions")
            }
            return try shard(id, explicitCount, "Kubernetes")
        }
        throw CLI.badFlag("--shard", "auto", "no job array in the environment",
                          expected: "SLURM_ARRAY_TASK_ID with _MIN, _MAX and _COUNT (Slurm), JOB_COMPLETION_INDEX and LATSIM_SHARD_COUNT (Kubernetes), LATSIM_SHARD_INDEX and LATSIM_SHARD_COUNT, or --shard I/N")
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
            Console.errRaw("\r" + padded)
        }
    }

    func clear() {
        state.withLock { st in
            guard st.width > 0 else { return }
            Console.errRaw("\r" + String(repeating: " ", count: st.width) + "\r")
            st.width = 0
        }
    }
}
