import Foundation
import SimKernel
import Testing
@testable import TouchModel

@Suite("Synthetic trajectories")
struct TrajectoryTests {
    static let ms = Nanos.perMillisecond
    static let parameters = TrajectoryParameters(seed: 42)

    /// The reference model's `position()`, written out as in
    /// peers/simpy_pipeline.py, with Python's fmod-based bounce.
    static func peerPosition(_ t: SimTime, speed: Double = 600, width: Double = 768, height: Double = 1024) -> (Double, Double) {
        func pyBounce(_ p: Double, _ length: Double) -> Double {
            var p = fmod(p, 2 * length)
            if p < 0 { p += 2 * length }
            return p <= length ? p : 2 * length - p
        }
        let v = speed / sqrt(2.0)
        let s = Double(t) / 1e9
        return (pyBounce(0.25 * width + v * s, width), pyBounce(0.25 * height + v * s, height))
    }

    @Test func lineMatchesThePeerFormulaIncludingReflections() throws {
        let line = try Trajectory.make("line", parameters: TrajectoryParameters())
        // 0.25 W = 192: x reaches 768 after 1.358 s, 0 after 3.168 s; y reaches 1024 at 1.810 s
        let instants: [SimTime] = [0, 1, 8_333_333, 1_000 * TrajectoryTests.ms, 1_357 * TrajectoryTests.ms,
                                   1_400 * TrajectoryTests.ms, 2_000 * TrajectoryTests.ms, 3_500 * TrajectoryTests.ms,
                                   60 * Nanos.perSecond + 16_666_667, 3_600 * Nanos.perSecond + 123_456_789, -5 * TrajectoryTests.ms]
        for t in instants {
            let s = line.state(at: t)
            let (px, py) = TrajectoryTests.peerPosition(t)
            #expect(s.position.x == px && s.position.y == py, "t = \(t)")
            #expect(s.isDown)
        }
        // after x's first reflection x moves left, y still moves down
        let v = 600 / 2.0.squareRoot()
        #expect(line.state(at: 1_400 * TrajectoryTests.ms).velocity == TouchPoint(x: -v, y: v))
        #expect(line.state(at: 2_000 * TrajectoryTests.ms).velocity == TouchPoint(x: -v, y: -v))
        #expect(line.state(at: 0).velocity == TouchPoint(x: v, y: v))
    }

    @Test("analytic velocity matches central differences", arguments: Trajectory.syntheticKinds)
    func velocityMatchesFiniteDifferences(kind: String) throws {
        let tr = try Trajectory.make(kind, parameters: TrajectoryTests.parameters)
        var checked = 0
        for i in 0..<400 {
            let t = SimTime(i) * 7_919_000 + 1_234_567
            let h: SimTime = 10_000 // 10 us
            let a = tr.state(at: t - h), b = tr.state(at: t + h), mid = tr.state(at: t)
            // skip instants near a reflection, touch-down or lift-off
            guard a.isDown, b.isDown, mid.isDown, a.velocity.distance(to: b.velocity) < 1 else { continue }
            let fd = (b.position - a.position) / (2 * Double(h) / 1e9)
            #expect(fd.distance(to: mid.velocity) < 1e-3 * max(1, mid.speed), "\(kind) at \(t): \(fd) vs \(mid.velocity)")
            checked += 1
        }
        #expect(checked > 40)
    }

    @Test("the same seed gives the same motion, another seed another", arguments: ["circle", "strokes", "flick", "random"])
    func deterministicPerSeed(kind: String) throws {
        let a = try Trajectory.make(kind, parameters: TrajectoryParameters(seed: 7))
        let b = try Trajectory.make(kind, parameters: TrajectoryParameters(seed: 7))
        let c = try Trajectory.make(kind, parameters: TrajectoryParameters(seed: 8))
        var differs = false
        for t in stride(from: SimTime(0), to: 5 * Nanos.perSecond, by: Int(37 * TrajectoryTests.ms)) {
            #expect(a.state(at: t) == b.state(at: t))
            if a.state(at: t).position != c.state(at: t).position { differs = true }
        }
        #expect(differs)
        // a pure function of t: querying out of order changes nothing
        let late = a.state(at: 4 * Nanos.perSecond)
        _ = a.state(at: 1)
        #expect(a.state(at: 4 * Nanos.perSecond) == late)
    }

    /// Touch-downs, lift-offs, mean speed while down and the bounding box
    /// over `seconds` sampled every millisecond.
    static func survey(_ tr: Trajectory, seconds: Int) -> (downs: Int, ups: Int, meanSpeed: Double, inside: Bool) {
        var downs = 0, ups = 0, speedSum = 0.0, n = 0, inside = true
        var wasDown = tr.state(at: 0).isDown
        for i in 1..<(seconds * 1000) {
            let s = tr.state(at: SimTime(i) * TrajectoryTests.ms)
            if s.isDown && !wasDown { downs += 1 }
            if !s.isDown && wasDown { ups += 1 }
            wasDown = s.isDown
            if s.isDown { speedSum += s.speed; n += 1 }
            if s.position.x < 0 || s.position.x > 768 || s.position.y < 0 || s.position.y > 1024 { inside = false }
        }
        return (downs, ups, speedSum / Double(max(n, 1)), inside)
    }

