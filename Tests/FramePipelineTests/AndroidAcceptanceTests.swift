import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing

/// Runs a built-in Android scenario, keeping the frame log when `log`.
func runAndroid(_ name: String, _ overrides: [String] = [], duration: String = "10s", log: Bool = false) throws -> RunResult {
    let c = try Scenario.named(name).configuration(overrides: overrides, duration: duration)
    return try PipelineRun.run(c, keepLog: log)
}

/// `x` within `tolerance` ms of `expected` ms.
func near(_ x: Double?, _ expected: Double, _ tolerance: Double = 2e-6) -> Bool {
    guard let x else { return false }
    return abs(x - expected) <= tolerance
}

/// Docs/Android.md's acceptance figures (ANDROID.md A8), each worked by hand
/// in its comment. At 60 Hz `T` = 16.6666667 ms; `auto` gives
/// `D_app` = 16,666,667 ns and `D_sf` = 15,666,667 ns.
@Suite struct AndroidAcceptanceTests {
    static let T = 1e3 / 60 // ms

    /// Frame k starts at `A_k = V_k - D_app - D_sf` (1 ms after `V_k-2`).
    /// Its newest consumed sample ended its window at `V_k-3` (the one of
    /// `V_k-2` reaches the channel 2 ms after it, too late); nothing waits
    /// after it, so the point is extrapolated by the 8 ms cap. The buffer is
    /// queued at `A_k + 6ms`, the GPU job ends at `A_k + 10ms`, before
    /// `S_k = V_k-1 + 1ms`: latched there and shown at `V_k`.
    /// frame-to-photon = `D_app + D_sf + T/2` = 40.666667 ms; touch-to-photon
    /// = `3T + T/2 + (T/2 - 8ms)` = 58.666667 ms; pipeline frames 5.
    @Test func androidDefaultIsFortyAndFiftyEightPointSixSevenMilliseconds() throws {
        let r = try runAndroid("android-default", log: true)
        let m = r.measurements
        let a = try #require(m.android)
        #expect(a.appDuration == 16_666_667 && a.sfDuration == 15_666_667 && a.buffers == 3)
        #expect(near(m.frameToPhotonMs.min, 40.666667) && near(m.frameToPhotonMs.max, 40.666667))
        // every frame after the touch-down frame, which draws the DOWN unresampled: 4T
        #expect(near(m.touchToPhotonMs.min, 4 * Self.T - 8, 2e-6), "\(m.touchToPhotonMs.min)")
        #expect(near(m.touchToPhotonMs.max, 4 * Self.T, 2e-6), "\(m.touchToPhotonMs.max)")
        let n = Double(m.touchToPhotonMs.count)
        #expect(near(m.touchToPhotonMs.mean, (m.touchToPhotonMs.max + (n - 1) * m.touchToPhotonMs.min) / n, 1e-9),
                "exactly one frame (the touch-down frame) is not at 58.667 ms")
        #expect(allFrames(m.pipelineFrames) == 5)
        #expect(a.frameTimeline?[.onTime] == m.framesPresented && m.framesPresented > 590 && m.repeatedFrames == 0)
        #expect(a.dequeueWaits == 0 && a.fenceWaits == 0 && a.maxBuffersHeld == 2)
        #expect(a.extrapolated == a.choreographerFrames - 1 && a.interpolated == 0)
        let frames = try #require(r.frameLog?.android?.frames)
        #expect(frames.count == m.framesPresented)
        for f in frames {
            #expect(f.queued == f.frameTime + 6_000_000 && f.gpuDone == f.frameTime + 10_000_000)
            #expect(f.latched == f.expected - a.sfDuration && f.presented == f.expected)
        }
    }

    /// At 120 Hz scan the newest consumed sample ended at `V_k-2 - T/2`; the
    /// cap is half the 8.333 ms interval: touch-to-photon `3T` = 50.000 ms.
    @Test func aHundredTwentyHertzScanIsFiftyMilliseconds() throws {
        let m = try runAndroid("android-120hz-scan").measurements
        #expect(near(m.touchToPhotonMs.min, 3 * Self.T, 2e-6))
        #expect(near(m.touchToPhotonMs.percentile(50), 3 * Self.T, 2e-6))
    }

    /// Without the 2 ms dispatch the sample of `V_k-2` (eventTime in
    /// `(t_s, F]`) waits in the batch: every frame interpolates toward it,
    /// alpha = `(T - 4ms) / T`: touch-to-photon `3T + 4ms` = 54.000 ms.
    @Test func withoutDispatchLatencyEveryFrameInterpolates() throws {
        let m = try runAndroid("android-default", ["android.dispatchLatency=0ms"]).measurements
        let a = try #require(m.android)
        #expect(near(m.touchToPhotonMs.min, 3 * Self.T + 4, 2e-6) && near(m.touchToPhotonMs.percentile(50), 3 * Self.T + 4, 2e-6))
        #expect(a.interpolated == a.choreographerFrames - 1 && a.extrapolated == 0)
    }

    /// Resampling off: the newest consumed sample is drawn as reported: 4T.
    @Test func withoutResamplingItIsFourFrames() throws {
        let m = try runAndroid("android-no-resampling").measurements
        #expect(near(m.touchToPhotonMs.min, 4 * Self.T) && near(m.touchToPhotonMs.max, 4 * Self.T))
        #expect(m.android?.notResampled == 0 && m.android?.extrapolated == 0)
    }

    /// Handler 20 ms: every tick is missed, the skipped-frame correction runs
    /// frames back to back, 5 in 6 periods (50 per second), 1 or 2 periods
    /// late. Frame i of a cycle starts at `A_k + 20i ms` with `F = A_k+i`;
    /// the frame before each was latched exactly at its deadline, so each is
    /// stuffed and judged against `lastLatch + T`: frames 0, 1, 2 and 4 end
    /// 9.3, 12.7, 16.0 and 6.0 ms after it (bufferStuffing), frame 3 2.7 ms
    /// past it (appDeadlineMissed). The touch-down frame, with no latch before
    /// it, is appDeadlineMissed. 10 s: 100 and 395 (the peer's counts).
    @Test func aTwentyMillisecondHandlerRunsFramesBackToBackAndStuffed() throws {
        let r = try runAndroid("android-slow-app", log: true)
        let m = r.measurements
        let a = try #require(m.android)
        #expect(a.frameTimeline?[.appDeadlineMissed] == 100 && a.frameTimeline?[.bufferStuffing] == 395)
        #expect(m.framesPresented == 495 && m.repeatedFrames == 99)
        let frames = try #require(r.frameLog?.android?.frames)
        #expect(frames.count == 495 && frames.first?.jank == .appDeadlineMissed)
        var i = 0
        for (previous, f) in zip(frames, frames.dropFirst()) {
            let gap = Double(f.frameTime - previous.frameTime) / 1e6
            i = abs(gap - 2 * Self.T) < 0.001 ? 0 : i + 1
            let late = Double(f.presented - f.expected) / 1e6
            #expect(near(late, i >= 3 ? 2 * Self.T : Self.T, 1e-5), "frame \(f.seq) of the cycle \(i): \(late) ms late")
            #expect(f.jank == (i == 3 ? .appDeadlineMissed : .bufferStuffing), "frame \(f.seq) of the cycle \(i)")
        }
    }

    /// GLSurfaceView continuous: a latch at `S_k` releases a buffer; the
    /// blocked GL thread reads at `S_k`, its GPU job waits for the release
    /// fence until `V_k`, ends at `V_k + 4ms` after `S_k+1`, is latched at
    /// `S_k+2` and shown at `V_k+2`: frame-to-photon `2T + D_sf + T/2`; it
    /// draws the point stored at `V_k-2 + 5ms`: touch-to-photon `6T - 8ms` =
    /// 92.000 ms; each further buffer adds a period (4 buffers: 108.667 ms).
    @Test func continuousRenderingRunsAheadAndEveryBufferAddsAFrame() throws {
        let m = try runAndroid("android-gl-continuous").measurements
        let a = try #require(m.android)
        #expect(a.frameTimeline?[.unknown] == m.framesPresented && m.framesPresented > 590)
        #expect(near(m.touchToPhotonMs.percentile(50), 6 * Self.T - 8) && near(m.touchToPhotonMs.max, 6 * Self.T - 8))
        #expect(near(m.frameToPhotonMs.percentile(50), 2 * Self.T + 15.666667 + Self.T / 2, 1e-5))
        #expect(a.dequeueWaits >= m.framesPresented - 3 && a.fenceWaits >= m.framesPresented - 3)
        let four = try runAndroid("android-gl-continuous", ["android.buffers=4"]).measurements
        #expect(near(four.touchToPhotonMs.percentile(50), 7 * Self.T - 8))
    }

    /// Devices on time: Pixel 4 (90 Hz, 20.5 + 10.5 ms), Pixel 6 (120 Hz,
    /// 16.6 + 10.5 ms) and the Nexus 5's offsets (30.833 + 11.667 ms): every
    /// frame presented at its expected present, frame-to-photon `D_app + D_sf + T/2`.
    @Test(arguments: [("android-pixel4", 20.5 + 10.5 + 1e3 / 180, 4), ("android-gs101-120hz", 16.6 + 10.5 + 1e3 / 240, 5),
                      ("android-nexus5-offsets", 30.833333 + 11.666667 + 1e3 / 120, 4)])
    func devicesPresentEveryFrameOnTime(_ name: String, _ frameToPhoton: Double, _ buffers: Int) throws {
        let m = try runAndroid(name).measurements
        let a = try #require(m.android)
        #expect(a.buffers == buffers)
        #expect(a.frameTimeline?[.onTime] == m.framesPresented && m.repeatedFrames == 0)
        #expect(near(m.frameToPhotonMs.min, frameToPhoton, 1e-5) && near(m.frameToPhotonMs.max, frameToPhoton, 1e-5))
    }

    /// GPU 12 ms: the job ends at `A_k + 18ms` > `S_k`. Signalled latching:
    /// every frame a period late (the touch-down frame appDeadlineMissed,
    /// then bufferStuffing); latchUnsignaled latches at `S_k` and shows it
    /// at `V_k`: all on time, one period less touch-to-photon.
    @Test func latchUnsignaledSavesAPeriodOnALongGPUJob() throws {
        let signalled = try runAndroid("android-default", ["gpu.render=12ms"]).measurements
        let unsignaled = try runAndroid("android-default", ["gpu.render=12ms", "android.latchUnsignaled=true"]).measurements
        let s = try #require(signalled.android), u = try #require(unsignaled.android)
        #expect(s.frameTimeline?[.appDeadlineMissed] == 1 && s.frameTimeline?[.bufferStuffing] == signalled.framesPresented - 1)
        #expect(u.frameTimeline?[.onTime] == unsignaled.framesPresented && u.backPressureSkips == 0)
        #expect(near(signalled.touchToPhotonMs.percentile(50)! - unsignaled.touchToPhotonMs.percentile(50)!, Self.T, 2e-6))
    }

    /// Tie order: a GPU job done exactly at `S_k` (`A_k + 6ms + gpu = A_k + D_app`)
    /// is latched at `S_k`; one nanosecond later it is not.
    @Test func aGPUJobDoneExactlyAtVsyncSfIsLatchedThere() throws {
        let exact = 16_666_667 - 6_000_000
        let on = try runAndroid("android-default", ["gpu.render=\(exact)ns"]).measurements
        let off = try runAndroid("android-default", ["gpu.render=\(exact + 1)ns"]).measurements
        #expect(on.android?.frameTimeline?[.onTime] == on.framesPresented)
        #expect(off.android?.frameTimeline?[.onTime] == 0)
    }

    /// Two buffers: the dequeue waits for the latch that releases a buffer,
    /// the GPU job for its release fence (until `V_k`, 1 ms before
    /// `S_k+1`): the frame rate halves, every frame misses its deadline.
    @Test func twoBuffersHalveTheFrameRate() throws {
        let m = try runAndroid("android-default", ["android.buffers=2"]).measurements
        let a = try #require(m.android)
        #expect(a.dequeueWaits > 10 && a.fenceWaits > 10)
        #expect(m.framesPresented * 2 <= 602 && (a.frameTimeline?[.appDeadlineMissed] ?? -1) >= m.framesPresented - 2)
    }

    /// Back-pressure: Pixel 6, GPU 10 ms (jobs back to back: 100 frames a
    /// second on a 120 Hz display), latchUnsignaled. A buffer whose job is
    /// not done by its vsync holds the next latch back; each such vsync-sf is
    /// a repeated vsync, and latency stays bounded.
    @Test func backPressureBoundsLatchUnsignaledWithASlowGPU() throws {
        let m = try runAndroid("android-gs101-120hz", ["gpu.render=10ms", "android.latchUnsignaled=true"]).measurements
        let short = try runAndroid("android-gs101-120hz", ["gpu.render=10ms", "android.latchUnsignaled=true"], duration: "2s").measurements
        let a = try #require(m.android)
        #expect(abs(m.framesPresented - 1000) <= 5)
        #expect(a.backPressureSkips == m.repeatedFrames && a.backPressureSkips > 0)
        #expect(a.maxLatchedPending == 2 && a.dequeueWaits > 0)
        #expect(m.touchToPhotonMs.max == short.touchToPhotonMs.max && m.touchToPhotonMs.max < 100)
    }

    /// A stochastic composition is checked at each draw: one of a display
    /// period or more stops the run with bad input naming the key.
    @Test func aCompositionDrawOfAPeriodIsBadInput() throws {
        do {
            _ = try runAndroid("android-default", ["android.sfCompose=normal(10ms,5ms)"])
            Issue.record("should fail")
        } catch let e as LatsimError {
            #expect(e.kind == .badInput && e.key == "android.sfCompose" && e.problem.contains("display period"))
        }
    }
}
