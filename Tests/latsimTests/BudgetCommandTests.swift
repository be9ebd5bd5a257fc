import Foundation
import Testing

/// `run --budget`, `run --frames` and `diagram --timeline`, as a user runs them.
@Suite struct BudgetCommandTests {
    /// ms with six decimals as whole nanoseconds (exact, no floating point).
    static func nanos(_ s: String) throws -> Int64 {
        let negative = s.hasPrefix("-")
        let parts = (negative ? String(s.dropFirst()) : s).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 6, let whole = Int64(parts[0]), let frac = Int64(parts[1]) else {
            throw CocoaError(.formatting, userInfo: [NSDebugDescriptionErrorKey: "not ms with six decimals: \(s)"])
        }
        return (negative ? -1 : 1) * (whole * 1_000_000 + frac)
    }

    @Test func budgetTablePrintsEveryStageAndTheTotal() throws {
        let o = try Latsim.run(["run", "ios8", "android-default", "--duration", "2s", "--budget"])
        #expect(o.status == 0, "\(o.stderr)")
        for stage in ["scan", "render server wait", "latch wait", "scan-out", "resampling", "batch wait", "present wait"] {
            #expect(o.stdout.contains("\n\(stage) "), "\(stage)")
        }
        let ios8 = o.stdout.components(separatedBy: "\n").first { $0.hasPrefix("render server wait") }
        #expect(ios8?.contains("12.667") == true && ios8?.contains("25.3%") == true, "\(ios8 ?? "")")
        #expect(o.stdout.components(separatedBy: "touch-to-photon ").count == 3)
    }

    /// Every `new` row's stages add up to its touch-to-photon to the
    /// nanosecond, on both platforms, with varying durations; every vsync
    /// from the first frame has a row.
    @Test(arguments: [["ios9-coalescing-120hz", "--set", "gpu.render=lognormal(6ms,0.5)", "--set", "app.animations=1s..2s"],
                      ["android-120hz-scan", "--set", "app.handler=lognormal(8ms,0.6)", "--set", "input.liftOff=true"]])
    func framesCSVRowsAddUpToTheNanosecond(_ args: [String]) throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("frames.csv")
        let o = try Latsim.run(["run"] + args + ["--duration", "3s", "--frames", csv.path, "--json", dir.appendingPathComponent("r.json").path])
        #expect(o.status == 0, "\(o.stderr)")
        let lines = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(header.firstIndex(of: "pipeline_frames")) + 1
        let ttp = try #require(header.firstIndex(of: "touch_to_photon_ms"))
        var measured = 0, vsyncs: [Int64] = []
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(cells.count == header.count)
            vsyncs.append(try Self.nanos(cells[0]))
            guard cells[2] == "new" else {
                #expect(cells[ttp].isEmpty && cells[first].isEmpty)
                continue
            }
            measured += 1
            let sum = try cells[first...].map(Self.nanos).reduce(0, +)
            #expect(sum == (try Self.nanos(cells[ttp])), "\(line)")
            #expect(try Self.nanos(cells[8]) - Self.nanos(cells[7]) == Self.nanos(cells[ttp]))
        }
        // the JSON's frames measured are the CSV's new rows
        let json = try Latsim.rows(try Data(contentsOf: dir.appendingPathComponent("r.json")), kind: "run").first
        let latency = try #require(json?["latency"] as? [String: Any])
        #expect(latency["framesMeasured"] as? Int == measured)
        #expect(measured > 100)
        // a row per vsync: consecutive rows one display period apart
        let gaps = Set(zip(vsyncs, vsyncs.dropFirst()).map { $1 - $0 })
        #expect(gaps.allSatisfy { (8_333_333...8_333_334).contains($0) || (16_666_666...16_666_667).contains($0) }, "\(gaps)")
        let budget = try #require(latency["budgetMs"] as? [String: Any])
        #expect(budget.keys.contains("scan") && budget.keys.contains("gpu"))
    }

    /// A run splits its frames into the budget only when an output shows
    /// it: the plain table is the same with and without the summary JSON,
    /// and the JSON alone (no `--budget`) carries every run's budget.
    @Test func theBudgetIsSplitWhenAnOutputShowsIt() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["run", "ios9-coalescing-120hz", "android-default", "--duration", "2s"]
        let plain = try Latsim.run(args)
        let file = dir.appendingPathComponent("r.json")
        let withJSON = try Latsim.run(args + ["--json", file.path])
        #expect(plain.status == 0 && withJSON.status == 0, "\(plain.stderr)\(withJSON.stderr)")
        #expect(plain.stdout == withJSON.stdout)
        let runs = try Latsim.rows(try Data(contentsOf: file), kind: "run")
        #expect(runs.count == 2)
        for run in runs {
            let latency = try #require(run["latency"] as? [String: Any])
            let budget = try #require(latency["budgetMs"] as? [String: Any])
            #expect(budget.keys.contains("scan") && budget.keys.contains("latchWait"), "\(budget.keys.sorted())")
        }
    }

    @Test func severalScenariosGetAFramesFileEach() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Latsim.run(["run", "ios8", "android-default", "--duration", "1s", "--frames", dir.appendingPathComponent("f.csv").path])
        #expect(o.status == 0, "\(o.stderr)")
        let ios = try String(contentsOf: dir.appendingPathComponent("f-ios8.csv"), encoding: .utf8)
        let android = try String(contentsOf: dir.appendingPathComponent("f-android-default.csv"), encoding: .utf8)
        #expect(ios.hasPrefix("vsync_ms,") && ios.contains(",render_server_wait_ms,"))
        #expect(android.contains(",resampling_ms,") && android.contains(",present_wait_ms,"))
    }

    @Test func timelineDrawsTheWholeRun() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try Latsim.run(["diagram", "ios9-low-latency", "--timeline", "--duration", "3s", "--set", "app.animations=1s..2s",
                                "--out", dir.path])
        #expect(o.status == 0, "\(o.stderr)")
        let gp = try String(contentsOf: dir.appendingPathComponent("timeline-ios9-low-latency.gp"), encoding: .utf8)
        #expect(gp.contains("animations (low latency off)") && gp.contains("$latency"))
        let bad = try Latsim.run(["diagram", "ios8", "--duration", "3s", "--out", dir.path])
        #expect(bad.status == 2 && bad.stderr.contains("--timeline"), "\(bad.stderr)")
    }
}
