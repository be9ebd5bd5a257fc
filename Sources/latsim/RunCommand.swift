import ArgumentParser
import Experiments
import Foundation
import FramePipeline
import LatsimOutput
import Measures
import Scenarios
import SimKernel
import Traces

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenarios and print their latency.",
        discussion: """
        Prints a table with a row per figure the runs produce (Docs/Figures.md), each \
        scenario's headline first (tap-to-photon for a tapping app, frame-to-photon for \
        walt-screen, time to first scroll movement for a scrolling app, touch-to-photon \
        otherwise): latency, pipeline frames (the talk's \
        diagram convention), the display's frames, repeated and dropped frames and hitches \
        (only while the app had something new to show), Android's FrameTimeline classes \
        and buffer figures, force (3D Touch) latencies from the true threshold crossing, \
        prediction accuracy; '-' where a run does not produce a figure. --json writes a \
        result file (Docs/Results.md): a header, then each run's summary (Docs/Model.md, "Summary JSON"; Docs/Android.md, "Measurements"; \
        Docs/Force.md, "What is measured").

        --seeds N runs each scenario with seeds S, S+1, ..., S+N-1 and prints every \
        figure as its mean over the seeds with the half-width of its 95% interval \
        (Student's t): how much of a number is the seed's. The JSON keeps the full \
        summary of seed S and adds each figure per seed.

        Examples:
          latsim run ios8 ios9-low-latency
          latsim run ios9-coalescing-120hz --set gpu.render=9ms --duration 60s
          latsim run Examples/scenarios/my-app.yaml --json result.json
          latsim run ios9-low-latency android-default --set app.handler=8ms
          latsim run ios9-peek-pop --set app.force.intent=20ms
          latsim run android-scroll --device nexus-5 --set app.touchSlop=16
          latsim run ios8 --set 'app.handler=lognormal(6ms,0.5)' --seeds 10
          latsim run ios9-prediction \\
              --predictor-command 'python3 Examples/predictors/linear.py'
        """
    )

    @Argument(help: "Built-in scenario names or YAML files.") var scenarios: [String]
    @OptionGroup var options: RunOptions
    @Option(help: ArgumentHelp("Write the summary JSON to PATH ('-' for stdout, then nothing else is printed there).", valueName: "PATH"))
    var json: String?
    @Option(help: ArgumentHelp("Write every figure in Bencher's Metric Format to PATH ('-' for stdout), for `bencher run --adapter json --file PATH`: a benchmark per scenario, a measure per figure; with --seeds the mean and its 95% interval (Docs/Results.md, \"Dashboards\").", valueName: "PATH"))
    var bmf: String?
    @Flag(help: "Leave the wall-clock engine figures out of the JSON (null), so the same seed gives byte-identical files.")
    var stable = false
    @Flag(help: "Also print where the milliseconds go: each stage's mean, p50 and p99 and its share of the mean touch-to-photon (Docs/Budget.md).")
    var budget = false
    @Option(parsing: .unconditional, help: ArgumentHelp("Run each scenario with seeds S, S+1, ... and give every figure with its 95% interval across them.", valueName: "N"))
    var seeds: Int = 1
    @OptionGroup var own: PredictorCommandOptions
    @Option(help: ArgumentHelp("Write a trace to open in ui.perfetto.dev: FILE.perfetto-trace (or .pftrace) in Perfetto's own format, with Android's FrameTimeline; any other name Chrome trace-event JSON (chrome://tracing opens it too). With several scenarios, each gets FILE with its name inserted before the extension.", valueName: "FILE"))
    var trace: String?
    @Option(help: ArgumentHelp("Write one CSV row per vsync: what it showed, buffers, repeated and dropped frames, and each measured frame's latency and stage budget (Docs/Budget.md). With several scenarios, each gets FILE with its name inserted before the extension.", valueName: "FILE"))
    var frames: String?

    /// Whether the runs split their frames into the stage budget: only when
    /// an output shows it, the summary JSON (`budgetMs`) or `--budget` (a
    /// run that keeps its frame log for `--trace` or `--frames` keeps the
    /// budget with it). The plain table does not show it, and the budget is
    /// most of what a run costs over a sweep point.
    var keepsBudget: Bool { json != nil || budget }

    func validate() throws {
        if scenarios.isEmpty { throw ValidationError("name at least one scenario (`latsim list` shows them)") }
        if json == "-" && bmf == "-" { throw ValidationError("--json - and --bmf - both want stdout: give one of them a file") }
        if !(1...SeedRuns.maximumSeeds).contains(seeds) { throw ValidationError("--seeds must be 1...\(SeedRuns.maximumSeeds), got \(seeds)") }
        if seeds > 1 {
            for (flag, given) in [("--trace", trace != nil), ("--frames", frames != nil), ("--predictor-command", own.predictorCommand != nil)] where given {
                throw ValidationError("\(flag) follows one run; with --seeds \(seeds) there are \(seeds) per scenario (drop one of them)")
            }
        }
    }

    func run() throws {
        // resolve every input and check every output before running anything:
        // nothing half-done on bad input
        let assignments = try options.assignments()
        var jobs: [(Scenario, PipelineConfiguration)] = []
        var settings: [[ResolvedSetting]] = []
        var headlines: [Figure] = []
        for name in scenarios {
            let s = try options.scenario(name)
            let resolved = try s.settings(with: assignments)
            let c = try resolved.configuration()
            jobs.append((s, c))
            headlines.append(try Figure.headline(of: s, c))
            settings.append(resolved.resolved())
        }
        if seeds > 1 {
            try CLI.preflight(files: [json, bmf])
            try runSeeds(jobs, settings: settings, headlines: headlines)
            return
        }
        let keepLog = trace != nil || frames != nil
        // `--frames` is written as the run goes and `--trace` made as it
        // goes: nothing is kept, and only a trace is held to its limit
        try WorkEstimate.check(jobs.map(\.1), keepLog: trace != nil, limit: options.maxEvents, logLimit: options.limits.maxLogEvents)
        func paths(_ file: String?, _ flag: String) throws -> [String] {
            try file.map { try CLI.perRun($0, flag: flag, names: jobs.map(\.0.name)) } ?? []
        }
        try CLI.preflight(files: [json, bmf] + paths(trace, "--trace") + paths(frames, "--frames"))
        let command = try own.command()
        var results: [(String, RunResult)] = []
        // each run's trace, made as the run goes
        var streamedTraces: [String: StreamedTrace] = [:]
        func execute(_ c: PipelineConfiguration, frames writer: FrameCSV.Writer?, trace streamed: StreamedTrace?) throws -> RunResult {
            var run = try PipelineRun(configuration: c, keepLog: keepLog)
            if keepsBudget { run.keepBudget() }
            if frames == nil { run.dropFrameStages() }  // a trace does not show them
            // the trace's reader first: the frames' stream then keeps what it reads
            if let streamed { run.consumeLog(with: streamed.consumer) }
            if let writer { run.streamFrames(to: writer) }
            guard let command else { return try run.run() }
            // your own predictor replaces the scenario's: a fresh process per run
            let p = try command.start(frameInterval: c.frameInterval)
            run.usePredictor(p, named: p.name)
            let result = try run.run()
            if let failure = p.finish() { throw failure }
            return result
        }
        for (s, c) in jobs {
            var streamed: StreamedTrace?
            if let trace {
                let path = jobs.count == 1 ? trace : RunCommand.insert(s.name, into: trace)
                // its events written as the run goes, on a second CPU when there is one
                streamed = StreamedTrace(c, scenario: s.name, native: RunCommand.isNativeTrace(path),
                                         writing: .asRunGoes(threaded: Parallel.availableCPUs >= 2))
                streamedTraces[s.name] = streamed
            }
            guard let frames else {
                results.append((s.name, try execute(c, frames: nil, trace: streamed)))
                continue
            }
            // the run inside its file's stream: a failed run leaves the file as it was
            let path = jobs.count == 1 ? frames : RunCommand.insert(s.name, into: frames)
            var result: RunResult?
            var rows = 0
            try OutputDestination.stream(to: path) { sink in
                let writer = try FrameCSV.Writer(c, to: sink)
                result = try execute(c, frames: writer, trace: streamed)
                try writer.finish()
                rows = writer.rows
            }
            results.append((s.name, result!))
            if json != "-" && bmf != "-" { CLI.warn("frames: \(path) (\(rows) vsyncs)") }
        }
        RunCommand.warnUnmeasured(results)
        // each trace streamed to its file (bounded buffers), replaced atomically at the end
        if let trace {
            for (name, r) in results {
                guard let streamed = streamedTraces[name] else { continue }
                let path = results.count == 1 ? trace : RunCommand.insert(name, into: trace)
                var events = 0
                let bytes = try OutputDestination.stream(to: path) { events = try streamed.write(r, to: $0) }
                if json != "-" && bmf != "-" {
                    CLI.warn("trace: \(path) (\(streamed.native ? "\(bytes) bytes" : "\(events) events"); open it in ui.perfetto.dev)")
                }
            }
        }
        if let bmf {
            try CLI.write(BencherJSON.document(results.map { ($0.0, SeedRuns.figures([$0.1])) }).text() + "\n", to: bmf)
        }
        if let json {
            let runs = zip(results, settings).map { RunSummary.json($0.0.1, scenario: $0.0.0, timing: stable ? .omit : .include, settings: $0.1) }
            let doc = ResultHeader.document("run", command: CLI.command, [("runs", .array(runs))])
            try CLI.write(doc.text() + "\n", to: json)
        }
        if json == "-" || bmf == "-" { return }
        CLI.say(RunTable.render(zip(results, headlines).map { ($0.0.0, $0.0.1, $0.1) }) + RunTable.noFrameTimeline(results))
        if budget { CLI.say("\n" + RunTable.budget(results)) }
    }
}

