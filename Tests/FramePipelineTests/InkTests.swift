import Experiments
import FramePipeline
import Measures
import Scenarios
import SimKernel
import Testing
import TouchModel

/// The scan line's race, by hand (Docs/Ink.md, "The scan line's race"): a
/// 100 Hz panel is scanned top to bottom in `T` = 10 ms, vsync `V_k` at
/// `10k` ms, so row offset `r` (row × T) is read at `10k + r` ms.
@Suite struct ScanRaceTests {
    static let ms = Nanos.perMillisecond
    /// 100 Hz, SurfaceFlinger latching 9 ms before each vsync (`T - 1ms`).
    static let race = ScanRace(clock: PeriodicClock(hz: Rational(100)), sfDuration: 9 * ms)

    /// A draw that finishes at `t` for a pen at row `r` reaches the eye at the
    /// first `V_k + r` at or after `t`.
    @Test func aDrawReachesTheEyeWhenTheScanOutNextPassesItsRow() {
        let r = Self.race, ms = Self.ms
        // the pen at mid-screen (r = 5 ms): passes at 5, 15, 25, 35 ms; a draw done at 23 ms waits for 25 ms
        #expect(r.pass(atOrAfter: 23 * ms, row: 5 * ms) == 25 * ms)
        #expect(r.passVsync(atOrAfter: 23 * ms, row: 5 * ms) == 20 * ms)
        // done exactly as the scan-out reaches the row: seen on that pass
        #expect(r.pass(atOrAfter: 25 * ms, row: 5 * ms) == 25 * ms)
        // a nanosecond late: the next refresh, a whole period later
        #expect(r.pass(atOrAfter: 25 * ms + 1, row: 5 * ms) == 35 * ms)
        // at the top (r = 0) the row is read at each vsync: 30 ms; at the bottom (r = T) at 20 + 10 = 30 ms too
        #expect(r.pass(atOrAfter: 23 * ms, row: 0) == 30 * ms)
        #expect(r.pass(atOrAfter: 23 * ms, row: 10 * ms) == 30 * ms)
        // three-quarters down (r = 7.5 ms): 27.5 ms; a quarter down (2.5 ms): 32.5 ms, the scan-out passed it at 22.5
        #expect(r.pass(atOrAfter: 23 * ms, row: 7_500_000) == 27_500_000)
        #expect(r.pass(atOrAfter: 23 * ms, row: 2_500_000) == 32_500_000)
        // before the first vsync's pass: V_0 + r
        #expect(r.pass(atOrAfter: 1 * ms, row: 5 * ms) == 5 * ms)
        // a layer on screen only from V = 40 ms: the first pass from then, 45 ms
        #expect(r.pass(atOrAfter: 23 * ms, row: 5 * ms, from: 40 * ms) == 45 * ms)
    }

    /// A draw tears when the scan-out passes its row strictly inside it.
    @Test func aDrawTearsExactlyWhenItStraddlesTheScanLine() {
        let r = Self.race, ms = Self.ms, row = 5 * ms
        #expect(!r.tears(start: 22 * ms, end: 24 * ms, row: row))      // the pass at 25 is after it
        #expect(r.tears(start: 24 * ms, end: 26 * ms, row: row))       // 25 is inside
        #expect(!r.tears(start: 25 * ms, end: 27 * ms, row: row))      // the pass at its start read the old buffer
        #expect(!r.tears(start: 23 * ms, end: 25 * ms, row: row))      // the pass at its end reads it whole
        #expect(r.tears(start: 25 * ms - 1, end: 25 * ms + 1, row: row))
        #expect(r.tears(start: 14 * ms, end: 36 * ms, row: row))       // longer than a period: always
        // the layer not on screen until 40 ms: no pass reads it before
        #expect(!r.tears(start: 24 * ms, end: 26 * ms, row: row, from: 40 * ms))
        #expect(r.tears(start: 44 * ms, end: 46 * ms, row: row, from: 40 * ms))
    }

