import Foundation
import SimKernel
import Testing
import TouchModel
import Experiments
@testable import FramePipeline
import Scenarios

/// Where the committed baseline and the recorded strokes are.
enum PredictionCorpusFixtures {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The committed regression baseline.
    static let baselineFile = packageRoot.appendingPathComponent("Reports/prediction-baseline.json")
    /// Subject s01 of the $1 gesture logs, the repository's fixture
    /// (Tests/Fixtures/dollar-unistroke/README.md).
    static let dollarDirectory = packageRoot.appendingPathComponent("Tests/Fixtures/dollar-unistroke").path

    /// The synthetic corpus scored once per test process (it is what both
    /// gate tests compare).
    static let syntheticScores: Result<PredictionBaseline, Error> = Result { try PredictionCorpus.synthetic.score() }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }
}

@Suite("Prediction corpus and regression gate")
struct PredictionCorpusTests {
    /// The CI gate: the predictors of this tree score the synthetic corpus
    /// as the committed baseline says (regenerate it with `latsim regress
    /// --baseline Reports/prediction-baseline.json --update` when a change
    /// is intended).
    @Test func theSyntheticCorpusMatchesTheCommittedBaseline() throws {
        let data = try Data(contentsOf: PredictionCorpusFixtures.baselineFile)
        let stored = try PredictionBaseline.decode(data)
        let current = try PredictionCorpusFixtures.syntheticScores.get()
        #expect(stored.entries.count == 5 * 5 * 3)
        let changes = compareBaselines(baseline: stored, current: current, tolerancePercent: 2)
        let regressions = changes.filter(\.isRegression)
        #expect(regressions.isEmpty, "\(regressions.map(\.description).joined(separator: "\n"))")
        #expect(!changes.contains { $0.metric == "entry" }, "the corpus's entries changed: \(changes)")
    }

    /// A predictor that draws too far ahead (it predicts twice the horizon
    /// it is asked for) must fail the gate on the photon-time error and on
    /// the prediction error, while the real one passes.
    @Test func anOvershootingPredictorFailsTheGate() throws {
        let real = try PredictionCorpusFixtures.syntheticScores.get()
        let overshooting = try PredictionCorpus.synthetic.score(predictor: { HorizonScaled($0.makePredictor(), scale: 2) })
        #expect(compareBaselines(baseline: real, current: real, tolerancePercent: 2).isEmpty)
        let regressions = compareBaselines(baseline: real, current: overshooting, tolerancePercent: 2).filter(\.isRegression)
        let metrics = Set(regressions.map(\.metric))
        #expect(metrics.isSuperset(of: ["photonRms", "photonP95", "errorRms", "alongTrackMean"]), "\(metrics)")
        // at 1.5 frames, twice the horizon is beyond the photon time: the
        // drawn stroke runs ahead of the finger on every synthetic motion
        let photonAt25 = regressions.filter { $0.metric == "photonRms" && $0.horizonMs == 25 && $0.predictor != "none" }
        #expect(Set(photonAt25.map(\.item)).count == 5, "\(photonAt25)")
        // `none` draws the raw touch at any horizon: its photon error cannot move
        #expect(!regressions.contains { $0.predictor == "none" && $0.metric.hasPrefix("photon") })
    }

    /// Swapping the predictor for a worse one (first order for the
    /// quadratic and Kalman ones) fails the gate too.
    @Test func aWorsePredictorFailsTheGate() throws {
        let real = try PredictionCorpusFixtures.syntheticScores.get()
        let swapped = try PredictionCorpus.synthetic.score(predictor: { spec in
            guard case .latsim(var c) = spec else { return spec.makePredictor() }
            if c.kind == .kalman || c.kind == .leastSquares { c.kind = .linearFirst }
            return BuiltinPredictor(c)
        })
        let regressions = compareBaselines(baseline: real, current: swapped, tolerancePercent: 2).filter(\.isRegression)
        #expect(Set(regressions.map(\.predictor)) == ["kalman", "leastSquares"])
        #expect(regressions.contains { $0.metric == "errorRms" })
    }

    @Test func theCorpusHasStableNames() {
        let names = PredictionCorpus.synthetic.items.map(\.name)
        #expect(names == ["strokes-seed1", "strokes-seed2", "circle-seed1", "flick-seed1", "random-seed1"])
        #expect(PredictionCorpus.standardHorizons.map(\.description) == ["0.5frames", "1frame", "1.5frames"])
    }

    /// Results land by index: a parallel run gives exactly the serial one.
    @Test func parallelAndSerialRunsAreIdentical() throws {
        var corpus = PredictionCorpus.synthetic
        corpus.items = corpus.items.map { var i = $0; i.duration = "3s"; return i }
        let serial = try corpus.score(parallel: false)
        let parallel = try corpus.score(parallel: true)
        #expect(try serial.encodedJSON() == parallel.encodedJSON())
        let cells = corpus.cells(predictors: PredictionCorpus.latsimPredictors, horizons: [try Horizon(parsing: "1frame")])
        let results = try corpus.run(cells, parallel: true)
        #expect(results.map(\.cell) == cells)
    }

