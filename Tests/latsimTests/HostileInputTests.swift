import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line against what a user or a file hands it: one short
/// message, the right exit status, nothing destroyed, nothing written
/// outside the asked folder, nothing half-written, no trap.
@Suite struct HostileInputTests {
    static let sweep = ["ios8", "--vary", "gpu.render=2ms,4ms,6ms", "--duration", "200ms"]

    /// Runs latsim with its standard output or error sent to `device`.
    static func run(_ args: [String], stdout: String? = nil, stderr: String? = nil, in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> (status: Int32, stderr: String) {
        let p = Process()
        p.executableURL = Latsim.binary
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        if let environment { p.environment = environment }
        let err = Pipe()
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = try stdout.map { try #require(FileHandle(forWritingAtPath: $0)) } ?? FileHandle.nullDevice
        p.standardError = try stderr.map { try #require(FileHandle(forWritingAtPath: $0)) } ?? err
        try p.run()
        let text = stderr == nil ? String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) : ""
        p.waitUntilExit()
        return (p.terminationStatus, text)
    }

    @Test(arguments: ["-1", "0", "abc", "nan", "inf", "1e400", "0x10"])
    func aBadMaxEventsIsBadInput(_ value: String) throws {
        let o = try Latsim.run(["run", "ios8", "--max-events", value])
        #expect(o.status == 2 && o.stderr.contains("--max-events") && !o.stderr.contains("Error: "), "\(value): \(o.stderr)")
    }

    /// `name: "x/../../victim"` once made `run A B --trace out/t.json`
    /// replace ./victim.json outside out/; a '/' trapped `diagram`.
    @Test func aScenarioNameCannotLeadAnOutputOutOfItsFolder() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "name: \"x/../../victim\"\n".write(to: dir.appendingPathComponent("s.yaml"), atomically: false, encoding: .utf8)
        try "keep".write(to: dir.appendingPathComponent("victim.json"), atomically: false, encoding: .utf8)
        let o = try Latsim.run(["run", "ios8", "s.yaml", "--duration", "200ms", "--trace", "out/t.json"], in: dir)
        #expect(o.status == 2 && o.stderr.contains("s.yaml:1") && o.stderr.contains("name"), "\(o.stderr)")
        let d = try Latsim.run(["diagram", "s.yaml", "--out", "charts"], in: dir, environment: ["PATH": "/usr/bin:/bin"])
        #expect(d.status == 2, "\(d.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["s.yaml", "victim.json"])
        #expect(try String(contentsOf: dir.appendingPathComponent("victim.json"), encoding: .utf8) == "keep")
    }

    /// An output equal to one of the command's inputs was accepted and the
    /// input replaced, exit 0.
    @Test func anOutputThatIsAnInputIsRefused() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scenario = "name: mine\ndevice:\n  displayHz: 60\n"
        try scenario.write(to: dir.appendingPathComponent("s.yaml"), atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: dir.appendingPathComponent("s.yaml").path, toPath: dir.appendingPathComponent("hard.yaml").path)
        for out in ["s.yaml", "./s.yaml", "hard.yaml"] {
            let o = try Latsim.run(["run", "s.yaml", "--duration", "200ms", "--json", out], in: dir)
            #expect(o.status == 2 && o.stderr.contains("input"), "\(out): \(o.stderr)")
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("s.yaml"), encoding: .utf8) == scenario)
        // a part of a merge as the merge's output
        for i in 0..<2 {
            let o = try Latsim.run(["sweep"] + Self.sweep + ["--shard", "\(i)/2", "--part", "p\(i).json"], in: dir)
            #expect(o.status == 0, "\(o.stderr)")
        }
        let before = try Data(contentsOf: dir.appendingPathComponent("p0.json"))
        let m = try Latsim.run(["sweep", "merge", "p0.json", "p1.json", "--json", "p0.json"], in: dir)
        #expect(m.status == 2 && m.stderr.contains("input"), "\(m.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("p0.json")) == before)
    }

    /// Parts holding 1e308 made `sweep merge` write `inf` into its JSON,
    /// then fail, leaving its outputs.
    @Test func hugeNumbersInPartsGiveValidJSON() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for i in 0..<2 {
            let o = try Latsim.run(["sweep"] + Self.sweep + ["--shard", "\(i)/2", "--part", "p\(i).json"], in: dir)
            #expect(o.status == 0, "\(o.stderr)")
            // every fractional figure of the part becomes 1e308
            let url = dir.appendingPathComponent("p\(i).json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            func huge(_ v: Any) -> Any {
                if let d = v as? [String: Any] { return d.mapValues(huge) }
                if let a = v as? [Any] { return a.map(huge) }
                if let n = v as? Double, n != n.rounded() { return 1e308 }
                return v
            }
            object["rows"] = huge(object["rows"] as Any)
            try JSONSerialization.data(withJSONObject: object).write(to: url)
        }
        let m = try Latsim.run(["sweep", "merge", "p0.json", "p1.json", "--json", "m.json", "--csv", "m.csv"], in: dir)
        let json = try? Data(contentsOf: dir.appendingPathComponent("m.json"))
        if m.status == 0 {
            let text = String(decoding: try #require(json), as: UTF8.self)
            #expect(!text.contains("inf") && text.contains("1000000000000000"))
            #expect((try? JSONSerialization.jsonObject(with: try #require(json))) != nil, "valid JSON")
        } else {
            #expect(m.status == 2, "\(m.stderr)")
            #expect(json == nil && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("m.csv").path), "nothing half-written")
        }
    }

    /// Any failing write to stdout or stderr trapped; `report 2>/dev/full`
    /// left a staging folder.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullStandardOutputOrErrorEndsCleanly() throws {
        let list = try Self.run(["list"], stdout: "/dev/full")
        #expect(list.status == 3 && list.stderr.contains("standard output") && list.stderr.contains("no space"), "\(list.stderr)")
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try Self.run(["report", "--out", "R", "--duration", "100ms"], stderr: "/dev/full", in: dir,
                                  environment: ["PATH": "/usr/bin:/bin"])
        #expect(report.status == 3, "status \(report.status)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "no staging folder, no report")
        let json = try Self.run(["run", "ios8", "--duration", "200ms", "--json", "-"], stdout: "/dev/full")
        #expect(json.status == 3, "\(json.stderr)")
    }

    /// `sbatch --array=3` (a re-run of one task) once ran the whole grid as
    /// shard 0/1; SLURM_ARRAY_TASK_MIN at Int64.min overflowed.
    @Test(arguments: [
        (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "3", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "1"], nil as String?),
        (["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "-9223372036854775808", "SLURM_ARRAY_TASK_MAX": "0", "SLURM_ARRAY_TASK_COUNT": "1"], nil),
        (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "3"], nil),
        (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_STEP": "2"], nil),
        (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "3"], nil),
        (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_COUNT": "3"], "1/3"),
        (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "2", "SLURM_ARRAY_TASK_MAX": "2", "SLURM_ARRAY_TASK_COUNT": "1", "LATSIM_SHARD_COUNT": "3"], "2/3"),
        (["LATSIM_SHARD_INDEX": "0", "LATSIM_SHARD_COUNT": "2"], "0/2"),
        (["LATSIM_SHARD_INDEX": "0"], nil),
        (["JOB_COMPLETION_INDEX": "1", "LATSIM_SHARD_COUNT": "2"], "1/2"),
        (["LATSIM_SHARD_INDEX": "99999999999999999999", "LATSIM_SHARD_COUNT": "2"], nil),
    ])
    func shardAutoMapsWhatItCanAndRefusesTheRest(_ environment: [String: String], _ shard: String?) throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Latsim.run(["sweep"] + Self.sweep + ["--shard", "auto", "--part", "part.json"], in: dir,
                               environment: environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a })
        if let shard {
            #expect(o.status == 0, "\(environment): \(o.stderr)")
            let part = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("part.json"))) as? [String: Any])
            let s = try #require(part["shard"] as? [String: Int])
            #expect("\(s["index"]!)/\(s["count"]!)" == shard)
        } else {
            #expect(o.status == 2 && o.stderr.contains("--shard") && o.stderr.count < 600, "\(environment): \(o.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("part.json").path))
        }
    }

    @Test func aHugeShardIsBadInputNotATrap() throws {
        for text in ["9223372036854775806/9223372036854775807", "99999/100000", "0/100001"] {
            let o = try Latsim.run(["sweep"] + Self.sweep + ["--shard", text, "--part", "/dev/null"])
            #expect(o.status == (text == "99999/100000" ? 0 : 2), "\(text): \(o.stderr)")
        }
    }

    /// SIGINT while a sweep draws its chart once left the new CSV beside the
    /// old JSON: the outputs of one command are committed together.
    @Test func anInterruptLeavesEveryOutputOld() throws {
        let dir = try Latsim.temporaryDirectory()
        let tools = try Latsim.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: dir)
            try? FileManager.default.removeItem(at: tools)
        }
        let marker = tools.appendingPathComponent("started")
        let gnuplot = tools.appendingPathComponent("gnuplot")
        try "#!/bin/sh\n: > \"\(marker.path)\"\nwhile kill -0 $PPID 2>/dev/null; do sleep 0.05; done\n"
            .write(to: gnuplot, atomically: false, encoding: .utf8)
        chmod(gnuplot.path, 0o755)
        for f in ["s.csv", "s.json"] { try "old".write(to: dir.appendingPathComponent(f), atomically: false, encoding: .utf8) }
        let p = Process()
        p.executableURL = Latsim.binary
        p.arguments = ["sweep"] + Self.sweep + ["--csv", "s.csv", "--json", "s.json", "--plot", "charts"]
        p.currentDirectoryURL = dir
        p.environment = ["PATH": tools.path + ":/usr/bin:/bin"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var waited = 0
        while !FileManager.default.fileExists(atPath: marker.path) && p.isRunning && waited < 6000 { usleep(20_000); waited += 1 }
        #expect(FileManager.default.fileExists(atPath: marker.path), "gnuplot never started")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        for f in ["s.csv", "s.json"] { #expect(try String(contentsOf: dir.appendingPathComponent(f), encoding: .utf8) == "old", "\(f)") }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(left == ["charts", "s.csv", "s.json"] || left == ["s.csv", "s.json"], "\(left)")
        let charts = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("charts").path)) ?? []
        #expect(charts.isEmpty, "\(charts)")
    }

    /// A recording or a gate spec that is not a regular file is bad input
    /// saying what it is, and `import X --out X` leaves X as it was.
    @Test func importAndSpecReadOnlyRegularFilesAndNeverReplaceTheirInput() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dump = dir.appendingPathComponent("fs.txt")
        try FileManager.default.copyItem(at: Latsim.packageRoot.appendingPathComponent("Examples/traces/framestats-120hz.txt"), to: dump)
        let before = try Data(contentsOf: dump)
        let same = try Latsim.run(["import", dump.path, "--out", dump.path])
        #expect(same.status == 2 && same.stderr.contains("input"), "\(same.stderr)")
        #expect(try Data(contentsOf: dump) == before)
        for (args, words) in [(["import", "/dev/null"], "not a regular file"), (["import", dir.path], "is a directory"),
                              (["regress", "--spec", "/dev/null", "--baseline", "b.json"], "not a regular file")] {
            let o = try Latsim.run(args, in: dir)
            #expect(o.status == 2 && o.stderr.contains(words) && o.stderr.count < 300, "\(args): \(o.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("b.json").path))
    }

    /// Scenario files, device presets, measurement tables, measured-duration
    /// files and sweep parts go through the same reader: a device or a
    /// directory is named as such, a missing scenario still points at the
    /// built-in names.
    @Test func everyInputFileSaysWhatItIsWhenItIsNotAFile() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (args, words) in [(["run", "/dev/null"], "/dev/null: is not a regular file"),
                              (["run", dir.path + "/"], "is a directory"),
                              (["run", "nope.yaml"], "no built-in scenario of that name"),
                              (["run", "ios8", "--device", "/dev/null"], "/dev/null: is not a regular file"),
                              (["validate", "--measurements", "/dev/null"], "/dev/null: is not a regular file"),
                              (["run", "ios8", "--set", "app.handler=empirical(@/dev/null:ms)"], "/dev/null: is not a regular file"),
                              (["sweep", "merge", "/dev/null"], "/dev/null: is not a regular file")] {
            let o = try Latsim.run(args, in: dir)
            #expect(o.status == 2 && o.stderr.contains(words) && o.stderr.count < 400, "\(args): \(o.stderr)")
        }
    }
}
