@testable import FramePipeline
import Scenarios
import SimKernel
import Testing

/// Docs/Budget.md: every measured frame's touch-to-photon split into its
/// platform's stages, worked out by hand on fixed-duration pipelines.
@Suite struct StageBudgetTests {
    /// Each stage's value when every frame has the same (within 1 ns), ms.
    static func stages(_ r: RunResult) -> [BudgetStage: Double] {
        let b = r.measurements.budget!
        var out: [BudgetStage: Double] = [:]
        for s in b.stages {
            let st = b[s]!
            #expect(st.max - st.min <= 1.0000001e-6, "\(s) varies: \(st.min)...\(st.max)")
            out[s] = (st.mean! * 1e3).rounded() / 1e3
        }
        return out
    }

    /// The means add up to the mean touch-to-photon: exactly, in integer ns.
    static func addsUp(_ r: RunResult) {
        let b = r.measurements.budget!
        let total = b.totalNanos.reduce(0, +)
        let mean = r.measurements.touchToPhotonMs.mean!
        #expect(abs(Double(total) / Double(b.frames) / 1e6 - mean) < 1e-9, "\(total) over \(b.frames) frames vs \(mean)")
        #expect(b.frames == r.measurements.touchToPhotonMs.count)
        #expect(r.invariants.budgetMismatches == 0)
    }

