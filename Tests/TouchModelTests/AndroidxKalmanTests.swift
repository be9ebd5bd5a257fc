import SimKernel
import Testing
@testable import TouchModel

/// androidx.input.motionprediction's Kalman predictor: its unit tests'
/// properties, and hand-worked cases of its rules.
@Suite("androidx Kalman predictor")
struct AndroidxKalmanTests {
    /// The coordinate generators of SinglePointerPredictorTest.simplePrediction
    /// (androidx input-motionprediction, kalman/SinglePointerPredictorTest.kt),
    /// of the milliseconds since the first event.
    static let generators: [@Sendable (Double) -> Double] = [
        { _ in 0 }, { $0 }, { -$0 }, { 2 * $0 },
        { $0 * $0 / 4 }, { -$0 * $0 / 4 }, { $0 * $0 / 2 },
        { $0 + $0 * $0 / 4 }, { -$0 - $0 * $0 / 4 },
    ]

    /// MotionEventGenerator.kt: events 5 ms apart at 500 + f(t).
    static func event(_ k: Int, _ fx: (Double) -> Double, _ fy: (Double) -> Double) -> TouchSample {
        let t = Double(5 * k)
        return TouchSample(time: milliseconds(1000 + t), position: TouchPoint(x: 500 + fx(t), y: 500 + fy(t)))
    }

