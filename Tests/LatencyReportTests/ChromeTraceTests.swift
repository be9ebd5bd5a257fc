import Foundation
import Testing
@testable import LatencyReport
@testable import LatsimOutput
import SimKernel

@Suite("Chrome trace")
struct ChromeTraceTests {
    static let T: SimTime = 16_666_667

    /// A touch's journey through the pipeline, as the simulator would log it.
    static func sampleTrace() -> ChromeTrace {
        var trace = ChromeTrace()
        let digitizer = trace.track(named: "Multi-Touch")
        let app = trace.track(named: "App (main thread)")
        let renderServer = trace.track(named: "Core Animation")
        let gpu = trace.track(named: "GPU")
        let display = trace.track(named: "Display")
        for k: SimTime in 0...4 { trace.instant(nil, name: "vsync", atNs: k * T) }
        trace.slice(digitizer, name: "scan", startNs: 0, durationNs: T, args: ["sample": 1, "x": 120.5])
        trace.slice(app, name: "touch handler", startNs: T, durationNs: 9_000_000,
                    args: ["phase": "moved", "coalesced": 1])
        trace.instant(app, name: "commit", atNs: T + 9_000_000)
        trace.slice(renderServer, name: "prepare", startNs: 2 * T, durationNs: 4_000_000)
        trace.slice(gpu, name: "render", startNs: 2 * T + 4_000_000, durationNs: 7_000_000, args: ["buffer": 0])
        trace.slice(display, name: "frame 0", startNs: 3 * T, durationNs: T)
        trace.counter("buffers", atNs: 0, values: ["allocated": 2, "in use": 1])
        trace.counter("buffers", atNs: 2 * T, values: ["allocated": 2, "in use": 2])
        trace.flow(id: 7, steps: [(digitizer, T / 2), (app, T + 1), (renderServer, 2 * T + 1),
                                  (gpu, 2 * T + 4_000_001), (display, 3 * T + 1)])
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
        #expect(names == ["Multi-Touch", "App (main thread)", "Core Animation", "GPU", "Display"])
        let sortIndices = events.filter { $0["name"] as? String == "thread_sort_index" }
            .compactMap { ($0["args"] as? [String: Any])?["sort_index"] as? Int }
        #expect(sortIndices == [0, 1, 2, 3, 4])
        let process = events.first { $0["name"] as? String == "process_name" }
        #expect((process?["args"] as? [String: Any])?["name"] as? String == "latsim")
    }

    @Test func slicesAreCompleteEventsInMicroseconds() throws {
        let events = try Self.events()
        let handler = try #require(events.first { $0["name"] as? String == "touch handler" })
        #expect(handler["ph"] as? String == "X")
        #expect(handler["ts"] as? Double == 16666.667)
        #expect(handler["dur"] as? Double == 9000)
        #expect(handler["tid"] as? Int == 2)
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

    @Test func flowEventsShareAnIdAndBindToEnclosingSlices() throws {
        let flows = try Self.events().filter { ["s", "t", "f"].contains($0["ph"] as? String ?? "") }
        #expect(flows.map { $0["ph"] as? String } == ["s", "t", "t", "t", "f"])
        #expect(Set(flows.compactMap { $0["id"] as? Int }) == [7])
        #expect(flows.allSatisfy { $0["bp"] as? String == "e" })
        #expect(flows.map { $0["tid"] as? Int } == [1, 2, 3, 4, 5])
        #expect(flows.first?["ts"] as? Double == 8333.333)
    }

    @Test func vsyncsAreGlobalInstantsAndCommitsThreadInstants() throws {
        let events = try Self.events()
        let vsyncs = events.filter { $0["name"] as? String == "vsync" }
        #expect(vsyncs.count == 5)
        #expect(vsyncs.allSatisfy { $0["ph"] as? String == "i" && $0["s"] as? String == "g" })
        let commit = events.first { $0["name"] as? String == "commit" }
        #expect(commit?["s"] as? String == "t")
        #expect(commit?["tid"] as? Int == 2)
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
