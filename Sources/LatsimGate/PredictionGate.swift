import Experiments
import Foundation
import LatsimOutput
import SimKernel
import TouchModel

/// The prediction regression gate, as a library call: score a predictor on
/// a fixed corpus (latsim's synthetic motions, plus a team's own recorded
/// strokes) at half, one and one and a half display frames ahead, and
/// compare every figure with a stored baseline. `latsim regress` is this
/// type on the command line.
///
///     import LatsimGate
///     let gate = try PredictionGate(baseline: "prediction-baseline.json")
///     try gate.record(name: "mine") { MyPredictor() }        // once, to make the baseline
///     let outcome = try gate.check(name: "mine") { MyPredictor() }
///     print(outcome.report)
///     exit(outcome.exitStatus)                                 // 0 passed, 1 a regression
///
/// A metric regresses when it gets worse by more than the tolerance (and
/// by more than 0.01 points); an entry of the baseline that is no longer
/// scored regresses too. A baseline with no entries, or none that this
/// corpus scores, is bad input: such a gate would pass whatever the
/// predictor did. A run that scored nothing (no prediction was ever made)
/// is never recorded.
public struct PredictionGate: Sendable {
    /// The baseline file.
    public var baseline: String
    /// What is scored and how it is judged.
    public var spec: GateSpec
    /// Where ``spec`` was read from; nil for a spec made in code (the
    /// command line's implicit one among them).
    public var specFile: String?
    /// The motions scored, with the device settings (made from ``spec``).
    public var corpus: PredictionCorpus
    /// The horizons scored (``GateSpec/horizons``).
    public var horizons: [Horizon] {
        get { spec.horizons }
        set { spec.horizons = newValue }
    }
    /// The metrics gated and their tolerances (``GateSpec/rules``).
    public var rules: [MetricRule] { spec.rules }
    /// Dataset files left out as malformed (with `skipBad`).
    public private(set) var skipped: [LatsimError] = []
    /// What to write, in an error about the baseline, that makes one.
    public var remedy = "a baseline recorded from this corpus by PredictionGate.record"
    /// How reports say to accept a change.
    public var advice = RecordAdvice()
    /// Called as runs finish (from any thread): runs done, runs in all.
    public var progress: (@Sendable (Int, Int) -> Void)?

    /// A gate on `baseline` with the default spec, every metric at
    /// `tolerancePercent`; with `dataset`, a directory of recorded traces
    /// (`.xml` $1 gesture logs, `.csv`), one corpus item per folder, only
    /// files below a folder named in `include` (every file when empty).
    /// Malformed files stop it unless `skipBad` (then ``skipped`` lists them).
    public init(baseline: String, tolerancePercent: Double = 2, dataset: String? = nil, include: [String] = [],
                skipBad: Bool = false) throws(LatsimError) {
        guard tolerancePercent.isFinite, tolerancePercent >= 0 else {
            throw LatsimError(value: String(tolerancePercent), problem: "not a tolerance", expected: "a number of percent of 0 or more")
        }
        var spec = GateSpec()
        spec.rules = MetricRule.all(percent: tolerancePercent)
        if let dataset { spec.corpus.append(.dataset(path: dataset, include: include)) }
        try self.init(spec: spec, baseline: baseline, skipBad: skipBad)
    }

    /// A gate on `baseline` under `spec` (read from `specFile`, when it
    /// was). Malformed dataset files stop it unless `skipBad`.
    public init(spec: GateSpec, baseline: String, specFile: String? = nil, skipBad: Bool = false) throws(LatsimError) {
        self.baseline = baseline
        self.spec = spec
        self.specFile = specFile
        let made = try spec.makeCorpus(skipBad: skipBad)
        corpus = made.corpus
        skipped = made.skipped
    }

    /// The settings recorded in the baseline (``GateSpec/settings(of:)``).
    public var settings: [String: String] { spec.settings(of: corpus) }

    /// Scores latsim's or the platforms' `predictors` and compares them
    /// with the baseline.
    public func check(predictors: [StudyPredictor] = PredictionCorpus.latsimPredictors) throws(LatsimError) -> GateOutcome {
        try check(predictors: predictors, own: nil)
    }

    /// Scores your own predictor (a fresh one from `make` for every run,
    /// named `name` in the baseline) and compares it with the baseline.
    public func check<P: TouchPredictor>(name: String, _ make: @escaping @Sendable () -> P) throws(LatsimError) -> GateOutcome {
        try check(predictors: [.own], own: OwnPredictor(name: name, make: make))
    }