    @Test func strokesWithoutLiftOffChainIntoOneContinuousTouch() throws {
        let tr = try Trajectory.make("strokes", parameters: TrajectoryTests.parameters)
        let s = TrajectoryTests.survey(tr, seconds: 30)
        #expect(s.ups == 0 && s.downs == 0)
        #expect(s.inside)
        // no jump where one stroke hands over to the next
        for k in 1...19 {
            let t = SimTime(k) * 1_500 * TrajectoryTests.ms
            let a = tr.state(at: t - 1), b = tr.state(at: t)
            #expect(a.position.distance(to: b.position) < 0.01, "jump at stroke \(k)")
        }
        #expect(s.meanSpeed > 300 && s.meanSpeed < 1200, "mean speed \(s.meanSpeed)")
    }

    @Test func strokesLiftOffAndTouchDownEveryPeriod() throws {
        var params = TrajectoryTests.parameters
        params.strokeLiftOff = true
        let tr = try Trajectory.make("strokes", parameters: params)
        let s = TrajectoryTests.survey(tr, seconds: 30)
        // one stroke per 1.5 s period
        #expect(s.ups == 20 && s.downs == 19, "ups \(s.ups), downs \(s.downs)")
        #expect(s.inside)
        #expect(abs(s.meanSpeed - 600) < 60, "mean speed while down \(s.meanSpeed)")
        // each lift-off pause lasts 100...300 ms
        var upRun = 0, runs: [Int] = []
        for i in 0..<(30 * 1000) {
            if !tr.state(at: SimTime(i) * TrajectoryTests.ms).isDown { upRun += 1 } else if upRun > 0 { runs.append(upRun); upRun = 0 }
        }
        #expect(!runs.isEmpty && runs.allSatisfy { (99...301).contains($0) }, "\(runs)")
    }

    @Test func flicksDecelerateBeforeLiftOff() throws {
        let tr = try Trajectory.make("flick", parameters: TrajectoryTests.parameters)
        let s = TrajectoryTests.survey(tr, seconds: 20)
        #expect(s.ups == 20 && s.downs == 19)
        #expect(s.inside)
        #expect(abs(s.meanSpeed - 1200) < 120, "flicks average twice the speed: \(s.meanSpeed)")
        // speed peaks early, then decays: at 30 ms faster than at 110 ms
        for k in 0..<5 {
            let t0 = SimTime(k) * Nanos.perSecond
            #expect(tr.state(at: t0 + 30 * TrajectoryTests.ms).speed > 1.5 * tr.state(at: t0 + 110 * TrajectoryTests.ms).speed)
        }
    }

    @Test("always-down kinds move at about the speed", arguments: [("line", 0.001), ("circle", 0.001), ("random", 0.25)])
    func continuousKindsMoveAtSpeed(kind: String, tolerance: Double) throws {
        let tr = try Trajectory.make(kind, parameters: TrajectoryParameters(speed: 450, seed: 5))
        let s = TrajectoryTests.survey(tr, seconds: 60)
        #expect(s.ups == 0 && s.downs == 0)
        #expect(s.inside)
        #expect(abs(s.meanSpeed - 450) / 450 < tolerance, "\(kind): \(s.meanSpeed)")
    }

    @Test func unknownSpecNamesTheChoices() {
        #expect {
            _ = try Trajectory.make("zigzag", parameters: TrajectoryParameters())
        } throws: { error in
            "\(error)".contains("zigzag") && "\(error)".contains("strokes")
        }
        #expect(throws: LatsimError.self) { _ = try Trajectory.make("line", parameters: TrajectoryParameters(speed: -1)) }
    }

    @Test func digitizerNoiseIsSeededAndQuantised() {
        var r1 = SeededRandom(seed: 3), r2 = SeededRandom(seed: 3)
        let noisy = DigitizerNoise(sigma: 2, quantum: 0.5)
        let p = TouchPoint(x: 100.1, y: 200.2)
        var moments = RunningMoments()
        for _ in 0..<2000 {
            let a = noisy.apply(p, rng: &r1)
            #expect(a == noisy.apply(p, rng: &r2))
            #expect((a.x * 2).rounded() == a.x * 2 && (a.y * 2).rounded() == a.y * 2)
            moments.record(a.x - p.x)
        }
        #expect(abs(moments.rms! - 2) < 0.15)
        var r3 = SeededRandom(seed: 3)
        #expect(DigitizerNoise.none.apply(p, rng: &r3) == p)
        #expect(DigitizerNoise(quantum: 1).apply(TouchPoint(x: 2.5, y: -2.4), rng: &r3) == TouchPoint(x: 3, y: -2))
    }
}
