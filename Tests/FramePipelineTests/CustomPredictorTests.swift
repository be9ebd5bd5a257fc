import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing
import TouchModel

/// A user's own predictor, as it would be written in their package: it
/// extrapolates the last velocity and then adds a fixed overshoot.
struct OvershootingPredictor: TouchPredictor {
    var inner = BuiltinPredictor(PredictorConfiguration(kind: .linearFirst))
    let overshoot: Double
    mutating func reset() { inner.reset() }
    mutating func observe(_ sample: TouchSample) { inner.observe(sample) }
    mutating func predict(horizon: SimTime) -> TouchPoint? {
        guard let p = inner.predict(horizon: horizon), let q = inner.predict(horizon: horizon + 1_000_000) else { return nil }
        let d = q - p
        return d.length > 0 ? p + d * (overshoot / d.length) : p
    }
}

@Suite struct CustomPredictorTests {
    @Test func aUsersOwnPredictorDrivesTheRunAndIsScored() throws {
        let c = try Scenario.named("ios9-prediction").configuration(overrides: ["input.trajectory=line", "device.widthPoints=100000", "device.heightPoints=100000"], duration: "5s")
        let plain = try PipelineRun(configuration: c)
        let reference = try #require(try plain.run().predictionScore)
        var custom = try PipelineRun(configuration: c)
        custom.usePredictor(OvershootingPredictor(overshoot: 5))
        let score = try #require(try custom.run().predictionScore)
        // a straight line (no reflection on this huge screen): linearFirst is
        // exact, the custom one overshoots by 5 points
        #expect(abs(reference.alongTrackMeanPx) < 1e-6)
        #expect(abs(score.alongTrackMeanPx - 5) < 1e-6, "\(score.alongTrackMeanPx)")
        #expect(abs(score.crossTrackRmsPx) < 1e-6)
    }
}
