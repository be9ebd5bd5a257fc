import Experiments
@testable import FramePipeline
import Scenarios
import SimKernel
import Testing
import TouchModel

/// 3D Touch through the pipeline (Docs/Force.md): a press's latency worked
/// out by hand, the recogniser's hysteresis and intent, animations turning
/// low latency off, predicted force, and force leaving every other number
/// alone.
@Suite struct ForceTests {
    static let peekPop = ["app.force.interaction=peekPop"]

    /// The worked example of Docs/Force.md, "A press, worked out".
    ///
    /// `ios9-low-latency`: 60 Hz display and scan, T = 16.666667 ms; scan
    /// window j is [jT, (j+1)T), its sample taken at (j + 1/2)T and ready at
    /// (j+1)T; touches are delivered at the frame start V_k = kT; the handler
    /// takes 4 ms, the render server's prepare 3 ms, the GPU 4 ms; the photon
    /// is the latch plus T/2 (the middle row).
    ///
    /// The press ramps from 0 at 1000 ms to 4 at 1200 ms: it crosses the peek
    /// threshold 3 at 1000 + 200 · 3/4 = 1150 ms.
    /// - The first sample at or above 3 is window 69's, at 69.5T =
    ///   1158.333 ms (force 3.17; window 68's, at 1141.667 ms, has 2.83): it
    ///   arms the peek.
    /// - The intent is 40 ms: the first sample at least 40 ms after the
    ///   arming one is window 72's, at 72.5T = 1208.333 ms (window 71's, at
    ///   1191.667 ms, is only 33.3 ms after). It is ready at 73T and
    ///   delivered at the frame start V_73 = 1216.667 ms: the peek is
    ///   recognised there, **66.667 ms** after the crossing.
    /// - The haptic tap follows 10 ms later: **76.667 ms**.
    /// - The handler commits at 1220.667 ms, starting the 250 ms preview
    ///   animation, so low latency is off: the render server waits for its
    ///   vsync wake V_74 = 1233.333 ms, prepares until 1236.333, the GPU
    ///   draws until 1240.333, and the frame is latched at V_75 = 1250 ms.
    ///   Its photons leave the middle row at 1250 + 8.333 = 1258.333 ms:
    ///   **108.333 ms** after the crossing.
    /// - Without the animation (0 ms) the commit is prepared at once, done at
    ///   1227.667, drawn by 1231.667, latched at V_74 and seen at
    ///   1241.667 ms: **91.667 ms**. The animation costs the press one frame.
    @Test func aPressOnAFixedDurationPipelineHasTheWorkedOutLatencies() throws {
        let press = ["input.press=ramp(peak=4, rise=200ms, hold=300ms, fall=100ms, at=1s, every=2s)", "input.trajectory=line"]
        let r = try runScenario("ios9-low-latency", press + Self.peekPop, duration: "2s")
        let f = try #require(r.measurements.force)
        #expect(f.peek.recognized == 1 && f.pop.recognized == 0 && f.peek.withoutCrossing == 0)
        #expect(f.hapticTaps == 1)
        let T = 1000.0 / 60
        func near(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) < 1e-6 } ?? false }
        #expect(near(f.peek.crossingToRecognitionMs.mean, 73 * T - 1150), "\(f.peek.crossingToRecognitionMs.mean ?? -1)")
        #expect(near(f.peek.crossingToHapticMs.mean, 73 * T - 1150 + 10))
        #expect(near(f.peek.crossingToPhotonMs.mean, 75 * T + T / 2 - 1150), "\(f.peek.crossingToPhotonMs.mean ?? -1)")
        #expect(near(f.peek.crossingToPhotonMs.mean, 108.333333))

        let still = try runScenario("ios9-low-latency", press + Self.peekPop + ["app.force.peekAnimation=0ms"], duration: "2s")
        let g = try #require(still.measurements.force)
        #expect(near(g.peek.crossingToRecognitionMs.mean, 73 * T - 1150))
        #expect(near(g.peek.crossingToPhotonMs.mean, 74 * T + T / 2 - 1150), "\(g.peek.crossingToPhotonMs.mean ?? -1)")
        // the animation turned low latency off for the frames drawn under it:
        // a frame more than the 2 frames from sample to photon otherwise
        #expect(near(f.touchToPhotonAnimatingMs.min, 3 * T) && near(f.touchToPhotonOtherwiseMs.max, 2 * T))
        #expect(g.touchToPhotonAnimatingMs.count == 0)
    }

    /// A press that hovers around the peek threshold (3 ± 0.3, a tremor at
    /// 8 Hz) peeks once per press: the hysteresis of 0.5 keeps it armed
    /// through every dip. Without hysteresis and intent it flickers.
    @Test func aHoveringPressDoesNotFlicker() throws {
        let hover = ["input.press=hold(force=3, rise=150ms, wobble=0.3, wobbleHz=8, at=500ms, every=2s)", "input.trajectory=line"]
        let r = try runScenario("ios9-low-latency", hover + Self.peekPop, duration: "10s")
        let f = try #require(r.measurements.force)
        // presses start at 0.5, 2.5, 4.5, 6.5 and 8.5 s; each ends when the
        // force drops to 0 as the next begins (the last runs past the end)
        #expect(f.peek.recognized == 5, "\(f.peek.recognized) peeks")
        #expect(f.cancelled == 4 && f.rejected == 0 && f.pop.recognized == 0)
        let flicker = try runScenario("ios9-low-latency", hover + Self.peekPop + ["app.force.hysteresis=0", "app.force.intent=0ms"],
                                      duration: "10s")
        let g = try #require(flicker.measurements.force)
        #expect(g.peek.recognized > 5 * 4 && g.cancelled > 5 * 4, "\(g.peek.recognized) peeks, \(g.cancelled) cancelled")
    }

    /// A spike above the threshold shorter than the intent time (a tap's
    /// impact: 4 for a few ms) arms the peek and is rejected; with no intent
    /// time it would peek.
    @Test func aBriefSpikeDoesNotPeek() throws {
        let spike = ["input.press=ramp(peak=4, rise=15ms, hold=0ms, fall=15ms, at=500ms, every=1s)", "input.trajectory=line",
                     "device.scanHz=240"]
        let r = try runScenario("ios9-low-latency", spike + Self.peekPop, duration: "10s")
        let f = try #require(r.measurements.force)
        #expect(f.peek.recognized == 0 && f.hapticTaps == 0)
        #expect(f.rejected == 10, "\(f.rejected) rejected")
        #expect(f.touchToPhotonAnimatingMs.count == 0)
        let eager = try runScenario("ios9-low-latency", spike + Self.peekPop + ["app.force.intent=0ms"], duration: "10s")
        #expect(eager.measurements.force?.peek.recognized == 10)
    }

    /// The recogniser alone, touch by touch.
    @Test func theRecogniserArmsWaitsAndReleases() {
        var s = ForceSettings()
        s.interaction = .peekPop
        var r = ForceRecognizer(s)
        let ms = Nanos.perMillisecond
        func touch(_ t: Int64, _ f: Double, began: Bool = false) -> ForceRecognizer.Outcome {
            r.observe(time: t * ms, force: f, began: began)
        }
        #expect(touch(0, 1, began: true) == .init())
        #expect(r.progress(2) == 0.5)                     // halfway from an average touch to peek
        #expect(touch(10, 3.1) == .init())                // armed
        #expect(r.armedAt == 10 * ms)
        #expect(touch(30, 2.6) == .init())                // below the threshold, above its release: still armed
        #expect(touch(50, 3.0) == .init(recognised: .previewing))
        #expect(r.progress(4) == 1.5)                     // halfway through the commit stage
        #expect(touch(60, 5.2) == .init())                // pop armed
        #expect(touch(70, 4.4) == .init(rejected: true))  // below 4.5: disarmed before 40 ms
        #expect(touch(80, 5.0) == .init())
        #expect(touch(120, 5.0) == .init(recognised: .committed))
        #expect(r.progress(0) == 2)
        #expect(touch(130, 2.6) == .init())               // still committed above the peek's release
        #expect(touch(140, 2.4) == .init(ended: .committed))
        #expect(r.state == .idle)
        // a new touch-down ends a preview and its arming
        #expect(touch(200, 3.5) == .init())
        #expect(touch(240, 3.5) == .init(recognised: .previewing))
        #expect(touch(250, 3.5, began: true) == .init(ended: .previewing))
        #expect(r.armedAt == 250 * ms)
    }

    /// Force changes no number of a run whose app ignores it (or only draws
    /// with it): the same frames, latencies and events as without a press.
    @Test(arguments: ["ios9-low-latency", "ios8-complex", "ios9-prediction", "slow-app"])
    func forceLeavesEveryOtherNumberAlone(_ name: String) throws {
        let base = try runScenario(name, [], duration: "3s")
        for extra in [["input.press=ramp(at=0ms, every=500ms)"],
                      ["input.press=hold(wobble=0.5)", "app.force.interaction=drawing", "device.forceNoise=0.2"]] {
            let r = try runScenario(name, extra, duration: "3s")
            let a = base.measurements, b = r.measurements
            #expect(a.touchToPhotonMs.mean == b.touchToPhotonMs.mean && a.perSampleMs.mean == b.perSampleMs.mean, "\(name) \(extra)")
            #expect(a.effectiveMs.mean == b.effectiveMs.mean && a.framesPresented == b.framesPresented, "\(name) \(extra)")
            #expect(a.prediction.count == b.prediction.count && base.events == r.events, "\(name) \(extra)")
            #expect(base.predictionScore == r.predictionScore, "\(name) \(extra)")
        }
    }

    /// Peek and pop in the built-in scenario: both stages recognised once per
    /// press, every latency counted from the true crossing, and the frames
    /// drawn under the animations a frame later than the rest.
    @Test func thePeekPopScenarioMeasuresEveryPress() throws {
        let r = try runScenario("ios9-peek-pop")
        InvariantTests.check(r, "ios9-peek-pop")
        let f = try #require(r.measurements.force)
        #expect(f.peek.recognized == 5 && f.pop.recognized == 5 && f.cancelled == 0 && f.rejected == 0)
        #expect(f.hapticTaps == 10)
        for stage in [f.peek, f.pop] {
            let decision = try #require(stage.crossingToRecognitionMs.mean)
            let photon = try #require(stage.crossingToPhotonMs.mean)
            #expect(decision >= 40)                                  // the intent time at least
            #expect(abs(try #require(stage.crossingToHapticMs.mean) - decision - 10) < 1e-9)
            #expect(photon > decision + 4 + 3 + 4)                   // handler, prepare, GPU
        }
        let animating = try #require(f.touchToPhotonAnimatingMs.mean), otherwise = try #require(f.touchToPhotonOtherwiseMs.mean)
        #expect(abs(animating - otherwise - 1000.0 / 60) < 1e-3)
        // the scenario's press never goes past the device's largest force
        #expect(r.configuration.force.press.peakForce <= r.configuration.force.maximumForce)
    }

    /// Drawing with force: the drawn force trails a changing press; a
    /// predictor that extrapolates force (linearFirst) draws it closer, and
    /// its predictions are scored against the true force.
    @Test func predictedForceTrailsLessThanDeliveredForce() throws {
        let plain = try #require(try runScenario("ios9-force-drawing").measurements.force)
        #expect(plain.prediction == nil)
        let trailing = try #require(plain.forceErrorAtPhoton.mean)
        #expect(trailing > 0.1)
        // two frames ahead: the whole way from sample to photon (2T here)
        let predicted = try runScenario("ios9-force-drawing", ["app.prediction.predictor=linearFirst", "app.prediction.horizon=2frames"])
        let f = try #require(predicted.measurements.force)
        let score = try #require(f.prediction?.score)
        #expect(score.predictions == predicted.measurements.prediction.count)
        #expect(try #require(f.forceErrorAtPhoton.mean) < trailing / 2)
        #expect(score.errorP50 < 1e-9)                       // exact on the ramps' straight parts
        // a platform predictor predicts positions only: no force prediction
        let chromium = try runScenario("ios9-force-drawing", ["app.prediction.predictor=chromium.linearFirst"])
        #expect(chromium.measurements.force?.prediction == nil)
        #expect(chromium.measurements.force?.forceErrorAtPhoton.mean == trailing)
    }

    /// The force keys are iOS's: on Android they are bad input, naming the key.
    @Test(arguments: ["app.force.interaction=peekPop", "input.press=ramp()", "device.hapticLatency=5ms"])
    func forceKeysAreBadInputOnAndroid(_ setting: String) throws {
        #expect {
            _ = try Scenario.named("android-default").configuration(overrides: [setting])
        } throws: { error in
            guard let e = error as? LatsimError else { return false }
            return e.key == String(setting.prefix { $0 != "=" }) && e.problem.contains("iOS-only")
        }
    }

    /// Keys that contradict each other are refused, naming the key at fault.
    @Test(arguments: [
        (["app.force.pop=2.5"], "app.force.pop"),
        (["app.force.pop=7"], "app.force.pop"),
        (["app.force.peek=7"], "app.force.peek"),
        (["app.force.hysteresis=3"], "app.force.hysteresis"),
        (["input.press=ramp(peak=9)"], "input.press"),
        (["device.maximumForce=3"], "input.press"),
    ] as [([String], String)])
    func contradictoryForceKeysAreRefused(_ settings: [String], _ key: String) throws {
        #expect {
            _ = try Scenario.named("ios9-peek-pop").configuration(overrides: settings)
        } throws: { error in
            (error as? LatsimError)?.key == key
        }
    }

    /// The same seed gives the same figures, noise included.
    @Test func aNoisyPressIsDeterministic() throws {
        let noisy = ["device.forceNoise=0.3", "device.forceQuantization=0.05"]
        let a = try #require(try runScenario("ios9-peek-pop", noisy, duration: "6s", seed: 3).measurements.force)
        let b = try #require(try runScenario("ios9-peek-pop", noisy, duration: "6s", seed: 3).measurements.force)
        #expect(a.peek.crossingToPhotonMs.mean == b.peek.crossingToPhotonMs.mean && a.rejected == b.rejected)
        #expect(a.forceErrorAtPhoton.mean == b.forceErrorAtPhoton.mean)
        #expect(a.peek.recognized >= 3)
    }
}
