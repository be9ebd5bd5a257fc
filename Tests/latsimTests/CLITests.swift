import Foundation
import Testing

/// The command line as a user meets it: output, JSON, and every class of
/// bad input (exit status 2, one clear paragraph on stderr, nothing written).
@Suite struct CLITests {
    @Test func tableReproducesTheTalkAndExitsZero() throws {
        let o = try Latsim.run(["table", "--duration", "2s"])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(o.stdout.contains("ios9-coalescing-120hz"))
        #expect(!o.stdout.contains("DIFFERS"))
        let j = try Latsim.run(["table", "--duration", "2s", "--json", "-"])
        let rows = try Latsim.rows(Data(j.stdout.utf8), kind: "table")
        #expect(rows.count == 8)
        let prediction = try #require(rows.first { $0["scenario"] as? String == "ios9-prediction" })
        #expect(prediction["effectiveFrames"] as? Double == 1.5)
        #expect(Set(rows[0].keys).isSuperset(of: ["scenario", "label", "talkFrames", "pipelineFrames", "effectiveFrames", "touchToPhotonMsP50"]))
    }

    /// The YAML library reads `YAMS_DEFAULT_ENCODING` when it is not told
    /// the encoding, and then prints a line to standard output: the summary
    /// on standard output stays the document alone (a scenario file and a
    /// device preset are read).
    @Test func theJSONOnStandardOutputIsAloneWhatEverTheEnvironment() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.yaml")
        try "name: from-a-file\napp:\n  handler: 2ms\n".write(to: file, atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["YAMS_DEFAULT_ENCODING"] = "UTF16"
        let o = try Latsim.run(["run", file.path, "--device", "iphone-5", "--duration", "1s", "--json", "-"], environment: environment)
        #expect(o.status == 0, "\(o.stderr)")
        #expect(!o.stdout.contains("YAMS"))
        #expect((try? JSONSerialization.jsonObject(with: Data(o.stdout.utf8))) != nil, "not one JSON document")
    }

