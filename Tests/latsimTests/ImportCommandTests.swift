import Foundation
import Testing

/// `latsim import`: a public framestats dump and latsim's own traces made
/// into scenarios that run, the round trip giving back the simulated
/// durations, and bad input refused with nothing written.
@Suite struct ImportCommandTests {
    /// The shipped example traces (the framestats dump lives there).
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/traces")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import")

    /// The `key: {empirical: [...]}` values of a scenario, in ns.
    static func empirical(_ yaml: String, _ field: String) -> [Int64] {
        guard let line = yaml.split(separator: "\n").first(where: { $0.hasPrefix("  \(field): {empirical: [") }) else { return [] }
        let inner = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
        return inner.split(separator: ",").map { v in
            let ms = v.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "ms", with: "")
            let parts = ms.split(separator: ".")
            let frac = parts.count > 1 ? String(parts[1]).padding(toLength: 6, withPad: "0", startingAt: 0) : "0"
            return Int64(parts[0])! * 1_000_000 + Int64(frac)!
        }
    }

    static func value(_ yaml: String, _ field: String) -> String? {
        yaml.split(separator: "\n").first { $0.hasPrefix("  \(field): ") }.map { String($0.dropFirst(field.count + 4)) }
    }

    /// The dump's own rows, read here independently: the stage durations
    /// the scenario must hold are SyncQueued - HandleInputStart,
    /// SwapBuffers - SyncStart and GpuCompleted - SwapBuffers of every row
    /// with Flags 0.
    @Test func aPublicFramestatsDumpBecomesAScenarioThatRuns() throws {
        let dump = Self.examples.appendingPathComponent("framestats-120hz.txt")
        let text = try String(contentsOf: dump, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let h = try #require(lines.firstIndex { $0.hasPrefix("Flags,") })
        let names = lines[h].split(separator: ",").map(String.init)
        let rows = lines[(h + 1)...].prefix { !$0.hasPrefix("---") }.map { $0.split(separator: ",").map { Int64($0)! } }
        func col(_ r: [Int64], _ n: String) -> Int64 { r[names.firstIndex(of: n)!] }
        let valid = rows.filter { col($0, "Flags") == 0 }
        #expect(valid.count == 34)

        let dir = try Latsim.temporaryDirectory()
        let out = dir.appendingPathComponent("device.yaml")
        let o = try Latsim.run(["import", dump.path, "--out", out.path])
        #expect(o.status == 0, "\(o.stderr)")
        let yaml = try String(contentsOf: out, encoding: .utf8)
        #expect(Self.empirical(yaml, "handler") == valid.map { col($0, "SyncQueued") - col($0, "HandleInputStart") })
        #expect(Self.empirical(yaml, "renderThread") == valid.map { col($0, "SwapBuffers") - col($0, "SyncStart") })
        #expect(Self.empirical(yaml, "render") == valid.map { col($0, "GpuCompleted") - col($0, "SwapBuffers") })
        // the interval sits under the FrameStartTime header on this Android version
        let intervals = valid.map { col($0, "FrameStartTime") }.sorted()
        let hz = 1e9 / Double(intervals[intervals.count / 2])
        #expect(Self.value(yaml, "displayHz").flatMap(Double.init).map { abs($0 - hz) < 0.001 } == true)
        #expect(yaml.contains("# median FrameDeadline - IntendedVsync"))
        #expect(yaml.contains("platform: android"))

        let run = try Latsim.run(["run", out.path, "--duration", "2s"])
        #expect(run.status == 0, "\(run.stderr)")
        let compare = try Latsim.run(["compare", "android-default", out.path, "--seeds", "2", "--duration", "1s"])
        #expect(compare.status == 0, "\(compare.stderr)")
    }

    /// latsim's own native trace back in: D_app, D_sf, the rate and the
    /// dispatch latency (from the touches' input events) are the
    /// configuration's, and each stage holds exactly the durations of the
    /// trace's slices, drawn from the distributions that were set.
    @Test func theRoundTripGivesBackTheSimulatedDurations() throws {
        let dir = try Latsim.temporaryDirectory()
        let trace = dir.appendingPathComponent("run.perfetto-trace"), json = dir.appendingPathComponent("run.json")
        let sets = ["--set", "app.handler=uniform(3ms,6ms)", "--set", "gpu.render=uniform(2ms,5ms)", "--set", "android.renderThread=2.5ms",
                    "--set", "android.dispatchLatency=3.25ms"]
        let first = try Latsim.run(["run", "android-default", "--duration", "2s", "--trace", trace.path, "--json", "-", "--stable"] + sets)
        #expect(first.status == 0, "\(first.stderr)")
        let counts = try #require((try Latsim.onlyRun(first.stdout)["display"] as? [String: Any])?["frameTimeline"] as? [String: Int])
        #expect(try Latsim.run(["run", "android-default", "--duration", "2s", "--trace", json.path] + sets).status == 0)
        let out = dir.appendingPathComponent("back.yaml")
        let o = try Latsim.run(["import", trace.path, "--out", out.path])
        #expect(o.status == 0, "\(o.stderr)")
        let yaml = try String(contentsOf: out, encoding: .utf8)
        // the device's own classes, as the trace's FrameTimeline has them, equal the run's
        let total = counts.values.reduce(0, +)
        let classes = counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }
        let measured = try #require(yaml.split(separator: "\n").first { $0.hasPrefix("# Measured: ") && $0.contains("in FrameTimeline") })
        #expect(measured.contains("# Measured: \(total) frames of "), "\(measured)")
        for (name, n) in classes { #expect(measured.contains("\(name) \(n)"), "\(measured) vs \(counts)") }
        #expect(Self.value(yaml, "displayHz") == "60")
        #expect(Self.value(yaml, "appDuration") == "16.666667ms", "auto: T")
        #expect(Self.value(yaml, "sfDuration") == "15.666667ms", "auto: T - 1 ms")
        #expect(Self.value(yaml, "dispatchLatency") == "3.25ms", "every touch's dispatch is 3.25 ms after its event time")
        #expect(o.stderr.contains("import: android.dispatchLatency: median event time to first window dispatch of "), "\(o.stderr)")

        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let events = try #require(doc["traceEvents"] as? [[String: Any]])
        func durations(_ prefix: String) -> [Int64] {
            events.filter { $0["ph"] as? String == "X" && ($0["name"] as? String)?.hasPrefix(prefix) == true }
                .map { Int64((((($0["dur"] as? NSNumber)?.doubleValue) ?? -1) * 1000).rounded()) }
        }
        let handler = Self.empirical(yaml, "handler"), gpu = Self.empirical(yaml, "render")
        #expect(!handler.isEmpty && handler.sorted() == durations("Choreographer#doFrame ").sorted())
        #expect(handler.allSatisfy { (3_000_000...6_000_000).contains($0) })
        #expect(!gpu.isEmpty && gpu.sorted() == durations("GPU frame").sorted())
        #expect(gpu.allSatisfy { (2_000_000...5_000_000).contains($0) })
        #expect(Set(Self.empirical(yaml, "renderThread")) == [2_500_000])
        #expect(Set(Self.empirical(yaml, "sfCompose")) == [1_000_000])
        #expect(try Latsim.run(["run", out.path, "--duration", "1s"]).status == 0)
    }

    @Test(arguments: [
        ("garbage.bin", Data([0xFF, 0xFF, 0xFF, 0x07, 0x01])),
        ("empty.txt", Data()),
        ("no-block.txt", Data("Total frames rendered: 3\nIntendedVsync\n".utf8)),
        ("no-column.txt", Data("---PROFILEDATA---\nFlags,IntendedVsync,Vsync,\n0,1,2,\n---PROFILEDATA---\n".utf8)),
        ("short-row.txt", Data("---PROFILEDATA---\nFlags,IntendedVsync,HandleInputStart,SyncQueued,SyncStart,SwapBuffers,FrameCompleted,\n0,1,2,3,\n---PROFILEDATA---\n".utf8)),
    ])
    func badInputIsRefusedAndNothingIsWritten(name: String, data: Data) throws {
        let dir = try Latsim.temporaryDirectory()
        let input = dir.appendingPathComponent(name), out = dir.appendingPathComponent("out.yaml")
        try data.write(to: input)
        let o = try Latsim.run(["import", input.path, "--out", out.path])
        #expect(o.status == 2, "\(name): \(o.stderr)")
        #expect(o.stderr.contains(name) && o.stderr.contains("expected"), "\(o.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        if name == "short-row.txt" { #expect(o.stderr.contains(":3:"), "names the line: \(o.stderr)") }
    }

    /// Perfetto's own input-event test trace, recorded on a device: its six
    /// motion events' dispatch latencies (InputEventTraceTests derives them)
    /// have the median 4.812257 ms; it has no frames, so every other key is
    /// listed as not in the recording, and the scenario runs.
    @Test func perfettosInputEventTraceGivesADispatchLatency() throws {
        let dir = try Latsim.temporaryDirectory()
        let out = dir.appendingPathComponent("input.yaml")
        let o = try Latsim.run(["import", Self.fixtures.appendingPathComponent("input_event_trace.perfetto-trace").path, "--out", out.path])
        #expect(o.status == 0, "\(o.stderr)")
        let yaml = try String(contentsOf: out, encoding: .utf8)
        #expect(Self.value(yaml, "dispatchLatency") == "4.812257ms", "\(yaml)")
        #expect(yaml.contains("# Note: android.dispatchLatency 4.812257ms from the trace's input events (6 motion events and 30 window dispatches)"), "\(yaml)")
        #expect(try Latsim.run(["run", out.path, "--duration", "1s"]).status == 0)
    }

    @Test func perfettosOwnTestTraceIsRefusedForItsNanosecondClock() throws {
        // the vector's timestamps are a few ns apart: no display rate a device has
        let o = try Latsim.run(["import", Self.fixtures.appendingPathComponent("frame_timeline_events.perfetto-trace").path])
        #expect(o.status == 2 && o.stderr.contains("24 ns apart"), "\(o.stderr)")
    }
}
