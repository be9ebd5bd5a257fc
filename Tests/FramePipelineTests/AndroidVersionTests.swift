import Experiments
@testable import FramePipeline
import Scenarios
import SimKernel
import Testing

/// SurfaceFlinger's timing by Android release (Docs/Android.md, "Timing by
/// Android version"): the legacy DispSync rule up to 11 against the AOSP
/// comment's formula and the cases derived in
/// references/android-versions-and-panels.md, the release's unset offsets
/// and its latch before the GPU fence; Android 12's rule unchanged.
@Suite struct AndroidVersionTests {
    static let T = 1e3 / 60 // ms
    static let ms = Nanos.perMillisecond

    /// True when there are values and each is within 1 ns of `x` (vsyncs
    /// fall on whole nanoseconds of a rational period).
    static func all(_ values: [SimTime], near x: SimTime) -> Bool {
        !values.isEmpty && values.allSatisfy { abs($0 - x) <= 1 }
    }

    /// From the app's wake-up to the target present, ms: `D_app + D_sf`.
    static func lead(_ app: Double, _ sf: Double, _ version: AndroidVersion, hz: Int = 60) -> Double {
        let d = AndroidTiming.durations(appPhaseOffset: SimTime((app * 1e6).rounded()), sfPhaseOffset: SimTime((sf * 1e6).rounded()),
                                        displayHz: Rational(Int64(hz)), version: version)
        return Double(d.app + d.sf) / 1e6
    }

    /// SurfaceFlinger.cpp's comment (AOSP faf77cce9d): with one offset `p`
    /// for both, the minimum latency is `2 * VSYNC_PERIOD - (p % VSYNC_PERIOD)`;
    /// offset 0 gives two periods. Both rules agree there.
    @Test(arguments: [0.0, 1, 5, 7.5, 12, 16, 20.5])
    func equalOffsetsGiveTwoPeriodsLessTheOffset(_ p: Double) {
        let expected = 2 * Self.T - p.truncatingRemainder(dividingBy: Self.T)
        #expect(near(Self.lead(p, p, .v6_0), expected, 2e-6), "\(p)")
        // Android 12 takes the offsets as they are (SurfaceFlinger's at most T)
        if p < Self.T { #expect(near(Self.lead(p, p, .v12), expected, 2e-6), "\(p)") }
        #expect(near(Self.lead(p, p, .v11, hz: 90), 2 * 1e3 / 90 - p.truncatingRemainder(dividingBy: 1e3 / 90), 2e-6))
    }

    /// The derived cases: app `a` before SurfaceFlinger `s`: `T - a`;
    /// otherwise `2T - a`. Android 12 adds a period whenever the offsets differ.
    @Test func differentOffsetsFollowTheMechanism() {
        #expect(near(Self.lead(7.5, 5, .v6_0), 2 * Self.T - 7.5, 2e-6))   // Nexus 5: 25.833 ms
        #expect(near(Self.lead(7.5, 5, .v12), 3 * Self.T - 7.5, 2e-6))    // 42.5 ms
        #expect(near(Self.lead(2, 6, .v7_1), Self.T - 2, 2e-6))           // Pixel: 14.667 ms
        #expect(near(Self.lead(2, 6, .v12), 2 * Self.T - 2, 2e-6))        // 31.333 ms
        #expect(near(Self.lead(0, 0, .v5_1), 2 * Self.T, 2e-6))
    }

    /// The release's own rules: unset offsets 0 through 7.0 and 1 ms from
    /// 7.1 (AOSP 28ffe198bf); the latch before the fence up to 7.0 (AOSP
    /// 1ce6581ac7); a target vsync from 12.
    @Test func theReleaseDecidesUnsetOffsetsFenceAndRule() throws {
        #expect(AndroidVersion.v7_0.unsetPhaseOffset == 0 && AndroidVersion.v7_1.unsetPhaseOffset == Self.ms)
        #expect(AndroidVersion.v7_0.latchesBeforeFence && !AndroidVersion.v7_1.latchesBeforeFence)
        #expect(!AndroidVersion.v11.targetsVsync && AndroidVersion.v12.targetsVsync && AndroidVersion.v12L.targetsVsync)
        let old = try AndroidConfigurationTests.configuration(["os.androidVersion=7.0"])
        #expect(old.androidTiming.appDuration + old.androidTiming.sfDuration == 33_333_334 && old.android.latchesUnsignaled)
        // 1 ms / 1 ms from 7.1: equal offsets, 2T - 1ms, as Android 12's auto durations
        let later = try AndroidConfigurationTests.configuration(["os.androidVersion=8.1"])
        #expect(later.androidTiming.appDuration + later.androidTiming.sfDuration == 32_333_334 && !later.android.latchesUnsignaled)
        let e = try #require(AndroidConfigurationTests.refusal(["os.androidVersion=9", "android.appDuration=20ms"]))
        #expect(e.kind == .badInput && e.key == "android.appDuration")
        let bad = try #require(AndroidConfigurationTests.refusal(["os.androidVersion=6.0.1"]))
        #expect(bad.kind == .badInput && bad.key == "os.androidVersion")
    }

    /// WALT's screen response on the Nexus 5 as measured (6.0.1, 7.5 / 5
    /// ms): the frame is queued 6 ms and its GPU job done 10 ms after the
    /// app's wake-up, within the 14.167 ms before SurfaceFlinger's next
    /// wake-up: on screen `2T - 7.5` = 25.833 ms after the frame time, its
    /// middle row `T/2` later and the LCD's 7 ms: 41.166667 ms. Android 12's
    /// rule on the same offsets: a period more.
    @Test func theNexus5AsMeasuredIsTwoPeriodsLessTheAppOffset() throws {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("nexus-5"))
        let m = try PipelineRun.run(try s.configuration(overrides: [], duration: "5s")).measurements
        #expect(allFrames(m.frameToPhotonMs) == 41.166667)
        // 6.0 has no FrameTimeline: no classes are claimed (Docs/Android.md, "FrameTimeline before Android 12")
        // WALT's cadence: a change every 100 ms or so (the photon, then 40 to 60 ms)
        #expect(m.android != nil && m.android?.frameTimeline == nil && (40...60).contains(m.framesPresented) && m.repeatedFrames == 0)
        let now = try PipelineRun.run(try s.configuration(overrides: ["os.androidVersion=12"], duration: "5s")).measurements
        #expect(allFrames(now.frameToPhotonMs) == 57.833333)
    }

