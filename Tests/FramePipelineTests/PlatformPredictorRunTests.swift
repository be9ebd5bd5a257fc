import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing
import TouchModel

/// The platforms' predictors named by `app.prediction.predictor`, run by the
/// app, and the platforms' scorecards fed by the measurement.
@Suite struct PlatformPredictorRunTests {
    /// A finger on a straight line at 600 points/s on a screen too large for
    /// it to reach an edge: first-order extrapolation is exact there.
    static let line = ["input.trajectory=line", "device.widthPoints=100000", "device.heightPoints=100000"]

    static func score(_ overrides: [String], duration: String = "5s") throws -> PredictionScore {
        try #require(try runScenario("ios9-prediction", overrides, duration: duration).predictionScore)
    }

    /// Chromium's first-order LinearPredictor is the formula latsim's
    /// linearFirst documents (`p2 + v h`, the velocity of the last two
    /// samples): named in the key, it drives the app and is scored alike.
    @Test func chromiumsFirstOrderPredictorMatchesLatsimsOnStrokes() throws {
        let latsim = try Self.score(["app.prediction.predictor=linearFirst"])
        let chromium = try Self.score(["app.prediction.predictor=chromium.linearFirst"])
        #expect(latsim.samples == chromium.samples)
        #expect(abs(latsim.errorPx.rms - chromium.errorPx.rms) < 1e-9 * latsim.errorPx.rms, "\(latsim.errorPx) \(chromium.errorPx)")
        #expect(abs(latsim.photonErrorPx.rms - chromium.photonErrorPx.rms) < 1e-9 * latsim.photonErrorPx.rms)
    }

