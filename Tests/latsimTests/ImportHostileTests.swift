import Foundation
import Testing
import Yams

/// `latsim import` on recordings a device or an adversary makes: HWUI's
/// sentinel timestamps, frames years apart or completed before their
/// vsync, names and file names that are no identifiers or hold line
/// breaks, `adb shell`'s CRLF line ends, a huge trace of empty packets.
/// Each is imported with what is usable (saying what was left out and
/// why) or refused as bad input: never a trap, never exit 3, never a
/// scenario that does not load or sets what the recording did not measure.
@Suite struct ImportHostileTests {
    /// The columns of an Android 12 framestats header (HWUI's FrameInfo
    /// order, as `dumpsys gfxinfo PACKAGE framestats` prints it).
    static let columns = ["Flags", "FrameTimelineVsyncId", "IntendedVsync", "Vsync", "InputEventId", "HandleInputStart", "AnimationStart",
                          "PerformTraversalsStart", "DrawStart", "FrameDeadline", "FrameStartTime", "FrameInterval", "SyncQueued", "SyncStart",
                          "IssueDrawCommandsStart", "SwapBuffers", "FrameCompleted", "DequeueBufferDuration", "QueueBufferDuration",
                          "GpuCompleted", "SwapBuffersCompleted", "DisplayPresentTime"]

    /// A normal frame `i` of a 60 Hz display from t = 1 s: input at +0.5 ms,
    /// the sync queued at +4 ms and started at +4.2 ms, the swap at +6 ms,
    /// the frame completed at +7 ms, the GPU done at +9 ms; so the handler
    /// is 3.5 ms, RenderThread 1.8 ms and the GPU 3 ms.
    static func frame(_ i: Int64, _ changes: [String: Int64] = [:]) -> [String: Int64] {
        let period: Int64 = 16_666_667, t = 1_000_000_000 + i * period
        var r: [String: Int64] = [
            "Flags": 0, "FrameTimelineVsyncId": 100 + i, "IntendedVsync": t, "Vsync": t, "InputEventId": 0,
            "HandleInputStart": t + 500_000, "AnimationStart": t + 1_000_000, "PerformTraversalsStart": t + 1_500_000,
            "DrawStart": t + 2_000_000, "FrameDeadline": t + period, "FrameStartTime": t, "FrameInterval": period,
            "SyncQueued": t + 4_000_000, "SyncStart": t + 4_200_000, "IssueDrawCommandsStart": t + 5_000_000,
            "SwapBuffers": t + 6_000_000, "FrameCompleted": t + 7_000_000, "DequeueBufferDuration": 100_000,
            "QueueBufferDuration": 200_000, "GpuCompleted": t + 9_000_000, "SwapBuffersCompleted": t + 6_500_000,
            "DisplayPresentTime": 0,
        ]
        for (k, v) in changes { r[k] = v }
        return r
    }

    /// A framestats dump of `rows` under `columns`, lines ended by `end`.
    static func dump(_ rows: [[String: Int64]], columns: [String] = columns, end: String = "\n") -> String {
        var lines = ["Applications Graphics Acceleration Info:", "", "** Graphics info for pid 4242 [com.example.app] **", "",
                     "---PROFILEDATA---", columns.joined(separator: ",") + ","]
        for r in rows { lines.append(columns.map { String(r[$0] ?? 0) }.joined(separator: ",") + ",") }
        lines += ["---PROFILEDATA---", ""]
        return lines.joined(separator: end)
    }

    /// Imports `text` (written as `name`); the output, the scenario's text
    /// (nil when none was written) and the folder.
    static func importing(_ text: String, name: String = "dump.txt", _ extra: [String] = []) throws -> (Latsim.Output, String?, URL) {
        let dir = try Latsim.temporaryDirectory()
        let input = dir.appendingPathComponent(name), out = dir.appendingPathComponent("out.yaml")
        try Data(text.utf8).write(to: input)
        let o = try Latsim.run(["import", input.path, "--out", out.path] + extra)
        return (o, try? String(contentsOf: out, encoding: .utf8), dir)
    }

    /// The values of an `empirical` list in the scenario, ns.
    static func values(_ yaml: String, _ field: String) -> [Int64] { ImportCommandTests.empirical(yaml, field) }

