import Foundation
import Testing

/// `latsim sweep --seeds N`: each point keeps every seed's figures, and the
/// outputs give each figure's mean over the seeds with its 95% interval.
@Suite struct SweepSeedsTests {
    static let stochastic = ["--set", "app.handler=lognormal(5ms,0.5)", "--duration", "2s"]
    static let sweep = ["sweep", "ios9-coalescing-120hz", "--vary", "gpu.render=3ms,9ms", "--seeds", "4", "--seed", "7"] + stochastic

    static func csv(_ text: String) -> [[String: String]] {
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    @Test func eachSeedsValueIsThatSeedsRunAndTheIntervalIsStudents() throws {
        let o = try Latsim.run(Self.sweep + ["--json", "-"])
        #expect(o.status == 0, "\(o.stderr)")
        let points = try Latsim.rows(Data(o.stdout.utf8), kind: "sweep")
        #expect(points.count == 2)
        var spread = false
        for (point, gpu) in zip(points, ["3ms", "9ms"]) {
            let seeds = try #require(point["seeds"] as? [String: Any])
            #expect(seeds["count"] as? Int == 4 && seeds["first"] as? Int == 7)
            let figures = try #require(seeds["figures"] as? [String: [String: Any]])
            let p99 = try #require(figures["touchToPhotonP99"]?["perSeed"] as? [Double])
            let fps = try #require(figures["fps"]?["perSeed"] as? [Double])
            let hitches = try #require(figures["hitchTimeRatio"]?["perSeed"] as? [Double])
            // seed 7 + k of the point is `run` with that seed and that GPU time
            for k in [0, 3] {
                let single = try Latsim.onlyRun(try Latsim.run(["run", "ios9-coalescing-120hz", "--seed", String(7 + k), "--set", "gpu.render=\(gpu)",
                                                                "--json", "-"] + Self.stochastic).stdout)
                let latency = (single["latency"] as? [String: Any])?["touchToPhotonMs"] as? [String: Any]
                #expect(latency?["p99"] as? Double == p99[k], "\(gpu) seed \(7 + k)")
                let hitch = (single["display"] as? [String: Any])?["hitchTimeRatioMsPerS"] as? Double
                #expect(hitch.map { abs($0 - hitches[k]) < 1e-6 } == true, "\(gpu) seed \(7 + k)")
            }
            // the mean, and t(0.975, 3) = 3.1824463 (tables: 3.182; StudentTTests checks the quantile) times the standard error
            let m = fps.reduce(0, +) / 4
            let sd = (fps.map { ($0 - m) * ($0 - m) }.reduce(0, +) / 3).squareRoot()
            #expect(abs((figures["fps"]?["mean"] as? Double ?? 0) - m) < 1e-6)
            #expect(abs((figures["fps"]?["halfWidth95"] as? Double ?? 0) - 3.1824463 * sd / 2) < 1e-6)
            spread = spread || Set(fps).count > 1
            // the merged figures are still there, over every seed's frames
            #expect(point["runs"] as? Int == 4 && point["touchToPhotonP50"] is Double)
        }
        #expect(spread, "a lognormal handler should make the frame rate depend on the seed")
    }

    @Test func theCSVTheTableAndTheJSONAgree() throws {
        let json = try Latsim.rows(Data(try Latsim.run(Self.sweep + ["--json", "-"]).stdout.utf8), kind: "sweep")
        let csv = Self.csv(try Latsim.run(Self.sweep + ["--csv", "-"]).stdout)
        let table = try Latsim.run(Self.sweep)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("4 seeds (each cell the mean of the seeds' values ± the half-width of its 95% interval"))
        for (row, point) in zip(csv, json) {
            let f = try #require((point["seeds"] as? [String: Any])?["figures"] as? [String: [String: Any]])
            for (column, figure) in [("touchToPhotonP99", "touchToPhotonP99"), ("hitchTimeRatio", "hitchTimeRatio"), ("triplePercent", "triplePercent")] {
                let mean = try #require(f[figure]?["mean"] as? Double), h = try #require(f[figure]?["halfWidth95"] as? Double)
                #expect(abs(Double(row[column + "SeedMean"] ?? "")! - mean) < 1e-6, "\(column)")
                #expect(abs(Double(row[column + "HalfWidth95"] ?? "")! - h) < 1e-6, "\(column)")
            }
            // the table's hitch cell is the same mean and half-width, one decimal
            let hitch = try #require(f["hitchTimeRatio"])
            let cell = String(format: "%.1f ± %.1f", hitch["mean"] as! Double, hitch["halfWidth95"] as! Double)
            #expect(table.stdout.contains(cell), "'\(cell)' not in \(table.stdout)")
        }
    }

