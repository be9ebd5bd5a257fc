import ArgumentParser
import FramePipeline
import Foundation
import LatencyReport
import Experiments
import SimKernel
import TouchModel

struct RegressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "regress",
        abstract: "Check prediction accuracy against a stored baseline (for CI).",
        discussion: """
        Scores a fixed corpus with every predictor at 0.5, 1 and 1.5 display frames \
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
        REGRESSION on those that are worse.

        Exit status: 0 when nothing regressed (or with --update), 1 when something \
        did, 2 on bad input (a missing or unreadable baseline among it).

        Examples:
          latsim regress --baseline Reports/prediction-baseline.json
          latsim regress --baseline Reports/prediction-baseline.json --update
          latsim regress --baseline mine.json --dataset DIR --include fast
        """
    )

    @Option(help: ArgumentHelp("The baseline JSON file.", valueName: "FILE"))
    var baseline: String
    @Flag(help: "Write the current scores to the baseline file (replacing it atomically) and exit 0.")
    var update = false
    @Option(help: ArgumentHelp("How much worse a metric may get, in percent of its baseline value.", valueName: "PCT"))
    var tolerance: Double = 2
    @OptionGroup var data: DatasetOptions

    func validate() throws {
        if !tolerance.isFinite || tolerance < 0 { throw ValidationError("--tolerance must be a number of percent >= 0") }
    }

    func run() throws {
        let regressions = try { () throws -> Int in
            try data.check()
            if update { try CLI.preflight(files: [baseline]) }
            // with --update an unreadable old file is simply replaced
            let stored: PredictionBaseline?
            if update { stored = try? readBaseline() } else { stored = try readBaseline() }
            var corpus = PredictionCorpus.synthetic
            if let dir = data.dataset {
                let loaded = try PredictionCorpus.datasetItems(directory: dir, include: data.includedFolders, skipBad: data.skipBad)
                DatasetOptions.reportSkipped(loaded.skipped)
                corpus.items += loaded.items
            }
            let current = try corpus.score()
            let changes = stored.map { compareBaselines(baseline: $0, current: current, tolerancePercent: tolerance) } ?? []
            if update {
                let data = try current.encodedJSON()
                try OutputDestination.write(data, to: baseline)
                if stored != nil && !changes.isEmpty { CLI.say(RegressReport.render(changes)); CLI.say("") }
                CLI.say("wrote \(current.entries.count) entries (\(corpus.items.count) items x \(PredictionCorpus.latsimPredictors.count) predictors x \(PredictionCorpus.standardHorizons.count) horizons) to \(baseline)")
                return 0
            }
            let regressed = changes.filter(\.isRegression).count
            CLI.say("compared \(current.entries.count) entries (\(corpus.items.count) items x \(PredictionCorpus.latsimPredictors.count) predictors x \(PredictionCorpus.standardHorizons.count) horizons) with \(baseline), tolerance \(formatDecimal(tolerance, places: 3))%")
            if changes.isEmpty {
                CLI.say("no metric moved beyond the tolerance")
            } else {
                CLI.say("")
                CLI.say(RegressReport.render(changes))
                CLI.say("")
                if regressed > 0 {
                    CLI.say("\(regressed) regression\(regressed == 1 ? "" : "s"); if the change is intended, rerun with --update and commit the baseline")
                } else {
                    CLI.say("no regression (\(changes.count) change\(changes.count == 1 ? "" : "s") for the better or new; --update records them)")
                }
            }
            return regressed
        }()
        if regressions > 0 { throw ExitCode(ExitStatus.checkFailed) }
    }

    /// The stored baseline, or bad input (exit 2) saying how to make one.
    func readBaseline() throws -> PredictionBaseline {
        let make = "a baseline made by `latsim regress --baseline \(baseline) --update`"
        guard FileManager.default.fileExists(atPath: baseline) else {
            throw LatsimError(file: baseline, problem: "no such baseline file", expected: make)
        }
        guard let bytes = FileManager.default.contents(atPath: baseline) else {
            throw LatsimError(file: baseline, problem: "cannot read the baseline file (check its permissions)", expected: make)
        }
        let b: PredictionBaseline
        do { b = try PredictionBaseline.decode(bytes) } catch {
            throw LatsimError(file: baseline, problem: "not a prediction baseline (\(RegressReport.reason(error)))", expected: make)
        }
        if b.version != PredictionBaseline.currentVersion {
            throw LatsimError(file: baseline, problem: "baseline format version \(b.version), this latsim reads version \(PredictionBaseline.currentVersion)",
                              expected: make)
        }
        return b
    }
}

/// The readable change list of `latsim regress`.
enum RegressReport {
    static func render(_ changes: [MetricChange]) -> String {
        var t = TextTable(header: ["item", "predictor", "horizon ms", "metric", "old", "new", "change %", ""],
                          rightAligned: [2, 4, 5, 6])
        func f(_ x: Double?) -> String { x.map { formatDecimal($0, places: 6) } ?? "-" }
        for c in changes {
            let pct = c.changePercent.map { ($0 > 0 ? "+" : "") + formatDecimal($0, places: 2) } ?? "-"
            let marker: String
            if c.metric == "entry" {
                marker = c.isRegression ? "REGRESSION (missing from this run)" : "new entry"
            } else {
                marker = c.isRegression ? "REGRESSION" : (abs(c.new ?? 0) < abs(c.old ?? 0) ? "better" : "changed")
            }
            t.rows.append([c.item, c.predictor, formatDecimal(c.horizonMs, places: 3),
                           c.metric == "entry" ? "-" : c.metric, f(c.old), f(c.new), c.metric == "entry" ? "-" : pct, marker])
        }
        return t.render()
    }

    /// A short reason a decoding error gives, without Swift's internals.
    static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let c):
            return c.underlyingError.map { _ in "not valid JSON" } ?? c.debugDescription
        case DecodingError.keyNotFound(let key, let c):
            return "missing key '\(path(c.codingPath + [key]))'"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            return "wrong type at '\(path(c.codingPath))'"
        default:
            return "\(error)"
        }
    }

    static func path(_ keys: [CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
