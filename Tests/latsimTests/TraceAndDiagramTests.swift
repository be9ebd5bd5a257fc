import Foundation
import Testing

@Suite struct TraceAndDiagramTests {
    static var gnuplotInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/gnuplot") }
    }

    @Test func traceIsChromeTraceEventJSONWithTracksFlowsAndMicroseconds() throws {
        let dir = try Latsim.temporaryDirectory()
        let file = dir.appendingPathComponent("ios8.json")
        let o = try Latsim.run(["run", "ios8", "--duration", "250ms", "--trace", file.path])
        #expect(o.status == 0, "\(o.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let events = try #require(doc["traceEvents"] as? [[String: Any]])
        let threadNames = events.filter { $0["ph"] as? String == "M" && $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        for track in ["Multi-Touch (digitizer)", "App main thread", "Core Animation render server", "GPU", "Display"] {
            #expect(threadNames.contains(track), "missing track \(track)")
        }
        // the first vsync after 0 is at 16,666,667 ns = 16666.667 us
        let vsyncs = events.filter { $0["name"] as? String == "vsync" }.compactMap { ($0["ts"] as? NSNumber)?.doubleValue }
        #expect(vsyncs.contains(16666.667))
        // ios8: the GPU slices last 4 ms = 4000 us
        let gpu = events.filter { ($0["name"] as? String)?.hasPrefix("render frame") == true }
        #expect(!gpu.isEmpty && gpu.allSatisfy { ($0["dur"] as? NSNumber)?.doubleValue == 4000 })
        // every measured frame has a flow from its scan to the display
        let starts = events.filter { $0["ph"] as? String == "s" }, finishes = events.filter { $0["ph"] as? String == "f" }
        #expect(starts.count >= 10 && starts.count == finishes.count)
        let steps = events.filter { ["s", "t", "f"].contains($0["ph"] as? String) && ($0["id"] as? NSNumber) == (starts[0]["id"] as? NSNumber) }
        #expect(steps.count == 5, "scan, handler, prepare, GPU, display")
        #expect(events.contains { $0["ph"] as? String == "C" && $0["name"] as? String == "display buffers" })
    }

    @Test(.enabled(if: TraceAndDiagramTests.gnuplotInstalled, "gnuplot is not installed (apt-get install gnuplot-nox)"))
    func diagramRendersPNGAndSVG() throws {
        let dir = try Latsim.temporaryDirectory()
        let o = try Latsim.run(["diagram", "ios8-complex", "--out", dir.path])
        #expect(o.status == 0, "\(o.stderr)")
        let png = try Data(contentsOf: dir.appendingPathComponent("diagram-ios8-complex.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000)
        let svg = try String(contentsOf: dir.appendingPathComponent("diagram-ios8-complex.svg"), encoding: .utf8)
        #expect(svg.contains("<svg"))
        let gp = try String(contentsOf: dir.appendingPathComponent("diagram-ios8-complex.gp"), encoding: .utf8)
        #expect(gp.contains("5 frames from scan to photon"))
        #expect(gp.contains("buffer C (third)"), "triple buffering shows a third buffer colour")
    }

    @Test func withoutGnuplotTheScriptAndDataAreWrittenWithAHint() throws {
        let dir = try Latsim.temporaryDirectory()
        let o = try Latsim.run(["diagram", "ios8", "--out", dir.path], environment: ["PATH": "/nonexistent"])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(o.stderr.contains("gnuplot not found"))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("diagram-ios8.gp").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("diagram-ios8.dat").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("diagram-ios8.png").path))
    }
}