    /// Scores `predictors` (``StudyPredictor/own`` cells run `own`) and
    /// compares them with the baseline. A baseline recorded under other
    /// settings (another rate, tool, corpus, ...) is bad input naming them.
    public func check(predictors: [StudyPredictor], own: OwnPredictor?) throws(LatsimError) -> GateOutcome {
        let (stored, bytes) = try readBaselineFile()
        if stored.entries.isEmpty {
            throw LatsimError(file: baseline, problem: "the baseline has no entries: it would pass anything", expected: remedy)
        }
        let now = settings
        var notes: [String] = []
        if stored.spec == nil, let specFile {
            // a baseline written before the settings were recorded, or one that lost them
            notes.append("the baseline records no gate spec: its settings are not checked against \(specFile) (--update records them)")
        }
        if let recorded = stored.spec {
            let differ = GateSpec.differences(baseline: recorded, now: now)
            if !differ.isEmpty {
                throw LatsimError(file: baseline, problem: "the baseline was recorded under another gate spec; "
                                  + "\(differ.count == 1 ? "this key differs" : "these keys differ"): " + differ.joined(separator: "; "),
                                  expected: "the spec it was recorded with, or " + remedy)
            }
        }
        let start = Monotonic.seconds()
        let results = try corpus.run(corpus.cells(predictors: predictors, horizons: horizons), own: own, progress: progress)
        let current = PredictionCorpus.baseline(results.filter { PredictionMetric.unusableReason($0.score) == nil })
        let unusable = Set(GateOutcome.unusable(results).map { GateOutcome.key($0.item, $0.predictor, $0.horizonMs) })
        let storedKeys = Set(stored.entries.map(GateOutcome.key))
        let compared = current.entries.filter { storedKeys.contains(GateOutcome.key($0)) }.count
        if compared == 0 && unusable.isEmpty {
            throw LatsimError(file: baseline, problem: "the baseline compares nothing with this run: none of its \(stored.entries.count) entries "
                              + "(\(GateOutcome.describe(stored.entries))) was scored now (\(GateOutcome.describe(current.entries)))",
                              expected: remedy)
        }
        // an entry whose figures are unusable is reported as such, not as missing
        let changes = compareBaselines(baseline: stored, current: current, rules: rules)
            .filter { !unusable.contains(GateOutcome.key($0.item, $0.predictor, $0.horizonMs)) }
        var outcome = GateOutcome(baselineFile: baseline, rules: rules, results: results, stored: stored,
                                  current: current, changes: changes, compared: compared, recorded: false,
                                  seconds: Monotonic.seconds() - start, advice: advice, settings: now, specFile: specFile)
        outcome.notes = notes
        outcome.baselineLines = JSONKeys.elementLines(in: bytes, array: "entries") ?? []
        return outcome
    }

    /// Scores latsim's or the platforms' `predictors` and writes them as
    /// the baseline (atomically), leaving out runs that scored nothing.
    @discardableResult
    public func record(predictors: [StudyPredictor] = PredictionCorpus.latsimPredictors) throws(LatsimError) -> GateOutcome {
        try record(predictors: predictors, own: nil)
    }

    /// Scores your own predictor and writes it as the baseline.
    @discardableResult
    public func record<P: TouchPredictor>(name: String, _ make: @escaping @Sendable () -> P) throws(LatsimError) -> GateOutcome {
        try record(predictors: [.own], own: OwnPredictor(name: name, make: make))
    }

    /// Scores `predictors` and writes them as the baseline, with the
    /// settings they were scored under. The changes from the old baseline,
    /// when it could be read, are in the outcome. A pass with unusable
    /// figures writes nothing and fails.
    @discardableResult
    public func record(predictors: [StudyPredictor], own: OwnPredictor?) throws(LatsimError) -> GateOutcome {
        let old = try? readBaseline()
        InputFiles.forget(baseline) // read to be replaced, not as an input
        let start = Monotonic.seconds()
        let results = try corpus.run(corpus.cells(predictors: predictors, horizons: horizons), own: own, progress: progress)
        var current = PredictionCorpus.baseline(results)
        current.spec = settings
        if !GateOutcome.unusable(results).isEmpty {
            // a predictor whose figures are unusable is never recorded: the outcome fails
            return GateOutcome(baselineFile: baseline, rules: rules, results: results,
                               stored: old ?? PredictionBaseline(entries: []), current: current, changes: [],
                               compared: 0, recorded: false, seconds: Monotonic.seconds() - start, advice: advice,
                               recording: true, settings: current.spec ?? [:], specFile: specFile)
        }
        if current.entries.isEmpty {
            throw LatsimError(file: baseline, problem: "no run scored anything: there is nothing to record",
                              expected: "a predictor that answers, on motions long enough to predict")
        }
        let data: Data
        do { data = try current.encodedJSON() } catch {
            throw LatsimError(.internal, file: baseline, problem: "cannot encode the baseline: \(error)")
        }
        do { try OutputDestination.write(data, to: baseline) } catch let e as LatsimError { throw e } catch {
            throw LatsimError(.environment, file: baseline, problem: "cannot write the baseline: \(error)")
        }
        let changes = old.map { compareBaselines(baseline: $0, current: current, rules: rules) } ?? []
        return GateOutcome(baselineFile: baseline, rules: rules, results: results,
                           stored: old ?? PredictionBaseline(entries: []), current: current, changes: changes,
                           compared: 0, recorded: true, seconds: Monotonic.seconds() - start, advice: advice,
                           recording: true, settings: current.spec ?? [:], specFile: specFile)
    }

    /// The stored baseline; bad input when it is missing, unreadable, not a
    /// baseline, or of another format version.
    public func readBaseline() throws(LatsimError) -> PredictionBaseline {
        try readBaselineFile().baseline
    }

    /// The stored baseline and the file's bytes.
    func readBaselineFile() throws(LatsimError) -> (baseline: PredictionBaseline, bytes: Data) {
        guard FileManager.default.fileExists(atPath: baseline) else {
            throw LatsimError(file: baseline, problem: "no such baseline file", expected: remedy)
        }
        guard let bytes = InputFiles.contents(baseline) else {
            throw LatsimError(file: baseline, problem: "cannot read the baseline file (check its permissions)", expected: remedy)
        }
        return (try PredictionBaseline.read(bytes, file: baseline, remedy: remedy), bytes)
    }
}

/// Wall-clock seconds, for the reports' timings.
enum Monotonic {
    static func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
