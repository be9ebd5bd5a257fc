import ArgumentParser
import Experiments
import Foundation
import FramePipeline
import LatsimGate
import LatsimOutput
import Measures
import Report
import Scenarios
import SimKernel
import TouchModel

/// Options that choose which recorded traces a command plays.
struct DatasetOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A directory of recorded traces (.xml $1 gesture logs, .csv), searched recursively.", valueName: "DIR"))
    var dataset: String?
    @Option(help: ArgumentHelp("With --dataset: keep only trace files that have a folder of one of these names on their path below DIR, e.g. --include medium,fast for the $1 dataset's sNN/medium and sNN/fast folders. Comma-separated and repeatable.", valueName: "NAMES"))
    var include: [String] = []
    @Flag(help: "With --dataset: leave out malformed trace files (each is reported on stderr) instead of stopping at the first.")
    var skipBad = false

    /// The folder names of --include.
    var includedFolders: [String] {
        include.flatMap { $0.split(separator: ",") }.map { $0.trimmedWhitespace }.filter { !$0.isEmpty }
    }

    func check() throws {
        if dataset == nil && !includedFolders.isEmpty { throw CLI.badFlag("--include", nil, "needs --dataset DIR") }
        if dataset == nil && skipBad { throw CLI.badFlag("--skip-bad", nil, "needs --dataset DIR") }
        if dataset != nil && !include.isEmpty && includedFolders.isEmpty {
            throw CLI.badFlag("--include", include.joined(separator: ","), "names no folder", expected: "names such as medium,fast")
        }
    }

    /// Reports a skipped file on stderr.
    static func reportSkipped(_ errors: [LatsimError]) {
        for e in errors { CLI.warn("latsim: warning: skipped \(e.description)") }
    }
}

/// `latsim predict`: a study (the default) or the merge of a sharded one.
struct PredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Compare touch predictors: every predictor x horizon on one motion.",
        discussion: "`latsim predict [OPTIONS]` runs a study (see `latsim predict run --help`); `latsim predict merge PARTS...` joins the parts of a study run in shards on several machines.",
        subcommands: [PredictRunCommand.self, PredictMergeCommand.self],
        defaultSubcommand: PredictRunCommand.self
    )
}