    /// androidx takes the tool from each MotionEvent: `androidx.kalman` with
    /// no tool written runs with a stylus's confidence ranges when a pencil
    /// draws (`input.tool: pencil`), as `androidx.kalman(stylus)` does, and
    /// with a finger's otherwise; a tool written is kept.
    @Test func androidxTakesTheInputsTool() throws {
        let pencil = ["input.tool=pencil"]
        let unwritten = try Self.score(pencil + ["app.prediction.predictor=androidx.kalman"])
        let stylus = try Self.score(pencil + ["app.prediction.predictor=androidx.kalman(stylus)"])
        let finger = try Self.score(pencil + ["app.prediction.predictor=androidx.kalman(finger)"])
        #expect(unwritten.samples == stylus.samples && unwritten.errorPx.rms == stylus.errorPx.rms)
        #expect(unwritten.errorPx.rms != finger.errorPx.rms, "\(unwritten.errorPx) \(finger.errorPx)")
        let onFinger = try Self.score(["app.prediction.predictor=androidx.kalman"])
        let fingerWritten = try Self.score(["app.prediction.predictor=androidx.kalman(finger)"])
        #expect(onFinger.errorPx.rms == fingerWritten.errorPx.rms)
        let s = try Scenario.named("ios9-prediction")
        #expect(try s.configuration(overrides: pencil + ["app.prediction.predictor=androidx.kalman"]).appPredictor?.description
                == "androidx.kalman(stylus)")
        #expect(try s.configuration(overrides: ["app.prediction.predictor=androidx.kalman"]).appPredictor?.description
                == "androidx.kalman")
    }

    /// The app gives its predictor the display period as the frame interval.
    /// Chromium's resampler with `frames=r` samples `r · interval − 5 ms`
    /// after the target, with no clamp: at 120 Hz, r = 0.6 makes that 0, so
    /// it extrapolates the last two samples to the target exactly as
    /// linearFirst does. Were the default 60 Hz interval used, it would aim
    /// 5 ms further and overshoot by the finger's travel in 5 ms (3 points).
    @Test func theDisplayPeriodIsTheFrameInterval() throws {
        let common = Self.line + ["device.displayHz=120", "device.scanHz=240", "app.prediction.horizon=8ms"]
        let linear = try Self.score(common + ["app.prediction.predictor=linearFirst"])
        let resampled = try Self.score(common + ["app.prediction.predictor=chromium.linearResampling(frames=0.6)"])
        #expect(linear.errorPx.max < 1e-6)
        #expect(resampled.samples == linear.samples)
        #expect(resampled.errorPx.max < 1e-6, "\(resampled.errorPx)")
        // and at r = 0.9 it aims 0.9 · 8.333 − 5 = 2.5 ms past the target: 1.5 points ahead
        let ahead = try Self.score(common + ["app.prediction.predictor=chromium.linearResampling(frames=0.9)"])
        #expect(abs(ahead.alongTrackMeanPx - 1.5) < 1e-3, "\(ahead.alongTrackMeanPx)")
    }

    /// `+1e` and `app.prediction.smoothing: oneEuro` are one predictor;
    /// androidx has no filter and refuses the smoothing.
    @Test func smoothingIsTheSameAsPlusOneEuro() throws {
        let suffix = try Self.score(["app.prediction.predictor=kalman+1e"], duration: "3s")
        let key = try Self.score(["app.prediction.predictor=kalman", "app.prediction.smoothing=oneEuro"], duration: "3s")
        let both = try Self.score(["app.prediction.predictor=kalman+1e", "app.prediction.smoothing=oneEuro"], duration: "3s")
        #expect(suffix == key && key == both)
        let chromium = try Self.score(["app.prediction.predictor=chromium.kalman+1e"], duration: "3s")
        let chromiumKey = try Self.score(["app.prediction.predictor=chromium.kalman", "app.prediction.smoothing=oneEuro"], duration: "3s")
        #expect(chromium == chromiumKey)
        do {
            _ = try Scenario.named("ios9-prediction").configuration(overrides: ["app.prediction.predictor=androidx.kalman", "app.prediction.smoothing=oneEuro"])
            Issue.record("androidx.kalman with smoothing was accepted")
        } catch let e as LatsimError {
            #expect(e.kind == .badInput && e.key == "app.prediction.smoothing" && e.problem.contains("androidx.kalman"), "\(e)")
        }
    }

    /// Every spec name parses as the key's value, in a scenario file too,
    /// and a sweep list keeps the commas inside parentheses.
    @Test func theKeyTakesEverySpecName() throws {
        for name in PredictorSpec.names + ["chromium.kalman(heuristics,directionCutOff)", "androidx.kalman(safe,stylus,offset=-4)",
                                           "chromium.linearResampling(frames=0.375)+1e"] {
            let c = try Scenario.named("ios9-prediction").configuration(overrides: ["app.prediction.predictor=\(name)"])
            #expect(c.predictor == (try PredictorSpec(parsing: name)))
        }
        let yaml = "app:\n  prediction:\n    predictor: chromium.kalman(heuristics, directionCutOff)\n"
        let c = try Scenario(yaml: yaml, file: "t.yaml", defaultName: "t").configuration()
        #expect(c.predictor.description == "chromium.kalman(heuristics,directionCutOff)")
        let axis = try SweepAxis(parsing: "app.prediction.predictor=kalman,chromium.kalman(heuristics,directionCutOff),androidx.kalman")
        #expect(axis.values == ["kalman", "chromium.kalman(heuristics,directionCutOff)", "androidx.kalman"])
        do {
            _ = try Scenario.named("ios9-prediction").configuration(overrides: ["app.prediction.predictor=chromium.kalmann"])
            Issue.record("a misspelt predictor was accepted")
        } catch let e as LatsimError {
            #expect(e.kind == .badInput && e.key == "app.prediction.predictor" && e.problem.contains("unknown predictor"), "\(e)")
        }
    }

    /// The scorecards on a line at 600 points/s, one frame (16.667 ms)
    /// ahead. `none` draws the newest touch: 10 points behind, all of it
    /// along the motion, so Chromium files it under UnderPrediction and
    /// Android's along-trajectory mean is −10 in the 16 ms bucket
    /// (round(16.667 / 4.167 − 1) = 3), its scale-invariant RMSE 10 / (600 ·
    /// 5 · 4.166666 ms + 0.001). linearFirst is exact there.
    @Test func scorecardsOnALine() throws {
        let c = try Scenario.named("ios9-prediction").configuration(overrides: Self.line, duration: "5s")
        func run(_ spec: PredictorSpec, _ cards: PredictionScorecards) -> Measurements {
            var r = PipelineRun(configuration: c, trajectory: try! Trajectory.make("line", parameters: c.trajectoryParameters))
            r.usePredictor(spec.makePredictor(frameInterval: c.frameInterval))
            if !cards.isEmpty { r.keepScorecards(cards) }
            return try! r.run().measurements
        }
        let plain = run(PredictorSpec(.none), [])
        #expect(plain.chromiumScorecard == nil && plain.androidScorecard == nil)
        let none = run(PredictorSpec(.none), [.chromium, .android])
        // the scorecards change nothing of latsim's own figures
        #expect(none.prediction.score(pointsPerMM: 6.4) == plain.prediction.score(pointsPerMM: 6.4))
        let chromium = try #require(none.chromiumScorecard)
        #expect(chromium.evaluated == none.prediction.count)
        #expect(chromium.overPrediction.count == 0)
        #expect(abs(try #require(chromium.underPrediction.mean) - 10) < 1e-6)
        #expect(abs(try #require(chromium.framePredictionScore.mean) - 10) < 1e-6)
        #expect(chromium.predictionJitter.largest < 1e-6)
        #expect(chromium.underPrediction.nonEmptyBuckets.map(\.lowerBound) == [10] || chromium.underPrediction.nonEmptyBuckets.map(\.lowerBound) == [9, 10])
        let android = try #require(none.androidScorecard)
        #expect(android.buckets.map(\.count) == [0, 0, 0, none.prediction.count, 0])
        let bucket = android.buckets[3]
        #expect(bucket.deltaTimeBucketMilliseconds == 16)
        #expect(abs(try #require(bucket.alongTrajectoryErrorMean) + 10) < 1e-6)
        #expect(try #require(bucket.offTrajectoryRmse) < 1e-6)
        let path = 600 * 5 * 4.166666e-3 + 0.001
        #expect(abs(try #require(bucket.scaleInvariantAlongTrajectoryRmse) - 10 / path) < 1e-6)

        let exact = run(PredictorSpec(.linearFirst), [.chromium, .android])
        #expect(try #require(exact.chromiumScorecard?.predictionScore.largest) < 1e-6)
        #expect(try #require(exact.androidScorecard?.buckets[3].alongTrajectoryErrorStd) < 1e-6)
    }

    /// Chromium's resampler stands for an earlier instant than the target:
    /// the scorecards judge it there, and at the target for the frame
    /// variants. On the line its point is exact at its own time stamp.
    @Test func platformTimeStampsAreScoredAtTheirOwnInstant() throws {
        let c = try Scenario.named("ios9-prediction").configuration(overrides: Self.line, duration: "5s")
        var r = try PipelineRun(configuration: c)
        r.usePredictor(PredictorSpec.platform(.chromium(.init(.linearResampling(.standard)))).makePredictor(frameInterval: c.frameInterval))
        r.keepScorecards([.chromium, .android])
        let m = try r.run().measurements
        let chromium = try #require(m.chromiumScorecard)
        #expect(chromium.predictionScore.largest < 1e-6)
        // the frame time is later than its time stamp: it trails the finger there
        #expect(try #require(chromium.frameUnderPrediction.mean) > 1)
        // latsim's own figure judges it at the target: late by as much
        #expect(m.prediction.score(pointsPerMM: 6.4).alongTrackMeanPx < -1)
    }

    /// Scorecards kept in a study are the same at any thread count.
    @Test func scorecardsDoNotDependOnThreads() throws {
        let corpus = PredictionCorpus(items: [PredictionCorpusItem(name: "s", motion: .synthetic(kind: "strokes", seed: 3), duration: "3s")])
        let cells = corpus.cells(predictors: [.latsim(.none), .spec(try PredictorSpec(parsing: "androidx.kalman")),
                                              .spec(try PredictorSpec(parsing: "chromium.kalman"))],
                                 horizons: PredictionCorpus.standardHorizons)
        let serial = try corpus.run(cells, parallel: false, scorecards: [.chromium, .android])
        let parallel = try corpus.run(cells, parallel: true, scorecards: [.chromium, .android])
        #expect(serial.map(\.chromium) == parallel.map(\.chromium))
        #expect(serial.map(\.android) == parallel.map(\.android))
        #expect(serial.allSatisfy { $0.chromium != nil && $0.android != nil })
        #expect(serial.map(\.predictor) == Array(repeating: ["none", "androidx.kalman", "chromium.kalman"], count: 3).flatMap { $0 })
    }
}