    @Test func oneSeedAddsNothingAndAFixedPipelineHasNoSpread() throws {
        let one = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--duration", "1s", "--csv", "-"])
        #expect(one.status == 0 && !one.stdout.contains("SeedMean"))
        let json = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--duration", "1s", "--json", "-"])
        #expect(try Latsim.rows(Data(json.stdout.utf8), kind: "sweep").allSatisfy { $0["seeds"] == nil })
        // fixed durations: every seed the same, every interval 0
        let fixed = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--duration", "1s", "--seeds", "3"])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        let lines = fixed.stdout.split(separator: "\n").filter { $0.hasPrefix("       2ms") || $0.hasPrefix("       4ms") }
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("50.000 ± 0.000") }, "\(fixed.stdout)")
    }

    @Test func theChartDrawsBandsAndErrorBars() throws {
        let dir = try Latsim.temporaryDirectory()
        let seeded = dir.appendingPathComponent("seeded"), single = dir.appendingPathComponent("single")
        #expect(try Latsim.run(Self.sweep + ["--plot", seeded.path]).status == 0)
        #expect(try Latsim.run(["sweep", "ios9-coalescing-120hz", "--vary", "gpu.render=3ms,9ms"] + Self.stochastic + ["--plot", single.path]).status == 0)
        let s = try String(contentsOf: seeded.appendingPathComponent("sweep.gp"), encoding: .utf8)
        #expect(s.contains("with filledcurves") && s.contains("with yerrorbars") && s.contains("95% interval"))
        #expect(s.contains("p50_hw95") && s.contains("their means, with 95% intervals"))
        let o = try String(contentsOf: single.appendingPathComponent("sweep.gp"), encoding: .utf8)
        #expect(!o.contains("filledcurves") && !o.contains("yerrorbars"))
    }

    @Test func aPartWhoseSeedsWereTamperedWithIsRefused() throws {
        let dir = try Latsim.temporaryDirectory()
        var parts: [String] = []
        for i in 0..<2 {
            let part = dir.appendingPathComponent("part-\(i).json").path
            let o = try Latsim.run(Self.sweep + ["--shard", "\(i)/2", "--part", part])
            #expect(o.status == 0, "\(o.stderr)")
            parts.append(part)
        }
        #expect(try Latsim.run(["sweep", "merge"] + parts).status == 0)
        // drop one seed's values of the first part
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: parts[0]))) as? [String: Any])
        var rows = try #require(object["rows"] as? [[Any]])
        var seeds = try #require(rows[0].last as? [String: Any], "a row's last field is its seeds")
        var figures = try #require(seeds["figures"] as? [[String: Any]])
        figures[0]["perSeed"] = Array((figures[0]["perSeed"] as? [Any] ?? []).dropLast())
        seeds["figures"] = figures
        rows[0][rows[0].count - 1] = seeds
        object["rows"] = rows
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: parts[0]))
        let csv = dir.appendingPathComponent("merged.csv")
        let o = try Latsim.run(["sweep", "merge"] + parts + ["--csv", csv.path])
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.contains(parts[0]) && o.stderr.contains("row"), "\(o.stderr)")
        #expect(!FileManager.default.fileExists(atPath: csv.path))
    }
}
