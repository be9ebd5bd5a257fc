import Experiments
import FramePipeline
import Foundation
import Scenarios
import SimKernel
import Testing

/// Files a user (or an attacker) hands latsim: each is refused in one short
/// paragraph, or read right; none traps, hangs or grows without bound.
@Suite struct HostileFileTests {
    static func folder() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    // MARK: part files

    /// A real part, as JSON text, with `edit` applied to its object.
    static func part(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        let axes = [try SweepAxis(parsing: "gpu.render=2ms,4ms")]
        let result = try Sweep.run(scenario: try Scenario.named("ios8"),
                                   assignments: [Assignment(path: "duration", value: "200ms", source: SettingSource(file: "t"))],
                                   axes: axes, jobs: 1, shard: try Shard(index: 0, count: 2))
        var object = try #require(try JSONSerialization.jsonObject(with: try SweepPart(result).encoded()) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// A part's `shard` was trusted: count 0 indexed out of range, a count
    /// of 1e7 made a 179 MB message, 1e9 ground toward running out of memory.
    @Test(arguments: [(0, 0), (-1, 2), (2, 2), (0, 10_000_000), (0, 1_000_000_000), (Int.max, Int.max), (Int.min, 1)])
    func aPartsShardIsCheckedWhenRead(_ index: Int, _ count: Int) throws {
        let data = try Self.part { $0["shard"] = ["index": index, "count": count] }
        let e = try #require(thrown { _ = try SweepPart.decode(data, file: "p.json") })
        #expect(e.kind == .badInput && e.file == "p.json" && e.description.contains("not a shard") && e.description.count < 300, "\(e)")
    }

    @Test func aMissingShardListIsShortAndShardBoundsCannotOverflow() throws {
        // shard 0 of the most shards holds none of the grid's 2 points
        let part = try SweepPart.decode(try Self.part {
            $0["shard"] = ["index": 0, "count": Shard.maximumCount]
            $0["rows"] = [Any]()
            $0["runs"] = 0
        }, file: "p.json")
        let e = try #require(thrown { _ = try SweepPart.inShardOrder([("p.json", part)], job: "sweep") })
        #expect(e.description.contains("and 99989 more") && e.description.count < 400, "\(e)")
        // the products are taken at double width
        let last = try Shard(index: Shard.maximumCount - 1, count: Shard.maximumCount)
        #expect(last.points(of: Int.max).upperBound == Int.max)
        #expect(try Shard(index: 0, count: 3).points(of: 10) == 0..<3)
        #expect(try Shard(index: 2, count: 3).points(of: 10) == 6..<10)
        #expect(last.points(of: -5).isEmpty)
    }

    /// A prediction part's `cells` below 0 once made a Range trap.
    @Test(arguments: [-1, Int.min, 2_000_000_000])
    func aPredictionPartsCellsAreChecked(_ cells: Int) throws {
        let text = #"{"version":1,"shard":{"index":0,"count":1},"command":"c","motion":"m","setting":"s","scorecards":[],"cells":\#(cells),"results":[],"wallSeconds":0}"#
        let e = try #require(thrown { _ = try PredictionPart.decode(Data(text.utf8), file: "p.json") })
        #expect(e.kind == .badInput && e.description.contains("cells") && e.description.count < 300, "\(e)")
    }

    // MARK: scenario and device names

    /// `name: "x/../../victim"` once led `--trace out/t.json` to replace
    /// ./victim.json; a `/` trapped `diagram`.
    @Test(arguments: ["x/../../victim", "../up", ".hidden", "a b", "\u{1}"])
    func aScenarioNameIsAnIdentifier(_ name: String) throws {
        let e = try #require(thrown { _ = try Scenario(yaml: "name: \"\(name.replacingOccurrences(of: "\u{1}", with: "\\x01"))\"\n", file: "s.yaml", defaultName: "s") })
        #expect(e.file == "s.yaml" && e.line == 1 && e.key == "name" && e.description.contains("scenario name of letters"), "\(e)")
        let d = try #require(thrown { _ = try DevicePreset(yaml: "name: \"\(name.replacingOccurrences(of: "\u{1}", with: "\\x01"))\"\nplatform: ios\n", file: "d.yaml") })
        #expect(d.file == "d.yaml" && d.key == "name" && d.description.contains("device name of"), "\(d)")
    }

    @Test func aFileNameThatIsNoScenarioNameNeedsANameLine() throws {
        let e = try #require(thrown { _ = try Scenario(yaml: "", file: "my scenario.yaml", defaultName: "my scenario") })
        #expect(e.description.contains("no name: line"), "\(e)")
        #expect(try Scenario(yaml: "name: mine\n", file: "my scenario.yaml", defaultName: "my scenario").name == "mine")
    }

    // MARK: YAML

    /// Aliases once expanded a 740 KB file to five million intervals (and a
    /// 1 MB one to 900 MB of memory): the document is bounded by what it
    /// expands to.
    @Test func anAliasBombIsRefusedQuickly() throws {
        var yaml = "a0: &a0 \"" + String(repeating: "0.1s...0.2s,", count: 40) + "\"\n"
        for level in 1...8 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        yaml += "app:\n  animations: *a8\n"
        #expect(yaml.utf8.count < 2_000)
        let start = Date()
        let e = try #require(thrown { _ = try Scenario(yaml: yaml, file: "bomb.yaml", defaultName: "bomb") })
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(e.file == "bomb.yaml" && e.description.contains("expands to") && e.description.count < 400, "\(e)")
        // a scalar repeated through aliases counts its bytes each time
        let wide = "s: &s \"" + String(repeating: "x", count: 100_000) + "\"\nlist: [" + Array(repeating: "*s", count: 30).joined(separator: ",") + "]\n"
        let w = try #require(thrown { _ = try Scenario(yaml: wide, file: "wide.yaml", defaultName: "wide") })
        #expect(w.description.contains("MiB of text"), "\(w)")
    }

    /// libyaml's messages quoted the whole offending line: a 100 KB line
    /// gave a 200 KB message, 20,000 duplicated keys a 149 KB one.
    @Test func yamlMessagesAreShortAndNameTheLine() throws {
        let long = "name: x\napp:\n  handler: [" + String(repeating: "a", count: 100_000) + "\n"
        let e = try #require(thrown { _ = try Scenario(yaml: long, file: "long.yaml", defaultName: "long") })
        #expect(e.line != nil && e.description.count < 400, "\(e.description.prefix(500))")
        let duplicated = (0..<20_000).map { "k\($0 % 10_000)\(String(repeating: "y", count: 5)): 1" }.joined(separator: "\n")
        let d = try #require(thrown { _ = try Scenario(yaml: duplicated, file: "dup.yaml", defaultName: "dup") })
        #expect(d.description.count < 400 && d.description.contains("more"), "\(d.description.prefix(500))")
        let device = try #require(thrown { _ = try DevicePreset(yaml: long, file: "dev.yaml") })
        #expect(device.description.count < 400)
    }

    // MARK: measured durations

    /// A Perfetto column `"Buffer Stuffing, App Deadline Missed"` once
    /// shifted the cells after it: the run read its GPU time from the wrong
    /// column without a word.
    @Test func quotedCellsAreOneCell() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("frames.csv").path
        let text = "\"ts\",\"jank_type\",\"gpu_ms\",\"note\"\r\n"
            + "1,\"Buffer Stuffing, App Deadline Missed\",3.2,\"said \"\"hi\"\"\"\r\n"
            + "2,None,3.4,\"two\nlines, and a comma\"\r\n"
            + "3,\"a,b,c\",3.6,x\r\n\n"
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        let c = try Scenario.named("ios8").configuration(overrides: ["gpu.render=empirical(@\(file):gpu_ms)"])
        #expect(c.gpuRender == .empirical([3_200_000, 3_400_000, 3_600_000]))
        let note = try #require(thrown { _ = try Scenario.named("ios8").configuration(overrides: ["gpu.render=empirical(@\(file):note)"]) })
        #expect(note.description.contains("frames.csv:2") && note.description.contains("said \"hi\""), "\(note)")
    }

    /// The byte path gives exactly the durations the general parser gives.
    @Test func plainDecimalsMatchTheDurationParser() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var random = SeededRandom(seed: 7)
        var cells: [String] = ["0", "0.0000005", "0.0000015", "1.", ".5", "16.6666665", "3600000", " 4.25 ", "000012.5"]
        for _ in 0..<300 {
            let whole = Int(random.next() % 100_000), fraction = String(random.next() % 1_000_000_000)
            cells.append("\(whole).\(fraction)")
        }
        for unit in ["ms", "us", "ns"] {
            let file = dir.appendingPathComponent("d.csv").path
            try ("v_\(unit)\n" + cells.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
            let values = try Scenario.named("ios8").configuration(overrides: ["app.handler=empirical(@\(file):v_\(unit))"])
            var expected: [SimTime] = []
            for cell in cells {
                let t = cell.trimmingCharacters(in: .whitespaces)
                if let v = try? DurationSyntax.parse(t + unit, framePeriod: Rational(16_666_667)), v <= 3_600 * Nanos.perSecond { expected.append(v) }
            }
            #expect(expected.count == cells.count)
            #expect(values.handler == .empirical(expected), "\(unit)")
        }
    }
}
