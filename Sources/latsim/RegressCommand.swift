import ArgumentParser
import Experiments
import Foundation
import LatencyReport
import LatsimGate
import SimKernel
import TouchModel

struct RegressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regress",
        abstract: "Check prediction accuracy against a stored baseline (for CI).",
        discussion: """
        Scores a fixed corpus with latsim's five predictors (or the --predictor specs \
        named, or your own --predictor-command) at 0.5, 1 and 1.5 display frames \
        ahead: synthetic motion with fixed seeds (strokes-seed1, strokes-seed2, \
        circle-seed1, flick-seed1, random-seed1; 20 s each, 120 Hz scan, 60 Hz \
        display, the ios9-prediction scenario), plus, with --dataset, one item per \
        folder of recorded traces (named dataset/ and the folder's path below DIR). \
        Each figure (error rms/p95/max, along-track mean, cross-track rms, jitter, \
        photon-time error rms/p95) is compared with the baseline file.

        A metric regresses when it gets worse by more than the tolerance (and by more \
        than 0.01 points): larger for magnitudes, further from 0 for the along-track \
        mean (overshoot or lateness). An entry of the baseline that is no longer \
        scored regresses too. Every change beyond the tolerance is listed, with \
        REGRESSION on those that are worse. A baseline with no entries, or none that \
        this run scores, is bad input. --update never records a run that scored \
        nothing.

        --junit FILE also writes the result as JUnit XML (one test case per item x \
        predictor x horizon, a regression as a failure with the metric table); \
        --format github adds GitHub Actions annotations (::error per regressed entry).

        Exit status: 0 when nothing regressed (or with --update), 1 when something \
        did, 2 on bad input (a missing or unreadable baseline among it, or a \
        --predictor-command that fails the protocol), 3 when the environment fails \
        (a predictor command that cannot be started).

        Examples:
          latsim regress --baseline Reports/prediction-baseline.json
          latsim regress --baseline Reports/prediction-baseline.json --update
          latsim regress --baseline mine.json --dataset DIR --include fast
          latsim regress --baseline mine.json --predictor-command ./my-predictor --junit gate.xml --format github
        """
    )

    /// How the result is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, github
    }

    @Option(help: ArgumentHelp("The baseline JSON file.", valueName: "FILE"))
    var baseline: String
    @Flag(help: "Write the current scores to the baseline file (replacing it atomically) and exit 0.")
    var update = false
    @Option(name: .customLong("tolerance"), parsing: .unconditional, help: ArgumentHelp("How much worse a metric may get, in percent of its baseline value (a decimal number, e.g. 2 or 0.5).", valueName: "PCT"))
    var toleranceText: String = "2"
    /// The tolerance, read as a plain decimal: `0x10`, `1e400` and `nan`
    /// are typing slips, not percentages.
    var tolerance: Double {
        guard toleranceText.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil else { return .nan }
        return Double(toleranceText) ?? .nan
    }
    @Option(help: ArgumentHelp("A predictor spec to gate (as `latsim predict --predictor`). Comma-separated and repeatable (default: latsim's five).", valueName: "P"))
    var predictor: [String] = []
    @OptionGroup var own: PredictorCommandOptions
    @OptionGroup var data: DatasetOptions
    @Option(help: ArgumentHelp("Also write the result as JUnit XML to FILE.", valueName: "FILE"))
    var junit: String?
    @Option(help: ArgumentHelp("text, or github: the text plus GitHub Actions annotations.", valueName: "F"))
    var format: Format = .text

    func validate() throws {
        if !tolerance.isFinite || tolerance > 1_000_000 {
            throw ValidationError("--tolerance '\(toleranceText)' is not a percentage: expected a decimal number from 0 to 1000000, e.g. 2 or 0.5")
        }
    }

    func run() throws {
        do {
            let outcome = try gate()
            if format == .github { for line in outcome.githubAnnotations() { CLI.say(line) } }
            if outcome.exitStatus != 0 { throw ExitCode(ExitStatus.checkFailed) }
        } catch let e as LatsimError {
            if format == .github { CLI.say(GateOutcome.githubAnnotation(e)) }
            throw e
        }
    }

    /// Runs the gate and prints its report; the outcome.
    func gate() throws -> GateOutcome {
        try data.check()
        try CLI.preflight(files: update ? [baseline, junit] : [junit], inputs: update ? [] : [baseline])
        let command = try own.command()
        var predictors = try PredictRunCommand.predictors(predictor, defaultAll: command == nil)
        if !predictor.isEmpty || command != nil {
            // `none` is the reference of a study, not something to gate
            predictors.removeAll { $0 == .latsim(.none) && !predictor.contains { PredictorSpec.splitList($0).contains("none") } }
        }
        if command != nil { predictors.append(.own) }
        var gate = try PredictionGate(baseline: baseline, tolerancePercent: tolerance, dataset: data.dataset,
                                      include: data.includedFolders, skipBad: data.skipBad)
        gate.remedy = "a baseline made by `latsim regress --baseline \(baseline) --update` (with the same predictors and --dataset)"
        gate.advice = RecordAdvice(afterRegression: "rerun with --update and commit the baseline", afterImprovement: "--update records them")
        DatasetOptions.reportSkipped(gate.skipped)
        let ownPredictor = command.map(OwnPredictor.init(command:))
        let outcome = update ? try gate.record(predictors: predictors, own: ownPredictor)
                             : try gate.check(predictors: predictors, own: ownPredictor)
        CLI.say(outcome.report)
        if let junit { try CLI.write(outcome.junitXML(), to: junit) }
        return outcome
    }
}
