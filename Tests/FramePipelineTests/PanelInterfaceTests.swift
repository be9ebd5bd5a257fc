import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing

/// The panel's interface (Docs/Android.md, "The panel's interface"): a
/// command-mode panel shows a running pipeline's frames as video mode
/// does (the TE-gated write outruns the read); a frame sent from idle waits
/// `display.idleWake` after its composition, a labelled unknown.
@Suite struct PanelInterfaceTests {
    static let T = 1e3 / 60

    /// Taps 500 ms apart, no jitter: each tap's frame is sent from idle.
    static func taps(_ device: String, _ overrides: [String]) throws -> RunResult {
        let s = try Scenario.named("android-default").applying(device: try DevicePreset.named(device))
        return try PipelineRun.run(try s.configuration(overrides: ["input.trajectory=taps", "input.tapJitter=0ms"] + overrides,
                                                        duration: "3s"))
    }

    /// Nexus 5 (command mode, 6.0.1): SurfaceFlinger wakes at `V + 5ms`,
    /// composes for 1 ms, and the TE comes at `V + T`: a wake of up to
    /// `T - 6ms` = 10.667 ms hides in that slack; 11 ms misses the TE and
    /// costs one period, on every tap. A video-mode panel (Nexus 9) has no
    /// wake: the key changes nothing there.
    @Test func aWakeFromIdleBeyondTheSlackCostsAPeriodOnACommandPanel() throws {
        let base = try #require(allFrames(try Self.taps("nexus-5", []).measurements.tapToPhotonMs))
        #expect(allFrames(try Self.taps("nexus-5", ["display.idleWake=10ms"]).measurements.tapToPhotonMs) == base)
        let late = try #require(allFrames(try Self.taps("nexus-5", ["display.idleWake=11ms"]).measurements.tapToPhotonMs))
        #expect(abs(late - base - Self.T) < 2e-6, "\(late) against \(base)")
        let video = try #require(allFrames(try Self.taps("nexus-9", []).measurements.tapToPhotonMs))
        #expect(allFrames(try Self.taps("nexus-9", ["display.idleWake=11ms"]).measurements.tapToPhotonMs) == video)
    }

    /// A running pipeline (WALT's screen test: a frame every vsync) wakes
    /// only for its first frame. A wake within the slack changes nothing;
    /// one of a whole frame makes that first frame miss its TE, and the
    /// FIFO queue behind it stays one buffer deep: every frame a period
    /// later, 41.167 + 16.667 = 57.833 ms (Docs/Android.md).
    @Test func aRunningPipelineWakesOnceAndMayStayStuffed() throws {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("nexus-5"))
        func f2p(_ wake: String) throws -> StreamingStats {
            try PipelineRun.run(try s.configuration(overrides: ["display.idleWake=\(wake)"], duration: "3s")).measurements.frameToPhotonMs
        }
        #expect(allFrames(try f2p("10ms")) == 41.166667)
        let stuffed = try f2p("1frame")
        #expect(near(stuffed.percentile(50), 41.166667 + Self.T, 2e-6) && near(stuffed.min, 41.166667 + Self.T, 2e-6))
    }

    /// The unknown's documented range is 0 to one frame.
    @Test func aWakeBeyondOneFrameIsBadInput() throws {
        let e = try #require(AndroidConfigurationTests.refusal(["display.idleWake=17ms"]))
        #expect(e.kind == .badInput && e.key == "display.idleWake")
        #expect(AndroidConfigurationTests.refusal(["display.idleWake=1frame", "display.interface=command"]) == nil)
        #expect(AndroidConfigurationTests.refusal(["display.interface=smart"])?.key == "display.interface")
    }
}