    @Test func runWritesTheSummaryJSONWithTheSpecKeys() throws {
        let o = try Latsim.run(["run", "ios9-coalescing-120hz", "--duration", "2s", "--json", "-"])
        #expect(o.status == 0)
        let doc = try Latsim.onlyRun(o.stdout)
        #expect(doc["scenario"] as? String == "ios9-coalescing-120hz")
        let latency = try #require(doc["latency"] as? [String: Any])
        let frames = try #require(latency["pipelineFrames"] as? [String: Double])
        #expect(frames["p50"] == 2.5 && frames["mean"] == 2.5)
        let engine = try #require(doc["engine"] as? [String: Any])
        let byKind = try #require(engine["eventsByKind"] as? [String: Int])
        #expect(engine["realTimeFactor"] is Double)
        #expect(engine["events"] as? Int == byKind.values.reduce(0, +))
        #expect(byKind["latch"] == 120 && byKind["sampleReady"] == 239)
        for key in ["display", "work", "prediction", "simulatedSeconds", "seed"] { #expect(doc.keys.contains(key)) }
    }

    /// Docs/Results.md: the header names the version and the command line
    /// (without where the outputs went), and every run its settings with
    /// where each came from: a default, a line of a file, the command line.
    @Test func aResultSaysWhatMadeIt() throws {
        let v = try Latsim.run(["--version"])
        #expect(v.status == 0 && v.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let dir = try Latsim.temporaryDirectory()
        let file = dir.appendingPathComponent("mine.yaml")
        try "name: mine\nos:\n  renderServer: vsync\napp:\n  handler: 6ms\n".write(to: file, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("r.json")
        let o = try Latsim.run(["run", file.path, "--duration", "1s", "--set", "gpu.render=5ms", "--json", out.path, "--stable"])
        #expect(o.status == 0, "\(o.stderr)")
        let doc = try Latsim.result(try Data(contentsOf: out), kind: "run")
        let header = try #require(doc["latsim"] as? [String: Any])
        #expect(header["version"] as? String == v.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(header["command"] as? String == "latsim run \(file.path) --duration 1s --set gpu.render=5ms")
        let run = try #require((doc["runs"] as? [[String: Any]])?.first)
        let settings = try #require(run["settings"] as? [String: [String: String]])
        #expect(settings["gpu.render"] == ["value": "5ms", "from": "--set"])
        #expect(settings["app.handler"] == ["value": "6ms", "from": "\(file.path):5"])
        #expect(settings["os.renderServer"] == ["value": "vsync", "from": "\(file.path):3"])
        #expect(settings["duration"] == ["value": "1s", "from": "--duration"])
        #expect(settings["device.displayHz"]?["from"] == "default")
        // a device preset's values come from its file
        let d = try Latsim.onlyRun(try Latsim.run(["run", "ios8", "--device", "iphone-5", "--duration", "1s", "--json", "-"]).stdout)
        let ds = try #require(d["settings"] as? [String: [String: String]])
        #expect(ds["device.displayHz"]?["from"]?.hasPrefix("builtin-device:iphone-5:") == true)
        #expect(ds["os.renderServer"]?["from"]?.hasPrefix("builtin:ios8:") == true)
        // Android keys are not an iOS run's settings
        #expect(settings.keys.allSatisfy { !$0.hasPrefix("android.") })
    }

    @Test func theSameSeedGivesByteIdenticalJSON() throws {
        let args = ["run", "ios9-coalescing-120hz", "ios8-complex", "--duration", "3s", "--seed", "7", "--stable", "--json", "-",
                    "--set", "app.handler=normal(4ms,1ms)", "--set", "gpu.render=lognormal(4ms,0.4)"]
        let a = try Latsim.run(args), b = try Latsim.run(args)
        #expect(a.status == 0 && !a.stdout.isEmpty)
        #expect(a.stdout == b.stdout)
        let c = try Latsim.run(args.map { $0 == "7" ? "8" : $0 })
        #expect(c.stdout != a.stdout)
    }

    @Test func anAndroidRunIsByteIdenticalForTheSameSeed() throws {
        let args = ["run", "android-120hz-scan", "android-gs101-120hz", "--duration", "3s", "--seed", "7", "--stable", "--json", "-",
                    "--set", "app.handler=normal(4ms,1ms)", "--set", "gpu.render=lognormal(4ms,0.4)",
                    "--set", "android.sfCompose=uniform(0.5ms,2ms)"]
        let a = try Latsim.run(args), b = try Latsim.run(args)
        #expect(a.status == 0 && a.stdout.contains("\"frameTimeline\""))
        #expect(a.stdout == b.stdout)
        let c = try Latsim.run(args.map { $0 == "7" ? "8" : $0 })
        #expect(c.stdout != a.stdout)
    }

    /// A release before Android 12 had no FrameTimeline: `run` says so
    /// under its table (with `--seeds` too) and prints no jank rows; the
    /// budget of a command-mode panel names the idle wake and the legacy
    /// rule. Android 12 runs print neither.
    @Test func aLegacyReleaseSaysItHasNoFrameTimeline() throws {
        let legacy = try Latsim.run(["run", "walt-screen", "--device", "nexus-5", "--duration", "1s", "--budget"])
        #expect(legacy.status == 0 && legacy.stdout.contains("walt-screen: Android 6.0 has no FrameTimeline (introduced in Android 12)"))
        #expect(!legacy.stdout.contains("stuffing") && legacy.stdout.contains("\nidle wake "))
        #expect(legacy.stdout.contains("follow Android 6.0's legacy DispSync offsets (app 7.5ms, SurfaceFlinger 5ms"))
        let seeds = try Latsim.run(["run", "walt-screen", "--device", "pixel", "--duration", "1s", "--seeds", "2"])
        #expect(seeds.status == 0 && seeds.stdout.contains("Android 7.1 has no FrameTimeline"))
        let twelve = try Latsim.run(["run", "walt-screen", "--device", "pixel-4", "--duration", "1s", "--budget"])
        #expect(twelve.status == 0 && twelve.stdout.contains("stuffing") && !twelve.stdout.contains("FrameTimeline ("))
        #expect(!twelve.stdout.contains("idle wake") && !twelve.stdout.contains("legacy DispSync"))
    }

    @Test func listAndShowPrintTheBuiltins() throws {
        let l = try Latsim.run(["list"])
        #expect(l.status == 0)
        for name in ["ios8", "ios8-complex", "ios9-metal-sync", "promotion-pencil", "slow-app"] { #expect(l.stdout.contains(name)) }
        let s = try Latsim.run(["scenario", "show", "ios8-complex"])
        #expect(s.stdout.contains("prepare: 9ms"))
        // a shown scenario, saved and edited, runs
        let dir = try Latsim.temporaryDirectory()
        let file = dir.appendingPathComponent("mine.yaml")
        try s.stdout.replacingOccurrences(of: "render: 12ms", with: "render: 4ms").write(to: file, atomically: true, encoding: .utf8)
        let r = try Latsim.run(["run", file.path, "--duration", "1s", "--json", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"p50\": 4"))
    }

    /// Every class of bad input: exit 2, the file/key/value named, no stack trace.
    @Test(arguments: [
        (["run", "ios8", "--set", "app.handlr=4ms"], ["app.handlr", "did you mean 'app.handler'"]),
        (["run", "ios8", "--set", "app.handler=-4ms"], ["app.handler", "-4ms", "negative"]),
        (["run", "ios8", "--set", "device.scanHz=0"], ["device.scanHz", "'0'", "outside the range", "from 1 to 10000"]),
        (["run", "ios8", "--set", "device.displayHz=-60"], ["device.displayHz", "outside the range"]),
        (["run", "android-default", "--set", "device.displayHz=59.9400000000001"], ["device.displayHz", "more than 6 decimals"]),
        (["run", "ios8", "--set", "device.sampleInstant=1.5"], ["device.sampleInstant", "1.5", "0...1"]),
        (["run", "ios8", "--set", "app.commits=0"], ["app.commits", "from 1 to 1000"]),
        (["run", "ios8", "--set", "os.buffering=quadruple"], ["os.buffering", "quadruple", "double, triple or adaptive"]),
        (["run", "ios8", "--set", "app.handler=uniform(2ms)"], ["app.handler", "uniform(2ms,6ms)"]),
        (["run", "ios8", "--set", "nonsense"], ["PATH=VALUE"]),
        (["run", "ios9-lowlatency"], ["ios9-lowlatency", "did you mean 'ios9-low-latency'", "built-in scenarios, or a path to a YAML file", "`latsim list` shows them"]),
        (["run", "missing.yaml"], ["missing.yaml", "no such file"]),
        (["run", "ios8", "--duration=-1s"], ["duration", "-1s"]),
        (["run", "ios8", "--set", "input.trajectory=nowhere/trace.csv"], ["input.trajectory", "nowhere/trace.csv"]),
        (["run", "android-default", "--set", "os.renderServer=vsync"], ["os.renderServer", "iOS-only", "Android run"]),
        (["run", "ios8", "--set", "android.buffers=3"], ["android.buffers", "Android key", "iOS run"]),
        (["run", "android-default", "--set", "android.sfCompose=17ms"], ["android.sfCompose", "display period"]),
        (["run", "android-default", "--set", "android.sfCompose=normal(12ms,4ms)"], ["android.sfCompose", "display period"]),
        (["run", "android-default", "--set", "android.appPhaseOffset=7.5ms"], ["android.appPhaseOffset", "android.sfPhaseOffset"]),
    ] as [([String], [String])])
    func badInputExitsTwoWithAClearMessage(args: [String], words: [String]) throws {
        let o = try Latsim.run(args)
        #expect(o.status == 2, "\(args): status \(o.status), stderr \(o.stderr)")
        #expect(o.stdout.isEmpty)
        #expect(o.stderr.hasPrefix("latsim: error: "))
        for w in words { #expect(o.stderr.contains(w), "\(args): '\(w)' not in \(o.stderr)") }
        #expect(!o.stderr.contains("Fatal error") && !o.stderr.contains("Stack dump"))
        #expect(o.stderr.split(separator: "\n").count <= 2)
    }

    @Test func badScenarioFilesNameTheFileTheKeyAndTheLine() throws {
        let dir = try Latsim.temporaryDirectory()
        let cases: [(String, [String])] = [
            ("os:\n  renderServer: vsync\napp:\n  handlr: 4ms\n", ["bad.yaml:4:3", "app.handlr", "did you mean 'app.handler'"]),
            ("app:\n  handler: [4ms\n  commits: 2\n", ["bad.yaml:", "malformed YAML"]),
            ("gpu:\n  render: -2ms\n", ["bad.yaml:2:3", "gpu.render", "-2ms"]),
            ("device:\n  scanHz: fast\n", ["bad.yaml:2:3", "device.scanHz", "'fast'", "Hz"]),
            ("just a string\n", ["bad.yaml", "mapping"]),
        ]
        for (yaml, words) in cases {
            let file = dir.appendingPathComponent("bad.yaml")
            try yaml.write(to: file, atomically: true, encoding: .utf8)
            let out = dir.appendingPathComponent("out.json")
            let o = try Latsim.run(["run", "bad.yaml", "--json", out.path], in: dir)
            #expect(o.status == 2, "\(yaml)")
            for w in words { #expect(o.stderr.contains(w), "'\(w)' not in \(o.stderr)") }
            #expect(!FileManager.default.fileExists(atPath: out.path), "nothing is written on bad input")
        }
    }
}
