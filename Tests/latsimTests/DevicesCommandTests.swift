import Foundation
import Testing

/// `latsim devices`, `--device`, taps on the command line and `latsim
/// validate`, run as a user would (Docs/Devices.md).
@Suite struct DevicesCommandTests {
    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func devicesListsEveryPresetAndShowPrintsSources() throws {
        let list = try Latsim.run(["devices"])
        #expect(list.status == 0, "\(list.stderr)")
        for name in ["ipad-air-2", "ipad-mini", "ipad-pro-2015", "ipad-pro-2017", "iphone-5", "iphone-x", "nexus-5", "nexus-5x",
                     "nexus-7-2013", "nexus-9", "pixel", "pixel-xl", "pixel-4", "pixel-6"] {
            #expect(list.stdout.contains("\n\(name) "), "\(name) missing")
        }
        let show = try Latsim.run(["devices", "--show", "nexus-9"])
        #expect(show.status == 0)
        #expect(show.stdout.contains("device.touchDownDelay") && show.stdout.contains("WALT docs/TapLatency.md")
                && show.stdout.contains("class lcd") && show.stdout.contains("flounder BoardConfig.mk"), "\(show.stdout)")
        let air = try Latsim.run(["devices", "--show", "ipad-air-2"])
        #expect(air.stdout.contains("follows the talk"))
        let bad = try Latsim.run(["devices", "--show", "nexus-10"])
        #expect(bad.status == 2 && bad.stderr.contains("--show") && bad.stderr.contains("'nexus-10'")
                && bad.stderr.contains("`latsim devices` lists them"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
    }

