import Foundation
import Testing

/// A shard costs its own points: it resolves only them, its part holds its
/// rows and a digest of the grid (not the grid's values, not the settings
/// but in shard 0), and `sweep merge` refuses parts that do not make one
/// whole sweep, with exit 2 and one paragraph.
@Suite struct SweepShardTests {
    /// 1,000 points of 100 ms runs; shard I/10 holds points 100I ..< 100I+100.
    static let sweep = ["ios8", "--vary", "gpu.render=1ms...10.99ms:0.01ms", "--duration", "100ms"]

    static func object(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Shard 3 of 10 holds 100 rows (1,000 / 10), the `--vary` argument
    /// rather than its 1,000 values, and no settings (only shard 0 does):
    /// its file is smaller than twice the CSV of the same 100 points run
    /// unsharded, though a part is JSON and the CSV is not.
    @Test func aPartHoldsItsOwnRowsNotTheGrid() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Latsim.run(["sweep"] + Self.sweep + ["--shard", "3/10", "--part", "p3.json"], in: dir)
        #expect(o.status == 0, "\(o.stderr)")
        let part = try Self.object(dir.appendingPathComponent("p3.json"))
        #expect((part["rows"] as? [Any])?.count == 100)
        #expect(part["axes"] as? [String] == ["gpu.render=1ms...10.99ms:0.01ms"])
        #expect(part["points"] as? Int == 1000)
        #expect(part["settings"] == nil, "settings only in shard 0")
        let text = try String(contentsOf: dir.appendingPathComponent("p3.json"), encoding: .utf8)
        #expect(!text.contains("\"1.5ms\"") && !text.contains("\"4.5ms\""), "no value of the grid beyond the argument")

        // the same 100 points, 4ms ... 4.99ms, unsharded
        let same = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=4ms...4.99ms:0.01ms", "--duration", "100ms",
                                   "--csv", "same.csv"], in: dir)
        #expect(same.status == 0, "\(same.stderr)")
        let csv = try Data(contentsOf: dir.appendingPathComponent("same.csv")).count
        #expect(text.utf8.count < 2 * csv, "part \(text.utf8.count) bytes, CSV of the same points \(csv)")

        let zero = try Latsim.run(["sweep"] + Self.sweep + ["--shard", "0/10", "--part", "p0.json"], in: dir)
        #expect(zero.status == 0, "\(zero.stderr)")
        #expect((try Self.object(dir.appendingPathComponent("p0.json"))["settings"] as? [Any])?.isEmpty == false)
    }

    /// A shard resolves its own points only: a bad value in shard 1's
    /// points is shard 1's error, not shard 0's.
    @Test func aShardResolvesOnlyItsPoints() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["sweep", "ios8", "--vary", "gpu.render=2ms,3ms,bogus,4ms", "--duration", "100ms"]
        let good = try Latsim.run(args + ["--shard", "0/2", "--part", "p0.json"], in: dir)
        #expect(good.status == 0, "\(good.stderr)")
        let bad = try Latsim.run(args + ["--shard", "1/2", "--part", "p1.json"], in: dir)
        #expect(bad.status == 2 && bad.stderr.contains("bogus"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("p1.json").path))
    }

    /// Parts of another grid, a shard missing or given twice, a part cut
    /// short, a part whose settings were edited, a part of the old format:
    /// each exit 2 with a short paragraph naming the file, and no output.
    @Test func mergeRefusesPartsThatDoNotMakeOneSweep() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let small = ["ios8", "--vary", "gpu.render=2ms...5ms:1ms", "--duration", "100ms"]
        for i in 0..<2 {
            #expect(try Latsim.run(["sweep"] + small + ["--shard", "\(i)/2", "--part", "p\(i).json"], in: dir).status == 0)
        }
        let other = ["ios8", "--vary", "gpu.render=2ms...6ms:1ms", "--duration", "100ms"]
        #expect(try Latsim.run(["sweep"] + other + ["--shard", "1/2", "--part", "q1.json"], in: dir).status == 0)
        let whole = try Latsim.run(["sweep", "merge", "p0.json", "p1.json", "--csv", "m.csv"], in: dir)
        #expect(whole.status == 0, "\(whole.stderr)")

        let p0 = try Data(contentsOf: dir.appendingPathComponent("p0.json"))
        try p0.prefix(p0.count / 2).write(to: dir.appendingPathComponent("cut.json"))
        var edited = try Self.object(dir.appendingPathComponent("p0.json"))
        var settings = try #require(edited["settings"] as? [[String: Any]])
        settings[0]["value"] = "999"
        edited["settings"] = settings
        try JSONSerialization.data(withJSONObject: edited).write(to: dir.appendingPathComponent("edited.json"))
        var old = try Self.object(dir.appendingPathComponent("p1.json"))
        old["version"] = 5
        try JSONSerialization.data(withJSONObject: old).write(to: dir.appendingPathComponent("old.json"))

        let cases: [([String], [String])] = [
            (["p0.json", "q1.json"], ["q1.json", "another sweep"]),
            (["p0.json"], ["1/2", "missing"]),
            (["p0.json", "p1.json", "p1.json"], ["p1.json", "also in"]),
            (["cut.json", "p1.json"], ["cut.json", "not a sweep part"]),
            (["edited.json", "p1.json"], ["edited.json", "digest"]),
            (["p0.json", "old.json"], ["old.json", "version 5"]),
        ]
        for (parts, words) in cases {
            let o = try Latsim.run(["sweep", "merge"] + parts + ["--csv", "bad.csv"], in: dir)
            #expect(o.status == 2, "\(parts): \(o.stderr)")
            #expect(words.allSatisfy(o.stderr.contains) && o.stderr.count < 600, "\(parts): \(o.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad.csv").path), "nothing written")
        }
    }
}
