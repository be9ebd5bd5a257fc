import Foundation
import Testing

/// Every input that once crashed latsim, hung it, wrote something wrong or
/// was refused unclearly: each now exits 2 with one short paragraph naming
/// what is wrong, or is accepted and runs (Docs/Limits.md).
@Suite struct RobustnessTests {
    /// Values that overflowed 64-bit nanoseconds, took rates to zero or
    /// infinity, or drew past the range: refused by the key's range.
    @Test(arguments: [
        (["run", "ios8", "--duration", "1e10s"], ["duration", "1e10s"]),
        (["run", "ios8", "--set", "app.handler=1e17s"], ["app.handler", "too long"]),
        (["run", "ios8", "--set", "app.prediction.horizon=1e15frames"], ["app.prediction.horizon"]),
        (["run", "ios8", "--set", "app.animations=0s..1e12s"], ["app.animations"]),
        (["predict", "--horizon", "1e17", "--duration", "1s"], ["--horizon"]),
        (["run", "ios8", "--set", "app.handler=lognormal(4ms,100)"], ["sigma", "from 0 to 4"]),
        (["run", "ios8", "--set", "app.handler=lognormal(4ms,1e308)"], ["sigma"]),
        (["run", "ios8", "--set", "app.handler=lognormal(4ms,0x10)"], ["sigma"]),
        (["run", "ios8", "--set", "app.handler=normal(9000000000s,9000000000s)"], ["app.handler"]),
        (["run", "ios8", "--set", "device.displayHz=1e-17"], ["device.displayHz"]),
        (["run", "ios8", "--set", "device.scanHz=1e-12"], ["device.scanHz"]),
        (["run", "ios8", "--set", "device.scanHz=1e12", "--duration", "1ms"], ["device.scanHz", "from 1 to 10000"]),
        (["run", "ios8", "--set", "device.displayHz=1e12"], ["device.displayHz"]),
        (["run", "ios8", "--set", "device.panelResponse=9223372036s"], ["device.panelResponse"]),
        (["run", "ios8", "--set", "device.noise=1e308"], ["device.noise"]),
        (["run", "ios8", "--set", "device.noise=0x10"], ["device.noise"]),
        (["run", "ios8", "--set", "app.animations=0s...4s"], ["app.animations", "interval"]),
        (["run", "ios8", "--seed", "-1"], ["--seed", "-1"]),
    ] as [([String], [String])])
    func absurdValuesAreBadInput(args: [String], words: [String]) throws {
        let o = try Latsim.run(args)
        #expect(o.status == 2, "\(args): \(o.status) \(o.stderr)")
        for w in words { #expect(o.stderr.contains(w), "\(args): '\(w)' not in \(o.stderr)") }
        #expect(o.stderr.count < 1_000 && !o.stderr.contains("Fatal error"))
    }

    /// Work that would take hours, or memory a machine does not have, is
    /// refused before it starts, saying how much and how to proceed.
    @Test(arguments: [
        (["run", "ios8", "--duration", "36000s", "--trace", "/tmp/latsim-never.json"], ["trace", "GB of file", "--max-events"]),
        (["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--seeds", "1000000000"], ["--seeds"]),
        (["sweep", "ios8", "--vary", "gpu.render=1ms...100ms:1ms", "--seeds", "10000"], ["model events", "--max-events"]),
        (["report", "--duration", "1e6s", "--out", "/tmp/latsim-never-report"], ["model events"]),
        // every seed's figures are kept: 200 x 10000 runs is past 1,000,000, however short
        (["sweep", "ios8", "--vary", "gpu.render=1ms...200ms:1ms", "--seeds", "10000", "--duration", "1ms", "--json", "/tmp/latsim-never.json"],
         ["200 points x 10000 seeds", "1000000"]),
        (["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--seeds", "4", "--seed", "18446744073709551615"], ["seed"]),
        (["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--set", "gpu.render=9ms"], ["gpu.render", "also varied"]),
        (["predict", "--duration", "1e6s", "--json", "/tmp/latsim-never.json"], ["model events", "--max-events"]),
        (["run", "ios8", "--seeds", "1000", "--duration", "1e4s"], ["model events", "--max-events"]),
        // nothing to score is not a table of zeros
        (["predict", "--trajectory", "circle", "--duration", "0.01s", "--json", "/tmp/latsim-never.json"], ["no touch sample was scored"]),
        // a percentage is a plain decimal: Swift alone would read 0x10 as 16
        (["regress", "--baseline", "/tmp/latsim-never.json", "--tolerance", "0x10"], ["--tolerance", "0x10"]),
    ] as [([String], [String])])
    func workPastTheLimitsIsRefusedFirst(args: [String], words: [String]) throws {
        let started = Date()
        let o = try Latsim.run(args)
        #expect(o.status == 2, "\(args): \(o.status) \(o.stderr)")
        for w in words { #expect(o.stderr.contains(w), "\(args): '\(w)' not in \(o.stderr)") }
        #expect(Date().timeIntervalSince(started) < 30, "refused before any work")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/latsim-never.json"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/latsim-never-report"))
    }

    /// Two outputs to one place are refused before anything is written.
    @Test func twoOutputsToOneFileAreRefused() throws {
        let dir = try Latsim.temporaryDirectory()
        let x = dir.appendingPathComponent("x.json").path
        let a = try Latsim.run(["run", "ios8", "--duration", "1s", "--trace", x, "--json", x])
        #expect(a.status == 2 && a.stderr.contains("same"), "\(a.stderr)")
        #expect(!FileManager.default.fileExists(atPath: x))
        let b = try Latsim.run(["run", "ios8", "--duration", "1s", "--trace", "-", "--json", "-"])
        #expect(b.status == 2 && b.stdout.isEmpty, "\(b.stderr)")
        // a sweep whose later output cannot be written leaves no earlier one behind
        let csv = dir.appendingPathComponent("grid.csv").path
        let c = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--duration", "1s", "--csv", csv,
                                "--json", dir.path])
        #expect(c.status == 2)
        #expect(!FileManager.default.fileExists(atPath: csv))
    }