extension RunCommand {
    /// `--seeds N`: each scenario N times; the figures with their intervals.
    func runSeeds(_ jobs: [(Scenario, PipelineConfiguration)], settings: [[ResolvedSetting]], headlines: [Figure]) throws {
        // seed S's run is the summary's, with its budget as a single run has it
        let runs = try SeedRuns.run(jobs.map(\.1), seeds: seeds, jobs: Parallel.availableCPUs,
                                    budget: keepsBudget, maxEvents: options.maxEvents)
        RunCommand.warnUnmeasured(zip(jobs, runs).map { ($0.0.name, $1[0]) })
        let figures = runs.map { SeedRuns.figures($0) }
        if let bmf {
            try CLI.write(BencherJSON.document(jobs.indices.map { (jobs[$0].0.name, figures[$0]) }).text() + "\n", to: bmf)
        }
        if let json {
            let docs = jobs.indices.map { i in
                RunSummary.json(runs[i][0], scenario: jobs[i].0.name, timing: stable ? .omit : .include, settings: settings[i],
                                seeds: SeedJSON.seeds(first: jobs[i].1.seed, figures[i]))
            }
            try CLI.write(ResultHeader.document("run", command: CLI.command, [("runs", .array(docs))]).text() + "\n", to: json)
        }
        if json == "-" || bmf == "-" { return }
        CLI.say(RunTable.seeds(jobs.indices.map { (jobs[$0].0.name, runs[$0], headlines[$0]) }, seeds: seeds, first: jobs.map(\.1.seed))
                + RunTable.noFrameTimeline(zip(jobs, runs).map { ($0.0.name, $1[0]) }))
        if budget { CLI.say("\nThe stage budget of seed S alone:\n\n" + RunTable.budget(zip(jobs, runs).map { ($0.0.name, $1[0]) })) }
    }

