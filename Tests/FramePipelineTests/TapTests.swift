import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing

/// Taps and touch-downs (Docs/Devices.md, "Taps and touch-downs"), worked
/// out by hand on fixed-duration pipelines.
///
/// At 60 Hz, vsync k is at `floor(k * 1e9 / 60 + 1/2)` ns: V6 = 100,000,000,
/// V7 = 116,666,667, V8 = 133,333,333, V9 = 150,000,000, V10 = 166,666,667.
/// The middle row is scanned out `T/2` = 8,333,333 ns after the latch. The
/// first contact is at 100 ms = V6, then one every 500 ms (30 periods), so
/// every tap repeats the first one's figures.
struct TapTests {
    static let v7: SimTime = 116_666_667, v8: SimTime = 133_333_333, v9: SimTime = 150_000_000, v10: SimTime = 166_666_667
    static let halfT: SimTime = 8_333_333
    static let contact: SimTime = 100_000_000

    static func ms(_ ns: SimTime) -> Double { Double(ns) / 1e6 }

    /// iOS 9 low latency (handler 4, prepare 3, GPU 4 ms), `auto`: the first
    /// scan window that begins at or after the contact is window 6
    /// [V6, V7); the touch-down is ready at V7 and delivered at the frame
    /// start F7 = V7; the commit at V7 + 4 ms starts the prepare at once,
    /// the GPU is done at V7 + 11 ms, before V8: latched at V8. Photon
    /// V8 + T/2 = 141,666,666 ns, 41.666666 ms after the contact.
    @Test func iosTapWithAutoTouchDownIsTwoAndAHalfFrames() throws {
        let r = try runScenario("ios9-low-latency", ["input.trajectory=taps"], duration: "3s")
        let m = r.measurements
        #expect(m.tapToPhotonMs.count == 6) // contacts at 0.1, 0.6, ... 2.6 s
        #expect(allFrames(m.tapToPhotonMs) == Self.ms(Self.v8 + Self.halfT - Self.contact))
        #expect(allFrames(m.touchDownMs) == Self.ms(Self.v7 - Self.contact)) // 16.666667
        // a tap has no sample instant of its own: the drag figures stay empty
        #expect(m.touchToPhotonMs.count == 0 && m.pipelineFrames.count == 0 && m.perSampleMs.count == 0)
        // frame-to-photon: from the delivery F7 to the photon, 1.5 T
        #expect(allFrames(m.frameToPhotonMs) == Self.ms(Self.v8 + Self.halfT - Self.v7))
    }

    /// iOS, touch-down 18.7 ms after the contact: ready at 118.7 ms, after
    /// F7, so delivered at F8 = V8; latched at V9. Photon V9 + T/2 =
    /// 158,333,333 ns: 58.333333 ms.
    @Test func iosTapWithAMeasuredTouchDownDelay() throws {
        let r = try runScenario("ios9-low-latency", ["input.trajectory=taps", "device.touchDownDelay=18.7ms"], duration: "3s")
        #expect(allFrames(r.measurements.tapToPhotonMs) == Self.ms(Self.v9 + Self.halfT - Self.contact))
        #expect(allFrames(r.measurements.touchDownMs) == 18.7)
    }

    /// iOS 8 (the render server wakes at vsync): ready at V7, delivered at
    /// F7, committed at V7 + 4 ms; the render server starts at V8, its GPU
    /// job ends at V8 + 7 ms: latched at V9. 58.333333 ms, one frame more
    /// than iOS 9, as the talk's drag figures.
    @Test func iosEightTapTakesAFrameMore() throws {
        let r = try runScenario("ios8", ["input.trajectory=taps"], duration: "3s")
        #expect(allFrames(r.measurements.tapToPhotonMs) == Self.ms(Self.v9 + Self.halfT - Self.contact))
    }