    // SinglePointerPredictorTest.simplePrediction: a stylus, balanced, asked
    // one report interval (5 ms) ahead after 20 events, predicts the next
    // event's time exactly and its position within 0.5 px, for every pair of
    // constant, linear and quadratic motions but the still one
    @Test func simplePrediction() throws {
        for (xi, fx) in Self.generators.enumerated() {
            for (yi, fy) in Self.generators.enumerated() where xi != 0 || yi != 0 {
                var p = try platform("androidx.kalman(stylus)")
                var k = 0
                for _ in 1...20 {
                    p.observe(Self.event(k, fx, fy)); k += 1
                    _ = p.predict(horizon: milliseconds(5))
                }
                for _ in 1...10 {
                    let answer = p.predict(horizon: milliseconds(5))
                    let next = Self.event(k, fx, fy)
                    let guess = try #require(answer, "generators \(xi), \(yi)")
                    #expect(p.predictedTime == next.time, "generators \(xi), \(yi)")
                    #expect(Swift.abs(guess.x - next.position.x) <= 0.5 && Swift.abs(guess.y - next.position.y) <= 0.5,
                            "generators \(xi), \(yi): \(guess) for \(next.position)")
                    p.observe(next); k += 1
                }
            }
        }
    }

    // SinglePointerPredictorTest.predictionNeverGoesBackwards: targets of
    // 50 ms (called on the predictor itself, below the 32 ms cap of the
    // horizon rule) then one of 5 ms; predicted times never decrease
    @Test func predictionNeverGoesBackwards() throws {
        var state = AndroidxKalmanState()
        let c = AndroidxKalmanConfiguration(tool: .stylus)
        var last: SimTime = 0
        var k = 0
        for _ in 1...20 {
            state.update(Self.event(k, { $0 }, { $0 })); k += 1
            if let (_, t) = state.predict(targetMs: 50, configuration: c) {
                #expect(t >= last); last = t
            }
        }
        state.update(Self.event(k, { $0 }, { $0 }))
        let answer = state.predict(targetMs: 5, configuration: c)
        let (_, t) = try #require(answer)
        #expect(t >= last && t > Self.event(k, { $0 }, { $0 }).time + milliseconds(5), "it reaches the earlier 50 ms")
    }

    @Test func confidenceRanges() {
        // finger: speed 1 px/ms of 0…2, jerk 0.11 of 0.02…0.2 → 0.5 × 0.5
        #expect(Swift.abs(AndroidxKalmanState.confidence(speed: 1, jerk: 0.11, tool: .finger) - 0.25) < 1e-12)
        // stylus: any speed above 0 of the 0…0 range counts fully
        #expect(Swift.abs(AndroidxKalmanState.confidence(speed: 0.3, jerk: 0.15, tool: .stylus) - 0.5) < 1e-12)
        // a stylus at rest: 0/0 is NaN, and Java's min/max keep it
        #expect(AndroidxKalmanState.confidence(speed: 0, jerk: 0, tool: .stylus).isNaN)
        #expect(AndroidxKalmanState.confidence(speed: 3, jerk: 0.5, tool: .finger) == 0)
        #expect(AndroidxKalmanState.ceilToInt(.nan) == 0)
        #expect(AndroidxKalmanState.ceilToInt(2.4) == 3 && AndroidxKalmanState.ceilToInt(2) == 2)
        #expect(AndroidxKalmanState.ceilToInt(-0.5) == 0)
    }

    /// A converged filter: position 10, 2 px per sample, no acceleration,
    /// jerk 1 (so the finger's jerk factor is 0), samples 8 ms apart, the
    /// newest at 100 ms.
    static func jerkyState() -> AndroidxKalmanState {
        var s = AndroidxKalmanState()
        s.iterations = 4; s.reportInterval = 8; s.lastSeen = 100; s.seen = true
        s.lastPosition = TouchPoint(x: 10, y: 0)
        s.x.state = SIMD4(10, 2, 0, 1)
        return s
    }

    // a' = a + 0.1 j = 0.1; v' = v + 0.5 a' = 2.05; p' = p + v' = 12.05
    @Test func strategies() throws {
        var balanced = Self.jerkyState(), safe = Self.jerkyState(), aggressive = Self.jerkyState()
        let bAnswer = balanced.predict(targetMs: 16, configuration: .init(strategy: .balanced))
        let b = try #require(bAnswer)
        #expect(b.0 == TouchPoint(x: 10, y: 0) && b.1 == milliseconds(100), "no confidence: no step")
        let sAnswer = safe.predict(targetMs: 16, configuration: .init(strategy: .safe))
        let s = try #require(sAnswer)
        #expect(Swift.abs(s.0.x - 12.05) < 1e-12 && s.1 == milliseconds(108), "safe: one step")
        let aAnswer = aggressive.predict(targetMs: 16, configuration: .init(strategy: .aggressive))
        let a = try #require(aAnswer)
        // two steps: a = 0.1, 0.2; v = 2.05, 2.15; p = 12.05, 14.2
        #expect(Swift.abs(a.0.x - 14.2) < 1e-12 && a.1 == milliseconds(116), "aggressive: 16 / 8 steps")
    }

    // with 0 steps the loop still runs until it passes the last predicted
    // time, 130 ms: samples at 108, 116, 124
    @Test func neverRetracts() throws {
        var s = Self.jerkyState()
        s.lastPredicted = 130
        let rAnswer = s.predict(targetMs: 16, configuration: .init())
        let r = try #require(rAnswer)
        #expect(r.1 == milliseconds(124))
        #expect(s.lastPredicted == 124)
    }

    @Test func horizonRule() {
        #expect(AndroidxKalmanState.target(horizon: milliseconds(16.9), offsetMilliseconds: 0) == 16)
        #expect(AndroidxKalmanState.target(horizon: milliseconds(40), offsetMilliseconds: 0) == 32)
        #expect(AndroidxKalmanState.target(horizon: milliseconds(16.9), offsetMilliseconds: -4) == 12)
        #expect(AndroidxKalmanState.target(horizon: milliseconds(30), offsetMilliseconds: 10) == 32)
        let c = AndroidxKalmanConfiguration()
        // 5 ms since the event + 8.33 ms frame → 13; + 16.67 → 21; 20 + 16.67 → capped
        #expect(c.predictionTarget(sinceLastEvent: milliseconds(5.5), maxRefreshRate: 120) == 13)
        #expect(c.predictionTarget(sinceLastEvent: milliseconds(5), maxRefreshRate: 60) == 21)
        #expect(c.predictionTarget(sinceLastEvent: milliseconds(20), maxRefreshRate: 60) == 32)
    }

    /// 9.6 points every 8 ms along x (1.2 points/ms), for 1.6 s.
    static func steadySamples() -> [TouchSample] {
        (0..<200).map { TouchSample(time: milliseconds(8 * Double($0)), position: TouchPoint(x: 9.6 * Double($0), y: 50)) }
    }

    // converged on constant velocity: speed factor 1.2/2 = 0.6, jerk factor
    // 1; a 32 ms target is 4 intervals, × 0.6 = 2.4 → 3 steps of 9.6
    @Test func confidenceScalesTheSteps() throws {
        var balanced = try platform("androidx.kalman"), aggressive = try platform("androidx.kalman(aggressive)")
        for s in Self.steadySamples() { balanced.observe(s); aggressive.observe(s) }
        let newest = Self.steadySamples().last!
        let bAnswer = balanced.predict(horizon: milliseconds(32))
        let b = try #require(bAnswer)
        #expect(balanced.predictedTime == newest.time + milliseconds(24))
        #expect(Swift.abs(b.x - (newest.position.x + 3 * 9.6)) < 1e-6 && Swift.abs(b.y - 50) < 1e-6)
        let aAnswer = aggressive.predict(horizon: milliseconds(40))
        let a = try #require(aAnswer)
        #expect(aggressive.predictedTime == newest.time + milliseconds(32), "capped at 32 ms: 4 steps")
        #expect(Swift.abs(a.x - (newest.position.x + 4 * 9.6)) < 1e-6)
        _ = aggressive.predict(horizon: milliseconds(16.9))
        #expect(aggressive.predictedTime == newest.time + milliseconds(32), "never retracts from the earlier 32 ms")
    }

    // EVENT_TIME_IGNORED_THRESHOLD_MS: the same position within 20 ms of
    // the newest accepted sample is dropped; 25 ms later it counts
    @Test func repeatsWithinTwentyMillisecondsAreIgnored() throws {
        var p = try platform("androidx.kalman")
        for (t, x) in [(0.0, 0.0), (8, 1), (16, 2)] { p.observe(TouchSample(time: milliseconds(t), position: TouchPoint(x: x, y: 0))) }
        p.observe(TouchSample(time: milliseconds(36), position: TouchPoint(x: 2, y: 0)))
        #expect(p.androidx.iterations == 3 && p.androidx.lastSeen == 16)
        #expect(p.predict(horizon: milliseconds(8)) == nil, "3 accepted samples: fewer than 4")
        p.observe(TouchSample(time: milliseconds(41), position: TouchPoint(x: 2, y: 0)))
        #expect(p.androidx.iterations == 4 && p.androidx.lastSeen == 41)
        #expect(p.timeInterval == milliseconds((8 + 8 + 25) / 3.0), "mean of the accepted gaps")
    }

    // the report interval is the mean of the first 20 gaps, then frozen
    @Test func reportIntervalFreezesAfterTwentyGaps() throws {
        var p = try platform("androidx.kalman")
        var t = 0.0
        for i in 0..<40 {
            p.observe(TouchSample(time: milliseconds(t), position: TouchPoint(x: Double(i), y: 0)))
            t += i < 10 ? 6 : (i < 20 ? 10 : 4)
        }
        #expect(p.timeInterval == milliseconds(8), "(10 × 6 + 10 × 10) / 20; the 4 ms gaps come too late")
        p.reset()
        #expect(p.timeInterval == 0 && p.predict(horizon: 0) == nil && p.androidx.lastPredicted == 0)
    }
}