    /// Through SurfaceFlinger: latched at the first tick `V_k - 9ms` at or
    /// after the buffer is ready (ticks at 1, 11, 21, 31 ms), shown from `V_k`.
    @Test func aComposedUpdateIsShownAtTheVsyncOfTheNextLatch() {
        let r = Self.race, ms = Self.ms
        #expect(r.composedPresent(readyAt: 23 * ms) == 40 * ms)
        #expect(r.composedPresent(readyAt: 21 * ms) == 30 * ms)
        #expect(r.composedPresent(readyAt: 21 * ms + 1) == 40 * ms)
        #expect(r.composedPresent(readyAt: 0) == 10 * ms)
    }

    /// Against a brute-force walk over every pass, for random draws and rows
    /// on a 60 Hz clock (ticks rounded from their index).
    @Test func theRaceAgreesWithEveryPassEnumerated() {
        let clock = PeriodicClock(hz: Rational(60))
        let race = ScanRace(clock: clock, sfDuration: 15_666_667)
        var rng = SeededRandom(seed: 7)
        for _ in 0..<2_000 {
            let start = SimTime(rng.next() % 200_000_000), length = SimTime(rng.next() % 20_000_000)
            let row = SimTime(rng.next() % 16_666_667), end = start + length
            var firstPass: SimTime = .max, straddled = false
            for k: Int64 in 0..<20 {
                let p = clock.tick(k) + row
                if p >= end && firstPass == .max { firstPass = p }
                if p > start && p < end { straddled = true }
            }
            #expect(race.pass(atOrAfter: end, row: row) == firstPass)
            #expect(race.tears(start: start, end: end, row: row) == straddled)
        }
    }
}

/// A front-buffered stroke against the same app multi-buffered, worked by
/// hand (Docs/Ink.md, "Worked by hand"): 100 Hz display and scan (windows
/// `[10j, 10j + 10)` ms, each sample at mid-window, ready at its end),
/// dispatch 2 ms, touch handler 2 ms, renderer (RenderThread) 1 ms, GPU
/// 2 ms, no panel response; `D_app` = 10 ms, `D_sf` = 9 ms; the pen on a
/// horizontal line at row `y`.
@Suite struct FrontBufferedTests {
    static let ms = Nanos.perMillisecond

    /// One stroke from 0 to 100 ms along the row `y` (a fraction of the
    /// screen's 1024 points), then the pen up; a second from 300 ms.
    static func stroke(row: Double) throws -> Trajectory {
        func samples() -> [TouchSample] {
            (0...10).map { TouchSample(time: SimTime($0) * 10 * ms, position: TouchPoint(x: 100 + 20 * Double($0), y: row * 1024)) }
        }
        return try Trajectory.trace(name: "stroke", strokes: [samples(), samples()], gap: 200 * ms)
    }

    static func configuration(_ scenario: String, _ overrides: [String] = []) throws -> PipelineConfiguration {
        try Scenario.named(scenario).configuration(overrides: [
            "device.displayHz=100", "device.scanHz=100", "device.panelResponse=0ms", "app.handler=2ms",
            "android.renderThread=1ms", "gpu.render=2ms", "android.sfCompose=1ms",
            // given, not auto: at 100 Hz AOSP's PhaseOffsets default would be D_app = 2T - 1ms
            "android.appDuration=10ms", "android.sfDuration=9ms",
        ] + overrides, duration: "600ms")
    }

    static func run(_ scenario: String, row: Double, _ overrides: [String] = [], log: Bool = true) throws -> RunResult {
        var r = PipelineRun(configuration: try configuration(scenario, overrides), trajectory: try stroke(row: row), keepLog: log)
        r.keepBudget()
        return try r.run()
    }

