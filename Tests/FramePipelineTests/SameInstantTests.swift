import FramePipeline
import Testing

/// Events at one instant happen in tie order (Docs/Model.md, "Time") also
/// where the engine handles one within another (Docs/Engine.md, "Events
/// handled within another"): the render server's wake and the frame start
/// within the latch at their vsync, the scans when their touches are
/// needed. A 100 Hz display and scan make every period exactly 10 ms, so a
/// 10 ms handler started at a frame start commits exactly at the next vsync;
/// the render server starts only at its vsync wake (`os.renderServer:
/// vsync`), so whether a commit is before or after the wake shows.
@Suite struct SameInstantTests {
    func touchToPhoton(handler: String) throws -> Double? {
        let r = try runScenario("ios9-coalescing-120hz",
                                ["device.displayHz=100", "device.scanHz=100", "os.renderServer=vsync",
                                 "app.handler=\(handler)"], duration: "5s")
        return allFrames(r.measurements.touchToPhotonMs)
    }

    /// A commit at the vsync (rank 4) reaches the render server before its
    /// wake (rank 6) at that vsync: the frame is rendered then, as for a
    /// commit a nanosecond earlier; a nanosecond later it waits a frame.
    @Test func aCommitAtTheVsyncIsRenderedAtThatVsync() throws {
        let early = try #require(try touchToPhoton(handler: "9.999999ms"))
        let atVsync = try #require(try touchToPhoton(handler: "10ms"))
        let late = try #require(try touchToPhoton(handler: "10.000001ms"))
        #expect(atVsync == early)
        #expect(late == atVsync + 10)
    }

    /// The event counts of a run are those of every event handled as its
    /// own: a wake and a frame start per vsync, a scan per window.
    @Test func eventsHandledWithinOthersAreCounted() throws {
        let r = try runScenario("ios9-coalescing-120hz", ["device.displayHz=100", "device.scanHz=100"], duration: "5s")
        let counts = Dictionary(uniqueKeysWithValues: r.eventsByKind)
        // vsyncs at 0, 10, ..., 4990 ms: 500; windows end at 10k ms and,
        // with no digitizer delay, are ready then (at a vsync, between the
        // latch and the frame start): k = 1...499 before the end at 5 s
        #expect(counts["latch"] == 500)
        #expect(counts["renderServerWake"] == 500)
        #expect(counts["frameStart"] == 500)
        #expect(counts["sampleReady"] == 499)
    }
}