    /// `none` is scored as the reference: it is late by the finger's travel
    /// over the horizon, and what it draws does not depend on the horizon.
    @Test func noneIsScoredAsTheReference() throws {
        let corpus = PredictionCorpus(items: [PredictionCorpusItem(name: "line", motion: .synthetic(kind: "line", seed: 1), duration: "5s")])
        let results = try corpus.run(corpus.cells(predictors: [.latsim(.none), .latsim(.linearFirst)], horizons: [try Horizon(parsing: "0.5frames"), try Horizon(parsing: "1frame")]))
        let none = results.filter { $0.predictor == "none" }
        #expect(none.count == 2 && none.allSatisfy { $0.score.samples > 0 })
        // 600 points/s for 8.33 ms and 16.67 ms: 5 and 10 points behind
        // (a little less on average: the line bounces off the screen edges)
        #expect(abs(none[0].score.errorPx.p50 - 5) < 0.01, "\(none[0].score.errorPx)")
        #expect(abs(none[1].score.errorPx.p50 - 10) < 0.01, "\(none[1].score.errorPx)")
        #expect(none[0].score.alongTrackMeanPx < -4.5 && none[1].score.alongTrackMeanPx < -9, "\(none.map(\.score.alongTrackMeanPx))")
        #expect(none[0].score.photonErrorPx == none[1].score.photonErrorPx)
        // on a line at constant speed first order is exact
        let linear = results.filter { $0.predictor == "linearFirst" }
        #expect(linear.allSatisfy { $0.score.errorPx.p50 < 1e-3 })
        #expect(linear[1].score.photonErrorPx.rms < none[1].score.photonErrorPx.rms)
        #expect(results.allSatisfy { abs($0.horizonFrames - ($0.cell.horizon.description == "1frame" ? 1 : 0.5)) < 1e-6 })
    }

    /// A malformed file stops a dataset with its real path named; with
    /// skipBad it is left out and reported, and the rest plays.
    @Test func datasetErrorsNameTheRealFile() throws {
        let dir = try PredictionCorpusFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = "t_ms,x,y\n0,10,10\n8,20,10\n16,30,10\n24,40,10\n"
        for sub in ["a/fast", "a/slow", "b/fast"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            try good.write(to: dir.appendingPathComponent(sub + "/one.csv"), atomically: true, encoding: .utf8)
        }
        try "t_ms,x,y\n0,10,oops\n".write(to: dir.appendingPathComponent("b/fast/bad.csv"), atomically: true, encoding: .utf8)

        #expect(try TraceFiles.list(under: dir.path, include: ["fast"]) == ["a/fast/one.csv", "b/fast/bad.csv", "b/fast/one.csv"])
        do {
            _ = try PredictionCorpus.datasetItems(directory: dir.path, include: ["fast"], skipBad: false)
            Issue.record("a malformed file was accepted")
        } catch {
            #expect(error.file == dir.path + "/b/fast/bad.csv", "\(error)")
            #expect(error.description.hasPrefix(dir.path + "/b/fast/bad.csv:2:"), "\(error)")
        }
        let loaded = try PredictionCorpus.datasetItems(directory: dir.path, include: ["fast"], skipBad: true)
        #expect(loaded.items.map(\.name) == ["dataset/a/fast", "dataset/b/fast"])
        #expect(loaded.skipped.map(\.file) == [dir.path + "/b/fast/bad.csv"])
        let all = try PredictionCorpus.datasetItems(directory: dir.path, skipBad: true)
        #expect(all.items.map(\.name) == ["dataset/a/fast", "dataset/a/slow", "dataset/b/fast"])
        #expect(throws: LatsimError.self) { try TraceFiles.list(under: dir.path, include: ["medium"]) }
    }

    /// The $1 traces as corpus items: names relative to the directory, the
    /// run as long as the traces, every predictor scored.
    @Test
    func datasetItemsPlayTheRecordedTraces() throws {
        let dir = PredictionCorpusFixtures.dollarDirectory + "/s01"
        let loaded = try PredictionCorpus.datasetItems(directory: dir, include: ["fast"], skipBad: false)
        #expect(loaded.items.map(\.name) == ["dataset/fast"])
        #expect(loaded.skipped.isEmpty)
        let corpus = PredictionCorpus(items: loaded.items)
        let whole = try Trajectory.loadDirectory(dir + "/fast", parameters: TrajectoryParameters(), skipBad: false).trajectory
        let baseline = try corpus.score(horizons: [try Horizon(parsing: "1frame")])
        #expect(baseline.entries.count == 5)
        #expect(baseline.entries.allSatisfy { !$0.item.contains(PredictionCorpusFixtures.packageRoot.path) })
        let c = try corpus.configuration(for: .init(item: 0, predictor: .latsim(.kalman), horizon: try Horizon(parsing: "1frame")))
        #expect(c.duration == whole.duration)
        let none = try #require(baseline.entries.first { $0.predictor == "none" })
        let kalman = try #require(baseline.entries.first { $0.predictor == "kalman" })
        #expect(kalman.metrics.photonRms < none.metrics.photonRms)
        #expect(none.metrics.alongTrackMean < 0)
    }
}

/// A predictor asked for a horizon answers for `scale` times it: it draws
/// the stroke too far ahead (scale > 1).
struct HorizonScaled: TouchPredictor {
    var inner: ConfiguredPredictor
    let scale: Double
    init(_ inner: ConfiguredPredictor, scale: Double) {
        self.inner = inner
        self.scale = scale
    }
    mutating func reset() { inner.reset() }
    mutating func observe(_ sample: TouchSample) { inner.observe(sample) }
    mutating func predict(horizon: SimTime) -> TouchPoint? { inner.predict(horizon: SimTime((Double(horizon) * scale).rounded())) }
}