    /// Front-buffered, pen at mid-screen (row offset 5 ms). Sample `10j + 5`
    /// reaches the app at `10j + 12`, the handler hands it over at `+14`,
    /// the renderer submits at `+15`, the GPU is done at `10j + 17`. The
    /// scan-out passes the row at `10k + 5`: at `10j + 25`, so pen-to-ink is
    /// 20 ms, 8 of them the race. Not torn: the pass at `10j + 15` is at
    /// the GPU's start. The stroke's first draw (done at 17 ms) shows the
    /// layer through SurfaceFlinger: latched at 21 ms, shown from 30 ms,
    /// seen at 35 ms (30 ms after its sample at 5); the second, done at
    /// 27 ms before the layer is on screen, is seen at 35 ms too (20 ms).
    @Test func theFrontBufferedStrokeRacesTheScanLine() throws {
        let r = try Self.run("android-ink-front", row: 0.5)
        let ink = try #require(r.measurements.ink)
        // strokes of 10 samples (5 ... 95 ms, 305 ... 395 ms): 20 draws, two of each stroke composed
        #expect(ink.wetDraws == 20 && ink.composedDraws == 4 && ink.tornDraws == 0)
        #expect(ink.penToInkMs.count == 20 && ink.penToInkMs.max == 30 && ink.penToInkMs.min == 20)
        #expect(ink.penToInkMs.percentile(50) == 20)
        let draws = try #require(r.frameLog?.android?.frontDraws)
        #expect(draws[0].gpuEnd == 17 * Self.ms && draws[0].shownFrom == 30 * Self.ms && draws[0].pass == 35 * Self.ms && draws[0].composed)
        #expect(draws[1].gpuEnd == 27 * Self.ms && draws[1].pass == 35 * Self.ms && draws[1].composed)
        #expect(draws[2].gpuEnd == 37 * Self.ms && draws[2].pass == 45 * Self.ms && !draws[2].composed)
        // the budget of a raced draw: scan 5, dispatch 2, UI 2, render 1, GPU 2, scan race 8
        let b = try #require(r.measurements.budget)
        #expect(b.stages == BudgetStage.frontBufferedStages && b.mismatches == 0)
        #expect(b[.scanRace]?.percentile(50) == 8 && b[.uiThread]?.max == 2 && b[.frontRender]?.max == 2 - 1)
        #expect(r.invariants.holds)
    }

    /// At 0.6 of the screen (row offset 6 ms) the scan-out passes the row at
    /// `10j + 16`, inside the GPU's `(10j + 15, 10j + 17)`: every draw on
    /// screen tears (the two per stroke drawn before the layer was shown do
    /// not: no pass read them), and is seen at `10j + 26`, 21 ms.
    @Test func aDrawStraddlingTheScanLineTears() throws {
        let r = try Self.run("android-ink-front", row: 0.6)
        let ink = try #require(r.measurements.ink)
        #expect(ink.wetDraws == 20 && ink.tornDraws == 16)
        #expect(ink.penToInkMs.percentile(50) == 21)
        let draws = try #require(r.frameLog?.android?.frontDraws)
        for d in draws {
            let straddles = (0..<80).contains { (k: Int64) in
                let pass = k * 10 * Self.ms + d.rowOffset
                return pass > d.gpuStart && pass < d.gpuEnd && k * 10 * Self.ms >= d.shownFrom
            }
            #expect(d.torn == straddles, "draw \(d.draw)")
        }
        // torn frames per second: 16 in 0.6 s
        #expect(abs(ink.tornPerSecond - 16 / 0.6) < 1e-9)
    }