    /// A written scenario runs, and sets only the keys an import writes.
    static func expectSound(_ yaml: String, in dir: URL) throws {
        let doc = try #require(try Yams.load(yaml: yaml) as? [String: Any], "not a YAML mapping:\n\(yaml)")
        #expect(Set(doc.keys).isSubset(of: ["name", "description", "os", "device", "android", "app", "gpu"]), "\(doc.keys.sorted())")
        if let android = doc["android"] as? [String: Any] {
            #expect(Set(android.keys).isSubset(of: ["appDuration", "sfDuration", "renderThread", "sfCompose"]), "\(android.keys.sorted())")
        }
        let file = dir.appendingPathComponent("check.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let run = try Latsim.run(["run", file.path, "--duration", "300ms"])
        #expect(run.status == 0, "\(run.stderr)")
    }

    /// Frames more than 2^62 ns apart overflowed the period computation (exit 132).
    @Test func framesYearsApartAreRefusedNotATrap() throws {
        // no FrameInterval column: the period comes from IntendedVsync's spacing
        let columns = Self.columns.filter { $0 != "FrameInterval" && $0 != "FrameStartTime" }
        let far: Int64 = 5_000_000_000_000_000_000 // 5e18 ns, 158 years
        let rows = [Self.frame(0), Self.frame(0).mapValues { $0 > 1_000_000 ? $0 - 1_000_000_000 + far : $0 }]
        let (o, yaml, dir) = try Self.importing(Self.dump(rows, columns: columns))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.contains("Hz") && o.stderr.contains("expected") && o.stderr.contains("dump.txt"), "\(o.stderr)")
        #expect(yaml == nil)
    }

    /// A frame completed before its intended vsync crashed the duration
    /// formatting ("Negative count not allowed", exit 132); a smaller
    /// negative value wrote a garbled `0.0-15ms`.
    @Test func framesCompletedBeforeTheirVsyncAreLeftOut() throws {
        /// Frame `i` with every timestamp after its vsync moved earlier, in
        /// order, so that it completes `d` ns before its intended vsync.
        func early(_ i: Int64, completedBefore d: Int64) -> [String: Int64] {
            let f = Self.frame(i)
            let shift = f["FrameCompleted"]! - f["IntendedVsync"]! + d
            var r = f
            for k in ["HandleInputStart", "AnimationStart", "PerformTraversalsStart", "DrawStart", "SyncQueued", "SyncStart",
                      "IssueDrawCommandsStart", "SwapBuffers", "FrameCompleted", "GpuCompleted", "SwapBuffersCompleted"] { r[k] = f[k]! - shift }
            return r
        }
        // all of them: nothing usable
        var (o, yaml, dir) = try Self.importing(Self.dump((0..<6).map { early($0, completedBefore: 1_500_000) }))
        #expect(o.status == 2 && o.stderr.contains("dump.txt") && o.stderr.contains("expected"), "\(o.stderr)")
        #expect(yaml == nil)
        try? FileManager.default.removeItem(at: dir)
        // a few of them, 15 ns early: the others make the scenario, and the note says so
        (o, yaml, dir) = try Self.importing(Self.dump((0..<6).map { $0 < 4 ? early($0, completedBefore: 15) : Self.frame($0) }))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(o.status == 0, "\(o.stderr)")
        let text = try #require(yaml)
        #expect(text.contains("4 of 6 frames left out"), "\(text)")
        #expect(!text.contains("0-15ms"), "\(text)")
        #expect(Self.values(text, "handler") == [3_500_000, 3_500_000])
        try Self.expectSound(text, in: dir)
    }

