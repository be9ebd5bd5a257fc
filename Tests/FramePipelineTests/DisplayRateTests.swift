@testable import FramePipeline
import Scenarios
import SimKernel
import Testing

/// A display that changes its rate (Docs/Model.md, "Display rate";
/// Docs/Android.md, "Display rate"), on cases worked out by hand: a display
/// idle at 60 Hz, boosted to 120 Hz by a touch, the switch taking effect
/// `k` vsyncs of the old rate after it is asked for. Every instant is a
/// whole nanosecond: 120 Hz ticks at `round(j x 8,333,333.33)` from their
/// segment's anchor, 60 Hz at `round(j x 16,666,666.67)`.
@Suite struct DisplayRateTests {
    static let ms = Nanos.perMillisecond

    /// Two taps, at 100 ms and 2.1 s (`input.tapInterval` 2 s), each ready
    /// 1 ms after its contact; the photons at the top row, no panel.
    static let taps = ["input.trajectory=taps", "input.tapInterval=2s", "device.touchDownDelay=1ms", "measure.row=0",
                       "device.displayHz=120", "display.minHz=60", "display.idleTimer=1s"]

    static func run(_ scenario: String, _ overrides: [String], keepLog: Bool = false) throws -> RunResult {
        let c = try Scenario.named(scenario).configuration(overrides: taps + overrides, duration: "3s")
        return try PipelineRun.run(c, keepLog: keepLog, keepBudget: true)
    }

    /// The taps' tap-to-photon, ms, in order (from the frame log).
    static func tapLatencies(_ r: RunResult) throws -> [Double] {
        let frames = try #require(r.frameLog?.frames)
        return frames.filter { $0.kind == .new }.map { Double($0.photon - $0.touchTime) / 1e6 }
    }

    /// iOS 9 low latency, handler, prepare and GPU 1 ms each.
    ///
    /// Tap 0 at 100 ms, the display at 120 Hz: ready at 101, the frame
    /// start at the next vsync, 13 x 8.333 = 108.333; commit 109.333,
    /// prepare to 110.333, GPU to 111.333, latched at 116.667: 16.667 ms.
    /// The commit is the app's last activity: the 1 s dwell ends at
    /// 1109.333, and the switch to 60 Hz takes effect at the next vsync,
    /// 134 x 8.333 = 1116.667 ms (k = 0).
    ///
    /// Tap 1 at 2100: ready at 2101, its touch seen at the next frame on
    /// the 60 Hz grid, 1116.667 + 60 x 16.667 = 2116.667; the touch asks
    /// for 120 Hz, which (k = 0) takes effect at that very vsync. The frame
    /// starts there, is latched at the next 120 Hz vsync, 2125.0: 25 ms,
    /// 8.333 more than tap 0. At 120 Hz throughout the frame would have
    /// started at 2108.333 (the 120 Hz grid from 1116.667): the stage
    /// budget's rate switch wait is 8.333 ms, the whole difference.
    ///
    /// The display ran 120 Hz for 1116.667 + (3000 - 2116.667) = 2000 ms
    /// and 60 Hz for 1000 ms: 66.7% at the peak, a mean of 100 Hz, two
    /// switches. With the idle timer off both taps take 16.667 ms.
    @Test func iOSAtSixtyHertzATouchWaitsForTheIdleRatesVsync() throws {
        let work = ["app.handler=1ms", "renderServer.prepare=1ms", "gpu.render=1ms"]
        let r = try Self.run("ios9-low-latency", work, keepLog: true)
        let l = try Self.tapLatencies(r)
        #expect(l.count == 2 && near(l[0], 16.666667) && near(l[1], 25))
        let wait = try #require(r.measurements.budget?[.rateSwitchWait])
        #expect(near(wait.min, 0) && near(wait.max, 8.333333))
        let d = try #require(r.measurements.displayRate)
        #expect(d.switches == 2 && near(d.peakPercent, 200.0 / 3, 1e-5) && near(d.meanHz, 100, 1e-5))
        let switches = try #require(r.frameLog?.rateSwitches)
        #expect(switches.map(\.boundary) == [1_116_666_667, 2_116_666_667] && switches.map(\.hz) == [Rational(60), Rational(120)])
        // both taps come after a quiet screen: first touches, no steady one
        #expect(r.measurements.firstTouchMs.count == 2 && r.measurements.steadyTouchMs.count == 0)
        #expect(r.invariants.holds)

        let off = try Self.run("ios9-low-latency", work + ["display.idleTimer=off"], keepLog: true)
        let lo = try Self.tapLatencies(off)
        #expect(lo.count == 2 && near(lo[0], 16.666667) && near(lo[1], 16.666667))
        #expect(off.measurements.displayRate?.switches == 0 && off.measurements.displayRate?.peakPercent == 100)
    }