    /// The same app multi-buffered (unbuffered input): the sample reaching
    /// the app at `10j + 12` waits for vsync-app at `10j + 21` (ticks at
    /// `V_k - 19ms`), UI to `+23`, RenderThread to `+24`, GPU to `+26`,
    /// latched at vsync-sf `10j + 31`, shown at `V = 10j + 40`, at the row
    /// at `10j + 45`: 40 ms. The front buffer saves 20 ms, what the stages
    /// say: batch wait 9 + latch wait 5 + present wait 9 + scan-out 5 against
    /// a scan race of 8.
    @Test func theFrontBufferBuysWhatTheBudgetsSay() throws {
        let front = try Self.run("android-ink-front", row: 0.5)
        let buffered = try Self.run("android-ink-buffered", row: 0.5)
        let b = try #require(buffered.measurements.budget), f = try #require(front.measurements.budget)
        #expect(buffered.measurements.ink?.penToInkMs.percentile(50) == 40)
        #expect(b[.batchWait]?.percentile(50) == 9 && b[.latchWait]?.percentile(50) == 5)
        #expect(b[.presentWait]?.percentile(50) == 9 && b[.scanOut]?.percentile(50) == 5)
        #expect(f[.scanRace]?.percentile(50) == 8)
        let saved = try #require(buffered.measurements.ink?.penToInkMs.percentile(50)) - front.measurements.ink!.penToInkMs.percentile(50)!
        #expect(saved == 20)
        #expect(saved == 9 + 5 + 9 + 5 - 8)
        // the stages both have are the same: scan, dispatch, UI thread, GPU
        for s: BudgetStage in [.scan, .dispatch, .uiThread, .gpu] {
            #expect(b[s]?.percentile(50) == f[s]?.percentile(50), "\(s)")
        }
    }

    /// A front buffer composed by SurfaceFlinger: each draw done at
    /// `10j + 17` is latched at `10j + 21`, shown from `10j + 30`, at the row
    /// at `10j + 35`: 30 ms, never torn.
    @Test func aComposedFrontBufferTakesSurfaceFlingersLatency() throws {
        let r = try Self.run("android-ink-front", row: 0.6, ["display.frontBufferPlane=composition"])
        let ink = try #require(r.measurements.ink)
        #expect(ink.tornDraws == 0 && ink.composedDraws == 20)
        // row 0.6: V + 6 = 10j + 36, 31 ms after the sample
        #expect(ink.penToInkMs.min == 31 && ink.penToInkMs.max == 31)
    }

    /// The dry commit: the pen lifts 1 ns after 100 ms (the trace's last
    /// point is down); the scan at 105 ms sees it up, ready at 110, at the
    /// app at 112; the handler hands the commit over at 114; the renderer
    /// dequeues, issues commands to 115; the GPU is done at 117; latched at
    /// vsync-sf 121, composed, shown at 130, at the row at 135 ms: 35 ms
    /// less a nanosecond after the lift. The second stroke's is the same,
    /// 300 ms later.
    @Test func theDryStrokeIsCommittedThroughSurfaceFlingerOnPenUp() throws {
        let r = try Self.run("android-ink-front", row: 0.5)
        let ink = try #require(r.measurements.ink)
        #expect(ink.dryCommitMs.count == 2 && ink.dryCommitMs.min == 34.999999 && ink.dryCommitMs.max == 34.999999)
        let dry = try #require(r.frameLog?.android?.dryCommits)
        #expect(dry.count == 2 && dry[0].lift == 100 * Self.ms + 1 && dry[0].posted == 114 * Self.ms)
        #expect(r.measurements.framesPresented == 2)
        // the dry frame hides the front layer: the second stroke's first draw is shown through SurfaceFlinger again
        let draws = try #require(r.frameLog?.android?.frontDraws)
        #expect(draws[10].composed && draws[10].shownFrom == 330 * Self.ms)
    }

