import Foundation
import Testing

@Suite struct TraceAndDiagramTests {
    static var gnuplotInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/gnuplot") }
    }

    /// A trace long enough to need temporary files, with no directory for
    /// them: exit 3 naming it, in either format, and the file that was
    /// there is as it was (no half-written trace).
    @Test(arguments: ["t.json", "t.perfetto-trace"])
    func aTraceWithoutRoomForItsTemporaryFilesFailsCleanly(file: String) throws {
        let dir = try Latsim.temporaryDirectory()
        let out = dir.appendingPathComponent(file)
        try Data("old".utf8).write(to: out)
        var env = ProcessInfo.processInfo.environment
        env["TMPDIR"] = dir.appendingPathComponent("missing").path
        let o = try Latsim.run(["run", "android-default", "--duration", "200s", "--trace", out.path], environment: env)
        #expect(o.status == 3, "\(o.stderr)")
        #expect(o.stderr.contains("missing") && o.stderr.contains("temporary file"), "\(o.stderr)")
        #expect(try Data(contentsOf: out) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [file])
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
        // every measured frame has a flow carried by its slices, from its scan to the display
        let chains = Self.flowChains(events)
        #expect(chains.count >= 10)
        for chain in chains.values {
            let names = chain.compactMap { $0["name"] as? String }
            #expect(names.count == 5, "scan, handler, prepare, GPU, display: \(names)")
            #expect(names.first?.hasPrefix("scan ") == true && names[1] == "touch handler" && names[2].hasPrefix("prepare frame")
                    && names[3].hasPrefix("render frame") && names.last?.hasSuffix("on screen") == true, "\(names)")
        }
        #expect(!events.contains { ["s", "t", "f"].contains($0["ph"] as? String ?? "") })
        #expect(events.contains { $0["ph"] as? String == "C" && $0["name"] as? String == "display buffers" })
    }

    /// An Android trace has Perfetto's thread tracks and FrameTimeline's two
    /// timelines; every actual slice carries its jank type, as many of each
    /// as the run's FrameTimeline counts.
    @Test func androidTraceHasThreadTracksAndFrameTimelines() throws {
        let dir = try Latsim.temporaryDirectory()
        let file = dir.appendingPathComponent("slow.json")
        let o = try Latsim.run(["run", "android-slow-app", "--duration", "1s", "--trace", file.path, "--json", "-", "--stable"])
        #expect(o.status == 0, "\(o.stderr)")
        let summary = try Latsim.onlyRun(o.stdout)
        let counts = try #require((summary["display"] as? [String: Any])?["frameTimeline"] as? [String: Int])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let events = try #require(doc["traceEvents"] as? [[String: Any]])
        var names: [Int: String] = [:]
        for e in events where e["ph"] as? String == "M" && e["name"] as? String == "thread_name" {
            names[e["tid"] as? Int ?? 0] = (e["args"] as? [String: Any])?["name"] as? String
        }
        for track in ["vsync", "UI thread", "HWUI render thread", "GPU", "SurfaceFlinger", "Display", "Expected Timeline", "Actual Timeline"] {
            #expect(names.values.contains(track), "missing track \(track)")
        }
        let actual = events.filter { ($0["ph"] as? String) == "X" && (names[$0["tid"] as? Int ?? 0] ?? "").hasPrefix("Actual Timeline") }
        let janks = actual.compactMap { ($0["args"] as? [String: Any])?["Jank type"] as? String }
        #expect(janks.count == actual.count && !actual.isEmpty)
        #expect(janks.filter { $0 == "Buffer Stuffing" }.count == counts["bufferStuffing"])
        #expect(janks.filter { $0 == "App Deadline Missed" }.count == counts["appDeadlineMissed"])
        #expect(events.contains { $0["name"] as? String == "vsync-app" } && events.contains { $0["name"] as? String == "vsync-sf" })
        // tids follow the lanes from the pid on, so Perfetto shows them in this order
        let order = names.keys.sorted().map { names[$0]! }
        #expect(Array(order.prefix(7)) == ["vsync", "Input (digitizer, InputReader, InputDispatcher)", "UI thread", "HWUI render thread",
                                           "GPU", "SurfaceFlinger", "Display"])
        #expect(!names.keys.contains(events.first { $0["name"] as? String == "process_name" }?["pid"] as? Int ?? -1))
        // a flow per measured frame through the six threads, on the slices of its frame
        let chains = Self.flowChains(events)
        #expect(!chains.isEmpty)
        for chain in chains.values {
            let names = chain.compactMap { $0["name"] as? String }
            #expect(names.count == 6 && names[0].hasPrefix("scan ") && names[1].hasPrefix("Choreographer#doFrame ")
                    && names[2].hasPrefix("DrawFrame ") && names[3].hasPrefix("GPU frame ") && names[4].hasPrefix("latch and composite")
                    && names[5].hasSuffix("on screen"), "\(names)")
            let frame = names[1].split(separator: " ").last.map(String.init)
            #expect(names[2].hasSuffix(" \(frame ?? "?")") && names[5] == "frame \(frame ?? "?") on screen", "\(names)")
        }
        #expect(events.contains { $0["ph"] as? String == "C" && $0["name"] as? String == "BufferQueue" })
    }

    /// The slices of each flow (version 2: `bind_id` on the slices), in time order.
    static func flowChains(_ events: [[String: Any]]) -> [Int: [[String: Any]]] {
        var chains: [Int: [[String: Any]]] = [:]
        for e in events { if let id = e["bind_id"] as? Int { chains[id, default: []].append(e) } }
        return chains.mapValues { $0.sorted { (($0["ts"] as? NSNumber)?.doubleValue ?? 0) < (($1["ts"] as? NSNumber)?.doubleValue ?? 0) } }
    }

    @Test(.enabled(if: TraceAndDiagramTests.gnuplotInstalled, "gnuplot is not installed (apt-get install gnuplot-nox)"))
    func androidDiagramDrawsAndroidLanesAndTicks() throws {
        let dir = try Latsim.temporaryDirectory()
        let o = try Latsim.run(["diagram", "android-default", "--out", dir.path])
        #expect(o.status == 0, "\(o.stderr)")
        let gp = try String(contentsOf: dir.appendingPathComponent("diagram-android-default.gp"), encoding: .utf8)
        for lane in ["Input", "UI thread", "RenderThread", "GPU", "SurfaceFlinger", "Display", "vsync-app", "vsync-sf", "resampled point"] {
            #expect(gp.contains(lane), "\(lane)")
        }
        #expect(gp.contains("5 frames, 58.667 ms from scan to photon") && gp.contains("extrapolated 8 ms past the sample"))
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