struct PredictRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Compare touch predictors: every predictor x horizon on one motion.",
        discussion: """
        Each cell is a full pipeline run of the built-in ios9-prediction scenario with \
        app.prediction.predictor, app.prediction.horizon, device.scanHz, device.displayHz \
        and input.trajectory set. The cells are independent and run on all cores; the \
        output does not depend on how many.

        Columns: the predictor, its horizon (ms and display frames), the predictions \
        scored, the prediction error against the noise-free finger (rms, p95, max, in \
        points), the mean along-track error (+ overshoot, - lateness), the cross-track \
        rms, the jitter (rms change of the error from one prediction to the next), the \
        photon-time error (distance between what is drawn and where the finger is when \
        the photons leave the panel: what the eye sees; rms and p95, in points and mm), \
        and how much a predictor cuts the photon-time error rms of `none` at the same \
        horizon. `*` marks the best value of a column among the predictors at the same \
        horizon. `none` (the raw touch, never smoothed) is always run first, as the \
        reference.

        --predictor-command CMD scores your own predictor, in any language, beside \
        `none` (and any --predictor named): a process speaking latsim's predictor \
        protocol on its stdin and stdout, started afresh for every cell \
        (Docs/Prediction.md). --scorecard adds Chromium's UMA prediction metrics and \
        Android's per-bucket metrics, each as a table and, in the JSON, an object \
        under its name.

        --dataset DIR plays every trace file under DIR (sorted by path, filtered by \
        --include) one after another, 200 ms apart with the finger up, as one motion. \
        A recorded trace (--trajectory FILE, or --dataset DIR) is simulated for its \
        own length unless --duration is given.

        With --shard I/N (shards numbered from 0) only the I-th block of the study's \
        cells (predictor x horizon) runs, and --part FILE receives their results; \
        `latsim predict merge PARTS...` joins the parts of all N shards into the same \
        table and JSON as one machine gives. --shard auto takes I and N from a Slurm \
        job array or a Kubernetes Indexed Job, as `latsim sweep` does.

        Examples:
          latsim predict
          latsim predict --predictor kalman --horizon 8ms --trajectory circle
          latsim predict --dataset Examples/strokes --include medium,fast --skip-bad
          latsim predict --json - > predict.json
          latsim predict --predictor 'chromium.kalman,androidx.kalman(safe)' \\
              --scorecard chromium,android
          latsim predict --predictor-command 'python3 Examples/predictors/linear.py'
          latsim predict --dataset Examples/strokes --shard 0/4 --part part-0.json
        """
    )

    @Option(help: ArgumentHelp("A predictor: latsim's none, linearFirst, linearSecond, leastSquares, kalman, or a platform's (chromium.empty, chromium.linearFirst, chromium.linearSecond, chromium.leastSquares, chromium.kalman(heuristics,directionCutOff), chromium.linearResampling(frames=0.5), androidx.kalman(safe), ...; `latsim keys` lists the options), +1e for its 1€ filter. Comma-separated and repeatable (default: latsim's five).", valueName: "P"))
    var predictor: [String] = []
    @Option(help: ArgumentHelp("A scorecard: latsim (its own metrics), chromium (Chromium's UMA prediction metrics) or android (Android's per-4-ms-bucket metrics). Comma-separated and repeatable (default: latsim).", valueName: "S"))
    var scorecard: [String] = []
    @Option(help: ArgumentHelp("A horizon: a duration (8ms, 1frame, 0.5frames) or a bare number of display frames. Repeatable (default: 0.5, 1 and 1.5 frames).", valueName: "H"))
    var horizon: [String] = []
    @Option(help: ArgumentHelp("The finger's motion: line, circle, strokes, flick, random, or a .xml/.csv trace file (default: strokes).", valueName: "T"))
    var trajectory: String?
    @OptionGroup var data: DatasetOptions
    @OptionGroup var own: PredictorCommandOptions
    @OptionGroup var limits: WorkLimitOptions
    @Option(name: .customLong("scan-hz"), parsing: .unconditional, help: ArgumentHelp("Digitizer scan rate, Hz.", valueName: "N"))
    var scanHz: String = "120"
    @Option(name: .customLong("display-hz"), parsing: .unconditional, help: ArgumentHelp("Display refresh rate, Hz.", valueName: "N"))
    var displayHz: String = "60"
    @Option(parsing: .unconditional, help: ArgumentHelp("Simulated time per run, e.g. 60s (default: 60s, or a trace's own length).", valueName: "D"))
    var duration: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Random seed of the synthetic motion (default 1).", valueName: "N"))
    var seed: String?
    @Option(help: ArgumentHelp("Smoothing of the predicted positions: none or oneEuro (a 1€ filter).", valueName: "S"))
    var smoothing: PredictionSmoothing = .none
    @Option(help: ArgumentHelp("Write the rows as JSON to PATH ('-' for stdout, then nothing else is printed there).", valueName: "PATH"))
    var json: String?
    @Option(help: ArgumentHelp("Run only shard I of N of the cells (I from 0), or `auto` from a Slurm array or Kubernetes Indexed Job; needs --part.", valueName: "I/N"))
    var shard: String?
    @Option(help: ArgumentHelp("With --shard: write this shard's results to FILE, for `latsim predict merge`.", valueName: "FILE"))
    var part: String?

    /// The predictors asked for, `none` first, each once; latsim's five
    /// when none is named and `defaultAll`.
    static func predictors(_ names: [String], defaultAll: Bool = true) throws -> [StudyPredictor] {
        var out: [StudyPredictor] = [.latsim(.none)]
        let asked = names.flatMap { PredictorSpec.splitList($0) }
        if asked.isEmpty && defaultAll { return PredictionCorpus.latsimPredictors }
        for name in asked {
            let spec: PredictorSpec
            do { spec = try PredictorSpec(parsing: name) } catch {
                throw CLI.badFlag("--predictor", name, error.problem, expected: error.expected)
            }
            if !out.contains(.spec(spec)) { out.append(.spec(spec)) }
        }
        return out
    }

    /// The scorecards asked for, each once, in the order of ``ScorecardName``.
    static func scorecards(_ names: [String]) throws -> [ScorecardName] {
        let asked = names.flatMap { $0.split(separator: ",") }.map { $0.trimmedWhitespace }.filter { !$0.isEmpty }
        if asked.isEmpty { return [.latsim] }
        var set: Set<ScorecardName> = []
        for a in asked {
            guard let n = ScorecardName(keyword: a) else {
                throw CLI.badFlag("--scorecard", a, "unknown scorecard", expected: ScorecardName.spellings)
            }
            set.insert(n)
        }
        return ScorecardName.allCases.filter(set.contains)
    }

    /// The horizons asked for; a bare number is a number of display frames.
    static func horizons(_ texts: [String]) throws -> [Horizon] {
        let asked = texts.flatMap { $0.split(separator: ",") }.map { $0.trimmedWhitespace }
        if asked.isEmpty { return PredictionCorpus.standardHorizons }
        var out: [Horizon] = []
        for t in asked {
            let h: Horizon
            do { h = try Horizon(parsing: t) } catch {
                throw CLI.badFlag("--horizon", t, error.problem, expected: "a duration (8ms, 1frame) or a bare number of display frames such as 0.5")
            }
            if !out.contains(h) { out.append(h) }
        }
        return out
    }

    /// Simulated seconds per run, as printed.
    static func seconds(_ results: [PredictionCorpus.CellResult]) -> String {
        results.first.map { formatDecimal($0.simulatedSeconds, places: 3) } ?? "0"
    }

    func validate() throws {
        if trajectory != nil && data.dataset != nil {
            throw ValidationError("give either --trajectory or --dataset, not both")
        }
    }

    func run() throws {
        let start = DispatchTime.now().uptimeNanoseconds
        try data.check()
        let theShard = try shard.map { try ShardOption.resolve($0) }
        if theShard != nil && part == nil { throw CLI.badFlag("--shard", shard, "needs --part FILE", expected: "--part FILE for this shard's results") }
        if theShard == nil && part != nil { throw CLI.badFlag("--part", part, "needs --shard I/N") }
        if theShard != nil && json != nil {
            throw CLI.badFlag("--shard", shard, "a shard holds only its results", expected: "--json given to `latsim predict merge`")
        }
        try CLI.preflight(files: [json, part])
        let command = try own.command()
        var kinds = try Self.predictors(predictor, defaultAll: command == nil)
        if command != nil { kinds.append(.own) }
        let cards = try Self.scorecards(scorecard)
        var platformCards: PredictionScorecards = []
        if cards.contains(.chromium) { platformCards.insert(.chromium) }
        if cards.contains(.android) { platformCards.insert(.android) }
        let horizonSpecs = try Self.horizons(horizon)
        let smooth = smoothing
        // the rates and the seed are checked as the keys they stand for
        let base = try Scenario.named(PredictionCorpus.scenarioName).configuration([
            Assignment(path: "device.scanHz", value: scanHz, source: SettingSource(file: "--scan-hz")),
            Assignment(path: "device.displayHz", value: displayHz, source: SettingSource(file: "--display-hz")),
        ] + (seed.map { [Assignment(path: "seed", value: $0, source: SettingSource(file: "--seed"))] } ?? [])
          + (duration.map { [Assignment(path: "duration", value: $0, source: SettingSource(file: "--duration"))] } ?? []))
        let runSeed = seed == nil ? nil : base.seed
        let (item, note) = try motion(seed: runSeed)
        let corpus = PredictionCorpus(items: [item], scanHz: base.scanHz, displayHz: base.displayHz, smoothing: smooth)
        let cells = corpus.cells(predictors: kinds, horizons: horizonSpecs)
        let mine = theShard.map { cells[$0.points(of: cells.count)] } ?? cells[...]
        let results = try corpus.run(Array(mine), seed: runSeed,
                                     own: command.map(OwnPredictor.init(command:)), scorecards: platformCards,
                                     maxEvents: limits.maxEvents)
        let setting = "scan \(formatDecimal(base.scanHz.doubleValue, places: 3)) Hz, display \(formatDecimal(base.displayHz.doubleValue, places: 3)) Hz; scenario \(PredictionCorpus.scenarioName)\(smooth == .none ? "" : ", smoothing " + smooth.rawValue)"
        if let theShard, let part {
            let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let p = PredictionPart(shard: theShard, command: CLI.command, motion: note, setting: setting, scorecards: cards.map(\.rawValue),
                                   cells: cells.count, results: results, wallSeconds: wall)
            try OutputDestination.write(try p.encoded(), to: part)
            CLI.warn("shard \(theShard): \(results.count) of \(cells.count) cells in \(formatDecimal(wall, places: 1, fixed: true)) s -> \(part)")
            return
        }
        try Self.write(results, command: CLI.command, motion: note, setting: setting, cards: cards, json: json)
    }

    /// Prints a study's table(s), or writes its JSON; the same for a study
    /// run on one machine and for the merge of its shards.
    static func write(_ results: [PredictionCorpus.CellResult], command: String, motion note: String, setting: String,
                      cards: [ScorecardName], json: String?) throws {
        let rows = PredictionTable.rows(results)
        // a run too short for a sample to be scored has no errors to print
        if !results.isEmpty && results.allSatisfy({ $0.score.samples == 0 }) {
            throw LatsimError(key: "duration", value: "\(seconds(results)) s",
                              problem: "no touch sample was scored: the run ends before a predicted touch reaches the screen",
                              expected: "a --duration of a few frames or more (e.g. 1s)")
        }
        // a predictor whose answers make no sense is said to be so, whatever is printed
        for r in results {
            guard r.score.samples > 0, let reason = PredictionMetric.unusableReason(r.score) else { continue }
            CLI.warn("latsim: warning: \(r.predictor) @ \(formatDecimal(r.horizonMs, places: 3)) ms on \(r.item): unusable figures, "
                     + "the predictor's answers are not finite or absurd (\(reason)); `latsim regress` fails such a predictor")
        }
        if let json {
            let doc = ResultHeader.document("predict", command: command, [("rows", PredictionTable.json(rows, latsim: cards.contains(.latsim)))])
            try CLI.write(doc.text() + "\n", to: json)
            if json == "-" { return }
        }
        let seconds = seconds(results)
        CLI.say("motion: \(note); \(seconds) s simulated per run; \(setting)")
        if cards.contains(.latsim) {
            CLI.say("")
            CLI.say(PredictionTableText.render(rows))
            CLI.say("")
            for line in PredictionTableText.summary(rows) { CLI.say(line) }
        }
        if cards.contains(.chromium) {
            CLI.say("")
            CLI.say(ScorecardTables.chromium(rows))
        }
        if cards.contains(.android) {
            CLI.say("")
            CLI.say(ScorecardTables.android(rows))
        }
    }

    /// The corpus item of the chosen motion and a phrase describing it.
    func motion(seed: UInt64?) throws -> (PredictionCorpusItem, String) {
        if let dir = data.dataset {
            let folders = data.includedFolders
            let loaded = try Trajectory.loadDirectory(dir, include: folders, parameters: TrajectoryParameters(), skipBad: data.skipBad,
                                                     jobs: Parallel.availableCPUs)
            DatasetOptions.reportSkipped(loaded.skipped)
            let files = loaded.trajectory.strokeCount ?? 0
            var note = "dataset \(dir)"
            if !folders.isEmpty { note += " (folders \(folders.joined(separator: ", ")))" }
            note += ", \(files) trace file\(files == 1 ? "" : "s")"
            if !loaded.skipped.isEmpty { note += ", \(loaded.skipped.count) skipped" }
            return (PredictionCorpusItem(name: dir, motion: .trajectory(loaded.trajectory), duration: duration), note)
        }
        let spec = trajectory ?? "strokes"
        if Trajectory.syntheticKinds.contains(spec) {
            return (PredictionCorpusItem(name: spec, motion: .synthetic(kind: spec, seed: seed ?? 1), duration: duration ?? "60s"),
                    "\(spec), seed \(seed ?? 1)")
        }
        let t = try Trajectory.make(spec, parameters: TrajectoryParameters())
        return (PredictionCorpusItem(name: spec, motion: .trajectory(t), duration: duration), "trace \(spec)")
    }
}

