import Foundation
import Experiments
import FramePipeline
import Scenarios
import Testing

/// Differential test against the SimPy peer (`Tests/Oracles/peers/simpy_pipeline.py`),
/// an independent model of the same spec. The peer moves the finger on a
/// 45° line; latsim is given the same trajectory.
@Suite(.enabled(if: Peer.available, "needs python3 with simpy (pip install simpy==4.1.2)"))
struct PeerAgreementTests {
    static func both(_ scenario: String, _ overrides: [String], duration: String) throws -> (RunResult, [String: Any]) {
        let ours = try runScenario(scenario, ["input.trajectory=line"] + overrides, duration: duration)
        let peer = try Peer.run(scenario, overrides, duration: duration)
        return (ours, peer)
    }

    static func value(_ doc: [String: Any], _ path: String) -> Double? {
        var node: Any? = doc
        for k in path.split(separator: ".") { node = (node as? [String: Any])?[String(k)] }
        return (node as? NSNumber)?.doubleValue
    }

    /// Fixed durations: means exactly, p50 within HdrHistogram's 0.1%, and the
    /// same frame, drop, delivery and event counts.
    @Test(arguments: BuiltinScenarios.iosNames)
    func builtinScenarioAgreesWithThePeer(_ name: String) throws {
        let (ours, peer) = try Self.both(name, [], duration: "10s")
        let m = ours.measurements
        for (key, stats) in [("touchToPhotonMs", m.touchToPhotonMs), ("pipelineFrames", m.pipelineFrames), ("effectiveFrames", m.effectiveFrames),
                             ("frameToPhotonMs", m.frameToPhotonMs)] {
            let mean = try #require(Self.value(peer, "latency.\(key).mean"))
            let p50 = try #require(Self.value(peer, "latency.\(key).p50"))
            #expect(abs(stats.mean! - mean) <= 1e-6 * max(1, abs(mean)), "\(name) \(key).mean \(stats.mean!) vs \(mean)")
            #expect(abs(stats.percentile(50)! - p50) <= 1e-3 * abs(p50) + 1e-6, "\(name) \(key).p50")
        }
        let counts: [(String, Int)] = [
            ("display.framesPresented", m.framesPresented), ("display.repeatedFrames", m.repeatedFrames),
            ("display.droppedFrames", m.droppedFrames), ("display.hitches", m.hitches),
            ("work.deliveries", m.deliveries), ("work.handlerRuns", m.handlerRuns), ("work.wastedUpdates", m.wastedUpdates),
            ("engine.events", ours.events),
        ]
        for (path, n) in counts { #expect(Self.value(peer, path).map(Int.init) == n, "\(name) \(path): \(n) vs \(String(describing: Self.value(peer, path)))") }
        #expect(abs(ours.tripleBufferedFraction - (Self.value(peer, "display.tripleBufferedFraction") ?? -1)) < 1e-6)
    }

    /// Variations the built-ins do not cover, still with fixed durations.
    @Test(arguments: [
        ("ios9-coalescing-120hz", ["os.delivery=perScan"]),
        ("ios9-coalescing-120hz", ["os.delivery=perScan", "os.present=fifo"]),
        ("ios9-low-latency", ["app.commits=2"]),
        ("ios9-low-latency", ["app.animations=2s..4s,6s..7s"]),
        ("ios8-complex", ["os.buffering=double"]),
        ("ios9-metal", ["os.buffering=double", "app.gpu=20ms"]),
        ("ios8", ["device.scanPhase=3ms", "device.sampleInstant=0.25", "device.digitizerDelay=2ms", "os.dispatchDelay=1ms", "measure.row=touch"]),
        ("slow-app", ["app.touches=main", "device.scanHz=240"]),
    ] as [(String, [String])])
    func variationAgreesWithThePeer(_ name: String, _ overrides: [String]) throws {
        let (ours, peer) = try Self.both(name, overrides, duration: "10s")
        let m = ours.measurements
        for (key, stats) in [("touchToPhotonMs", m.touchToPhotonMs), ("pipelineFrames", m.pipelineFrames), ("perSampleMs", m.perSampleMs)] {
            let mean = try #require(Self.value(peer, "latency.\(key).mean"))
            #expect(abs(stats.mean! - mean) <= 1e-6 * max(1, abs(mean)), "\(name) \(overrides) \(key).mean \(stats.mean!) vs \(mean)")
        }
        #expect(Self.value(peer, "display.droppedFrames").map(Int.init) == m.droppedFrames)
        #expect(Self.value(peer, "work.wastedUpdates").map(Int.init) == m.wastedUpdates)
        #expect(Self.value(peer, "engine.events").map(Int.init) == ours.events)
    }

    /// Stochastic durations over a long run: means and p50s within 1%.
    @Test(arguments: [
        ("ios9-coalescing-120hz", ["app.handler=uniform(2ms,6ms)"]),
        ("ios9-low-latency", ["app.handler=uniform(2ms,14ms)", "gpu.render=uniform(2ms,10ms)"]),
        ("ios8", ["app.handler=normal(4ms,1ms)", "renderServer.prepare=lognormal(3ms,0.3)", "gpu.render=empirical(3ms,4ms,5ms)"]),
        ("slow-app", ["app.handler=uniform(15ms,25ms)"]),
    ] as [(String, [String])])
    func stochasticRunAgreesWithThePeerWithinOnePercent(_ name: String, _ overrides: [String]) throws {
        let (ours, peer) = try Self.both(name, overrides, duration: "120s")
        let m = ours.measurements
        for (key, stats) in [("touchToPhotonMs", m.touchToPhotonMs), ("pipelineFrames", m.pipelineFrames)] {
            for (stat, v) in [("mean", stats.mean!), ("p50", stats.percentile(50)!)] {
                let p = try #require(Self.value(peer, "latency.\(key).\(stat)"))
                #expect(abs(v - p) <= 0.01 * abs(p), "\(name) \(overrides) \(key).\(stat): \(v) vs \(p)")
            }
        }
    }
}

/// The SimPy peers, run as a user would: `simpy_pipeline.py` (iOS) and
/// `simpy_android.py` (Android), the repository's copies in
/// `Tests/Oracles/peers` (Tests/Oracles/README.md).
enum Peer {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Oracles/peers")
    static let script = folder.appendingPathComponent("simpy_pipeline.py")
    static let androidScript = folder.appendingPathComponent("simpy_android.py")