    /// An emulator's dump: HWUI writes sentinel values in rows it could not
    /// time (FrameCompleted 0 or about 1.4e17, GpuCompleted about 7.2e16),
    /// which became `gpu.render = empirical(144106972101ms, ...)` and a
    /// scenario that did not load (exit 3); rows whose Flags mark them as
    /// no normal frame are left out too.
    @Test func sentinelTimestampsAndFlaggedFramesAreLeftOutWithANote() throws {
        var rows = (0..<20).map { Self.frame($0) }
        rows.append(Self.frame(20, ["FrameCompleted": 0, "GpuCompleted": 0]))
        rows.append(Self.frame(21, ["FrameCompleted": 144_115_188_075_855_872]))
        rows.append(Self.frame(22, ["GpuCompleted": 72_057_594_037_927_936]))
        rows.append(Self.frame(23, ["Flags": 1]))   // a window's visibility (first frame, layout) changed
        rows.append(Self.frame(24, ["Flags": 8]))   // a skipped frame
        let (o, yaml, dir) = try Self.importing(Self.dump(rows))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(o.status == 0, "\(o.stderr)")
        let text = try #require(yaml)
        // 2 flagged, 2 with impossible or missing timestamps; the row whose
        // GpuCompleted alone is a sentinel keeps its other stages
        #expect(text.contains("4 of 25 frames left out"), "\(text)")
        #expect(text.contains("2 with Flags not 0") && text.contains("2 with a missing, out-of-order or impossible timestamp"), "\(text)")
        #expect(text.contains("1 frame without a usable GpuCompleted"), "\(text)")
        #expect(Self.values(text, "handler") == Array(repeating: 3_500_000, count: 21))
        #expect(Self.values(text, "render") == Array(repeating: 3_000_000, count: 20))
        try Self.expectSound(text, in: dir)
    }