/// `latsim predict merge`: the parts of a sharded study joined into one result.
struct PredictMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the parts of a prediction study run in shards.",
        discussion: """
        Reads the part files that `latsim predict ... --shard I/N --part FILE` wrote, one \
        per shard, in any order, and prints the study's table (or writes its JSON): byte \
        for byte what the study gives run on one machine. Every shard must be there once, \
        all of one study.

        Example: latsim predict merge parts/part-*.json --json predict.json
        """
    )

    @Argument(help: "The part files.") var parts: [String] = []
    @Option(help: ArgumentHelp("Write the rows as JSON to PATH ('-' for stdout).", valueName: "PATH"))
    var json: String?

    func run() throws {
        try CLI.preflight(files: [json], inputs: parts)
        let read = try parts.map { path throws(LatsimError) in (path, try PredictionPart.read(path)) }
        let (results, first) = try PredictionPart.merge(read)
        var cards: [ScorecardName] = []
        for name in first.scorecards {
            guard let card = ScorecardName(rawValue: name) else {
                throw LatsimError(file: read[0].0, value: name, problem: "an unknown scorecard", expected: ScorecardName.spellings)
            }
            cards.append(card)
        }
        try PredictRunCommand.write(results, command: first.command, motion: first.motion, setting: first.setting, cards: cards, json: json)
    }
}

