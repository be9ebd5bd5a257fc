import Foundation
import SimKernel
import Testing
@testable import TouchModel

/// Force in the finger model (Docs/Force.md, "Presses" and "Recorded
/// force"): press profiles, force columns of recorded traces, force
/// crossings and predicted force.
@Suite("Force input")
struct ForceInputTests {
    static let ms = Nanos.perMillisecond
    static let frame = Rational(16_666_667)

    static func press(_ text: String) throws -> PressProfile { try PressProfile.parse(text, framePeriod: frame) }

    @Test func aRampRisesHoldsAndFallsOnStraightLines() throws {
        let p = try Self.press("ramp(peak=4, rise=200ms, hold=100ms, fall=50ms, at=1s, every=2s)")
        let ms = Self.ms
        #expect(p.force(at: 999 * ms) == 0)
        #expect(p.force(at: 1000 * ms) == 0)
        #expect(p.force(at: 1150 * ms) == 3)           // 4 · 150/200
        #expect(p.force(at: 1250 * ms) == 4)           // held
        #expect(p.force(at: 1325 * ms) == 2)           // 4 · (1 − 25/50)
        #expect(p.force(at: 1350 * ms) == 0)           // released
        #expect(p.force(at: 3150 * ms) == 3)           // the next press, 2 s later
        #expect(p.pressStart(at: 3150 * ms) == 3000 * ms)
        #expect(p.peakForce == 4 && p.pressLength == 350 * ms)
    }

    @Test func peekPopClimbsTwoLevelsAndHoldWavers() throws {
        let pp = try Self.press("peekPop(peek=3, pop=5, rise=100ms, hold=200ms, fall=100ms, at=0ms)")
        let ms = Self.ms
        #expect(pp.force(at: 50 * ms) == 1.5)
        #expect(pp.force(at: 200 * ms) == 3)
        #expect(pp.force(at: 350 * ms) == 4)           // halfway from peek to pop
        #expect(pp.force(at: 500 * ms) == 5)
        #expect(pp.force(at: 650 * ms) == 2.5)
        #expect(pp.force(at: 700 * ms) == 0)
        let hold = try Self.press("hold(force=3, rise=100ms, wobble=0.5, wobbleHz=10, at=0ms, every=0)")
        // a quarter period (25 ms) after the rise the sine is at its top
        #expect(abs(hold.force(at: 125 * ms) - 3.5) < 1e-12)
        #expect(abs(hold.force(at: 175 * ms) - 2.5) < 1e-12)
        #expect(abs(hold.force(at: 100_000 * ms) - 3) < 1e-9) // held for ever: a whole number of periods later
        #expect(hold.peakForce == 3.5 && hold.pressLength == nil)
    }

    @Test func theCanonicalTextReadsBackAndDefaultsFillIn() throws {
        let p = try Self.press("PEEKPOP( pop = 6 )")
        #expect(p.description == "peekPop(peek=3.5, pop=6, rise=150ms, hold=300ms, fall=150ms, at=500ms, every=2s)")
        #expect(try Self.press(p.description) == p)
        #expect(try Self.press("none").isNone)
        #expect(try Self.press("ramp(rise=2frames)").shape == .ramp(peak: 4, rise: 33_333_334, hold: 0, fall: 150 * Self.ms))
    }

