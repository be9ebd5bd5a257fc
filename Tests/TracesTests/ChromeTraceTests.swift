import Foundation
@testable import LatsimOutput
import SimKernel
import LatsimTestSupport
import Testing
@testable import Traces

@Suite("Chrome trace")
struct ChromeTraceTests {
    static let T: SimTime = 16_666_667

    /// A touch's journey through the pipeline, as the simulator would log
    /// it, with an instant at the handler's start (the case a version-1
    /// flow step would bind to).
    static func sampleTrace() -> ChromeTrace {
        var trace = ChromeTrace()
        let vsync = trace.track(named: "vsync")
        let digitizer = trace.track(named: "Multi-Touch")
        let app = trace.track(named: "App (main thread)")
        let renderServer = trace.track(named: "Core Animation")
        let gpu = trace.track(named: "GPU")
        let display = trace.track(named: "Display")
        for k: SimTime in 0...4 { trace.instant(vsync, name: "vsync", atNs: k * T) }
        let scan = trace.slice(digitizer, name: "scan", startNs: 0, durationNs: T, args: ["sample": 1, "x": 120.5])
        trace.instant(app, name: "deliver touch", atNs: T)
        let handler = trace.slice(app, name: "touch handler", startNs: T, durationNs: 9_000_000,
                                  args: ["phase": "moved", "coalesced": 1])
        trace.instant(app, name: "commit", atNs: T + 9_000_000)
        let prepare = trace.slice(renderServer, name: "prepare", startNs: 2 * T, durationNs: 4_000_000)
        let render = trace.slice(gpu, name: "render", startNs: 2 * T + 4_000_000, durationNs: 7_000_000, args: ["buffer": 0])
        let frame = trace.slice(display, name: "frame 0", startNs: 3 * T, durationNs: T)
        trace.counter("buffers", atNs: 0, values: ["allocated": 2, "in use": 1])
        trace.counter("buffers", atNs: 2 * T, values: ["allocated": 2, "in use": 2])
        trace.flow(id: 7, through: [scan, handler, prepare, render, frame])
        return trace
    }

