@testable import FramePipeline
import Scenarios
import SimKernel
import Testing

/// WALT's screen test drawn at WALT's cadence (google/walt,
/// `ScreenResponseFragment.java`; Docs/Devices.md, "App models"): the
/// first change 100 ms after the start (`postDelayed(doBlinkRunnable,
/// 100)`), each next one `app.blinkDelay` after the photodiode at the
/// screen's centre sees the last (40 + random x 20 ms), a fallback 550 +
/// random x 100 ms after each change when it sees nothing, nothing drawn
/// in between.
@Suite struct WaltCadenceTests {
    static let ms = Nanos.perMillisecond

    /// The shown changes of a run, from its frame log: when each was made
    /// (the record's touch instant) and when its photons reached the
    /// photodiode.
    static func blinks(_ device: String, _ overrides: [String], duration: String = "3s") throws -> (changes: [(made: SimTime, photon: SimTime)], r: RunResult) {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named(device))
        let r = try PipelineRun.run(try s.configuration(overrides: overrides, duration: duration), keepLog: true)
        let frames = try #require(r.frameLog?.frames)
        return (frames.filter { $0.kind == .new }.map { ($0.touchTime, $0.photon) }, r)
    }

    /// With a fixed 50 ms delay (WALT's cadence before its commit 562df56):
    /// on the Nexus 9 (6.0.1, offsets 0 / 0) a change made at `b` is drawn
    /// by the first Choreographer frame after it and shown two periods
    /// later, its centre row `T/2` after that, the LCD's 7 ms on top; the
    /// next change is made exactly 50 ms after those photons. So the
    /// changes come at 100 ms, then photon + 50 ms each: every one a
    /// frame of its own, no other frame presented, no frame repeated.
    @Test func eachChangeFollowsThePhotodiodeOnAndroid() throws {
        let (changes, r) = try Self.blinks("nexus-9", ["app.blinkDelay=50ms"])
        #expect(changes.first?.made == 100 * Self.ms)
        for (a, b) in zip(changes, changes.dropFirst()) { #expect(b.made == a.photon + 50 * Self.ms) }
        #expect(changes.count == r.measurements.framesPresented && r.measurements.repeatedFrames == 0)
        #expect(allFrames(r.measurements.frameToPhotonMs) == 48.666667)
        // the cadence: a change waits 0 to 16.667 ms for its frame's vsync-app
        // tick, whose photons come 48.667 ms later, and the next change 50 ms
        // after them: one every 98.7 to 115.3 ms, so after the first at 100 ms
        // 2.9 s hold 25.2 to 29.4 more: 26 to 30 changes in all
        #expect((26...30).contains(changes.count))
    }

    /// The same on iOS (a display link: the change is drawn at the next
    /// frame start): on the iPhone 5 every frame is 1.5 periods from its
    /// frame start to the centre row, plus the LCD's 7 ms: 32 ms (a
    /// nanosecond either way, as a period of 16,666,666.67 ns rounds).
    @Test func eachChangeFollowsThePhotodiodeOnIOS() throws {
        let (changes, r) = try Self.blinks("iphone-5", ["app.blinkDelay=50ms"])
        #expect(changes.first?.made == 100 * Self.ms)
        for (a, b) in zip(changes, changes.dropFirst()) { #expect(b.made == a.photon + 50 * Self.ms) }
        #expect(changes.count == r.measurements.framesPresented)
        // 32 ms, to the nanosecond of a period's rounding
        let f2p = r.measurements.frameToPhotonMs
        #expect(near(f2p.min, 32, 2e-6) && near(f2p.max, 32, 2e-6))
    }

    /// WALT's random delay: each change 40 to 60 ms after the photons
    /// before it; the same seed gives the same changes, another seed others.
    @Test func theDelayIsFortyToSixtyMillisecondsAndRepeatsBySeed() throws {
        let a = try Self.blinks("nexus-7-2013", [])
        let gaps = zip(a.changes, a.changes.dropFirst()).map { $1.made - $0.photon }
        #expect(!gaps.isEmpty && gaps.allSatisfy { (40 * Self.ms)...(60 * Self.ms) ~= $0 } && Set(gaps).count > 1)
        let again = try Self.blinks("nexus-7-2013", [])
        #expect(again.changes.map(\.made) == a.changes.map(\.made))
        let other = try Self.blinks("nexus-7-2013", ["seed=2"])
        #expect(other.changes.map(\.made) != a.changes.map(\.made))
    }

    /// The fallback: a change whose photons are never seen is followed by
    /// another 550 to 650 ms after it (WALT's far-away repost); a change
    /// seen cancels it, so its event passes without a change.
    @Test func anUnseenChangeIsFollowedByTheFallback() {
        var c = PipelineConfiguration()
        c.blinkDelay = .fixed(50 * Self.ms)
        var b = Blinker(configuration: c)
        #expect(b.isDue(at: Blinker.first) && !b.isDue(at: 0))
        let fallback = b.make(at: Blinker.first)
        #expect((650 * Self.ms)...(750 * Self.ms) ~= fallback && b.isDue(at: fallback) && b.awaiting)
        let next = b.seen(at: 150 * Self.ms)
        #expect(next == 200 * Self.ms && !b.isDue(at: fallback) && b.isDue(at: 200 * Self.ms) && b.seen(at: 160 * Self.ms) == nil)
    }

    /// A finger and WALT's blinks do not go together, nor per-scan
    /// delivery on iOS: bad input naming `app.updates`.
    @Test func blinksWithAFingerAreBadInput() throws {
        for (scenario, o) in [("android-default", ["app.updates=blink"]),
                              ("ios9-low-latency", ["app.updates=blink", "input.trajectory=none", "os.delivery=perScan"])] {
            do {
                _ = try Scenario.named(scenario).configuration(overrides: o, duration: "1s")
                Issue.record("accepted \(o)")
            } catch let error as LatsimError {
                #expect(error.kind == .badInput && error.key == "app.updates")
            }
        }
    }
}