    static let simpy: Bool = (try? python(["-c", "import simpy"]).status) == 0
    /// Set in CI: the peer suites run (and fail) even when a peer cannot.
    static let required = ProcessInfo.processInfo.environment["LATSIM_REQUIRE_PEERS"] != nil
    static let available: Bool = required || (FileManager.default.fileExists(atPath: script.path) && simpy)
    static let androidAvailable: Bool = required || (FileManager.default.fileExists(atPath: androidScript.path) && simpy)

    static func python(_ args: [String]) throws -> (status: Int32, out: Data) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3"] + args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, data)
    }

    /// The peers' names of scenarios latsim renamed: the peers keep the
    /// names of the contract they were written from.
    static let peerNames = ["android-gs101-120hz": "android-pixel6"]

    static func run(_ scenario: String, _ overrides: [String], duration: String, script: URL = Peer.script) throws -> [String: Any] {
        let args = [script.path, "--scenario", peerNames[scenario] ?? scenario, "--duration", duration, "--json", "-"] + overrides.flatMap { ["--set", $0] }
        let (status, data) = try python(args)
        guard status == 0, let doc = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw PeerFailure(message: "peer failed (\(status)) for \(scenario) \(overrides)")
        }
        return doc
    }

    struct PeerFailure: Error { let message: String }
}