    static func events() throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: sampleTrace().json()) as? [String: Any]
        #expect(object?["displayTimeUnit"] as? String == "ms")
        return try #require(object?["traceEvents"] as? [[String: Any]])
    }

    @Test func parsesAndNamesEveryTrackWithSortOrder() throws {
        let events = try Self.events()
        let names = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(names == ["vsync", "Multi-Touch", "App (main thread)", "Core Animation", "GPU", "Display"])
        let sortIndices = events.filter { $0["name"] as? String == "thread_sort_index" }
            .compactMap { ($0["args"] as? [String: Any])?["sort_index"] as? Int }
        #expect(sortIndices == [0, 1, 2, 3, 4, 5])
        let process = events.first { $0["name"] as? String == "process_name" }
        #expect((process?["args"] as? [String: Any])?["name"] as? String == "latsim")
    }

    @Test func slicesAreCompleteEventsInMicroseconds() throws {
        let events = try Self.events()
        let handler = try #require(events.first { $0["name"] as? String == "touch handler" })
        #expect(handler["ph"] as? String == "X")
        #expect(handler["ts"] as? Double == 16666.667)
        #expect(handler["dur"] as? Double == 9000)
        #expect(handler["tid"] as? Int == 4)
        let args = try #require(handler["args"] as? [String: Any])
        #expect(args["phase"] as? String == "moved")
        #expect(args["coalesced"] as? Int == 1)
        let text = String(decoding: Self.sampleTrace().json(), as: UTF8.self)
        #expect(text.contains("\"ts\":16666.667,\"dur\":9000,"))
    }

    @Test func microsecondsAreExactDecimals() {
        #expect(JSONText.microseconds(16_666_667) == "16666.667")
        #expect(JSONText.microseconds(33_333_334) == "33333.334")
        #expect(JSONText.microseconds(1_000) == "1")
        #expect(JSONText.microseconds(1_500) == "1.5")
        #expect(JSONText.microseconds(1_050) == "1.05")
        #expect(JSONText.microseconds(7) == "0.007")
        #expect(JSONText.microseconds(-2_500) == "-2.5")
        #expect(JSONText.microseconds(0) == "0")
    }

    /// Flows are version 2: the slices carry them, so no flow event stands
    /// apart and no instant can take a step.
    @Test func flowsAreCarriedByTheSlicesThemselves() throws {
        let events = try Self.events()
        #expect(!events.contains { ["s", "t", "f"].contains($0["ph"] as? String ?? "") })
        let bound = events.filter { $0["bind_id"] != nil }
        #expect(bound.map { $0["name"] as? String } == ["scan", "touch handler", "prepare", "render", "frame 0"])
        #expect(bound.allSatisfy { $0["ph"] as? String == "X" && $0["bind_id"] as? Int == 7 })
        #expect(bound.map { $0["flow_out"] as? Bool ?? false } == [true, true, true, true, false])
        #expect(bound.map { $0["flow_in"] as? Bool ?? false } == [false, true, true, true, true])
        #expect(!events.contains { $0["ph"] as? String == "i" && $0["bind_id"] != nil })
    }

    @Test func aSliceCarriesOneFlowAndAFlowNeedsTwoSlices() {
        var trace = ChromeTrace()
        let a = trace.track(named: "a"), b = trace.track(named: "b")
        let x = trace.slice(a, name: "x", startNs: 0, durationNs: 10)
        let y = trace.slice(b, name: "y", startNs: 5, durationNs: 10)
        let z = trace.slice(b, name: "z", startNs: 20, durationNs: 10)
        let one = trace.flow(id: 1, through: [x]), twice = trace.flow(id: 1, through: [x, x])
        let added = trace.flow(id: 1, through: [x, y]), again = trace.flow(id: 2, through: [y, z])
        #expect(!one && !twice && added)
        #expect(!again, "y already carries flow 1")
        let text = String(decoding: trace.json(), as: UTF8.self)
        #expect(text.components(separatedBy: "\"bind_id\"").count - 1 == 2)
    }

    /// Perfetto's UI orders a process's threads main thread first, then
    /// `*RenderThread*` and a few named threads, then by tid: with tids from
    /// pid + 1 and no such name, it keeps the order the tracks were added.
    @Test func tidsStartAfterThePidAndNoNameIsPromoted() throws {
        let events = try Self.events()
        let tids = events.filter { $0["name"] as? String == "thread_name" }.compactMap { $0["tid"] as? Int }
        #expect(tids == [2, 3, 4, 5, 6, 7])
        #expect(!tids.contains(1), "no track is the process's main thread")
        #expect(ChromeTrace.perfettoPromotes("RenderThread") && ChromeTrace.perfettoPromotes("hwuiRenderThread"))
        #expect(ChromeTrace.perfettoPromotes("CrRendererMain") && ChromeTrace.perfettoPromotes("GPU completion 1"))
        #expect(!ChromeTrace.perfettoPromotes("HWUI render thread") && !ChromeTrace.perfettoPromotes("GPU"))
        var other = ChromeTrace(processName: "p", pid: 40)
        let first = other.track(named: "first")
        #expect(first.tid == 41)
    }

    @Test func vsyncsAreInstantsOnANamedTrack() throws {
        let events = try Self.events()
        let vsyncs = events.filter { $0["name"] as? String == "vsync" && $0["ph"] as? String == "i" }
        #expect(vsyncs.count == 5)
        #expect(vsyncs.allSatisfy { $0["s"] as? String == "t" && $0["tid"] as? Int == 2 })
        let commit = events.first { $0["name"] as? String == "commit" }
        #expect(commit?["s"] as? String == "t")
        #expect(commit?["tid"] as? Int == 4)
    }

    @Test func countersCarryOneSeriesPerKey() throws {
        let counters = try Self.events().filter { $0["ph"] as? String == "C" }
        #expect(counters.count == 2)
        let args = try #require(counters.last?["args"] as? [String: Any])
        #expect(args["in use"] as? Int == 2)
        #expect(args["allocated"] as? Int == 2)
    }

    @Test func twoBuildsOfTheSameDataAreByteIdentical() {
        #expect(Self.sampleTrace().json() == Self.sampleTrace().json())
    }

    @Test func stringsAreEscaped() throws {
        var trace = ChromeTrace()
        let t = trace.track(named: "a \"quoted\"\ttrack\\")
        trace.slice(t, name: "line\nbreak \u{1}", startNs: 0, durationNs: 1, args: ["k": "ü"])
        let object = try JSONSerialization.jsonObject(with: trace.json()) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        #expect(events.contains { $0["name"] as? String == "line\nbreak \u{1}" })
    }

    @Test func writesAtomically() throws {
        let dir = try makeTemporaryDirectory("trace")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("run.trace.json")
        try Self.sampleTrace().write(to: url)
        #expect(try Data(contentsOf: url) == Self.sampleTrace().json())
        #expect(try entries(dir) == ["run.trace.json"])
    }
}
