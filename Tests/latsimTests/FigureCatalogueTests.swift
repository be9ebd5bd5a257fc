import Foundation
import Testing

/// The figure catalogue (Docs/Figures.md) walked through every command: a
/// figure a run produces appears in `run`, `run --seeds`, `compare` (every
/// format), `sweep` (table, CSV, JSON) and the summary JSON, its scenario's
/// headline first.
@Suite struct FigureCatalogueTests {
    struct Declared {
        var name, column: String
    }

    static func catalogue() throws -> [Declared] {
        let o = try Latsim.run(["figures", "--json", "-"])
        #expect(o.status == 0, "\(o.stderr)")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
        let figures = try #require(doc["figures"] as? [[String: Any]])
        return try figures.map { f in
            Declared(name: try #require(f["name"] as? String), column: try #require(f["column"] as? String))
        }
    }

    /// The first cell of each row of a text table after its rule line.
    static func rowLabels(_ table: String) -> [String] {
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let rule = lines.firstIndex(where: { $0.hasPrefix("---") }) else { return [] }
        var labels: [String] = []
        for line in lines[(rule + 1)...] {
            if line.isEmpty { break }
            // a column label may hold single spaces; columns are two spaces apart
            labels.append(String(line.components(separatedBy: "  ")[0]).trimmingCharacters(in: .whitespaces))
        }
        return labels
    }

    /// An iOS drawing, an Android, a tap, a force and a prediction scenario,
    /// each with its headline.
    static let cases: [(args: [String], headline: String)] = [
        (["ios9-low-latency"], "touchToPhotonP50"),
        (["android-default"], "touchToPhotonP50"),
        (["agawi-glkit", "--device", "iphone-5"], "tapToPhotonP50"),
        (["ios9-peek-pop"], "touchToPhotonP50"),
        (["ios9-prediction"], "touchToPhotonP50"),
        (["walt-screen", "--device", "nexus-9"], "frameToPhotonP50"),
    ]

    @Test(arguments: 0..<6)
    func everyCommandShowsEveryFigureTheRunProduces(_ i: Int) throws {
        let (args, headline) = Self.cases[i]
        let catalogue = try Self.catalogue()
        let byName = Dictionary(uniqueKeysWithValues: catalogue.map { ($0.name, $0) })
        let scenario = args[0], extra = Array(args.dropFirst()) + ["--duration", "2s"]

        // the summary JSON's figures: what the run produces, in catalogue order
        let summary = try Latsim.onlyRun(try Latsim.run(["run"] + args + ["--duration", "2s", "--json", "-"]).stdout)
        let figures = try #require(summary["figures"] as? [String: Any])
        let produced = catalogue.map(\.name).filter { figures[$0] != nil }
        #expect(produced.contains(headline), "\(scenario): \(produced)")
        let shown = [headline] + produced.filter { $0 != headline }
        let columns = shown.map { byName[$0]!.column }
        // a channel's figures are there exactly when the run has the channel
        let kinds: [String: [String]] = [
            "agawi-glkit": ["tapToPhotonP50", "touchDownMean"], "android-default": ["jankAppDeadlineMissed", "jankBufferStuffing", "buffers"],
            "ios9-peek-pop": ["peekHapticP50", "peekPhotonP50", "popHapticP50", "popPhotonP50"], "ios9-prediction": ["predictionErrorRms", "effectiveP50"],
        ]
        for name in kinds[scenario] ?? [] { #expect(produced.contains(name), "\(scenario) lacks \(name)") }
        #expect(produced.contains("tapToPhotonP50") == (scenario == "agawi-glkit"))
        // FrameTimeline from Android 12: the Nexus 9 runs 6.0.1, its BufferQueue figures without jank classes
        #expect(produced.contains("jankOnTime") == (scenario == "android-default"))
        #expect(produced.contains("buffers") == (scenario == "android-default" || args.contains("nexus-9")))

        // run: a row per figure, the headline first
        let run = try Latsim.run(["run"] + args + ["--duration", "2s"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.rowLabels(run.stdout) == columns, "\(scenario) run:\n\(run.stdout)")

        // run --seeds: the same rows
        let seeds = try Latsim.run(["run"] + args + ["--duration", "2s", "--seeds", "2"])
        #expect(seeds.status == 0, "\(seeds.stderr)")
        #expect(Self.rowLabels(seeds.stdout) == columns, "\(scenario) seeds:\n\(seeds.stdout)")

        // compare: the same figures in every format
        let compare = ["compare", scenario] + extra + ["--seeds", "2", "--b-set", "gpu.render=5ms"]
        let csv = try Latsim.run(compare + ["--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let csvNames = csv.stdout.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[0]) }
        #expect(csvNames == shown, "\(scenario) compare csv")
        let table = try Latsim.run(compare)
        #expect(Self.rowLabels(table.stdout.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")) == columns)
        let markdown = try Latsim.run(compare + ["--format", "markdown"])
        for c in columns { #expect(markdown.stdout.contains("| \(c) |"), "\(scenario) markdown lacks \(c)") }
        let json = try Latsim.result(Data(try Latsim.run(compare + ["--format", "json"]).stdout.utf8), kind: "compare")
        #expect((json["figures"] as? [[String: Any]])?.compactMap { $0["figure"] as? String } == shown)

        // sweep: table, CSV and JSON, with one seed and with two
        for n in ["1", "2"] {
            let sweep = ["sweep", scenario] + extra + ["--vary", "gpu.render=3ms,5ms", "--seeds", n]
            let csv = try Latsim.run(sweep + ["--csv", "-"])
            #expect(csv.status == 0, "\(csv.stderr)")
            let lines = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
            let keys = shown.map { byName[$0]!.name }
            #expect(Array(lines[0][1..<(1 + keys.count)]) == keys, "\(scenario) sweep csv header \(lines[0])")
            // no row can be cut short or run long: every row has a cell per header column
            for row in lines.dropFirst() { #expect(row.count == lines[0].count) }
            if n == "2" {
                for k in keys { #expect(lines[0].contains(k + "SeedMean") && lines[0].contains(k + "HalfWidth95")) }
            }
            let text = try Latsim.run(sweep)
            let header = try #require(text.stdout.split(separator: "\n").first { $0.hasPrefix("gpu.render") })
            for c in columns { #expect(header.contains(c), "\(scenario) sweep table lacks \(c)") }
            #expect(header.range(of: columns[0])!.lowerBound < header.range(of: "fps")!.lowerBound)
            let points = try Latsim.rows(Data(try Latsim.run(sweep + ["--json", "-"]).stdout.utf8), kind: "sweep")
            for k in keys { #expect(points[0].keys.contains(k), "\(scenario) sweep json lacks \(k)") }
        }
    }

    /// Docs/Figures.md is the catalogue printed: it cannot drift.
    @Test func theFigurePageIsTheCatalogue() throws {
        let page = Latsim.packageRoot.appendingPathComponent("Docs/Figures.md")
        let o = try Latsim.run(["figures", "--markdown"])
        #expect(o.status == 0)
        #expect(try String(contentsOf: page, encoding: .utf8) == o.stdout,
                "Docs/Figures.md differs from `latsim figures --markdown`: regenerate it with `swift run latsim figures --markdown > Docs/Figures.md`")
        let names = try Self.catalogue().map(\.name)
        #expect(Set(names).count == names.count)
        // a name says the statistic, not the unit; a former name reads as its figure
        #expect(names.allSatisfy { !$0.hasSuffix("Ms") }, "\(names.filter { $0.hasSuffix("Ms") })")
        for (old, new, scenario) in [("hitchMsPerS", "hitchTimeRatio", "ios8"), ("effectiveP50Ms", "effectiveP50", "ios9-prediction"),
                                     ("peekPhotonMs", "peekPhotonP50", "ios9-peek-pop")] {
            let o = try Latsim.run(["compare", scenario, "--b-set", "gpu.render=3ms", "--duration", "1s", "--fail-if-worse", old,
                                    "--format", "json"])
            #expect(o.status == 0 || o.status == 1, "\(old) is read as \(new): \(o.stderr)")
            #expect(o.stdout.contains("\"\(new)\"") && !o.stdout.contains("\"\(old)\""), "a former name is read, never written")
        }
    }

    /// A tap app's headline reacts to a slower touch controller as two runs
    /// say: a real, worse difference; `--fail-if-worse` gates on it.
    @Test func compareShowsASlowerTouchControllerOnATapApp() throws {
        let base = ["compare", "agawi-glkit", "--device", "iphone-5", "--b-set", "device.touchDownDelay=50ms"]
        let o = try Latsim.run(base + ["--format", "json"])
        #expect(o.status == 0, "\(o.stderr)")
        let doc = try Latsim.result(Data(o.stdout.utf8), kind: "compare")
        let rows = try #require(doc["figures"] as? [[String: Any]])
        #expect(rows.first?["figure"] as? String == "tapToPhotonP50")
        func row(_ name: String) throws -> [String: Any] { try #require(rows.first { $0["figure"] as? String == name }) }
        func mean(_ r: [String: Any], _ side: String) -> Double? { (r[side] as? [String: Any])?["mean"] as? Double }
        let tap = try row("tapToPhotonP50"), down = try row("touchDownMean")
        #expect(tap["verdict"] as? String == "worse" && tap["real"] as? Bool == true)
        // each side is what `run --seeds 5` gives for it
        for (side, extra) in [("a", [String]()), ("b", ["--set", "device.touchDownDelay=50ms"])] {
            let run = try Latsim.onlyRun(try Latsim.run(["run", "agawi-glkit", "--device", "iphone-5", "--seeds", "5", "--json", "-"] + extra).stdout)
            let seeds = try #require((run["seeds"] as? [String: Any])?["figures"] as? [String: [String: Any]])
            #expect(abs((seeds["tapToPhotonP50"]?["mean"] as? Double ?? .nan) - (mean(tap, side) ?? -1)) < 1e-9, "side \(side)")
        }
        // the later touch-down shows a whole number of frames later: the added
        // delay rounded up to the next frame the app draws, so within one
        // display period (16.7 ms at 60 Hz) above the touch-down difference
        let dTap = try #require(mean(tap, "b").flatMap { b in mean(tap, "a").map { b - $0 } })
        let dDown = try #require(mean(down, "b").flatMap { b in mean(down, "a").map { b - $0 } })
        #expect(dDown > 20 && dTap >= dDown && dTap < dDown + 1000.0 / 60, "tap +\(dTap), touch-down +\(dDown)")
        #expect(abs(dTap - 2000.0 / 60) < 0.01, "two frames later: \(dTap)")

        // the gate: worse beyond 5% fails, within 100% passes
        #expect(try Latsim.run(base + ["--fail-if-worse", "tapToPhotonP50:5%"]).status == 1)
        #expect(try Latsim.run(base + ["--fail-if-worse", "tapToPhotonP50:100%"]).status == 0)
        #expect(try Latsim.run(base + ["--fail-if-worse", "tapToPhotonP50:40ms"]).status == 0)
        #expect(try Latsim.run(base + ["--fail-if-worse", "tapToPhotonP50:30ms"]).status == 1)
        // a figure that got no worse passes; the flag repeats
        #expect(try Latsim.run(base + ["--fail-if-worse", "frameToPhotonP50", "--fail-if-worse", "hitches"]).status == 0)
        let fail = try Latsim.run(base + ["--fail-if-worse", "frameToPhotonP50", "--fail-if-worse", "tapToPhotonMean:10ms"])
        #expect(fail.status == 1 && fail.stdout.contains("FAIL tapToPhotonMean") && fail.stdout.contains("pass frameToPhotonP50"))
    }

    /// Bad gates are bad input: exit 2, one paragraph, before anything runs.
    @Test(arguments: [
        ["--fail-if-worse", "tapToPhoton"],
        ["--fail-if-worse", "tapToPhotonP50:5"],
        ["--fail-if-worse", "tapToPhotonP50:-5%"],
        ["--fail-if-worse", "tapToPhotonP50:2frames"],
        ["--fail-if-worse", "touchToPhotonP50"],
        ["--fail-if-worse", "fps:fast"],
    ])
    func aBadGateIsBadInput(_ args: [String]) throws {
        let o = try Latsim.run(["compare", "agawi-glkit", "--device", "iphone-5", "--seeds", "2"] + args)
        #expect(o.status == 2, "\(args): \(o.stderr)")
        #expect(o.stderr.hasPrefix("latsim: error: --fail-if-worse"), "\(o.stderr)")
        #expect(o.stdout.isEmpty)
    }

    /// A tap app's idle screen between taps is neither a repeated frame nor
    /// a hitch, nor is the vsync while a tap's frame is on its way; a slow
    /// drawing app's missed vsyncs are repeated frames.
    @Test func anIdleScreenIsNotAHitch() throws {
        let tap = try Latsim.onlyRun(try Latsim.run(["run", "agawi-glkit", "--device", "iphone-5", "--json", "-"]).stdout)
        let d = try #require(tap["display"] as? [String: Any])
        let presented = try #require(d["framesPresented"] as? Int)
        let shown = try #require((tap["latency"] as? [String: Any])?["framesMeasured"] as? Int)
        // one frame per tap, each as soon as its pipeline allows: at 60 Hz
        // the app draws every tap's frame in one go, so nothing is late
        #expect(presented == shown && shown > 10)
        #expect(d["repeatedFrames"] as? Int == 0 && d["hitches"] as? Int == 0 && d["hitchTimeRatioMsPerS"] as? Double == 0)
        #expect((tap["figures"] as? [String: Any])?["fps"] as? Double == 60)
        // slow-app's 20 ms handler takes two vsyncs per frame: every other
        // vsync repeats while the finger moves (about as many as presented),
        // with no newer commit made yet, so no hitch; fps about 30
        let slow = try Latsim.onlyRun(try Latsim.run(["run", "slow-app", "--json", "-"]).stdout)
        let s = try #require(slow["display"] as? [String: Any])
        let sp = try #require(s["framesPresented"] as? Int), sr = try #require(s["repeatedFrames"] as? Int)
        #expect(abs(sp - sr) <= 1 && sr > 250 && s["hitches"] as? Int == 0, "\(s)")
        let fps = try #require((slow["figures"] as? [String: Any])?["fps"] as? Double)
        #expect(abs(fps - 30) < 0.2)
    }
}

/// A scenario's `headline:` names a figure its runs produce, or the file is
/// bad input naming its line.
@Suite struct HeadlineTests {
    @Test(arguments: [
        ("headline: tapToPhoton\n", "names no figure"),
        ("headline: tapToPhotonP50\n", "is not produced by this scenario's runs"),
    ])
    func aBadHeadlineIsBadInput(_ line: String, _ problem: String) throws {
        let dir = try Latsim.temporaryDirectory()
        let file = dir.appendingPathComponent("mine.yaml")
        try ("name: mine\n" + line).write(to: file, atomically: true, encoding: .utf8)
        for args in [["run", file.path], ["compare", file.path, "--seeds", "2"], ["sweep", file.path, "--vary", "gpu.render=3ms,4ms"]] {
            let o = try Latsim.run(args + ["--duration", "1s"])
            #expect(o.status == 2, "\(args): \(o.stderr)")
            #expect(o.stderr.contains("\(file.path):2") && o.stderr.contains("headline") && o.stderr.contains(problem), "\(o.stderr)")
            #expect(o.stdout.isEmpty)
        }
    }

    @Test func aScenarioNamesItsHeadline() throws {
        let dir = try Latsim.temporaryDirectory()
        let file = dir.appendingPathComponent("mine.yaml")
        try "name: mine\nheadline: touchToPhotonP99\n".write(to: file, atomically: true, encoding: .utf8)
        let o = try Latsim.run(["run", file.path, "--duration", "1s"])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(FigureCatalogueTests.rowLabels(o.stdout).prefix(2) == ["t2p p99 ms", "t2p p50 ms"])
    }
}