    /// Android defaults (dispatch 2 ms, handler 4, RenderThread 2, GPU 4,
    /// compose 1 ms; D_app = 16,666,667, D_sf = 15,666,667 ns, so vsync-app
    /// A_k = V_k - 32,333,334 ns), touch-down 10 ms after the contact: its
    /// evdev time is 110 ms, it reaches the channel at 112 ms and is
    /// handled at once (a DOWN is not batched) until 116 ms. The first
    /// vsync-app at or after 116 ms is A9 = 117,666,666 ns: that frame
    /// draws it, queues at A9 + 6 ms, its GPU job ends at A9 + 10 ms, before
    /// S9 = V9 - D_sf = 134,333,333 ns, where it is latched; on screen at V9.
    /// Photon V9 + T/2 = 158,333,333 ns: 58.333333 ms.
    @Test func androidTapWithAMeasuredTouchDownDelay() throws {
        let r = try runScenario("android-default", ["input.trajectory=taps", "device.touchDownDelay=10ms"], duration: "3s")
        let m = r.measurements
        #expect(m.tapToPhotonMs.count == 6)
        #expect(allFrames(m.tapToPhotonMs) == Self.ms(Self.v9 + Self.halfT - Self.contact))
        #expect(m.touchToPhotonMs.count == 0)
        // frame-to-photon of the frame that drew it: V9 + T/2 - A9 = D_app + D_sf + T/2
        #expect(allFrames(m.frameToPhotonMs) == Self.ms(Self.v9 + Self.halfT - (Self.v9 - 32_333_334)))
        #expect(m.android?.frameTimeline?[.onTime] == 6)
    }

    /// Android, `auto`: ready at V7 = 116,666,667 ns, in the channel at
    /// 118,666,667, handled until 122,666,667; A9 (117.7 ms) is too early,
    /// A10 = V10 - 32,333,334 = 134,333,333 ns draws it; on screen at V10.
    /// Photon V10 + T/2 = 175,000,000 ns: 75 ms.
    @Test func androidTapWithAutoTouchDown() throws {
        let r = try runScenario("android-default", ["input.trajectory=taps"], duration: "3s")
        #expect(allFrames(r.measurements.tapToPhotonMs) == Self.ms(Self.v10 + Self.halfT - Self.contact))
    }

    /// The panel's response adds to every photon, so to a tap too.
    @Test func panelResponseAddsToATap() throws {
        let r = try runScenario("android-default", ["input.trajectory=taps", "device.touchDownDelay=10ms", "device.panelResponse=7ms"],
                                duration: "3s")
        #expect(allFrames(r.measurements.tapToPhotonMs) == Self.ms(Self.v9 + Self.halfT + 7_000_000 - Self.contact))
    }

    /// A drag's touch-down timed by a distribution takes window 0's place
    /// and reports the contact (t = 0, window start 0). iOS 9, 10 ms: ready
    /// at 10 ms, delivered alone at F1 = V1, latched at V2: the first frame
    /// is V2 + T/2 = 41,666,666 ns after the contact, 3 frames from its
    /// window start 0; the drag goes on as before (3 frames each).
    @Test func aDragsFirstTouchDownFollowsTheDelay() throws {
        let r = try runScenario("ios9-low-latency", ["device.touchDownDelay=10ms"], duration: "2s")
        let m = r.measurements
        #expect(allFrames(m.pipelineFrames) == 3)
        #expect(abs(m.touchToPhotonMs.max - 41.666666) < 1e-6) // the first frame: the longest
        // auto leaves the drag as it was
        let auto = try runScenario("ios9-low-latency", [], duration: "2s")
        let before = try runScenario("ios9-low-latency", ["device.touchDownDelay=auto"], duration: "2s")
        #expect(auto.measurements.touchToPhotonMs.mean == before.measurements.touchToPhotonMs.mean)
        #expect(auto.events == before.events)
    }

    /// Taps at random instants (`input.tapJitter`, here 100 ms, a whole
    /// number of 60 Hz periods): the wait for the next scan window is then
    /// uniform over a period, so each tap takes 41.667 ms plus up to one
    /// period, 50 ms on average (iOS 9, `auto`).
    @Test func jitteredTapsSpreadOverAFrame() throws {
        let r = try runScenario("ios9-low-latency", ["input.trajectory=taps", "input.tapJitter=100ms"], duration: "120s")
        let m = r.measurements.tapToPhotonMs
        #expect(m.count == 240)
        #expect(m.min >= 41.666666 - 1e-6 && m.max <= 58.333333 + 1e-6)
        #expect(abs(m.mean! - 50) < 1.0, "mean \(m.mean!)")
        #expect(m.max - m.min > 15) // the whole period is met
        // the same seed, the same taps
        let again = try runScenario("ios9-low-latency", ["input.trajectory=taps", "input.tapJitter=100ms"], duration: "120s")
        #expect(again.measurements.tapToPhotonMs.mean == m.mean)
    }

