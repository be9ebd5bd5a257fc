import Foundation
import Testing

/// `latsim sweep` as a user meets it: the same bytes at any --jobs, bad
/// --vary refused with exit 2 and nothing written, and the chart files.
@Suite struct SweepCommandTests {
    static let grid = ["sweep", "ios9-coalescing-120hz", "--vary", "gpu.render=4ms...14ms:2ms", "--vary", "os.buffering=double,adaptive",
                       "--set", "app.handler=normal(4ms,1.5ms)", "--seeds", "2", "--duration", "2s", "--seed", "3"]

    @Test func csvAndJSONAreIdenticalAtOneAndTwoJobs() throws {
        let one = try Latsim.run(Self.grid + ["--jobs", "1", "--csv", "-"])
        let two = try Latsim.run(Self.grid + ["--jobs", "2", "--csv", "-"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == two.stdout)
        let lines = one.stdout.split(separator: "\n")
        #expect(lines.count == 1 + 6 * 2)
        // with two seeds, every figure the scenario produces (Docs/Figures.md),
        // in the catalogue's order, over the merged frames, then `runs`, then
        // each figure's seed mean and interval
        let keys = try Self.producedSweepKeys()
        #expect(keys.first == "touchToPhotonP50" && keys.contains("wastedUpdates") && !keys.contains("tapToPhotonP50"))
        let header = ["gpu.render_ms", "os.buffering"] + keys + ["runs"] + keys.flatMap { [$0 + "SeedMean", $0 + "HalfWidth95"] }
        #expect(lines[0] == header.joined(separator: ","))
        let runs = try #require(header.firstIndex(of: "runs"))
        #expect(lines[1].hasPrefix("4,double,") && lines[1].split(separator: ",", omittingEmptySubsequences: false)[runs] == "2")
        // the wall time is on stderr, never in the data
        #expect(one.stderr.contains("24 runs in "))
        #expect(!one.stdout.contains("runs in"))

        let dir = try Latsim.temporaryDirectory()
        let a = dir.appendingPathComponent("a.json"), b = dir.appendingPathComponent("b.json")
        #expect(try Latsim.run(Self.grid + ["--jobs", "1", "--json", a.path]).status == 0)
        #expect(try Latsim.run(Self.grid + ["--jobs", "2", "--json", b.path]).status == 0)
        let ja = try Data(contentsOf: a)
        #expect(ja == (try Data(contentsOf: b)))
        let rows = try Latsim.rows(ja, kind: "sweep")
        #expect(rows.count == 12)
        #expect(rows[0]["gpu.render"] as? String == "4ms" && rows[0]["runs"] as? Int == 2)
        #expect(rows[0]["fps"] is Double)
    }

    /// The names of the figures a run of the grid's scenario produces,
    /// in the catalogue's order (`latsim figures --json` and the summary
    /// JSON's `figures`).
    static func producedSweepKeys() throws -> [String] {
        let catalogue = try #require(try JSONSerialization.jsonObject(with: Data(try Latsim.run(["figures", "--json", "-"]).stdout.utf8))
            as? [String: Any])["figures"] as? [[String: Any]]
        let summary = try Latsim.onlyRun(try Latsim.run(["run", "ios9-coalescing-120hz", "--duration", "1s", "--json", "-"]).stdout)
        let produced = try #require(summary["figures"] as? [String: Any])
        return try #require(catalogue).compactMap { f in produced[f["name"] as? String ?? ""] == nil ? nil : f["name"] as? String }
    }

    @Test func theTableNamesEveryPoint() throws {
        let o = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms...16ms:7ms", "--duration", "1s"])
        #expect(o.status == 0, "\(o.stderr)")
        for w in ["ios8", "gpu.render", "t2p p50 ms", "t2p p99 ms", "frames p50", "effective p50", "fps", "dropped", "hitch ms/s", "triple %", "9ms", "16ms"] {
            #expect(o.stdout.contains(w), "'\(w)' not in \(o.stdout)")
        }
        #expect(o.stderr.contains("3 runs in "))
        // not a terminal: no progress bar
        #expect(!o.stderr.contains("\r"))
    }

    /// Every malformed --vary: exit 2, one paragraph naming the argument and
    /// what is expected, nothing written.
    @Test(arguments: [
        (["--vary", "gpu.render"], ["--vary: 'gpu.render'", "PATH=FROM...TO[:STEP]"]),
        (["--vary", "gpu.render=2ms..."], ["gpu.render=2ms...", "both ends"]),
        (["--vary", "gpu.render=2ms...16ms:0ms"], ["step '0ms'", "above zero"]),
        (["--vary", "gpu.render=2ms...16ms:-1ms"], ["step '-1ms'", "above zero"]),
        (["--vary", "gpu.render=2ms...16ms:1"], ["step '1'", "wrong unit"]),
        (["--vary", "gpu.render=1ms...2ms:1ms", "--vary", "app.handler=1ms...2ms:1ms", "--vary", "app.commits=1...2"], ["--vary", "one or two"]),
        (["--vary", "app.handler=1us...1000us:1us", "--vary", "gpu.render=1ms...200ms:1ms"], ["1000 x 200 = 200000", "100000"]),
        (["--vary", "gpu.rendr=2ms...4ms"], ["gpu.rendr", "did you mean 'gpu.render'"]),
        (["--vary", "gpu.render=2kg...4kg"], ["gpu.render", "'2kg'", "duration"]),
        ([], ["--vary", "one or two"]),
    ] as [([String], [String])])
    func badVaryExitsTwoAndWritesNothing(args: [String], words: [String]) throws {
        let dir = try Latsim.temporaryDirectory()
        let csv = dir.appendingPathComponent("out.csv"), plot = dir.appendingPathComponent("plot")
        let o = try Latsim.run(["sweep", "ios8"] + args + ["--duration", "1s", "--csv", csv.path, "--plot", plot.path])
        #expect(o.status == 2, "\(args): status \(o.status), stderr \(o.stderr)")
        #expect(o.stdout.isEmpty)
        #expect(o.stderr.hasPrefix("latsim: error: "))
        #expect(o.stderr.split(separator: "\n").count == 1, "one paragraph: \(o.stderr)")
        for w in words { #expect(o.stderr.contains(w), "\(args): '\(w)' not in \(o.stderr)") }
        #expect(!FileManager.default.fileExists(atPath: csv.path))
        #expect(!FileManager.default.fileExists(atPath: plot.path))
    }

    @Test func plotWritesTheChartFiles() throws {
        let dir = try Latsim.temporaryDirectory().appendingPathComponent("charts")
        let o = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms...16ms:1ms", "--duration", "2s", "--plot", dir.path])
        #expect(o.status == 0, "\(o.stderr)")
        for ext in ["gp", "dat"] {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("sweep.\(ext)").path), "sweep.\(ext)")
        }
        let script = try String(contentsOf: dir.appendingPathComponent("sweep.gp"), encoding: .utf8)
        #expect(script.contains("adaptive buffering goes triple"))
        #expect(script.contains("gpu.render (ms)"))
        // the marker sits at the first point held triple: 14 ms (3 ms prepare + GPU > 16.7 ms)
        #expect(script.contains("set arrow from first 14, graph 0"))
        let gnuplot = ["/usr/bin/gnuplot", "/usr/local/bin/gnuplot", "/opt/homebrew/bin/gnuplot"].contains {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        if gnuplot {
            for ext in ["png", "svg"] {
                let path = dir.appendingPathComponent("sweep.\(ext)").path
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                #expect(size > 1000, "sweep.\(ext)")
            }
        } else {
            #expect(o.stderr.contains("gnuplot not found"))
        }
    }
}
