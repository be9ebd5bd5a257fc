import Foundation
import SimKernel
import Testing

/// `latsim predict --shard I/N --part FILE` and `latsim predict merge`: a
/// prediction study split over processes gives the bytes of one machine.
@Suite struct PredictShardTests {
    /// Runs `study` whole, then as `n` shards in `n` processes at once, merges
    /// the parts (in reverse order) and compares the JSON and the table.
    func shardedMatchesWhole(_ study: [String], shards n: Int) throws {
        let dir = try Latsim.temporaryDirectory()
        let whole = try Latsim.run(["predict"] + study + ["--json", dir.appendingPathComponent("one.json").path])
        #expect(whole.status == 0, "\(whole.stderr)")
        let group = DispatchGroup()
        let statuses = Locked([Int32](repeating: -1, count: n))
        for i in 0..<n {
            group.enter()
            DispatchQueue.global().async {
                let o = try? Latsim.run(["predict"] + study + ["--shard", "\(i)/\(n)", "--part", dir.appendingPathComponent("part-\(i).json").path])
                statuses.withLock { $0[i] = o?.status ?? -2 }
                group.leave()
            }
        }
        group.wait()
        #expect(statuses.current.allSatisfy { $0 == 0 }, "\(statuses.current)")
        let parts = (0..<n).reversed().map { dir.appendingPathComponent("part-\($0).json").path }
        let merged = try Latsim.run(["predict", "merge"] + parts + ["--json", dir.appendingPathComponent("m.json").path])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout, "the table too")
        #expect(try Data(contentsOf: dir.appendingPathComponent("one.json")) == (try Data(contentsOf: dir.appendingPathComponent("m.json"))))
        // the result records the study's command, not the merge's
        let header = try Latsim.result(try Data(contentsOf: dir.appendingPathComponent("m.json")), kind: "predict")["latsim"] as? [String: Any]
        #expect((header?["command"] as? String)?.hasPrefix("latsim predict --") == true, "\(String(describing: header))")
        if n > 1 {
            let short = try Latsim.run(["predict", "merge"] + parts.dropFirst())
            #expect(short.status == 2 && short.stderr.contains("missing"), "\(short.stderr)")
        }
    }

    @Test(arguments: [1, 4, 20])
    func aSyntheticStudyInShardsMergesToTheWholeBytes(_ n: Int) throws {
        // 5 predictors x 3 horizons = 15 cells: 20 shards leave five empty
        try shardedMatchesWhole(["--trajectory", "circle", "--duration", "2s", "--scorecard", "latsim,chromium,android"], shards: n)
    }

    @Test
    func aDatasetStudyInShardsMergesToTheWholeBytes() throws {
        try shardedMatchesWhole(["--dataset", PredictCommandTests.dollarDirectory + "/s01", "--include", "medium", "--horizon", "1"], shards: 3)
    }

    @Test func partsOfAnotherStudyAndMisusedFlagsAreBadInput() throws {
        let dir = try Latsim.temporaryDirectory()
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path
        #expect(try Latsim.run(["predict", "--duration", "1s", "--shard", "0/2", "--part", a]).status == 0)
        #expect(try Latsim.run(["predict", "--duration", "2s", "--shard", "1/2", "--part", b]).status == 0)
        let mixed = try Latsim.run(["predict", "merge", a, b])
        #expect(mixed.status == 2 && mixed.stderr.contains("another study"), "\(mixed.stderr)")
        let twice = try Latsim.run(["predict", "merge", a, a])
        #expect(twice.status == 2 && twice.stderr.contains("also in"), "\(twice.stderr)")
        try "{\"version\": 1}".write(toFile: b, atomically: true, encoding: .utf8)
        let broken = try Latsim.run(["predict", "merge", a, b])
        #expect(broken.status == 2 && broken.stderr.contains(b) && broken.stderr.contains("not a prediction part"), "\(broken.stderr)")
        for args in [["--shard", "0/2"], ["--part", a], ["--shard", "2/2", "--part", a], ["--shard", "0/2", "--part", a, "--json", "-"]] {
            let o = try Latsim.run(["predict", "--duration", "1s"] + args, environment: ["PATH": "/usr/bin:/bin"])
            #expect(o.status == 2, "\(args): \(o.stderr)")
            #expect(o.stderr.split(separator: "\n").count == 1, "\(o.stderr)")
        }
    }
}
