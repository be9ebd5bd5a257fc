import Foundation
import Testing

/// `latsim compare` of two display rates, and what its tables print:
/// figures counted in display frames are not compared across rates, no
/// difference is said in frames of one side, measured durations are
/// summarised, and the CSV prints a figure's value at its precision.
@Suite struct CompareAcrossRatesTests {
    /// The cells of a text table's line (two or more spaces apart).
    static func cells(_ line: Substring) -> [String] {
        line.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func row(_ text: String, _ column: String) -> [String]? {
        text.split(separator: "\n").first { $0.hasPrefix(column + "  ") }.map(cells)
    }

    /// android-default at 60 Hz against itself at 120 Hz: each side's
    /// "frames p50" counts its own frames (5 of 16.7 ms against more of 8.3
    /// ms), so the row has no difference and says "not comparable"; the
    /// latencies in ms are compared, but no difference is said in frames
    /// (of which side?); a gate on a frame count is refused.
    @Test func framesOfTwoRatesAreNotCompared() throws {
        let args = ["compare", "android-default", "--b-set", "device.displayHz=120", "--b-set", "device.scanHz=120",
                    "--seeds", "2", "--duration", "2s"]
        let text = try Latsim.run(args)
        #expect(text.status == 0, "\(text.stderr)")
        let frames = try #require(Self.row(text.stdout, "frames p50"), "\(text.stdout)")
        #expect(frames.count == 6 && frames[3] == "-" && frames[4] == "-" && frames[5] == "not comparable", "\(frames)")
        // figure, A, B, B − A, interval, verdict: the frames cell is empty
        let t2p = try #require(Self.row(text.stdout, "t2p p50 ms"))
        #expect(t2p.count == 6 && ["better", "worse", "noise", "same"].contains(t2p[5]), "\(t2p)")
        #expect(text.stdout.contains("A and B run their displays at different rates (60 Hz and 120 Hz)"), "\(text.stdout)")

        let csv = try Latsim.run(args + ["--format", "csv"])
        let line = try #require(csv.stdout.split(separator: "\n").first { $0.hasPrefix("pipelineFramesP50,") })
        let f = line.split(separator: ",", omittingEmptySubsequences: false)
        #expect(f[6] == "" && f[7] == "" && f[8] == "not comparable", "\(line)")

        let json = try Latsim.run(args + ["--json", "-"])
        let doc = try Latsim.result(Data(json.stdout.utf8), kind: "compare")
        let figures = try #require(doc["figures"] as? [[String: Any]])
        let row = try #require(figures.first { $0["figure"] as? String == "pipelineFramesP50" })
        #expect(row["difference"] is NSNull && row["real"] is NSNull && row["verdict"] as? String == "not comparable", "\(row)")
        let ms = try #require(figures.first { $0["figure"] as? String == "touchToPhotonP50" })
        #expect(ms["difference"] is [String: Any] && ms["verdict"] as? String != "not comparable")

        let gate = try Latsim.run(args + ["--fail-if-worse", "pipelineFramesP50"])
        #expect(gate.status == 2 && gate.stderr.contains("different rates (60 Hz and 120 Hz)") && gate.stderr.contains("touchToPhotonP50"), "\(gate.stderr)")
        // one rate: every figure compared, differences in time also in frames
        let same = try Latsim.run(["compare", "ios8", "ios9-low-latency", "--seeds", "2", "--duration", "2s"])
        let sameT2p = try #require(Self.row(same.stdout, "t2p p50 ms"))
        // 50 ms to 33.333 ms (the README's and the talk table's figures): 16.667 ms, one 60 Hz frame less
        #expect(sameT2p.count == 7 && sameT2p[4] == "-1.00" && !same.stdout.contains("not comparable"), "\(sameT2p)")
    }

    /// Measured durations (an imported device's) are shown as their count,
    /// median and range, not every value: the dump's 34 frames.
    @Test func measuredDurationsAreSummarised() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let device = dir.appendingPathComponent("device.yaml")
        #expect(try Latsim.run(["import", ImportDefaultsTests.dump.path, "--out", device.path]).status == 0)
        let yaml = try String(contentsOf: device, encoding: .utf8)
        let handler = ImportCommandTests.empirical(yaml, "handler").sorted()
        #expect(handler.count == 34)
        // median of an even count: the mean of the 17th and 18th; ms to 3 places
        func ms(_ ns: Double) -> String {
            var s = String(format: "%.3f", ns / 1e6)
            while s.hasSuffix("0") { s.removeLast() }
            if s.hasSuffix(".") { s.removeLast() }
            return s + "ms"
        }
        let median = (Double(handler[16]) + Double(handler[17])) / 2
        let expected = "empirical: 34 values, median \(ms(median)), \(ms(Double(handler[0]))) to \(ms(Double(handler[33])))"
        let o = try Latsim.run(["compare", "android-default", device.path, "--seeds", "1", "--duration", "1s"])
        #expect(o.status == 0, "\(o.stderr)")
        let settings = o.stdout.components(separatedBy: "\n\n")[0]
        let line = try #require(settings.split(separator: "\n").first { $0.hasPrefix("app.handler ") })
        #expect(line.hasSuffix(expected), "\(line)")
        #expect(settings.split(separator: "\n").allSatisfy { $0.count < 120 }, "\(settings)")
        let markdown = try Latsim.run(["compare", "android-default", device.path, "--seeds", "1", "--duration", "1s", "--format", "markdown"])
        #expect(markdown.stdout.contains(expected) && !markdown.stdout.contains("empirical("), "\(markdown.stdout)")
    }

    /// The CSV prints each value at its figure's declared precision (`latsim
    /// figures --json`'s places), as the table does: one value is never
    /// `49.999999` in one row and `50` in the next. ios8's touch-to-photon
    /// is 50 ms at p50, p95 and p99 (every frame alike: fixed durations; the
    /// README's first run), which 0.10.0 printed as 49.999999, 50, 50.
    @Test func csvValuesHaveTheirFiguresPrecision() throws {
        let figures = try Latsim.run(["figures", "--json", "-"])
        let list = try #require((try JSONSerialization.jsonObject(with: Data(figures.stdout.utf8)) as? [String: Any])?["figures"] as? [[String: Any]])
        var places: [String: Int] = [:]
        for f in list { places[f["name"] as! String] = f["places"] as? Int }
        let o = try Latsim.run(["compare", "ios8", "ios9-low-latency", "--format", "csv", "--seeds", "3", "--duration", "2s"])
        #expect(o.status == 0, "\(o.stderr)")
        let lines = o.stdout.split(separator: "\n").dropFirst()
        #expect(!lines.isEmpty)
        for line in lines {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let p = try #require(places[f[0]], "\(f[0])")
            for cell in f[4...7] where !cell.isEmpty {
                let decimals = cell.split(separator: ".").dropFirst().first?.count ?? 0
                #expect(decimals <= p && Double(cell) != nil, "\(line): \(cell) has more than \(p) places")
            }
        }
        let a = ["touchToPhotonP50", "touchToPhotonP95", "touchToPhotonP99"].map { name in
            lines.first { $0.hasPrefix(name + ",") }.map { $0.split(separator: ",")[4] }
        }
        #expect(a.allSatisfy { $0 == "50" }, "\(a)")
    }
}