    @Test(arguments: [
        ("ramp", "not a press profile"),
        ("squeeze(peak=2)", "unknown press 'squeeze'"),
        ("ramp(peak=-1)", "peak=-1 is outside the range"),
        ("ramp(peak=abc)", "peak 'abc' is not a number"),
        ("ramp(peak=2, peak=3)", "peak is given twice"),
        ("ramp(pop=2)", "ramp has no parameter 'pop'"),
        ("ramp(rise=fast)", "rise 'fast' not a duration"),
        ("ramp(rise=2h)", "rise '2h' not a duration"),
        ("ramp(peak 2)", "'peak 2' is not a parameter"),
        ("peekPop(peek=5, pop=4)", "pop=4 is not above peek=5"),
        ("hold(force=2, wobble=2)", "wobble=2 reaches force=2"),
        ("ramp(rise=1s, fall=1s, every=1.5s)", "a press lasts 2s, longer than every=1500ms"),
    ])
    func aMalformedPressSaysWhatIsWrong(_ text: String, _ problem: String) {
        #expect {
            _ = try Self.press(text)
        } throws: { error in
            guard let e = error as? LatsimError else { return false }
            return e.value == text && e.problem.contains(problem) && (e.expected ?? "").contains("ramp(peak=4")
        }
    }

    @Test func aPressGivesTheFingerItsForceOnlyWhileItIsDown() throws {
        var parameters = TrajectoryParameters()
        parameters.press = try Self.press("ramp(peak=2, rise=100ms, at=0ms)")
        let t = try Trajectory.make("flick", parameters: parameters)
        #expect(t.hasForce)
        var sawUp = false, sawDown = false
        for i in 0..<2_000 {
            let at = SimTime(i) * Self.ms
            let s = t.state(at: at)
            if s.isDown {
                sawDown = true
                #expect(s.force == parameters.press.force(at: at))
            } else {
                sawUp = true
                #expect(s.force == 0)
            }
        }
        #expect(sawUp && sawDown)
        // the cursor (which caches stroke plans) agrees with the trajectory
        let strokes = try Trajectory.make("strokes", parameters: parameters)
        var cursor = TrajectoryCursor(strokes)
        for i in stride(from: 0, to: 3_000, by: 7) {
            let at = SimTime(i) * Self.ms
            #expect(cursor.state(at: at) == strokes.state(at: at))
        }
        #expect(!(try Trajectory.make("line", parameters: TrajectoryParameters())).hasForce)
    }

    @Test func aCSVForceColumnBecomesTheFingersForce() throws {
        let dir = try Fixtures.temporaryDirectory("force-csv")
        let path = dir + "/press.csv"
        try Fixtures.write("t_ms,x,y,force\n0,10,10,0.5\n100,10,10,2.5\n200,10,10,1\n", to: path)
        let t = try Trajectory.make(path, parameters: TrajectoryParameters())
        #expect(t.hasForce)
        #expect(t.state(at: 0).force == 0.5)
        #expect(abs(t.state(at: 50 * Self.ms).force - 1.5) < 1e-12)
        #expect(abs(t.state(at: 150 * Self.ms).force - 1.75) < 1e-12)
        #expect(t.state(at: 200 * Self.ms).force == 1)
        #expect(t.state(at: 201 * Self.ms).force == 0)   // lifted
        // without a force column there is no force
        let plain = dir + "/plain.csv"
        try Fixtures.write("t_ms,x,y\n0,10,10\n100,20,10\n", to: plain)
        #expect(!(try Trajectory.make(plain, parameters: TrajectoryParameters())).hasForce)
        // a press replaces the recorded force
        var pressed = TrajectoryParameters()
        pressed.press = try Self.press("ramp(peak=3, rise=100ms, at=0ms)")
        #expect(try Trajectory.make(path, parameters: pressed).state(at: 50 * Self.ms).force == 1.5)
    }

    @Test(arguments: [("-0.5", "-0.5"), ("7", "7"), ("1e3", "1e3")])
    func aBadForceColumnNamesFileLineAndRange(_ value: String, _ echoed: String) throws {
        let dir = try Fixtures.temporaryDirectory("force-bad-\(value)")
        let path = dir + "/bad.csv"
        try Fixtures.write("t_ms,x,y,force\n0,10,10,1\n8,11,10,\(value)\n", to: path)
        #expect {
            _ = try Trajectory.make(path, parameters: TrajectoryParameters())
        } throws: { error in
            guard let e = error as? LatsimError else { return false }
            return e.file == path && e.line == 3 && e.key == "force" && e.value == echoed
                && (e.expected ?? "").contains("6.666667") && e.description.contains("device.maximumForce")
        }
        // a larger device takes it
        var big = TrajectoryParameters()
        big.maximumForce = 2_000
        if value != "-0.5" { _ = try Trajectory.make(path, parameters: big) }
    }

    @Test func aCrossingIsFoundToTheNanosecondOnARamp() throws {
        let p = try Self.press("ramp(peak=4, rise=200ms, hold=300ms, fall=100ms, at=1s)")
        let ms = Self.ms
        // from a sample well past the crossing, back to where the force was below 2.5
        let c = ForceCrossing.rise(to: 3, from: 2.5, near: 1208 * ms, earliest: 0, latest: 1217 * ms) { p.force(at: $0) }
        #expect(c == 1150 * ms)
        // a force that never reaches the level has no crossing
        #expect(ForceCrossing.rise(to: 5, from: 4.5, near: 1208 * ms, earliest: 0, latest: 1400 * ms) { p.force(at: $0) } == nil)
        // hovering above the release level: the first rise counts, not the last
        let hover = try Self.press("hold(force=3, rise=100ms, wobble=0.3, wobbleHz=8, at=0ms, every=0)")
        let first = ForceCrossing.rise(to: 3, from: 2.5, near: 900 * ms, earliest: 0, latest: 900 * ms) { hover.force(at: $0) }
        #expect(first == 100 * ms)
    }

    @Test func predictedForceFollowsTheMethodOfThePositionPredictor() throws {
        #expect(ForcePredictor(nil) == nil)
        #expect(ForcePredictor(PredictorSpec(.none)) == nil)
        #expect(ForcePredictor(try PredictorSpec(parsing: "chromium.linearFirst")) == nil)
        var linear = try #require(ForcePredictor(try PredictorSpec(parsing: "linearFirst+1e")))
        // a ramp of 10 per second sampled every 10 ms: linear extrapolation is exact
        for i in 0..<5 { linear.observe(time: SimTime(i) * 10 * Self.ms, force: 0.1 * Double(i)) }
        let p = linear.predict(horizon: 20 * Self.ms, maximum: 6)
        #expect(p.map { abs($0 - 0.6) < 1e-9 } == true)
        // kept within 0 and the largest force
        let far = linear.predict(horizon: 1_000 * Self.ms, maximum: 6)
        #expect(far == 6)
    }
}