    /// Nothing usable left: bad input, nothing written.
    @Test func aDumpOfSentinelsAloneIsRefused() throws {
        let rows = (0..<5).map { Self.frame($0, ["FrameCompleted": 144_115_188_075_855_872 + $0]) }
        let (o, yaml, dir) = try Self.importing(Self.dump(rows))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.contains("dump.txt") && o.stderr.contains("5 frames") && o.stderr.contains("expected"), "\(o.stderr)")
        #expect(yaml == nil)
    }

    /// Values derived from the frames were not range-checked: a display
    /// rate of 1e9 Hz or 0.1 Hz, an app duration of 9e18 ns (HWUI's unknown
    /// deadline is Int64.max) made a scenario that did not load (exit 3).
    @Test func derivedValuesAreRangeChecked() throws {
        // FrameInterval of 1 ns (a 1e9 Hz display): the frames' own spacing is used
        var (o, yaml, dir) = try Self.importing(Self.dump((0..<10).map { Self.frame($0, ["FrameInterval": 1, "FrameStartTime": 1]) }))
        #expect(o.status == 0, "\(o.stderr)")
        if let text = yaml {
            #expect(ImportCommandTests.value(text, "displayHz").flatMap(Double.init).map { abs($0 - 60) < 0.01 } == true, "\(text)")
            try Self.expectSound(text, in: dir)
        }
        try? FileManager.default.removeItem(at: dir)
        // HWUI's unknown deadline: no app duration
        (o, yaml, dir) = try Self.importing(Self.dump((0..<10).map { Self.frame($0, ["FrameDeadline": Int64.max]) }))
        #expect(o.status == 0, "\(o.stderr)")
        if let text = yaml {
            #expect(ImportCommandTests.value(text, "appDuration") == nil, "\(text)")
            try Self.expectSound(text, in: dir)
        }
        try? FileManager.default.removeItem(at: dir)
        // frames 10 s apart and no interval column: a 0.1 Hz display is no display
        let columns = Self.columns.filter { $0 != "FrameInterval" && $0 != "FrameStartTime" }
        let slow = (0..<5).map { i in Self.frame(0).mapValues { $0 > 1_000_000 ? $0 + Int64(i) * 10_000_000_000 : $0 } }
        (o, yaml, dir) = try Self.importing(Self.dump(slow, columns: columns))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(o.status == 2 && o.stderr.contains("Hz") && o.stderr.contains("1 to 1000"), "\(o.stderr)")
        #expect(yaml == nil)
    }

    /// `--name` went into the YAML raw: `pixel #2` silently became `pixel`,
    /// `my app: v2` or a line break exited 3, `null` became YAML's null;
    /// the default from the file name made `dump (1).txt` unimportable.
    @Test func namesAreCheckedAndWrittenQuoted() throws {
        let good = Self.dump((0..<6).map { Self.frame($0) })
        for bad in ["pixel #2", "my app: v2", "a\nb", "", "-x", "x/../y"] {
            let (o, yaml, dir) = try Self.importing(good, ["--name=" + bad])
            #expect(o.status == 2, "'\(bad)': \(o.stderr)")
            // an empty value is the argument parser's to refuse ("Missing value for '--name <NAME>'")
            #expect(o.stderr.contains("--name") && (bad.isEmpty || o.stderr.contains("expected")), "\(o.stderr)")
            #expect(yaml == nil)
            try? FileManager.default.removeItem(at: dir)
        }
        var (o, yaml, dir) = try Self.importing(good, ["--name", "null"])
        #expect(o.status == 0, "\(o.stderr)")
        let named = try #require(yaml)
        #expect((try Yams.load(yaml: named) as? [String: Any])?["name"] as? String == "null", "\(named)")
        try Self.expectSound(named, in: dir)
        try? FileManager.default.removeItem(at: dir)

        (o, yaml, dir) = try Self.importing(good, name: "dump (1).txt")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(o.status == 0, "\(o.stderr)")
        let derived = try #require(yaml)
        #expect((try Yams.load(yaml: derived) as? [String: Any])?["name"] as? String == "dump-1", "\(derived)")
        try Self.expectSound(derived, in: dir)
    }

    /// The input's file name went into a YAML comment unescaped: a line
    /// break in it starts a line of settings.
    @Test func aFileNameCannotInjectSettings() throws {
        let (o, yaml, dir) = try Self.importing(Self.dump((0..<6).map { Self.frame($0) }), name: "x\nandroid.buffers: 2\n#.txt")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(o.status == 0, "\(o.stderr)")
        let text = try #require(yaml)
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("android.buffers") }, "\(text)")
        try Self.expectSound(text, in: dir)
    }

    /// `adb shell` ends lines with CRLF (and with `\r\r\n` through some
    /// terminals): such a dump "held no ---PROFILEDATA--- block".
    @Test(arguments: ["\r\n", "\r\r\n"])
    func crlfLineEndsReadAsLineEnds(end: String) throws {
        let lf = try String(contentsOf: Latsim.packageRoot.appendingPathComponent("Examples/traces/framestats-120hz.txt"), encoding: .utf8)
        let converted = lf.replacingOccurrences(of: "\n", with: end)
        let (a, yamlA, dirA) = try Self.importing(lf, ["--name", "device"])
        let (b, yamlB, dirB) = try Self.importing(converted, ["--name", "device"])
        defer { try? FileManager.default.removeItem(at: dirA); try? FileManager.default.removeItem(at: dirB) }
        #expect(a.status == 0 && b.status == 0, "\(b.stderr)")
        #expect(yamlB != nil && yamlA == yamlB)
    }

    /// A 20 MB trace of empty packets took 5.4 GB of memory (decoded as one
    /// message); under a 600 MB address-space limit, set in the child
    /// process by the shell's `ulimit -v` (setrlimit RLIMIT_AS), import
    /// aborted (exit 134). Read packet by packet it is refused as the empty
    /// trace it is, within the limit.
    @Test func aLargeTraceOfEmptyPacketsStaysWithinBoundedMemory() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let trace = dir.appendingPathComponent("empty.perfetto-trace")
        // 10 million packets, each field 1 of the Trace with length 0
        try Data([UInt8](repeating: 0, count: 20_000_000).enumerated().map { $0.offset % 2 == 0 ? 0x0A : 0x00 }).write(to: trace)
        // Swift's crash reporter off: under the same limit it could hang
        // holding a child that aborted (TraceMemoryTests.fits)
        let o = try Self.shell("export SWIFT_BACKTRACE=enable=no && ulimit -v 600000 && exec \"$0\" import \"$1\" --out \"$2\"",
                               [Latsim.binary.path, trace.path, dir.appendingPathComponent("out.yaml").path])
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.contains("neither FrameTimeline packets, the app's frame slices nor dispatched input events"), "\(o.stderr)")
    }

    /// Runs `script` with /bin/sh and `arguments` as $0, $1, ...
    static func shell(_ script: String, _ arguments: [String]) throws -> Latsim.Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script] + arguments
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-sh-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out) }
        let handle = try FileHandle(forWritingTo: out)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = handle
        try p.run()
        p.waitUntilExit()
        try handle.close()
        return Latsim.Output(status: p.terminationStatus, stdout: "", stderr: try String(contentsOf: out, encoding: .utf8))
    }
}