    /// Says of each run that measured no frame why its latency is empty.
    static func warnUnmeasured(_ results: [(String, RunResult)]) {
        for (name, r) in results where Figure.touchToPhotonP50.value(r) == nil && Figure.tapToPhotonP50.value(r) == nil {
            CLI.warn("latsim: warning: \(name) measured no frame with new touch content (a run too short for a touch to reach the screen, or a finger that never touched): its latency is null in the JSON and '-' in the table")
        }
    }

    /// True for a path naming a trace in Perfetto's own format.
    static func isNativeTrace(_ path: String) -> Bool {
        path.hasSuffix(".perfetto-trace") || path.hasSuffix(".pftrace")
    }

    /// `trace.json` + `ios8` -> `trace-ios8.json`.
    static func insert(_ name: String, into path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension
        let base = url.deletingPathExtension().path
        return ext.isEmpty ? "\(base)-\(name)" : "\(base)-\(name).\(ext)"
    }
}

/// The readable tables of `latsim run`: every figure the runs produce
/// (``FigureTable``), and the stage budget.
enum RunTable {
    static func render(_ results: [(name: String, result: RunResult, headline: Figure)]) -> String {
        FigureTable.runs(results).render()
    }

    /// The stage budget of every run: a table per run, its stages in
    /// order with mean, p50 and p99 and the mean's share of the total.
    static func budget(_ results: [(String, RunResult)]) -> String {
        var blocks: [String] = []
        for (name, r) in results {
            guard let b = r.measurements.budget, b.frames > 0 else {
                blocks.append("\(name): no frame measured, no budget")
                continue
            }
            let total = b.stages.reduce(0.0) { $0 + (b.meanMs($1) ?? 0) }
            var t = TextTable(header: [name, "mean ms", "p50 ms", "p99 ms", "share"], rightAligned: [1, 2, 3, 4])
            for stage in b.stages {
                let s = b[stage]!, mean = b.meanMs(stage) ?? 0
                t.rows.append([stage.phrase, f(mean, 3), f(s.percentile(50), 3), f(s.percentile(99), 3),
                               total != 0 ? formatDecimal(mean / total * 100, places: 1, fixed: true) + "%" : "-"])
            }
            // a tapping finger's budget splits tap-to-photon (and lift-to-photon
            // when the app draws lifts, whose frames it then holds too)
            let c = r.configuration
            // WALT's screen test splits each change's path, from the change to its photons
            let label = c.blinks ? "blink to photon" : !c.taps ? "touch-to-photon" : c.liftResponse ? "tap or lift to photon" : "tap-to-photon"
            let whole: (p50: Figure, p99: Figure)? = c.blinks || c.taps && c.liftResponse ? nil
                : c.taps ? (.tapToPhotonP50, .tapToPhotonP99) : (.touchToPhotonP50, .touchToPhotonP99)
            t.rows.append([label, f(total, 3), whole.map { FigureTable.cell($0.p50.value(r), $0.p50) } ?? "-",
                           whole.map { FigureTable.cell($0.p99.value(r), $0.p99) } ?? "-", "100.0%"])
            blocks.append(t.render() + (budgetNote(c).map { "\n" + $0 } ?? ""))
        }
        return blocks.joined(separator: "\n\n") + "\n\nEach frame's stages add up to its touch-to-photon; the means add up to the mean. Percentiles of the stages do not add up (each stage's p99 comes from different frames)."
    }

