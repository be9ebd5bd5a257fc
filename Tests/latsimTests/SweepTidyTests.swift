import Foundation
import Testing

/// The sweep's CSV as a data frame reads it: numeric axis columns holding
/// numbers with the unit in the header, a long (tidy) form with one row per
/// point and figure, and each figure under its catalogue name.
@Suite struct SweepTidyTests {
    static func lines(_ url: URL) throws -> [[String]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Two axes, one numeric (3 values) and one of names (2), 3 seeds: 6
    /// points. The wide CSV's first column is `gpu.render_ms` holding 2, 3,
    /// 4 (each twice, the second axis varying fastest), the second
    /// `os.buffering` holding the names; the long CSV has 6 x F rows, F the
    /// figures the wide CSV shows, each value the wide cell, and its
    /// interval the wide SeedMean ∓ HalfWidth95.
    @Test func numericAxesAndALongFormWithOneRowPerPointAndFigure() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms...4ms:1ms", "--vary", "os.buffering=double,triple",
                                "--set", "app.handler=lognormal(4ms,0.3)", "--seeds", "3", "--duration", "500ms",
                                "--csv", "wide.csv", "--csv-long", "long.csv"], in: dir)
        #expect(o.status == 0, "\(o.stderr)")
        let wide = try Self.lines(dir.appendingPathComponent("wide.csv"))
        let header = wide[0]
        #expect(Array(header.prefix(2)) == ["gpu.render_ms", "os.buffering"])
        let rows = Array(wide.dropFirst())
        #expect(rows.count == 6)
        #expect(rows.map { Double($0[0]) } == [2, 2, 3, 3, 4, 4], "every cell of a numeric axis is a number")
        #expect(rows.map { $0[1] } == ["double", "triple", "double", "triple", "double", "triple"])

        // the figures: every column between the axes and `runs`, each a catalogue name
        let runsAt = try #require(header.firstIndex(of: "runs"))
        let figures = Array(header[2..<runsAt])
        let catalogue = try Latsim.run(["figures", "--json", "-"])
        let names = try #require((try JSONSerialization.jsonObject(with: Data(catalogue.stdout.utf8)) as? [String: Any])?["figures"] as? [[String: Any]])
            .compactMap { $0["name"] as? String }
        #expect(!figures.isEmpty && figures.allSatisfy(names.contains), "\(figures)")

        let long = try Self.lines(dir.appendingPathComponent("long.csv"))
        #expect(long[0] == ["gpu.render_ms", "os.buffering", "figure", "value", "unit", "runs", "ci95Low", "ci95High"])
        #expect(long.count - 1 == rows.count * figures.count, "points x figures rows")
        for (p, row) in rows.enumerated() {
            for (k, f) in figures.enumerated() {
                let l = long[1 + p * figures.count + k]
                #expect(Array(l.prefix(3)) == [row[0], row[1], f])
                #expect(l[3] == row[2 + k], "\(f) at point \(p): the wide cell")
                #expect(l[5] == "3")
                let mean = header.firstIndex(of: f + "SeedMean").flatMap { Double(row[$0]) }
                let half = header.firstIndex(of: f + "HalfWidth95").flatMap { Double(row[$0]) }
                if let mean, let half {
                    #expect(abs(Double(l[6])! - (mean - half)) < 2e-6 && abs(Double(l[7])! - (mean + half)) < 2e-6, "\(f): \(l)")
                } else {
                    #expect(l[6].isEmpty && l[7].isEmpty)
                }
            }
        }
        // a figure's unit is the catalogue's
        let t2p = try #require(long.first { $0[2] == "touchToPhotonP50" })
        #expect(t2p[4] == "ms")
    }

    /// One seed: the interval cells are empty; a list of plain numbers
    /// keeps the key alone as its header.
    @Test func oneSeedLeavesTheIntervalEmpty() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Latsim.run(["sweep", "ios8", "--vary", "device.scanHz=60,120", "--duration", "300ms", "--csv", "w.csv",
                                "--csv-long", "l.csv"], in: dir)
        #expect(o.status == 0, "\(o.stderr)")
        let wide = try Self.lines(dir.appendingPathComponent("w.csv"))
        #expect(wide[0][0] == "device.scanHz" && wide.dropFirst().map { Double($0[0]) } == [60, 120])
        let long = try Self.lines(dir.appendingPathComponent("l.csv"))
        #expect(long.dropFirst().allSatisfy { $0[4] == "1" && $0[5].isEmpty && $0[6].isEmpty }, "one axis: runs, ci95Low, ci95High are columns 4-6")
    }
}