    /// The list gives each Android preset's release, and names the presets
    /// whose every key and value are the same (the first iPhone and iPad
    /// mini: the talk's 60 Hz display and scan, the LCD class), and only
    /// those; their runs give the same figures.
    @Test func devicesNamesThePresetsNothingTellsApart() throws {
        let list = try Latsim.run(["devices"])
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("nexus-5 ") && $0.contains(" 6.0 ") })
        #expect(lines.contains { $0.hasPrefix("pixel ") && $0.contains(" 7.1 ") })
        let same = lines.filter { $0.hasPrefix("Indistinguishable") }
        #expect(same.count == 1 && same[0].contains("iphone-5 and ipad-mini"), "\(same)")
        let show = try Latsim.run(["devices", "--show", "iphone-5"])
        #expect(show.stdout.contains("Indistinguishable from ipad-mini"))
        let a = try Latsim.run(["run", "walt-screen", "--device", "iphone-5", "--duration", "2s", "--json", "-", "--stable"])
        let b = try Latsim.run(["run", "walt-screen", "--device", "ipad-mini", "--duration", "2s", "--json", "-", "--stable"])
        let la = try #require((try Latsim.onlyRun(a.stdout))["latency"] as? [String: Any])
        let lb = try #require((try Latsim.onlyRun(b.stdout))["latency"] as? [String: Any])
        #expect(NSDictionary(dictionary: la).isEqual(to: lb))
    }

    /// `--device` applies a preset; `--set` still wins; the summary names it.
    @Test func runOnADevice() throws {
        let o = try Latsim.run(["run", "walt-screen", "--device", "nexus-9", "--duration", "2s", "--json", "-", "--stable"])
        #expect(o.status == 0, "\(o.stderr)")
        let doc = try Latsim.onlyRun(o.stdout)
        let device = try #require(doc["device"] as? [String: Any])
        #expect(device["preset"] as? String == "nexus-9" && device["panelResponseMs"] as? Double == 7)
        let f2p = try #require((doc["latency"] as? [String: Any])?["frameToPhotonMs"] as? [String: Any])
        #expect(f2p["mean"] as? Double == 48.666667) // D_app + D_sf + T/2 + 7 ms (DeviceTests)
        let over = try Latsim.run(["run", "walt-screen", "--device", "nexus-9", "--set", "device.panelResponse=0ms", "--duration", "2s",
                                   "--json", "-"])
        let f2p0 = (((try Latsim.onlyRun(over.stdout))["latency"] as? [String: Any])?["frameToPhotonMs"] as? [String: Any])?["mean"]
        #expect(f2p0 as? Double == 41.666667)
    }

    @Test func aDeviceOfTheOtherPlatformOrAnUnknownOneIsBadInput() throws {
        let dir = try Latsim.temporaryDirectory()
        let out = dir.appendingPathComponent("out.json")
        let o = try Latsim.run(["run", "agawi-glkit", "--device", "pixel", "--json", out.path])
        #expect(o.status == 2 && o.stderr.contains("agawi-glkit") && o.stderr.contains("Android device"), "\(o.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let u = try Latsim.run(["run", "ios8", "--device", "ipad-air-3"])
        #expect(u.status == 2 && u.stderr.contains("--device") && u.stderr.contains("did you mean 'ipad-air-2'"), "\(u.stderr)")
        // a scenario file naming a device file next to it
        try "name: ours\nplatform: android\nclasses: [lcd]\nparameters:\n  device.displayHz: {value: 90, from: manufacturer, source: our spec sheet}\n"
            .write(to: dir.appendingPathComponent("ours.yaml"), atomically: true, encoding: .utf8)
        try "device: ours.yaml\nos:\n  platform: android\n".write(to: dir.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        let f = try Latsim.run(["run", dir.appendingPathComponent("app.yaml").path, "--duration", "1s", "--json", "-"])
        #expect(f.status == 0, "\(f.stderr)")
        let hz = ((try Latsim.onlyRun(f.stdout))["device"] as? [String: Any])?["displayHz"] as? Double
        #expect(hz == 90)
    }

    /// A tap run prints its tap figures; a tap that cannot lift is bad input.
    @Test func tapsOnTheCommandLine() throws {
        let o = try Latsim.run(["run", "ios9-low-latency", "--set", "input.trajectory=taps", "--duration", "2s"])
        #expect(o.status == 0 && o.stdout.contains("tap p50 ms") && o.stdout.contains("41.667"), "\(o.stdout)\(o.stderr)")
        #expect(!o.stderr.contains("measured no frame"))
        let bad = try Latsim.run(["run", "ios9-low-latency", "--set", "input.trajectory=taps", "--set", "input.tapJitter=450ms"])
        #expect(bad.status == 2 && bad.stderr.contains("--set") && bad.stderr.contains("input.tapJitter"), "\(bad.stderr)")
    }

    /// The shipped table misses only where it expects to: exit 0, the
    /// table with its expected misses and their reasons, one JSON object per row.
    @Test func validateTheShippedTable() throws {
        let dir = try Latsim.temporaryDirectory()
        let started = Date()
        let o = try Latsim.run(["validate", "--json", dir.appendingPathComponent("v.json").path, "--chart", dir.path])
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(o.status == 0, "\(o.status) \(o.stderr)")
        #expect(o.stdout.contains("walt-screen-nexus7") && o.stdout.contains("expected miss") && o.stdout.contains("of 9 measurements"))
        #expect(!o.stdout.contains("MISS") && o.stdout.contains("4 expected misses") && o.stdout.contains("expected to miss: The model"))
        let rows = try Latsim.rows(try Data(contentsOf: dir.appendingPathComponent("v.json")), kind: "validate")
        #expect(rows.count == 9)
        for r in rows {
            for key in ["id", "device", "scenario", "measure", "published", "simulated", "errorPct", "pass"] {
                #expect(r[key] != nil, "\(key) missing")
            }
        }
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("validation.gp").path))
        let stdout = try Latsim.run(["validate", "--json", "-"])
        let parsed = try? Latsim.rows(Data(stdout.stdout.utf8), kind: "validate")
        #expect(stdout.status == 0 && parsed?.count == 9)
        #expect(parsed?.filter { $0["verdict"] as? String == "expectedMiss" }.count == 4)
        #expect(parsed?.allSatisfy { $0["asExpected"] as? Bool == true } == true)
    }

    /// A row that misses though expected to pass fails the check (exit 1);
    /// so does an expected miss that passes, naming it; the chart works
    /// for a table of one row, and the table is printed before it.
    @Test func validateFailsWhenARowIsNotAsExpected() throws {
        let dir = try Latsim.temporaryDirectory()
        func table(_ name: String, published: String, expected: String) throws -> String {
            var yaml = "measurements:\n  - id: ours\n    device: nexus-9\n    scenario: walt-screen\n    measure: frameToPhoton\n    published: \(published)\n    source: our photodiode\n    tag: R\n"
            if expected == "miss" { yaml += "    expected: miss\n    reason: our rig adds a frame\n" }
            let path = dir.appendingPathComponent(name).path
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // nexus-9's screen response is 48.666667 ms: 50 ms passes, 80 ms misses
        let passes = try Latsim.run(["validate", "--measurements", try table("a.yaml", published: "50ms", expected: "pass"), "--chart", dir.appendingPathComponent("one").path])
        #expect(passes.status == 0 && passes.stdout.contains("pass"), "\(passes.stdout)\(passes.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("one/validation.gp").path))
        let misses = try Latsim.run(["validate", "--measurements", try table("b.yaml", published: "80ms", expected: "pass")])
        #expect(misses.status == 1 && misses.stdout.contains("MISS") && misses.stdout.contains("missed, expected to pass: ours"), "\(misses.stdout)")
        let known = try Latsim.run(["validate", "--measurements", try table("c.yaml", published: "80ms", expected: "miss")])
        #expect(known.status == 0 && known.stdout.contains("expected miss") && known.stdout.contains("our rig adds a frame"), "\(known.stdout)")
        let stale = try Latsim.run(["validate", "--measurements", try table("d.yaml", published: "50ms", expected: "miss"), "--chart", dir.appendingPathComponent("stale").path])
        #expect(stale.status == 1 && stale.stdout.contains("PASSES (expected miss)") && stale.stdout.contains("expected to miss (remove its expected: miss): ours"), "\(stale.stdout)")
        // an expected miss without its reason is bad input at the row
        try "measurements:\n  - id: x\n    device: nexus-9\n    scenario: walt-screen\n    measure: frameToPhoton\n    published: 80ms\n    source: s\n    tag: R\n    expected: miss\n"
            .write(to: dir.appendingPathComponent("noreason.yaml"), atomically: true, encoding: .utf8)
        let bad = try Latsim.run(["validate", "--measurements", dir.appendingPathComponent("noreason.yaml").path])
        #expect(bad.status == 2 && bad.stderr.contains("noreason.yaml:2:") && bad.stderr.contains("reason"), "\(bad.stderr)")
    }

    /// A user's own table: relative device and scenario files, exit 0 when
    /// every row passes; a malformed one is bad input and writes nothing.
    @Test func validateAUsersTable() throws {
        let dir = try Latsim.temporaryDirectory()
        try "name: tablet\nplatform: android\nclasses: [lcd, triple-buffered-layer]\nparameters:\n  android.appPhaseOffset: {value: 0ms, from: device-tree, source: ours}\n  android.sfPhaseOffset: {value: 0ms, from: device-tree, source: ours}\n"
            .write(to: dir.appendingPathComponent("tablet.yaml"), atomically: true, encoding: .utf8)
        // 2T + T/2 + 7 ms = 48.666667 ms: within 5 ms of 50
        try """
        measurements:
          - id: ours
            device: tablet.yaml
            scenario: walt-screen
            measure: frameToPhoton
            published: 50ms
            source: our photodiode
            tag: R
        """.write(to: dir.appendingPathComponent("table.yaml"), atomically: true, encoding: .utf8)
        let o = try Latsim.run(["validate", "--measurements", dir.appendingPathComponent("table.yaml").path, "--json", "-"])
        #expect(o.status == 0, "\(o.stderr)")
        let row = try #require(try Latsim.rows(Data(o.stdout.utf8), kind: "validate").first)
        #expect(row["pass"] as? Bool == true && row["simulated"] as? Double == 48.666667 && row["published"] as? Double == 50)

        try "measurements:\n  - id: x\n    device: nexus-9\n    scenario: walt-screen\n    measure: frameToPhoton\n    published: 50\n    source: s\n    tag: R\n"
            .write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.json")
        let b = try Latsim.run(["validate", "--measurements", dir.appendingPathComponent("bad.yaml").path, "--json", out.path])
        #expect(b.status == 2 && b.stderr.contains("bad.yaml:6:") && b.stderr.contains("published"), "\(b.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let n = try Latsim.run(["validate", "--measurements", dir.appendingPathComponent("none.yaml").path])
        #expect(n.status == 2 && n.stderr.contains("no such file"))
        let w = try Latsim.run(["validate", "--json", dir.appendingPathComponent("tablet.yaml/v.json").path])
        #expect(w.status == 2, "\(w.stderr)")
    }

    /// One Pixel 6: the scenario named for what it runs, and `--device` never
    /// silently ignored: where the scenario's own keys win over the preset's,
    /// stderr names each one; where they do not, nothing is said.
    @Test func deviceOverriddenByTheScenarioIsNamed() throws {
        #expect(try Latsim.run(["run", "android-pixel6"]).status == 2)
        let o = try Latsim.run(["run", "android-gs101-120hz", "--device", "pixel-6", "--duration", "1s"])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(o.stderr.contains("--device pixel-6: android-gs101-120hz sets device.displayHz=120 itself")
                && o.stderr.contains("wins over the preset's 90"), "\(o.stderr)")
        let plain = try Latsim.run(["run", "android-default", "--device", "pixel-6", "--duration", "1s"])
        #expect(plain.status == 0 && !plain.stderr.contains("wins over the preset"), "\(plain.stderr)")
    }
}