    static func f(_ x: Double?, _ p: Int) -> String { x.map { formatDecimal($0, places: p) } ?? "-" }

    /// A line under the figures for each Android run of a release without
    /// FrameTimeline, saying why its classes are absent; empty otherwise.
    static func noFrameTimeline(_ results: [(String, RunResult)]) -> String {
        var lines: [String] = []
        for (name, r) in results where r.configuration.platform == .android {
            if let why = r.configuration.android.version.noFrameTimelineReason { lines.append("\(name): \(why).") }
        }
        return lines.isEmpty ? "" : "\n\n" + lines.joined(separator: "\n")
    }

    /// Under an Android budget, what its latch and present stages follow
    /// when that is not Android 12's rule on a video-mode panel: a legacy
    /// release's DispSync offsets, a command-mode panel's idle wake (an
    /// unknown). Nil otherwise.
    static func androidNote(_ c: PipelineConfiguration) -> String? {
        guard c.platform == .android else { return nil }
        let a = c.android
        var notes: [String] = []
        if !a.version.targetsVsync {
            // the offsets the timing takes (Android 10 and 11 at a high rate: the high-fps ones)
            let unset = a.version.unsetPhaseOffsets(highFps: a.version.usesHighFpsOffsets(displayHz: c.displayHz, peakOfSeveral: c.rate.switches))
            let app = DurationSyntax.format(a.appPhaseOffset ?? unset.app), sf = DurationSyntax.format(a.sfPhaseOffset ?? unset.sf)
            let at = c.rate.switches ? " at its peak rate" : ""
            notes.append("latch wait and present wait follow Android \(a.version.rawValue)'s legacy DispSync offsets\(at) (app \(app), SurfaceFlinger \(sf) after each vsync; latched at SurfaceFlinger's first wake-up after the queue)")
        }
        if a.panelInterface == .command {
            notes.append("the panel is command-mode: idle wake is display.idleWake, an unpublished unknown from 0 to 1 frame, here \(formatDecimal(Double(a.idleWake) / 1e6, places: 3)) ms")
        }
        return notes.isEmpty ? nil : notes.map { "- " + $0 + "." }.joined(separator: "\n")
    }

    /// `run --seeds`: a row per figure, a column per scenario, each cell the
    /// mean over the seeds ± the half-width of its 95% interval.
    static func seeds(_ runs: [(name: String, runs: [RunResult], headline: Figure)], seeds: Int, first: [UInt64]) -> String {
        let t = FigureTable.seeds(runs)
        let range = first.count == 1 || Set(first).count == 1
            ? "seeds \(first[0])...\(first[0] + UInt64(seeds - 1))" : "\(seeds) seeds from each scenario's own"
        return t.render() + "\n\nEach figure's mean over \(range) and the half-width of its 95% interval (Student's t with \(seeds - 1) degree\(seeds == 2 ? "" : "s") of freedom); 0 when every seed gave the same value. The JSON holds each seed's value."
    }
}