    /// Trace files: CRLF line endings are read; values past the range, text
    /// that is not UTF-8 and huge echoes are refused clearly.
    @Test func traceFilesAreReadOrRefusedClearly() throws {
        let dir = try Latsim.temporaryDirectory()
        func file(_ name: String, _ bytes: Data) throws -> String {
            let u = dir.appendingPathComponent(name)
            try bytes.write(to: u)
            return u.path
        }
        let crlf = try file("crlf.csv", Data("t_ms,x,y\r\n0,10,10\r\n8,20,10\r\n16,30,10\r\n24,40,10\r\n".utf8))
        let ok = try Latsim.run(["run", "ios8", "--duration", "100ms", "--set", "input.trajectory=\(crlf)"])
        #expect(ok.status == 0, "\(ok.stderr)")

        let row = String(repeating: "9", count: 100_000)
        let cases: [(String, Data, [String])] = [
            ("big.csv", Data("t_ms,x,y\n0,10,10\n1e13,20,10\n".utf8), ["big.csv:3", "out of range"]),
            ("huge.csv", Data("t_ms,x,y\n0,10,10\n1e300,20,10\n".utf8), ["huge.csv:3", "out of range"]),
            ("span.csv", Data("t_ms,x,y\n-9e11,10,10\n9e11,20,10\n".utf8), ["span.csv", "days"]),
            ("coord.csv", Data("t_ms,x,y\n0,1e308,10\n8,20,10\n".utf8), ["coord.csv:2", "out of range"]),
            ("hex.csv", Data("t_ms,x,y\n0,0x10,10\n8,20,10\n".utf8), ["hex.csv:2", "not a number"]),
            ("long.csv", Data("t_ms,x,y\n0,\(row),10\n".utf8), ["long.csv:2"]),
            ("big.xml", Data("<G><Point X=\"1\" Y=\"2\" T=\"0\"/><Point X=\"1\" Y=\"2\" T=\"1e13\"/></G>".utf8), ["big.xml", "out of range"]),
            ("wide.xml", "<G><Point X=\"1\" Y=\"2\" T=\"0\"/></G>".data(using: .utf16)!, ["wide.xml", "not UTF-8"]),
        ]
        for (name, bytes, words) in cases {
            let path = try file(name, bytes)
            let o = try Latsim.run(["run", "ios8", "--duration", "1s", "--set", "input.trajectory=\(path)"])
            #expect(o.status == 2, "\(name): \(o.status) \(o.stderr)")
            for w in words { #expect(o.stderr.contains(w), "\(name): '\(w)' not in \(o.stderr)") }
            #expect(o.stderr.count < 1_000, "\(name): a short message, not the file (\(o.stderr.count) characters)")
        }
    }

    /// Scenario files: a key given both dotted and nested is refused, a
    /// huge file is refused before it is parsed, and `scenario show`
    /// refuses what `run` would refuse.
    @Test func scenarioFilesAreCheckedWhole() throws {
        let dir = try Latsim.temporaryDirectory()
        let twice = dir.appendingPathComponent("twice.yaml")
        try "os.renderServer: vsync\nos:\n  renderServer: lowLatency\n".write(to: twice, atomically: true, encoding: .utf8)
        let a = try Latsim.run(["run", twice.path])
        #expect(a.status == 2 && a.stderr.contains("twice.yaml:3") && a.stderr.contains("set twice"), "\(a.stderr)")

        let huge = dir.appendingPathComponent("huge.yaml")
        try ("duration: 1s\nnonsense: 1\n" + String(repeating: "# padding\n", count: 300_000)).write(to: huge, atomically: true, encoding: .utf8)
        let started = Date()
        let b = try Latsim.run(["run", huge.path])
        #expect(b.status == 2 && b.stderr.contains("1 MiB"), "\(b.stderr)")
        #expect(Date().timeIntervalSince(started) < 10)

        let bad = dir.appendingPathComponent("bad.yaml")
        try "app:\n  handler: -1ms\n".write(to: bad, atomically: true, encoding: .utf8)
        let c = try Latsim.run(["scenario", "show", bad.path])
        #expect(c.status == 2 && c.stdout.isEmpty && c.stderr.contains("bad.yaml:2"), "\(c.stderr)")
    }

    /// A report too short to measure anything says so in its prose; no table
    /// shows nan or inf.
    @Test func aReportThatMeasuredNothingSaysSo() throws {
        let dir = try Latsim.temporaryDirectory().appendingPathComponent("Reports")
        let o = try Latsim.run(["report", "--duration", "1ms", "--out", dir.path], environment: ["PATH": ""])
        #expect(o.status == 0, "\(o.stderr)")
        let page = try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(page.range(of: #"\b(nan|-?inf)\b"#, options: .regularExpression) == nil)
        #expect(!page.contains("The largest stage of each: ."))
        #expect(page.contains("0 of 8 rows"))
        #expect(page.contains("measured no frame"))
        #expect(!page.contains("Every displayed frame of every row"))
    }
}