    /// The same with the switch two vsyncs of the old rate after it is
    /// asked for (k = 2): the drop takes effect at the first vsync from
    /// 1109.333 + 16.667, 1133.333 (136 x 8.333), and tap 1, asked at
    /// 2116.667 (the 60 Hz grid from 1133.333 puts a vsync there too:
    /// 1133.333 + 59 x 16.667), at 2150.0. Its frame, started at 2116.667
    /// and done at 2119.667, is latched at the next 60 Hz vsync, 2133.333:
    /// 33.333 ms, one 60 Hz period more than tap 0; 8.333 of it waiting for
    /// the 60 Hz frame start (the rate switch wait), the rest in latch
    /// wait, for a 60 Hz vsync.
    @Test func iOSASwitchTwoVsyncsLateShowsTheFrameAtTheIdleRate() throws {
        let work = ["app.handler=1ms", "renderServer.prepare=1ms", "gpu.render=1ms", "display.switchVsyncs=2"]
        let r = try Self.run("ios9-low-latency", work, keepLog: true)
        let l = try Self.tapLatencies(r)
        #expect(l.count == 2 && near(l[0], 16.666667) && near(l[1], 33.333333))
        let switches = try #require(r.frameLog?.rateSwitches)
        #expect(switches.map(\.boundary) == [1_133_333_333, 2_150_000_000])
        #expect(near(r.measurements.budget?[.rateSwitchWait]?.max, 8.333333) && r.invariants.holds)
    }

    /// Android 12, AOSP's auto durations (120 Hz: 15.667 + 7.333 = 23 ms
    /// from vsync-app to the present; 60 Hz: 16.667 + 15.667 = 32.333),
    /// the touch timer 200 ms, k = 2 (the Pixel 6's HWC).
    ///
    /// Tap 0 at 100: evdev 101, the app's channel 103, the handler to 107;
    /// the first vsync-app at or after it targets 16 x 8.333 = 133.333
    /// (tick 110.333): on screen there, 33.333 ms. Its buffer is queued at
    /// 116.333, the app's last activity: the idle timer expires at
    /// 1116.333; SurfaceFlinger's next wake-up is 1117.667 (for 1125.0),
    /// and two 120 Hz vsyncs later the first vsync from 1134.333 is
    /// 1141.667: 60 Hz from there.
    ///
    /// Tap 1 at 2100: the touch hint at 2103 asks for 120 Hz; SurfaceFlinger's
    /// next wake-up is for 2125.0 (1141.667 + 59 x 16.667) at 2109.333, and
    /// two 60 Hz vsyncs later the switch lands at 2158.333 (1,141,666,667 +
    /// round(61 x 16,666,666.67) = 2,158,333,334 ns). The handler ends
    /// at 2107; the next vsync-app at 60 Hz is 2141.667 - 32.333 = 2109.333,
    /// its frame on screen at 2141.667: 41.667 ms, 8.333 more than tap 0.
    /// At 120 Hz its vsync-app would have targeted 2133.333 (the 120 Hz grid
    /// from 1141.667, 2133.333 - 23 >= 2107): the rate switch wait is the
    /// 8.333 ms between the two targets.
    ///
    /// With k = 0 the switch lands at 2125.0, before the frame's target:
    /// the frame takes the 120 Hz grid, 33.333 ms, no cost. With the idle
    /// timer off, 33.333 ms.
    @Test func androidTheTouchBoostLandsTwoVsyncsLate() throws {
        let base = ["display.touchTimer=200ms", "display.switchVsyncs=2"]
        let r = try Self.run("android-default", base, keepLog: true)
        let l = try Self.tapLatencies(r)
        #expect(l.count == 2 && near(l[0], 33.333333) && near(l[1], 41.666667))
        let switches = try #require(r.frameLog?.rateSwitches)
        #expect(switches.map(\.boundary) == [1_141_666_667, 2_158_333_334] && switches.map(\.hz) == [Rational(60), Rational(120)])
        #expect(near(r.measurements.budget?[.rateSwitchWait]?.max, 8.333333) && r.invariants.holds)

        let quick = try Self.run("android-default", ["display.touchTimer=200ms"], keepLog: true)
        let q = try Self.tapLatencies(quick)
        #expect(q.count == 2 && near(q[0], 33.333333) && near(q[1], 33.333333))
        #expect(quick.frameLog?.rateSwitches.map(\.boundary) == [1_125_000_000, 2_125_000_000])

        let off = try Self.run("android-default", base + ["display.idleTimer=off"], keepLog: true)
        let o = try Self.tapLatencies(off)
        #expect(o.count == 2 && near(o[1], 33.333333) && off.measurements.displayRate?.switches == 0)
    }

