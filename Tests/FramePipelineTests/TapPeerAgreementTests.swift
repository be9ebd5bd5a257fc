import Foundation
import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing

/// Taps and a drag's touch-down against the SimPy peers, which implement
/// them from the same contract (ANDROID.md A4): the same tap-to-photon mean,
/// frames presented and model events.
@Suite(.enabled(if: Peer.available && Peer.androidAvailable, "needs python3 with simpy (pip install simpy==4.1.2)"))
struct TapPeerAgreementTests {
    static func compare(_ ours: RunResult, _ peer: [String: Any], _ label: String, taps: Bool) throws {
        let m = ours.measurements
        let (key, stats) = taps ? ("tapToPhotonMs", m.tapToPhotonMs) : ("touchToPhotonMs", m.touchToPhotonMs)
        let mean = try #require(PeerAgreementTests.value(peer, "latency.\(key).mean"), "\(label) \(key)")
        #expect(abs(stats.mean! - mean) <= 1e-6 * max(1, abs(mean)), "\(label) \(key).mean \(stats.mean!) vs \(mean)")
        for (path, n) in [("display.framesPresented", m.framesPresented), ("engine.events", ours.events),
                          ("latency.framesMeasured", taps ? m.tapToPhotonMs.count : m.pipelineFrames.count)] {
            #expect(PeerAgreementTests.value(peer, path).map(Int.init) == n, "\(label) \(path): \(n)")
        }
    }

    @Test(arguments: [
        ("ios9-low-latency", ["device.touchDownDelay=auto"]),
        ("ios9-low-latency", ["device.touchDownDelay=18.7ms"]),
        ("ios8", ["device.touchDownDelay=10ms"]),
        ("ios9-coalescing-120hz", ["device.touchDownDelay=auto", "device.digitizerDelay=3ms"]),
        ("ios9-metal", ["device.touchDownDelay=auto", "input.tapInterval=250ms", "input.tapHold=50ms"]),
        ("slow-app", ["device.touchDownDelay=25ms"]),
    ] as [(String, [String])])
    func iosTapsAgree(_ name: String, _ overrides: [String]) throws {
        let ours = try runScenario(name, ["input.trajectory=taps"] + overrides, duration: "10s")
        let peer = try Peer.run(name, ["input.trajectory=taps"] + overrides, duration: "10s")
        try Self.compare(ours, peer, "\(name) \(overrides)", taps: true)
    }

    @Test(arguments: [
        ("android-default", ["device.touchDownDelay=auto"]),
        ("android-default", ["device.touchDownDelay=10ms"]),
        ("android-default", ["device.touchDownDelay=18.7ms", "android.dispatchLatency=1.4ms"]),
        ("android-gl-continuous", ["device.touchDownDelay=29.6ms"]),
        ("android-gs101-120hz", ["device.touchDownDelay=auto"]),
        ("android-nexus5-offsets", ["device.touchDownDelay=26.9ms", "app.handler=12ms"]),
    ] as [(String, [String])])
    func androidTapsAgree(_ name: String, _ overrides: [String]) throws {
        let ours = try runScenario(name, ["input.trajectory=taps"] + overrides, duration: "10s")
        let peer = try Peer.run(name, ["input.trajectory=taps"] + overrides, duration: "10s", script: Peer.androidScript)
        try Self.compare(ours, peer, "\(name) \(overrides)", taps: true)
    }

    /// A drag's first touch-down timed by a distribution (both peers' choice 4).
    @Test(arguments: ["10ms", "18.7ms", "40ms"])
    func dragTouchDownAgrees(_ delay: String) throws {
        let ios = try runScenario("ios9-low-latency", ["input.trajectory=line", "device.touchDownDelay=\(delay)"], duration: "5s")
        try Self.compare(ios, try Peer.run("ios9-low-latency", ["device.touchDownDelay=\(delay)"], duration: "5s"),
                         "ios drag \(delay)", taps: false)
        let android = try runScenario("android-default", ["input.trajectory=line", "device.touchDownDelay=\(delay)"], duration: "5s")
        try Self.compare(android, try Peer.run("android-default", ["device.touchDownDelay=\(delay)"], duration: "5s",
                                               script: Peer.androidScript),
                         "android drag \(delay)", taps: false)
    }
}
