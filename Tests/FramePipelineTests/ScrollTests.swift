import Experiments
@testable import FramePipeline
import Measures
import Scenarios
import SimKernel
import Testing
import TouchModel

/// The scrolling app (Docs/Model.md, "Scrolling"): the content stays put
/// until a drag passes the touch slop, then trails the finger by the slop;
/// time to first scroll movement, scroll-to-photon and the trail, derived
/// here from the finger's speed, the slop and the scan.
@Suite struct ScrollTests {
    static let ms = Nanos.perMillisecond

    /// A run's streams, with the run.
    static func run(_ name: String, _ overrides: [String], device: String? = nil,
                    duration: String = "5s") throws -> (RunResult, ScrollMeasurements) {
        var s = try Scenario.named(name)
        if let device { s = try s.applying(device: try DevicePreset.named(device)) }
        let r = try PipelineRun.run(try s.configuration(overrides: overrides, duration: duration))
        #expect(r.invariants.holds)
        return (r, try #require(r.measurements.scroll))
    }

    /// The talk's fixed work on iOS (handler 4, prepare 3, GPU 4 ms, scan
    /// and display 60 Hz): every frame's touch-to-photon is the same, L.
    /// Contacts come exactly at 100 ms + i s, a scan window's start; the
    /// touch-down is the sample half a window later, and each later sample
    /// lies `v T` further up, so the first past the slop `s` is sample
    /// `k = floor(s / (v T)) + 1`: the content first moves at
    /// `T/2 + k T + L` after the contact. From then on each frame shows its
    /// touch L after it was taken, when the finger is `v L` further on: the
    /// content trails the finger by `s + v L`. (Instants are whole
    /// nanoseconds of a rational period: equal to 10 ns.)
    @Test(arguments: [(600.0, 8.0), (300.0, 8.0), (600.0, 16.0), (600.0, 0.0), (450.0, 25.0)])
    func theSlopDelaysTheFirstMovementAndTheContentTrailsByIt(speed: Double, slop: Double) throws {
        let (r, scroll) = try Self.run("ios-scroll", ["input.speed=\(speed)", "app.touchSlop=\(slop)", "input.tapJitter=0ms"])
        let T = 1e3 / 60
        let t2p = r.measurements.touchToPhotonMs
        #expect(t2p.count > 100 && t2p.max - t2p.min < 1e-5)
        let L: Double = try #require(t2p.mean)
        let perScan: Double = speed * T / 1e3
        let k: Double = (slop / perScan).rounded(.down) + 1
        let start: Double = T / 2 + k * T + L
        // five contacts, at 0.1, 1.1, ..., 4.1 s, each held 400 ms: one first movement each
        #expect(scroll.startMs.count == 5)
        #expect(abs(scroll.startMs.min - start) < 1e-5 && abs(scroll.startMs.max - start) < 1e-5,
                "k \(k), L \(L): \(scroll.startMs.min)...\(scroll.startMs.max)")
        #expect(abs(scroll.scrollToPhotonMs.min - L) < 1e-5 && abs(scroll.scrollToPhotonMs.max - L) < 1e-5)
        let trail: Double = slop + speed * L / 1e3
        #expect(abs(scroll.trailPoints.min - trail) < 1e-3 && abs(scroll.trailPoints.max - trail) < 1e-3,
                "\(scroll.trailPoints.min)...\(scroll.trailPoints.max) vs \(trail)")
        // the catalogue reads the same streams
        let mean: Double = try #require(Figure(rawValue: "scrollStartMean")?.value(r))
        #expect(abs(mean - start) < 1e-3)
        let p50: Double = try #require(Figure(rawValue: "scrollToPhotonP50")?.value(r))
        #expect(abs(p50 - L) < 1e-5)
    }

    /// Every preset of each platform runs its scroll scenario: one first
    /// movement per gesture, each later than the finger takes to cross the
    /// slop plus the quickest scroll-to-photon (the touch a frame follows
    /// lies past the slop, so it was taken more than `s / v` after the
    /// contact), and a trail between `s + v` times the quickest and the
    /// slowest scroll-to-photon.
    @Test(arguments: DevicePreset.builtinNames)
    func everyPresetScrolls(device: String) throws {
        let preset = try DevicePreset.named(device)
        let name = preset.platform == .android ? "android-scroll" : "ios-scroll"
        let (r, scroll) = try Self.run(name, [], device: device)
        #expect(r.configuration.scrolls && r.configuration.touchSlop == 8 && r.configuration.speed == 600)
        #expect(scroll.startMs.count == 5, "\(device): \(scroll.startMs.count) first movements")
        let crossing = 8 / 600.0 * 1e3
        #expect(scroll.startMs.min > scroll.scrollToPhotonMs.min + crossing, "\(device)")
        #expect(scroll.scrollToPhotonMs.count > 50)
        #expect(scroll.trailPoints.min >= 8 + 0.6 * scroll.scrollToPhotonMs.min - 1e-3)
        #expect(scroll.trailPoints.max <= 8 + 0.6 * scroll.scrollToPhotonMs.max + 1e-3)
        for f in Figure.allCases where f.declaration.channel == .scroll {
            #expect(f.value(r) != nil, "\(device): \(f)")
        }
    }

    /// A run that does not scroll has no scroll figure and keeps every
    /// other figure of the same run with scrolling on.
    @Test func scrollingChangesNoOtherFigure() throws {
        for name in ["android-scroll", "ios-scroll"] {
            let (on, _) = try Self.run(name, [])
            let off = try PipelineRun.run(try Scenario.named(name).configuration(overrides: ["app.scrolls=false"], duration: "5s"))
            #expect(off.measurements.scroll == nil)
            for f in Figure.allCases {
                if f.declaration.channel == .scroll {
                    #expect(f.value(off) == nil && f.value(on) != nil, "\(name) \(f)")
                } else {
                    #expect(f.value(off) == f.value(on), "\(name) \(f)")
                }
            }
            #expect(Figure.headline(for: on.configuration) == .scrollStartP50)
        }
    }

    /// The drag: down at the contact, straight up at exactly the speed
    /// while held, up afterwards; the contact of the gesture at any instant.
    @Test func theDragTrajectory() throws {
        var p = TrajectoryParameters(speed: 500, seed: 3)
        p.taps = TapTiming(interval: 1_000 * Self.ms, hold: 300 * Self.ms, jitter: 50 * Self.ms)
        let t = try Trajectory.make("drags", parameters: p)
        #expect(t.gestureContact(atOrBefore: 99 * Self.ms) == nil && !t.state(at: 99 * Self.ms).isDown)
        for i in 0..<4 {
            let slot = TapTiming.firstContact + SimTime(i) * 1_000 * Self.ms
            let c = try #require(t.gestureContact(atOrBefore: slot + 999 * Self.ms))
            #expect(c >= slot && c <= slot + 50 * Self.ms)
            #expect(t.gestureContact(atOrBefore: c) == c && t.gestureContact(atOrBefore: slot + 999 * Self.ms) == c)
            let start = t.state(at: c), later = t.state(at: c + 200 * Self.ms)
            #expect(start.isDown && later.isDown && !t.state(at: c + 300 * Self.ms).isDown)
            #expect(start.position == TouchPoint(x: 384, y: 768))
            #expect(abs(later.position.y - (768 - 100)) < 1e-9 && later.position.x == 384)
            #expect(later.velocity == TouchPoint(x: 0, y: -500))
        }
        #expect(try Trajectory.make("line", parameters: p).gestureContact(atOrBefore: Nanos.perSecond) == nil)
    }
}