    /// A display whose lowest rate is its peak never switches, and every
    /// figure of the run is the one-rate display's.
    @Test func aMinimumAtThePeakChangesNothing() throws {
        for scenario in ["ios9-low-latency", "android-default"] {
            let plain = try PipelineRun.run(try Scenario.named(scenario).configuration(overrides: [], duration: "2s"))
            let same = try PipelineRun.run(try Scenario.named(scenario).configuration(
                overrides: ["display.minHz=60", "display.idleTimer=50ms"], duration: "2s"))
            #expect(plain.measurements.touchToPhotonMs.mean == same.measurements.touchToPhotonMs.mean)
            #expect(plain.measurements.framesPresented == same.measurements.framesPresented)
            #expect(same.measurements.displayRate?.switches == 0)
        }
    }

    /// Android's user-activity pokes reach SurfaceFlinger at most once per
    /// 100 ms (InputDispatcher's DEFAULT_USER_ACTIVITY_POKE_INTERVAL): a
    /// drag's samples every 16.7 ms give a hint per 100 ms, each holding
    /// the peak for the touch timer.
    @Test func touchHintsComeAtMostOncePerHundredMilliseconds() throws {
        var c = try Scenario.named("android-default").configuration(
            overrides: ["device.displayHz=120", "display.minHz=60", "display.touchTimer=200ms"], duration: "1s")
        c.rate.touchTimer = 200 * Self.ms
        var rate = DisplayRate(configuration: c)
        var s = EventScheduler<AndroidEvent>()
        var hints = 0
        for k in 0..<60 {
            let t = SimTime(k) * 16_666_667
            let before = rate.touchUntil
            _ = rate.touch(at: t, &s, kind: .displayTimer)
            if rate.touchUntil != before { hints += 1 }
        }
        // samples at k x 16,666,667 ns: a hint at the first sample 100 ms or
        // more after the last, every sixth (100,000,002 ns apart): k = 0, 6,
        // ..., 54, ten hints, the last at 900,000,018 ns
        #expect(hints == 10 && rate.touchUntil == 900_000_018 + 200 * Self.ms)
    }

    /// Bad input: a lowest rate above the peak, the app's vote outside the
    /// display's rates, a timer on a display of one rate, a switching
    /// command-mode panel.
    @Test func badRatesAreRefused() throws {
        let cases: [(String, [String], String)] = [
            ("android-default", ["display.minHz=90"], "display.minHz"),
            ("android-default", ["device.displayHz=120", "display.minHz=60", "app.frameRate=30"], "app.frameRate"),
            ("ios9-low-latency", ["display.idleTimer=1s"], "display.idleTimer"),
            ("android-default", ["display.interface=command", "device.displayHz=90", "display.minHz=60"], "display.minHz"),
            ("ios9-low-latency", ["display.minHz=ten"], "display.minHz"),
        ]
        for (scenario, o, key) in cases {
            do {
                _ = try Scenario.named(scenario).configuration(overrides: o, duration: "1s")
                Issue.record("accepted \(o)")
            } catch let e as LatsimError {
                #expect(e.kind == .badInput && e.key == key, "\(o): \(e)")
            }
        }
    }
}