    /// The front-buffered app's figures are produced by it alone, and by
    /// every ink app for the pen-to-ink figures.
    @Test func theInkFiguresAreProducedByInkAppsOnly() throws {
        let front = try Self.configuration("android-ink-front")
        let buffered = try Self.configuration("android-ink-buffered")
        let plain = try Scenario.named("android-default").configuration(overrides: [], duration: "1s")
        let penToInk = try #require(Figure(rawValue: "penToInkP50")), torn = try #require(Figure(rawValue: "tornPerSecond"))
        let dry = try #require(Figure(rawValue: "dryCommitP50"))
        #expect(penToInk.isProduced(by: front) && penToInk.isProduced(by: buffered))
        #expect(!penToInk.isProduced(by: plain))
        #expect(torn.isProduced(by: front) && !torn.isProduced(by: buffered))
        #expect(dry.isProduced(by: front) && !dry.isProduced(by: plain))
    }
}

/// Unbuffered input on the multi-buffered pipeline: a frame takes every
/// sample that has reached the app, unresampled.
@Suite struct UnbufferedDispatchTests {
    /// android-default at 60 Hz: with resampling the frame at `A_k` consumes
    /// samples ready by `A_k - 5ms` and extrapolates; unbuffered, it takes
    /// the sample that reached the app 2 ms after `V_k-2`... every sample
    /// that has arrived, drawn as reported: none is resampled.
    @Test func unbufferedFramesDrawTheSamplesAsTheyArrived() throws {
        let r = try runScenario("android-default", ["android.unbufferedDispatch=true", "input.trajectory=line"], duration: "2s")
        let a = try #require(r.measurements.android)
        #expect(a.interpolated == 0 && a.extrapolated == 0 && r.invariants.holds)
        #expect(r.measurements.budget?[.resampling]?.max == 0)
    }
}

/// Mid-frame event processing (Docs/Ink.md, "Mid-frame input"), by hand on
/// pencil-ink: 120 Hz display (`T` = 8.333 ms), 240 Hz Pencil (windows
/// ending at each vsync and half-way between), handler 2 ms, prepare 1.5,
/// GPU 2, LCD 7 ms.
@Suite struct MidFrameReadTests {
    /// Without the read, the frame at `V_k` draws the sample of the window
    /// ending at `V_k` (its instant 2.083 ms before); committed at `V_k + 2`,
    /// prepared and drawn by `V_k + 5.5`, latched at `V_k+1`. With the read
    /// 3.5 ms before `V_k+1` (= `V_k + 4.833`), the sample of the window
    /// ending at `V_k + 4.167` is drawn: 4.167 ms newer, the frame still
    /// done at `V_k+1`. Pen-to-ink falls by half a frame, the 240 Hz window.
    @Test func theLateReadDrawsTheMidFrameSample() throws {
        // at a fixed row (mid-screen) every frame's latency is one value
        let plain = try runScenario("pencil-ink", ["measure.row=0.5"], duration: "2s")
        let late = try runScenario("pencil-ink-midframe", ["measure.row=0.5"], duration: "2s")
        // 2.083 + 2 + 1.5 + 2 + 2.833 (to V_k+1) + 4.167 (mid-row) + 7 = 21.583 ms without
        #expect(abs(try #require(plain.measurements.touchToPhotonMs.percentile(50)) - 21.583333) < 1e-5)
        // 2.083 + 0.667 + 0 + 1.5 + 2 + 0 + 4.167 + 7 = 17.417 ms with: 4.167 less
        #expect(abs(try #require(late.measurements.touchToPhotonMs.percentile(50)) - 17.416667) < 1e-5)
        let b = try #require(late.measurements.budget)
        #expect(b.stages.contains(.midFrameRead) && b.mismatches == 0)
        // the late touch waits 0.667 ms (4.833 - 4.167) for the read; the frame makes its vsync: no latch wait
        #expect(abs(try #require(b[.deliveryWait]?.percentile(50)) - 0.666667) < 1e-3 && b[.latchWait]?.percentile(50) == 0)
        #expect(late.invariants.holds && (late.measurements.ink?.lateReads ?? 0) > 0)
    }