    /// Lift-offs, with `app.liftResponse`: the lift at 100 ms + 100 ms of
    /// hold = 200 ms = V12. iOS, `auto`: window 12 [V12, V13) sees it, ready
    /// at V13 = 216,666,667, delivered at F13 (touchesEnded), latched at
    /// V14 = 233,333,333; photon V14 + T/2 = 241,666,666 ns: 41.666666 ms,
    /// the touch-down's figure. The touch-downs keep theirs; the handler
    /// runs twice per tap.
    @Test func iosLiftOffIsMeasuredLikeATouchDown() throws {
        let plain = try runScenario("ios9-low-latency", ["input.trajectory=taps"], duration: "3s")
        let r = try runScenario("ios9-low-latency", ["input.trajectory=taps", "app.liftResponse=true"], duration: "3s")
        let m = r.measurements
        #expect(allFrames(m.liftToPhotonMs) == Self.ms(233_333_333 + Self.halfT - 200_000_000))
        #expect(allFrames(m.tapToPhotonMs) == allFrames(plain.measurements.tapToPhotonMs))
        #expect(m.handlerRuns == 2 * plain.measurements.handlerRuns)
        #expect(plain.measurements.liftToPhotonMs.count == 0) // the lift draws nothing by default
    }

    /// Android, lift-off 10 ms after the lift (WALT's UP p2k is such a
    /// figure): evdev time 210 ms, in the channel at 212 ms; ACTION_UP is
    /// not batched, its handler runs to 216 ms; the first vsync-app at or
    /// after it is A15 = V15 - 32,333,334 = 217,666,666 ns; on screen at
    /// V15 = 250,000,000 ns, photon 258,333,333 ns: 58.333333 ms.
    @Test func androidLiftOffWithAMeasuredDelay() throws {
        let r = try runScenario("android-default", ["input.trajectory=taps", "app.liftResponse=true", "device.touchUpDelay=10ms",
                                                    "device.touchDownDelay=10ms"], duration: "3s")
        #expect(allFrames(r.measurements.liftToPhotonMs) == Self.ms(258_333_333 - 200_000_000))
        #expect(allFrames(r.measurements.tapToPhotonMs) == Self.ms(Self.v9 + Self.halfT - Self.contact))
        #expect(allFrames(r.measurements.touchUpMs) == 10)
        #expect(r.invariants.holds)
    }

    /// A drag's lift is not an event of the model: asking for its response is bad input.
    @Test func aDragsLiftResponseIsBadInput() throws {
        #expect(throws: LatsimError.self) {
            _ = try Scenario.named("ios9-low-latency").configuration(overrides: ["app.liftResponse=true", "input.liftOff=true"])
        }
    }

    /// A tap must lift before the next slot: hold + jitter below the interval.
    @Test func aTapThatCannotLiftIsBadInput() throws {
        #expect(throws: LatsimError.self) {
            _ = try Scenario.named("ios9-low-latency").configuration(overrides: ["input.trajectory=taps", "input.tapHold=300ms",
                                                                                 "input.tapJitter=200ms"])
        }
        do {
            _ = try Scenario.named("ios9-low-latency").configuration(overrides: ["input.tapHold=500ms"])
            Issue.record("accepted")
        } catch let e as LatsimError {
            #expect(e.key == "input.tapHold" && e.file == "--set")
        }
    }

    /// With the Pencil the digitizer scans at the device's Pencil rate.
    @Test func thePencilScansAtItsOwnRate() throws {
        let s = try Scenario.named("promotion-pencil")
        let finger = try s.configuration(overrides: ["device.scanHz=120", "device.pencilScanHz=240"])
        let pencil = try s.configuration(overrides: ["device.scanHz=120", "device.pencilScanHz=240", "input.tool=pencil"])
        let none = try s.configuration(overrides: ["device.scanHz=120", "input.tool=pencil"])
        #expect(finger.scanHz == Rational(120) && pencil.scanHz == Rational(240) && none.scanHz == Rational(120))
    }
}
