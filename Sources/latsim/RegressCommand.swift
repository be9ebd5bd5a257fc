import ArgumentParser
import Experiments
import Foundation
import LatsimGate
import LatsimOutput
import SimKernel
import TouchModel

/// `latsim regress`: the prediction gate (the default) or `init`, which
/// writes a commented gate spec.
struct RegressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regress",
        abstract: "Check prediction accuracy against a stored baseline (for CI).",
        discussion: "`latsim regress [OPTIONS]` runs the gate (see `latsim regress check --help`); `latsim regress init [FILE]` writes a commented gate spec to edit.",
        subcommands: [RegressCheckCommand.self, RegressInitCommand.self],
        defaultSubcommand: RegressCheckCommand.self
    )
}

struct RegressCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check prediction accuracy against a stored baseline (for CI).",
        discussion: """
        Scores a corpus with latsim's five predictors (or the --predictor specs named, \
        or your own --predictor-command) and compares the figures with the baseline \
        file. What is scored and how it is judged is a gate spec (--spec FILE, YAML; \
        `latsim regress init` writes a commented one): the scenario or device preset, \
        scan and display rates, finger or stylus, the horizons (frames or ms), the \
        motions (synthetic ones with their seeds, folders of recorded traces with \
        include filters), the smoothing, and the metrics gated, each with its \
        tolerance (5% or 0.5pt) and the moves that fail it.

        Without --spec the spec is the default one: the ios9-prediction scenario, \
        120 Hz scan, 60 Hz display, a finger, 0.5, 1 and 1.5 display frames ahead, \
        five synthetic motions with fixed seeds (strokes-seed1, strokes-seed2, \
        circle-seed1, flick-seed1, random-seed1; 20 s each), plus with --dataset one \
        item per folder of recorded traces, and all eight metrics (error \
        rms/p95/max, along-track mean, cross-track rms, jitter, photon-time error \
        rms/p95) at --tolerance percent (and at least 0.01 points).

        The baseline records the settings it was scored under; a check under other \
        settings is bad input naming the keys that differ. A metric regresses when it \
        moves for the worse beyond its tolerance (larger for magnitudes, further from 0 \
        for the along-track mean). A baseline entry that is no longer scored is \
        reported as missing and fails the gate; a run whose figures are not finite or \
        absurd (a predictor answering 1e308) fails it as unusable and is never \
        recorded. A baseline with no entries, or none that this run scores, is bad \
        input. --update never records a run that scored nothing.

        Progress goes to stderr. --junit FILE writes JUnit XML (one test case per item \
        x predictor x horizon; a regression is a failure with the metric table; on bad \
        input one error case); --format github adds GitHub Actions annotations: at most \
        9 ::error lines, each on the line of the baseline where its failing entry \
        begins, then a summary that counts the failing entries not annotated (GitHub \
        shows 10 error annotations a step; keep the gate in a step of its own), the \
        file named relative to $GITHUB_WORKSPACE when it lies inside it; --summary FILE writes \
        a Markdown summary, and $GITHUB_STEP_SUMMARY, when set, has it appended (checked \
        as any output: never one of the command's inputs or other outputs, a file \
        in an existing folder).

        Exit status: 0 when the gate passed (or --update wrote the baseline), 1 when \
        something regressed, went missing or gave unusable figures, 2 on bad input (a \
        missing or unreadable baseline or spec, a baseline of another spec, a \
        --predictor-command that fails the protocol), 3 when the environment fails \
        (a predictor command that cannot be started).

        Examples:
          latsim regress --baseline Reports/prediction-baseline.json
          latsim regress --baseline Reports/prediction-baseline.json --update
          latsim regress init gate.yaml
          latsim regress --spec Examples/ci/gate.yaml \\
              --baseline gate-baseline.json --update \\
              --predictor-command 'python3 Examples/predictors/linear.py'
          latsim regress --spec Examples/ci/gate.yaml \\
              --baseline gate-baseline.json --junit gate.xml --format github \\
              --predictor-command 'python3 Examples/predictors/linear.py'
        """
    )

    /// How the result is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, github
    }

    @Option(help: ArgumentHelp("The baseline JSON file.", valueName: "FILE"))
    var baseline: String
    @Option(help: ArgumentHelp("The gate spec (YAML; `latsim regress init` writes one). Default: latsim's own setting.", valueName: "FILE"))
    var spec: String?
    @Flag(help: "Write the current scores to the baseline file (replacing it atomically) and exit 0.")
    var update = false
    @Option(name: .customLong("tolerance"), parsing: .unconditional, help: ArgumentHelp("Without --spec: how much worse any metric may get, in percent of its baseline value (e.g. 2, 0.5 or 5%; default 2).", valueName: "PCT"))
    var toleranceText: String?
    @Option(help: ArgumentHelp("A predictor spec to gate (as `latsim predict --predictor`). Comma-separated and repeatable (default: latsim's five).", valueName: "P"))
    var predictor: [String] = []
    @OptionGroup var own: PredictorCommandOptions
    @OptionGroup var data: DatasetOptions
    @Option(help: ArgumentHelp("Also write the result as JUnit XML to FILE (an error case when the gate cannot run).", valueName: "FILE"))
    var junit: String?
    @Option(help: ArgumentHelp("Also write the result as Markdown to FILE (as to $GITHUB_STEP_SUMMARY, when set).", valueName: "FILE"))
    var summary: String?
    @Option(help: ArgumentHelp("text, or github: the text plus GitHub Actions annotations.", valueName: "F"))
    var format: Format = .text

    /// The tolerance, read as a plain decimal with or without `%`: `0x10`,
    /// `1e400` and `nan` are typing slips, not percentages.
    func tolerance() throws -> Double {
        guard let toleranceText else { return 2 }
        guard let t = NumberSyntax.percent(toleranceText), t >= 0, t <= 1_000_000 else {
            throw CLI.badFlag("--tolerance", toleranceText, "is not a percentage", expected: "a decimal number from 0 to 1000000, with or without %, e.g. 2, 0.5 or 5%")
        }
        return t
    }

    func run() throws {
        // every output, the step summary among them, is checked before
        // anything runs: a command refused for its outputs writes nothing,
        // not even the error reports below
        try CLI.preflight(files: (update ? [baseline] : []) + [junit, summary],
                          inputs: (update ? [] : [baseline]) + (spec.map { [$0] } ?? []),
                          appended: Self.stepSummary.map { ($0, Self.stepSummaryLabel($0)) })
        do {
            let outcome = try gate()
            if format == .github { for line in outcome.githubAnnotations() { CLI.say(line) } }
            try writeSummary(outcome.markdownSummary)
            if outcome.exitStatus != 0 { throw ExitCode(ExitStatus.checkFailed) }
        } catch let e as LatsimError {
            if format == .github { CLI.say(GateOutcome.githubAnnotation(e)) }
            // a CI step that publishes the report shows the error, never "no results"
            if let junit, e.file != junit { try? CLI.write(GateOutcome.junitXML(error: e, baselineFile: baseline), to: junit) }
            try? writeSummary(GateOutcome.markdownSummary(error: e))
            // those two reports are whole files written for the error: they
            // are put in place although the command fails (the gate wrote
            // nothing else before it stopped)
            try? OutputTransaction.current?.commit()
            throw e
        }
    }

    /// `$GITHUB_STEP_SUMMARY`, when set: a CI job's summary file, which
    /// every step appends to.
    static var stepSummary: String? {
        ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// How messages name the step summary.
    static func stepSummaryLabel(_ path: String) -> String { "GITHUB_STEP_SUMMARY=\(path)" }

    /// Writes the Markdown summary to --summary and appends it to
    /// $GITHUB_STEP_SUMMARY.
    func writeSummary(_ markdown: String) throws {
        if let summary { try CLI.write(markdown, to: summary) }
        if let step = Self.stepSummary {
            try AppendFile.append(markdown + "\n", to: step, label: Self.stepSummaryLabel(step))
        }
    }

    /// Runs the gate and prints its report; the outcome.
    func gate() throws -> GateOutcome {
        try data.check()
        if spec != nil {
            if toleranceText != nil { throw CLI.badFlag("--tolerance", toleranceText, "is given with --spec", expected: "each metric's tolerance in the spec's metrics") }
            if data.dataset != nil { throw CLI.badFlag("--dataset", data.dataset, "is given with --spec", expected: "the dataset as an item of the spec's corpus") }
        }
        let command = try own.command()
        var predictors = try PredictRunCommand.predictors(predictor, defaultAll: command == nil)
        if !predictor.isEmpty || command != nil {
            // `none` is the reference of a study, not something to gate
            predictors.removeAll { $0 == .latsim(.none) && !predictor.contains { PredictorSpec.splitList($0).contains("none") } }
        }
        if command != nil { predictors.append(.own) }
        var gate: PredictionGate
        if let spec {
            gate = try PredictionGate(spec: GateSpec.load(file: spec), baseline: baseline, specFile: spec, skipBad: data.skipBad)
        } else {
            gate = try PredictionGate(baseline: baseline, tolerancePercent: tolerance(), dataset: data.dataset,
                                      include: data.includedFolders, skipBad: data.skipBad)
        }
        let specPart = spec.map { " --spec \($0)" } ?? ""
        gate.remedy = "a baseline made by `latsim regress\(specPart) --baseline \(baseline) --update` (with the same predictors\(spec == nil ? " and --dataset" : ""))"
        gate.advice = RecordAdvice(afterRegression: "rerun with --update and commit the baseline", afterImprovement: "--update records them")
        gate.progress = Self.progressReporter()
        DatasetOptions.reportSkipped(gate.skipped)
        let ownPredictor = command.map(OwnPredictor.init(command:))
        let outcome = update ? try gate.record(predictors: predictors, own: ownPredictor)
                             : try gate.check(predictors: predictors, own: ownPredictor)
        CLI.say(outcome.report)
        if let junit { try CLI.write(outcome.junitXML(), to: junit) }
        return outcome
    }

    /// Progress on stderr: a line at every tenth of the runs (and the last).
    static func progressReporter() -> @Sendable (Int, Int) -> Void {
        let start = DispatchTime.now().uptimeNanoseconds
        let lastTenth = Locked(-1)
        return { done, total in
            let tenth = total == 0 ? 10 : done * 10 / total
            let report = lastTenth.withLock { (t: inout Int) -> Bool in
                guard tenth > t else { return false }
                t = tenth
                return true
            }
            guard report else { return }
            let s = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            CLI.warn("latsim regress: \(done) of \(total) run\(total == 1 ? "" : "s") done (\(formatDecimal(s, places: 1, fixed: true)) s)")
        }
    }
}

/// `latsim regress init`: a commented gate spec holding the default one.
struct RegressInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented gate spec to edit (for `latsim regress --spec`).",
        discussion: """
        Writes the default gate spec, every key commented, to FILE (default \
        latsim-gate.yaml; '-' for stdout). An existing file is kept unless --force.

        Example: latsim regress init ci/gate.yaml
        """
    )

    @Argument(help: ArgumentHelp("Where to write the spec.", valueName: "FILE"))
    var file: String = "latsim-gate.yaml"
    @Flag(help: "Replace FILE when it exists.")
    var force = false

    func run() throws {
        if file != "-" && !force && FileManager.default.fileExists(atPath: file) {
            throw LatsimError(file: file, problem: "exists already: latsim regress init keeps it", expected: "another path, or --force to replace it")
        }
        try CLI.preflight(files: [file])
        try CLI.write(GateSpec.template, to: file)
        if file != "-" { CLI.warn("wrote \(file): edit it, then `latsim regress --spec \(file) --baseline BASELINE.json --update`") }
    }
}