    /// A read later than the frame's own rendering allows misses the vsync:
    /// 2 ms before it, the 3.5 ms of prepare and GPU end 1.5 ms after it.
    @Test func aReadTooLateMissesTheVsync() throws {
        let late = try runScenario("pencil-ink-midframe", ["app.midFrameLead=2ms"], duration: "2s")
        let plain = try runScenario("pencil-ink", [], duration: "2s")
        #expect(try #require(late.measurements.ink?.penToInkMs.percentile(50)) > plain.measurements.ink!.penToInkMs.percentile(50)!)
    }

    /// Off, a run is the app without it; a lead beyond a frame, or with
    /// several commits, is bad input.
    @Test func theLeadIsALabelledUnknownWithARange() throws {
        #expect(throws: LatsimError.self) { try runScenario("pencil-ink", ["app.midFrameLead=9ms"], duration: "1s") }
        #expect(throws: LatsimError.self) { try runScenario("pencil-ink-midframe", ["app.commits=2"], duration: "1s") }
        #expect(throws: LatsimError.self) { try runScenario("android-ink-front", ["android.unbufferedDispatch=false"], duration: "1s") }
        #expect(throws: LatsimError.self) { try runScenario("android-ink-front", ["os.androidVersion=9"], duration: "1s") }
        let off = try runScenario("pencil-ink-midframe", ["app.midFrameLead=off"], duration: "2s")
        let plain = try runScenario("pencil-ink", [], duration: "2s")
        #expect(off.measurements.ink?.penToInkMs.mean == plain.measurements.ink?.penToInkMs.mean)
    }
}

/// The invariants (Docs/Model.md, "Invariants") on the ink scenarios and on
/// randomized front-buffered and mid-frame configurations.
@Suite struct InkInvariantTests {
    @Test(arguments: BuiltinScenarios.inkNames)
    func inkScenariosKeepTheInvariants(_ name: String) throws {
        InvariantTests.check(try runScenario(name, [], duration: "5s"), name)
    }

    @Test func randomizedFrontBufferedAndMidFrameRunsKeepTheInvariants() throws {
        var rng = SeededRandom(seed: 36)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func ms(_ lo: Double, _ hi: Double) -> String { "\(Int((lo + (hi - lo) * rng.nextUnit()) * 1000))us" }
        for i in 0..<30 {
            let front = [
                "device.displayHz=\(pick(["60", "90", "120"]))", "device.scanHz=\(pick(["60", "120", "240"]))",
                "device.scanPhase=\(ms(0, 4))", "app.handler=uniform(\(ms(0, 2)),\(ms(2, 12)))",
                "android.renderThread=\(ms(0, 3))", "gpu.render=empirical(\(ms(0, 2)),\(ms(2, 14)))",
                "display.frontBufferPlane=\(pick(["overlay", "composition"]))", "os.present=\(pick(["latest", "fifo"]))",
                "android.buffers=\(pick(["auto", "2", "4"]))", "measure.row=\(pick(["0", "0.5", "1", "touch"]))",
                "app.prediction.predictor=\(pick(["none", "linearFirst"]))",
            ]
            InvariantTests.check(try runScenario("android-ink-front", front, duration: "2s", seed: UInt64(i)), "front \(i): \(front)")
            let mid = [
                "app.midFrameLead=\(pick(["0ms", "2ms", "0.5frames", "1frame"]))", "app.handler=uniform(\(ms(0, 2)),\(ms(2, 10)))",
                "renderServer.prepare=\(ms(0, 3))", "gpu.render=\(ms(0, 6))", "os.delivery=\(pick(["coalesced", "perScan"]))",
                "app.touches=\(pick(["main", "coalesced"]))", "app.rendering=\(pick(["coreAnimation", "metal"]))",
                "measure.row=\(pick(["0", "0.5", "touch"]))", "app.prediction.predictor=\(pick(["none", "kalman"]))",
            ]
            InvariantTests.check(try runScenario("pencil-ink-midframe", mid, duration: "2s", seed: UInt64(i)), "mid \(i): \(mid)")
        }
    }
}
