import Foundation
import SimKernel
import Testing

/// Sweeps beyond one machine: shards run as separate processes, and as a
/// Slurm job array, merge to the bytes one machine gives.
@Suite struct ClusterTests {
    static let sweep = ["ios8", "--vary", "gpu.render=2ms...20ms:2ms", "--vary", "renderServer.prepare=1ms,5ms",
                        "--set", "app.handler=lognormal(4ms,0.3)", "--seeds", "3", "--duration", "3s"]

    /// N shards started as N processes at once, then merged.
    @Test(arguments: [1, 3, 7])
    func shardsRunAsSeparateProcessesMergeToTheUnshardedBytes(_ n: Int) throws {
        let dir = try Latsim.temporaryDirectory()
        let one = try Latsim.run(["sweep"] + Self.sweep + ["--csv", dir.appendingPathComponent("one.csv").path,
                                                           "--json", dir.appendingPathComponent("one.json").path])
        #expect(one.status == 0, "\(one.stderr)")
        let group = DispatchGroup()
        let statuses = Locked([Int32](repeating: -1, count: n))
        for i in 0..<n {
            group.enter()
            DispatchQueue.global().async {
                let part = dir.appendingPathComponent("part-\(i).json").path
                let o = try? Latsim.run(["sweep"] + Self.sweep + ["--shard", "\(i)/\(n)", "--part", part])
                statuses.withLock { $0[i] = o?.status ?? -2 }
                group.leave()
            }
        }
        group.wait()
        #expect(statuses.current.allSatisfy { $0 == 0 }, "\(statuses.current)")
        let parts = (0..<n).reversed().map { dir.appendingPathComponent("part-\($0).json").path }
        let merged = try Latsim.run(["sweep", "merge"] + parts + ["--csv", dir.appendingPathComponent("m.csv").path,
                                                                  "--json", dir.appendingPathComponent("m.json").path])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == one.stdout, "the table too")
        for f in ["csv", "json"] {
            let a = try Data(contentsOf: dir.appendingPathComponent("one.\(f)")), b = try Data(contentsOf: dir.appendingPathComponent("m.\(f)"))
            #expect(a == b, "\(n) shards: \(f) differs")
        }
        // a missing shard, or a part of another sweep, is bad input
        if n > 1 {
            let short = try Latsim.run(["sweep", "merge"] + parts.dropFirst())
            #expect(short.status == 2 && short.stderr.contains("missing"))
        }
    }

    @Test func aShardOutsideTheSweepOrWithoutAPartIsBadInput() throws {
        for args in [["--shard", "3/3", "--part", "/tmp/p.json"], ["--shard", "1/3"], ["--shard", "auto", "--part", "/tmp/p.json"],
                     ["--shard", "0/2", "--part", "/tmp/p.json", "--csv", "/tmp/x.csv"]] {
            let o = try Latsim.run(["sweep"] + Self.sweep + args, environment: ["PATH": "/usr/bin:/bin"])
            #expect(o.status == 2, "\(args): \(o.stderr)")
        }
    }

    static var slurmUp: Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["sinfo", "-h", "-o", "%T"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return p.terminationStatus == 0 && (text.contains("idle") || text.contains("mix") || text.contains("alloc"))
    }

    /// Examples/cluster/slurm-sweep.sh on a real (one-machine) Slurm cluster:
    /// `.ci/run` installs and starts one and sets LATSIM_REQUIRE_SLURM, so CI
    /// runs this test for real; elsewhere it is skipped without a cluster.
    @Test(.enabled(if: slurmUp || ProcessInfo.processInfo.environment["LATSIM_REQUIRE_SLURM"] != nil,
                   "no Slurm cluster here (Examples/cluster/single-node-slurm.sh starts one)"))
    func theSlurmExampleMergesToTheUnshardedCSV() throws {
        #expect(Self.slurmUp, "LATSIM_REQUIRE_SLURM is set but sinfo shows no idle node")
        let dir = try Latsim.temporaryDirectory()
        let one = try Latsim.run(["sweep"] + Self.sweep + ["--csv", dir.appendingPathComponent("one.csv").path])
        #expect(one.status == 0)
        let script = Latsim.packageRoot.appendingPathComponent("Examples/cluster/slurm-sweep.sh").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: script)
        p.arguments = ["4", dir.appendingPathComponent("out").path, "--"] + Self.sweep
        var env = ProcessInfo.processInfo.environment
        env["LATSIM"] = Latsim.binary.path
        p.environment = env
        p.currentDirectoryURL = dir
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "\(stderr)")
        let a = try Data(contentsOf: dir.appendingPathComponent("one.csv"))
        let b = try Data(contentsOf: dir.appendingPathComponent("out/sweep.csv"))
        #expect(a == b, "the merged Slurm CSV is the unsharded one")
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("out").path).filter { $0.hasPrefix("part-") }
        #expect(parts.count == 4)
    }
}