    /// The Pixel on 7.1 (2 / 6 ms): a frame whose work and GPU fence finish
    /// within the 4 ms between the two wake-ups is shown `T - 2` = 14.667
    /// ms after its frame time; the default work (queued at +6 ms) misses
    /// that wake-up and is shown `2T - 2` = 31.333 ms after it. Android 12
    /// holds even the quick frame to its target (`frameIsEarly`): 31.333.
    @Test func thePixelOnSevenOneShowsQuickFramesAPeriodEarlier() throws {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("pixel"))
        let quick = ["app.handler=1ms", "android.renderThread=1ms", "gpu.render=1ms"]
        func toPresent(_ overrides: [String]) throws -> [SimTime] {
            let r = try PipelineRun.run(try s.configuration(overrides: overrides, duration: "3s"), keepLog: true)
            #expect(r.invariants.presentsBeforeExpected == 0 && r.invariants.holds)
            let frames = try #require(r.frameLog?.android?.frames)
            return Array(Set(frames.filter { $0.presented >= 0 }.map { $0.presented - $0.frameTime })).sorted()
        }
        #expect(Self.all(try toPresent(quick), near: 14_666_667))
        #expect(Self.all(try toPresent([]), near: 31_333_333))
        #expect(Self.all(try toPresent(quick + ["os.androidVersion=12"]), near: 31_333_333))
    }

    /// Up to 7.0 SurfaceFlinger latches a queued buffer before its GPU
    /// fence: with the Pixel's offsets on 7.0, a frame queued 2 ms after
    /// its wake-up whose GPU job ends at +7 ms (after SurfaceFlinger's
    /// wake-up at +4) is latched at once and shown at `T - 2`; from 7.1 it
    /// waits for the next wake-up: `2T - 2`.
    @Test func beforeSevenOneTheLatchDoesNotWaitForTheFence() throws {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("pixel"))
        let work = ["app.handler=1ms", "android.renderThread=1ms", "gpu.render=5ms"]
        func toPresent(_ version: String) throws -> [SimTime] {
            let r = try PipelineRun.run(try s.configuration(overrides: work + ["os.androidVersion=\(version)"], duration: "3s"),
                                        keepLog: true)
            let frames = try #require(r.frameLog?.android?.frames)
            return Array(Set(frames.filter { $0.presented >= 0 }.map { $0.presented - $0.frameTime })).sorted()
        }
        #expect(Self.all(try toPresent("7.0"), near: 14_666_667))
        #expect(Self.all(try toPresent("7.1"), near: 31_333_333))
    }

    /// From 7.1 to 8.1 the check is built in only with `USE_HWC2`
    /// (`Layer::headFenceHasSignaled`, cm-14.1 and lineage-15.1): the same
    /// frames on an HWC1 build of 7.1 or 8.1 are latched before the fence
    /// and shown at `T - 2`, as on 7.0; HWC2 (the Pixel's own build) waits:
    /// `2T - 2`. From 9 there is no HWC1 build: asking for one is bad input.
    @Test func fromSevenOneToEightOneOnlyAnHWC2BuildWaitsForTheFence() throws {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("pixel"))
        let work = ["app.handler=1ms", "android.renderThread=1ms", "gpu.render=5ms"]
        func toPresent(_ extra: [String]) throws -> [SimTime] {
            let r = try PipelineRun.run(try s.configuration(overrides: work + extra, duration: "3s"), keepLog: true)
            let frames = try #require(r.frameLog?.android?.frames)
            return Array(Set(frames.filter { $0.presented >= 0 }.map { $0.presented - $0.frameTime })).sorted()
        }
        #expect(Self.all(try toPresent(["android.hwc=hwc1"]), near: 14_666_667))
        #expect(Self.all(try toPresent(["android.hwc=hwc1", "os.androidVersion=8.1"]), near: 14_666_667))
        #expect(Self.all(try toPresent(["android.hwc=hwc2", "os.androidVersion=8.1"]), near: 31_333_333))
        // an explicit false is a what-if: the 7.0 build made to wait
        #expect(Self.all(try toPresent(["os.androidVersion=7.0", "android.latchUnsignaled=false"]), near: 31_333_333))
        let e = try #require(AndroidConfigurationTests.refusal(["os.androidVersion=9", "android.hwc=hwc1"]))
        #expect(e.kind == .badInput && e.key == "android.hwc")
        #expect(AndroidVersion.v8_1.latchesBeforeFence(hwc: .hwc1) && !AndroidVersion.v8_1.latchesBeforeFence(hwc: .hwc2))
        #expect(!AndroidVersion.v9.latchesBeforeFence(hwc: .hwc2) && !AndroidVersion.v12L.latchesBeforeFence(hwc: .hwc2))
    }

    /// From 13 `debug.sf.auto_latch_unsignaled` defaults to true
    /// (AutoSingleLayer, `SurfaceFlinger::getLatchUnsignaledConfig`): the
    /// app's single-layer buffer is latched before its fence. A 12 ms GPU
    /// job (done at `A_k + 18ms`, after `S_k = A_k + 16.667ms`) is then
    /// latched at `S_k` and shown at `V_k`, one period earlier than on 12,
    /// exactly as `android.latchUnsignaled=true` on 12.
    @Test func fromThirteenASingleLayerIsLatchedBeforeItsFence() throws {
        func p50(_ o: [String]) throws -> Double {
            try #require(try PipelineRun.run(try Scenario.named("android-default").configuration(overrides: o, duration: "3s"))
                .measurements.touchToPhotonMs.percentile(50))
        }
        let twelve = try p50(["gpu.render=12ms"])
        let thirteen = try p50(["gpu.render=12ms", "os.androidVersion=13"])
        let forced = try p50(["gpu.render=12ms", "android.latchUnsignaled=true"])
        #expect(near(twelve - thirteen, Self.T, 2e-6) && thirteen == forced)
        #expect(try p50(["gpu.render=12ms", "os.androidVersion=14", "android.latchUnsignaled=false"]) == twelve)
    }
}