    /// ios9-low-latency (60 Hz, handler 4, prepare 3, GPU 4 ms): the touch
    /// is sampled mid-window, T/2 = 8.333 ms before the window's end, where
    /// it is ready and delivered at once (the frame start is the window's
    /// end). The handler commits at +4, the render server prepares at once
    /// (+7), the GPU ends at +11 and the next vsync latches it at +T: a
    /// latch wait of T - 11 = 5.667 ms; the scan-out to the middle row is
    /// T/2. 8.333 + 4 + 3 + 4 + 5.667 + 8.333 = 33.333 ms, the talk's 3
    /// frames.
    @Test func iOS9LowLatencyByHand() throws {
        let r = try runScenario("ios9-low-latency", duration: "2s")
        let s = Self.stages(r)
        #expect(s == [.scan: 8.333, .digitizer: 0, .deliveryWait: 0, .handler: 4, .renderServerWait: 0, .prepare: 3,
                      .gpuWait: 0, .gpu: 4, .latchWait: 5.667, .scanOut: 8.333, .panel: 0])
        Self.addsUp(r)
    }

    /// ios8: the render server waits for its vsync wake, T - 4 = 12.667 ms
    /// after the commit; prepare and GPU end 7 ms after it and the latch
    /// waits T - 7 = 9.667 ms: 50 ms, the talk's 4 frames.
    @Test func iOS8WaitsForTheRenderServersVsync() throws {
        let r = try runScenario("ios8", duration: "2s")
        let s = Self.stages(r)
        #expect(s[.renderServerWait] == 12.667 && s[.latchWait] == 9.667 && s[.handler] == 4)
        #expect(s.values.reduce(0, +) == 50)
        Self.addsUp(r)
    }

    /// A 2 ms digitizer delay moves the touch's ready past the frame start
    /// it used to make: it waits T - 2 ms for the next one, and the frame
    /// is a period later. A 3 ms panel response is the last stage.
    @Test func digitizerDelayAndPanelAreTheirOwnStages() throws {
        let r = try runScenario("ios9-low-latency", ["device.digitizerDelay=2ms", "device.panelResponse=3ms"], duration: "2s")
        let s = Self.stages(r)
        #expect(s[.digitizer] == 2 && s[.deliveryWait] == 14.667 && s[.panel] == 3)
        #expect(s.values.reduce(0, +) == 33.333 + 16.667 + 3)
        Self.addsUp(r)
    }

    /// A slow handler (20 ms, longer than a period) delivered per scan: a
    /// touch ready while the handler runs waits for the app to be idle, as
    /// delivery wait, not as handler time. (Coalesced at frame starts, the
    /// main touch is always the one ready at that frame start: no wait.)
    @Test func aBusyAppShowsAsDeliveryWait() throws {
        let coalesced = try runScenario("slow-app", duration: "3s").measurements.budget!
        #expect(coalesced.meanMs(.handler) == 20 && coalesced[.deliveryWait]!.max == 0)
        let r = try runScenario("slow-app", ["os.delivery=perScan"], duration: "3s")
        let b = r.measurements.budget!
        #expect(b.meanMs(.handler) == 20)
        #expect(try #require(b[.deliveryWait]?.max) > 1)
        Self.addsUp(r)
    }

    /// android-default (Docs/Android.md, "Scenarios"): frame k starts at
    /// A = V(k-2) + 1 ms. Its newest sample ended its window at V(k-3) (the
    /// one ending at V(k-2) reaches the channel 2 ms later, after A - 5 ms)
    /// and is extrapolated by the 8 ms cap: resampling -8. Scan T/2, no
    /// digitizer delay, dispatch 2, then the batch until A: T - 2 + 1 =
    /// 15.667. UI thread 4, RenderThread 2, GPU 4, ending at A + 10;
    /// SurfaceFlinger latches at V(k-1) + 1 ms = A + T: a latch wait of
    /// T - 10 = 6.667; present at V(k), T - 1 = 15.667 later; scan-out T/2.
    /// -8 + 8.333 + 2 + 15.667 + 4 + 2 + 4 + 6.667 + 15.667 + 8.333 = 58.667.
    @Test func androidDefaultByHand() throws {
        let r = try runScenario("android-default", duration: "2s")
        let b = r.measurements.budget!
        #expect(b.stages.first == .resampling && b.stages.count == 15)
        // the first frame draws the touch-down, not resampled: skip it
        var steady = [BudgetStage: Double]()
        for s in b.stages { steady[s] = (b[s]!.percentile(50)! * 1e3).rounded() / 1e3 }
        #expect(steady == [.resampling: -8, .scan: 8.333, .digitizer: 0, .dispatch: 2, .batchWait: 15.667, .uiThread: 4,
                           .syncWait: 0, .dequeueWait: 0, .renderThread: 2, .gpuWait: 0, .gpu: 4, .latchWait: 6.667,
                           .presentWait: 15.667, .scanOut: 8.333, .panel: 0])
        Self.addsUp(r)
    }

    /// A slow Android app: frames back to back, one in the sync behind
    /// RenderThread or the buffers; whatever the stages, they add up.
    @Test func androidStagesAddUpUnderStuffingAndLatchUnsignaled() throws {
        for extra in [[], ["android.latchUnsignaled=true", "gpu.render=lognormal(12ms,0.5)"],
                      ["android.renderMode=continuous"], ["android.buffers=2", "android.renderThread=uniform(1ms,14ms)"]] {
            let r = try runScenario("android-slow-app", extra, duration: "3s", seed: 3)
            Self.addsUp(r)
            let b = r.measurements.budget!
            for s in b.stages where s != .resampling { #expect(b[s]!.min >= 0, "\(extra) \(s)") }
            #expect(b[.resampling]!.max <= 0)
        }
    }

    /// A tapping finger's budget splits tap-to-photon. ios9-low-latency's
    /// first contact is at 100 ms, the start of scan window 6 at 60 Hz: with
    /// `auto` timing the touch-down is ready at the window's end, a whole
    /// period later (scan 16.667, digitizer 0), and the frame then runs as
    /// for a drag: 16.667 + 4 + 3 + 4 + 5.667 + 8.333 = 41.667 ms. With a
    /// measured 10 ms touch-down delay no window is modelled: the delay is
    /// the digitizer's, ready at 110 ms, delivered at the next frame start
    /// (116.667), and the frame as before: 10 + 6.667 + 25 = 41.667 ms.
    @Test func aTapsBudgetSplitsTapToPhoton() throws {
        let auto = try runScenario("ios9-low-latency", ["input.trajectory=taps"], duration: "2s")
        #expect(Self.stages(auto) == [.scan: 16.667, .digitizer: 0, .deliveryWait: 0, .handler: 4, .renderServerWait: 0,
                                      .prepare: 3, .gpuWait: 0, .gpu: 4, .latchWait: 5.667, .scanOut: 8.333, .panel: 0])
        let measured = try runScenario("ios9-low-latency", ["input.trajectory=taps", "device.touchDownDelay=10ms"], duration: "2s")
        let s = Self.stages(measured)
        #expect(s[.scan] == 0 && s[.digitizer] == 10 && s[.deliveryWait] == 6.667)
        for r in [auto, measured] {
            let b = r.measurements.budget!
            #expect(b.frames == r.measurements.tapToPhotonMs.count && b.frames > 0)
            let mean = Double(b.totalNanos.reduce(0, +)) / Double(b.frames) / 1e6
            #expect(abs(mean - r.measurements.tapToPhotonMs.mean!) < 1e-9)
            #expect(r.invariants.budgetMismatches == 0)
        }
    }

    /// The budget counts each distinct split once per batch (a table of 16
    /// splits, flushed when a new one finds no room). Its figures must be
    /// those of recording every frame's stages one by one: here against the
    /// per-frame stages of the frame log, on runs whose splits repeat in
    /// turn (the 120 Hz scan under a 60 Hz display) and whose splits rarely
    /// repeat (drawn durations: many flushes).
    @Test(arguments: [("ios9-coalescing-120hz", [String]()),
                      ("ios8", ["app.handler=lognormal(6ms,0.5)", "gpu.render=uniform(2ms,9ms)"]),
                      ("android-default", ["app.handler=uniform(1ms,12ms)"])])
    func batchedSplitsGiveEveryFramesFigures(_ name: String, _ overrides: [String]) throws {
        let s = try Scenario.named(name)
        let c = try s.configuration(overrides: overrides, duration: "20s")
        let r = try PipelineRun.run(c, keepLog: true)
        let b = r.measurements.budget!
        let log = r.frameLog!
        var one = Array(repeating: StreamingStats(resolution: 1e3, highestValue: 100_000), count: b.stages.count)
        var totals = Array(repeating: Int64(0), count: b.stages.count)
        var frames = 0
        for f in log.frames where f.stageOffset >= 0 {
            frames += 1
            for (i, d) in log.stages(of: f, count: b.stages.count).enumerated() {
                one[i].record(Double(d) / 1e6)
                totals[i] += d
            }
        }
        #expect(frames == b.frames && frames > 1_000)
        #expect(totals == b.totalNanos)
        for i in one.indices {
            one[i].settle()
            let got = b.stats[i], want = one[i]
            #expect(got.count == want.count)
            #expect(got.min == want.min && got.max == want.max, "\(b.stages[i])")
            #expect(got.percentiles([0.5, 0.9, 0.99]) == want.percentiles([0.5, 0.9, 0.99]), "\(b.stages[i])")
        }
    }
}

