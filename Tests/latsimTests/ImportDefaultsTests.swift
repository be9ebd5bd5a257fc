import Foundation
import Testing

/// What a recording cannot give `latsim import`: the touch scan runs at the
/// recorded display's rate (never the key's 60 Hz under a faster display),
/// and every other key of the device, its Android release and its app is
/// named in the scenario with the value it keeps.
@Suite struct ImportDefaultsTests {
    static let dump = Latsim.packageRoot.appendingPathComponent("Examples/traces/framestats-120hz.txt")

    /// `latsim keys`' lines, `PATH = DEFAULT [(android: D)] [PLATFORMS]`:
    /// each key an Android run uses, with its Android default.
    static func androidKeys() throws -> [(path: String, value: String)] {
        let keys = try Latsim.run(["keys"])
        #expect(keys.status == 0)
        let pattern = try Regex(#"^(\S+) = (\S+)(?: \(android: (\S+)\))? \[(\w+)\]$"#)
        return keys.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let m = String(line).wholeMatch(of: pattern) else { return nil }
            let platforms = String(m.output[4].substring ?? "")
            guard platforms == "both" || platforms == "android" else { return nil }
            let value = m.output[3].substring.map(String.init) ?? String(m.output[2].substring ?? "")
            return (String(m.output[1].substring ?? ""), value)
        }
    }

    /// A line of `latsim run`'s table: the figure's value.
    static func figure(_ table: String, _ name: String) -> Double? {
        table.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    @Test func theScanRunsAtTheDisplayRateAndEveryUnreadKeyIsNamed() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("device.yaml")
        let o = try Latsim.run(["import", Self.dump.path, "--out", out.path])
        #expect(o.status == 0, "\(o.stderr)")
        let yaml = try String(contentsOf: out, encoding: .utf8)
        let display = try #require(ImportCommandTests.value(yaml, "displayHz"))

        // the scan rate is written, as the display's, and said to be assumed
        #expect(ImportCommandTests.value(yaml, "scanHz") == display, "\(yaml)")
        #expect(yaml.contains("  # not in the recording: the display rate, assumed"), "\(yaml)")
        #expect(o.stderr.contains("import: device.scanHz is not in the recording: \(display) Hz, the display rate, assumed"), "\(o.stderr)")
        // a scan at the display's rate contradicts nothing
        #expect(!o.stderr.contains("warning") && !yaml.contains("# Warning:"), "\(o.stderr)")

        // every key of the device, its release and its app (not the
        // experiment's: duration, seed, input.*, measure.*) is either set
        // from the recording or listed with the value it keeps
        let listed = yaml.split(separator: "\n").filter { $0.hasPrefix("#   ") }.map { String($0.dropFirst(4)) }
        let set: [String: String] = ["device.displayHz": display, "os.platform": "android"]
        var named = 0
        for (path, value) in try Self.androidKeys() {
            if ["duration", "seed"].contains(path) || path.hasPrefix("input.") || path.hasPrefix("measure.") {
                #expect(!listed.contains { $0.hasPrefix(path + ":") }, "\(path) is the experiment's")
                continue
            }
            let field = String(path.split(separator: ".").last!)
            if let v = set[path] {
                #expect(ImportCommandTests.value(yaml, field) == v, "\(path)")
            } else if path == "device.scanHz" {
                #expect(listed.contains { $0.hasPrefix("device.scanHz: \(display) (the display rate, assumed") }, "\(listed)")
                named += 1
            } else if ["app.handler", "android.renderThread", "gpu.render", "android.appDuration"].contains(path) {
                // measured in this dump (handler, RenderThread, GPU, the deadline)
                #expect(ImportCommandTests.value(yaml, field) != nil, "\(path)")
                #expect(!listed.contains { $0.hasPrefix(path + ":") }, "\(path) is read, not defaulted")
            } else {
                #expect(listed.contains("\(path): \(value)"), "\(path) = \(value) not named: \(listed)")
                named += 1
            }
        }
        #expect(yaml.contains("# Not in the recording: each of these \(named) keys keeps the value shown"), "\(yaml)")
        #expect(o.stderr.contains("import: \(named) keys are not in the recording"), "\(o.stderr)")

        // the run is the device's at its own rates: the same as with the scan
        // set to the display rate by hand, and far fewer repeated frames than
        // under a 60 Hz scan (at 120 Hz half the frames would have no touch)
        let run = try Latsim.run(["run", out.path, "--duration", "5s"])
        let byHand = try Latsim.run(["run", out.path, "--duration", "5s", "--set", "device.scanHz=\(display)"])
        let slow = try Latsim.run(["run", out.path, "--duration", "5s", "--set", "device.scanHz=60"])
        #expect(run.status == 0 && byHand.status == 0 && slow.status == 0, "\(run.stderr)\(slow.stderr)")
        #expect(run.stdout == byHand.stdout)
        let repeated = try #require(Self.figure(run.stdout, "repeated")), repeatedSlow = try #require(Self.figure(slow.stdout, "repeated"))
        let fps = try #require(Self.figure(run.stdout, "fps")), fpsSlow = try #require(Self.figure(slow.stdout, "fps"))
        #expect(repeated * 2 < repeatedSlow && fps > fpsSlow, "\(run.stdout)\n\(slow.stdout)")
    }
}
