@testable import FramePipeline
import Scenarios
import SimKernel
import Testing

/// The CPU's and GPU's ramp after idle (`device.idleRamp`, an unknown;
/// Docs/Model.md, "Idle"): every work duration drawn within the window of
/// the first work after a quiet stretch is lengthened by the factor.
@Suite struct FrequencyRampTests {
    static let ms = Nanos.perMillisecond

    static func ramp(factor: Double, window: SimTime) throws -> FrequencyRamp {
        var c = try Scenario.named("android-default").configuration(overrides: [], duration: "1s")
        c.idleRamp = factor
        c.idleRampWindow = window
        return try #require(FrequencyRamp.of(c))
    }

    /// Factor 2, window 10 ms, by hand: the run's first work (at 0, 4 ms)
    /// starts a ramp: doubled, it ends at 8. Work at 6 ms (2 ms) is in the
    /// window: 4, ending at 10. Work at 12 ms is past the window but only
    /// 2 ms after the last work ended: not quiet, not ramped (3 ms, ends
    /// 15). Work at 25 ms: 10 ms of quiet, a new ramp: doubled.
    @Test func workInTheWindowAfterQuietIsLengthened() throws {
        let r = try Self.ramp(factor: 2, window: 10 * Self.ms)
        let ms = Self.ms
        r.now = 0
        #expect(r.stretch(4 * ms) == 8 * ms)
        r.now = 6 * ms
        #expect(r.stretch(2 * ms) == 4 * ms)
        r.now = 12 * ms
        #expect(r.stretch(3 * ms) == 3 * ms)
        r.now = 25 * ms
        #expect(r.stretch(1 * ms) == 2 * ms && r.rampStart == 25 * ms)
        #expect(r.stretched == 3 && r.added == 4 * ms + 2 * ms + 1 * ms)
        // one nanosecond less quiet: no new ramp
        let q = try Self.ramp(factor: 2, window: 10 * Self.ms)
        q.now = 0
        _ = q.stretch(4 * ms)
        q.now = 18 * ms - 1
        #expect(q.stretch(1 * ms) == 1 * ms)
    }

    /// Factor 1 is no ramp at all: nothing is installed.
    @Test func factorOneIsNoRamp() throws {
        let c = try Scenario.named("android-default").configuration(overrides: [], duration: "1s")
        #expect(c.idleRamp == 1 && FrequencyRamp.of(c) == nil)
    }

    /// Taps on android-default (handler 4 ms, RenderThread 2 ms, GPU 4 ms,
    /// 60 Hz): a tap's frame starts within 40 ms of its touch-down's
    /// handler, the first work after 500 ms of quiet, so with factor 2 and
    /// a 40 ms window its UI thread, RenderThread and GPU stages are
    /// doubled (8, 4, 8 ms): 10 ms more work, which misses the frame's
    /// deadline and shows the tap one display period (16.667 ms) later.
    @Test func aTapAfterQuietIsSlowedByTheRamp() throws {
        func run(_ factor: String) throws -> RunResult {
            let c = try Scenario.named("android-default").configuration(
                overrides: ["input.trajectory=taps", "device.idleRamp=\(factor)", "device.idleRampWindow=40ms"], duration: "5s")
            return try PipelineRun.run(c, keepBudget: true)
        }
        let off = try run("1"), on = try run("2")
        let b0 = try #require(off.measurements.budget), b1 = try #require(on.measurements.budget)
        for (stage, ms) in [(BudgetStage.uiThread, 4.0), (.renderThread, 2), (.gpu, 4)] {
            #expect(b0[stage]?.percentile(50) == ms && b1[stage]?.percentile(50) == 2 * ms, "\(stage)")
        }
        let t0 = try #require(off.measurements.tapToPhotonMs.percentile(50))
        let t1 = try #require(on.measurements.tapToPhotonMs.percentile(50))
        #expect(abs(t1 - t0 - 1000.0 / 60) < 1e-3)
    }
}