/// The recorder itself, fed chains by hand: stages from instants that go
/// back (an empty stage) and totals the stages do not add up to, each
/// counted on every frame whether its chain was foretold or looked up.
@Suite struct BudgetRecorderTests {
    @Test func everyFrameIsCountedWithItsOwnTotal() throws {
        let c = try Scenario.named("ios8").configuration(overrides: [], duration: "1s")
        let r = BudgetRecorder(platform: .ios, configuration: c)
        #expect(r.count == 11)
        // offsets 10, 5 (before the cursor: an empty stage), 20, ..., 100
        let instants: [SimTime] = [10, 5, 20, 30, 30, 40, 50, 60, 70, 80, 100]
        let frames = 60
        for frame in 0..<frames {
            let start = SimTime(frame) * 1_000
            var chain = r.chain(from: start)
            for t in instants { chain.until(start + t) }
            // every third frame's total is not what its stages add up to
            r.end(chain, total: frame % 3 == 2 ? 99 : 100)
            if frame == 0 { #expect(Array(r.currentStages) == [10, 0, 10, 10, 0, 10, 10, 10, 10, 10, 20]) }
        }
        let b = r.result()
        #expect(b.frames == frames)
        #expect(b.mismatches == frames / 3)
        #expect(b.totalNanos == [10, 0, 10, 10, 0, 10, 10, 10, 10, 10, 20].map { $0 * SimTime(frames) })
        #expect(b.stats[1].max == 0 && b.stats[10].min == 20e-6)
    }
}