/// The readable table of `latsim predict`.
enum PredictionTableText {
    static func render(_ rows: [PredictionTableRow]) -> String {
        typealias M = PredictionTable.Metric
        var t = TextTable(header: ["predictor", "horizon ms", "frames", "samples", "err rms", "err p95", "err max",
                                   "along mean", "cross rms", "jitter", "photon rms", "photon p95",
                                   "photon rms mm", "photon p95 mm", "cut vs none %"],
                          rightAligned: Set(1...14))
        let marks: [M: Set<Int>] = Dictionary(uniqueKeysWithValues: M.allCases.map { ($0, PredictionTable.best($0, in: rows)) })
        for (i, r) in rows.enumerated() {
            let s = r.score
            func cell(_ x: Double, _ m: M?, signed: Bool = false) -> String {
                var text = formatDecimal(x, places: 3, fixed: true)
                if signed && x > 0 && text != "0" { text = "+" + text }
                if let m, marks[m]!.contains(i) { text += "*" } else if m != nil { text += " " }
                return text
            }
            let cut: String
            if r.predictor == PredictionTable.reference {
                cut = "ref "
            } else if let c = r.photonCutPercent {
                cut = (c > 0 ? "+" : "") + formatDecimal(c, places: 1, fixed: true) + (marks[.photonCut]!.contains(i) ? "*" : " ")
            } else {
                cut = "- "
            }
            t.rows.append([
                r.predictor, formatDecimal(r.horizonMs, places: 3, fixed: true), formatDecimal(r.horizonFrames, places: 3),
                String(s.samples),
                cell(s.errorPx.rms, .metric(.errorRms)), cell(s.errorPx.p95, .metric(.errorP95)), cell(s.errorPx.max, .metric(.errorMax)),
                cell(s.alongTrackMeanPx, .metric(.alongTrackMean), signed: true), cell(s.crossTrackRmsPx, .metric(.crossTrackRms)),
                cell(s.jitterPx, .metric(.jitter)), cell(s.photonErrorPx.rms, .metric(.photonRms)), cell(s.photonErrorPx.p95, .metric(.photonP95)),
                cell(s.photonErrorMM.rms, nil), cell(s.photonErrorMM.p95, nil), cut,
            ])
        }
        var text = t.render() + "\n\nErrors in points (mm where marked); along mean: + overshoot, - lateness; * best at that horizon."
        if let twins = PredictionTable.twinNote(rows) { text += "\n" + twins }
        return text
    }

    /// One line per horizon: the predictor with the smallest photon-time
    /// error and its cut against `none`.
    static func summary(_ rows: [PredictionTableRow]) -> [String] {
        let best = PredictionTable.best(.metric(.photonRms), in: rows)
        var lines: [String] = []
        var seen: Set<String> = []
        for (i, r) in rows.enumerated() where best.contains(i) {
            let group = r.motion + "\u{0}" + String(r.horizonMs)
            guard seen.insert(group).inserted else { continue }
            let frames = formatDecimal(r.horizonFrames, places: 3)
            let names = rows.indices.filter { best.contains($0) && rows[$0].motion == r.motion && rows[$0].horizonMs == r.horizonMs }
                .map { rows[$0].predictor }.joined(separator: ", ")
            var line = "best photon-time error at \(formatDecimal(r.horizonMs, places: 3)) ms (\(frames) frame\(frames == "1" ? "" : "s")): \(names), \(formatDecimal(r.score.photonErrorPx.rms, places: 3)) pt rms"
            if let c = r.photonCutPercent, r.predictor != PredictionTable.reference {
                line += ", \(formatDecimal(c, places: 1))% below none"
            }
            lines.append(line)
        }
        return lines
    }
}
