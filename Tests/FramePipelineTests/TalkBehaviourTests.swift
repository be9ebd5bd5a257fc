import Experiments
import FramePipeline
import Scenarios
import Testing

/// Behaviours the talk describes, beyond the table.
@Suite struct TalkBehaviourTests {
    @Test func doubleBufferingWithWorkOverAFrameHalvesTheFrameRateWhileAdaptiveKeeps60Fps() throws {
        let adaptive = try runScenario("ios8-complex")
        let double = try runScenario("ios8-complex", ["os.buffering=double"])
        let a = adaptive.measurements, d = double.measurements
        // 10 s at 60 Hz: ~600 latches
        #expect(a.framesPresented > 590)
        #expect(abs(2 * d.framesPresented - a.framesPresented) <= 4, "adaptive \(a.framesPresented), double \(d.framesPresented)")
        // adaptive buys its frame rate with one more frame of latency than a light app
        let light = try runScenario("ios8")
        #expect(allFrames(a.pipelineFrames) == 5)
        #expect(allFrames(light.measurements.pipelineFrames) == 4)
        #expect(adaptive.tripleBufferedFraction > 0.95)
        #expect(double.tripleBufferedFraction == 0)
        #expect(double.hitchTimeRatioMsPerS > 400)
    }

    @Test func lightWorkNeverAllocatesTheThirdBuffer() throws {
        let r = try runScenario("ios9-low-latency")
        #expect(r.tripleBufferedFraction == 0)
        #expect(r.measurements.repeatedFrames == 0 && r.measurements.droppedFrames == 0)
    }

    @Test func perScanDeliveryAt120HzDoesWastedWorkThatCoalescingAvoids() throws {
        let perScan = try runScenario("ios9-coalescing-120hz", ["os.delivery=perScan"])
        let coalesced = try runScenario("ios9-coalescing-120hz")
        let p = perScan.measurements, c = coalesced.measurements
        #expect(p.handlerRuns > c.handlerRuns * 3 / 2, "perScan \(p.handlerRuns) handler runs, coalesced \(c.handlerRuns)")
        #expect(p.wastedUpdates + p.droppedFrames > 100, "wasted \(p.wastedUpdates), dropped \(p.droppedFrames)")
        #expect(c.wastedUpdates == 0 && c.droppedFrames == 0)
    }

    @Test func perScanUnderFifoPresentationBacksUp() throws {
        let latest = try runScenario("ios9-coalescing-120hz", ["os.delivery=perScan"])
        let fifo = try runScenario("ios9-coalescing-120hz", ["os.delivery=perScan", "os.present=fifo"])
        let l = try #require(latest.measurements.pipelineFrames.percentile(50))
        let f = try #require(fifo.measurements.pipelineFrames.percentile(50))
        #expect(f >= l + 1, "fifo p50 \(f) vs latest \(l)")
    }

    @Test func aHandlerLongerThanAFrameDelaysDeliveryAndSamplesArriveCoalesced() throws {
        let slow = try runScenario("slow-app")
        let fast = try runScenario("ios9-low-latency")
        let s = slow.measurements, f = fast.measurements
        // fewer deliveries, each carrying the samples that waited
        #expect(s.deliveries < f.deliveries * 6 / 10, "slow \(s.deliveries), fast \(f.deliveries)")
        #expect(Double(s.samples) / Double(s.deliveries) > 1.9)
        #expect(abs(Double(f.samples) / Double(f.deliveries) - 1) < 0.01)
        #expect(s.repeatedFrames > 250)
        // older coalesced samples are drawn late: per-sample latency exceeds the main touch's
        #expect(s.perSampleMs.max > s.touchToPhotonMs.max)
    }

    @Test func animationsTurnLowLatencyOffOnlyWhileActive() throws {
        let r = try runScenario("ios9-low-latency", ["app.animations=2s..4s"], duration: "6s")
        let m = r.measurements.pipelineFrames
        #expect(abs(m.min - 3) < 1e-6 && abs(m.max - 4) < 1e-6)
        let expected: Double = (3.0 * 4 + 4.0 * 2) / 6
        let mean = try #require(m.mean)
        #expect(abs(mean - expected) < 0.02)
    }

    @Test func metalDirectIgnoresAnimationsAndSyncedMetalFollowsCoreAnimation() throws {
        #expect(allFrames(try runScenario("ios9-metal", ["app.animations=always"]).measurements.pipelineFrames) == 3)
        #expect(allFrames(try runScenario("ios9-metal-sync").measurements.pipelineFrames) == 3)
        #expect(allFrames(try runScenario("ios9-metal-sync", ["app.animations=always"]).measurements.pipelineFrames) == 4)
    }

    @Test func aGPUJobEndingExactlyAtAVsyncMakesThatVsync() throws {
        // 50 Hz: handler 4 + prepare 3 + GPU 13 ms = exactly one frame after the delivery
        let base = ["device.displayHz=50", "device.scanHz=50"]
        let exact = try runScenario("ios9-low-latency", base + ["gpu.render=13ms"])
        #expect(allFrames(exact.measurements.pipelineFrames) == 3)
        #expect(exact.measurements.repeatedFrames == 0)
        // one nanosecond later misses it: the frame waits for the next vsync
        let late = try runScenario("ios9-low-latency", base + ["gpu.render=13000001ns"])
        #expect(late.measurements.pipelineFrames.max == 4)
    }

    @Test func aCommitExactlyAtAVsyncSeesTheBufferTheLatchFreed() throws {
        // 50 Hz, 20 ms handler: commits land on vsyncs
        let r = try runScenario("ios9-low-latency", ["device.displayHz=50", "device.scanHz=50", "app.handler=20ms"])
        #expect(r.tripleBufferedFraction == 0)
    }

    @Test func twoCommitsPerHandlerRunStillGiveThreeFrames() throws {
        let r = try runScenario("ios9-low-latency", ["app.commits=2"])
        #expect(allFrames(r.measurements.pipelineFrames) == 3)
    }

    @Test func modelEventCountsFollowThePipeline() throws {
        let r = try runScenario("ios9-coalescing-120hz", duration: "60s")
        let k = Dictionary(uniqueKeysWithValues: r.eventsByKind.map { ($0.kind, $0.count) })
        #expect(r.eventsByKind.map(\.kind) == ["gpuDone", "prepareDone", "latch", "commit", "sampleReady", "renderServerWake", "delivery", "frameStart"])
        #expect(k["latch"] == 3600)
        #expect(k["renderServerWake"] == 3600)
        #expect(k["frameStart"] == 3600)
        #expect(k["delivery"] == 0) // per-scan deliveries only under os.delivery: perScan
        #expect(k["sampleReady"] == 7199)
        #expect(k["commit"] == r.measurements.handlerRuns)
        #expect(r.events == 28_796)
    }
}
