import SimKernel
import Testing
@testable import TouchModel

/// Chromium's reset rules, time-interval rules, latency variants and 1€
/// filter (ui/base/prediction), each against a hand-worked case.
@Suite("Chromium predictors: reset, time-interval and filter rules")
struct ChromiumRuleTests {
    static func sample(_ ms: Double, _ x: Double, _ y: Double = 0) -> TouchSample {
        TouchSample(time: milliseconds(ms), position: TouchPoint(x: x, y: y))
    }

    // *_unittest.cc TimeInterval tests: linear first order 33 − 17 = 16 ms;
    // second order (33 − 0)/2; least squares (10 − 0)/2; Kalman, gaps of 7 ms;
    // LinearResampling the last gap; 8 ms before any data
    @Test("TimeInterval as Chromium's tests publish it", arguments: [
        ("chromium.linearFirst", [17.0, 33], 16.0),
        ("chromium.linearSecond", [0, 17, 33], 16.5),
        ("chromium.leastSquares", [0, 4, 10], 5),
        ("chromium.kalman", [7, 14, 21, 28], 7),
        ("chromium.linearResampling", [17, 33], 16),
        ("chromium.empty", [17, 33], 8),
    ])
    func timeInterval(spec: String, times: [Double], expected: Double) throws {
        var p = try platform(spec)
        #expect(p.timeInterval == ChromiumPrediction.defaultTimeInterval)
        for (i, t) in times.enumerated() { p.observe(Self.sample(t, Double(i))) }
        #expect(p.timeInterval == milliseconds(expected))
    }

    @Test func timeIntervalFloorIsTwoAndAHalfMillisecondsExceptForResampling() throws {
        var linear = try platform("chromium.linearFirst"), resampling = try platform("chromium.linearResampling")
        for t in [0.0, 1] { linear.observe(Self.sample(t, t)); resampling.observe(Self.sample(t, t)) }
        #expect(linear.timeInterval == 2_500_000)
        #expect(resampling.timeInterval == milliseconds(1), "LinearResampling returns the raw gap")
    }

    // the time filter fed gaps at dt = 0 keeps position and velocity
    // uncoupled, so its gains are 1/2, 1/3, ...: the mean of the gaps
    @Test func kalmanTimeIntervalIsTheMeanGap() throws {
        var p = try platform("chromium.kalman")
        for (i, t) in [0.0, 5, 14, 27].enumerated() { p.observe(Self.sample(t, Double(i))) }
        #expect(Swift.abs(Double(p.timeInterval) - 9e6) <= 1, "(5 + 9 + 13) / 3 = 9 ms, got \(p.timeInterval)")
    }

    // a gap of exactly 20 ms continues the trajectory; a longer one resets
    @Test("a gap over 20 ms after the newest event resets", arguments: [
        "chromium.linearFirst", "chromium.linearSecond", "chromium.linearResampling",
    ])
    func gapResets(spec: String) throws {
        var p = try platform(spec)
        p.observe(Self.sample(0, 0)); p.observe(Self.sample(10, 10)); p.observe(Self.sample(30, 20))
        let continued = p.predict(horizon: milliseconds(4))
        #expect(continued != nil, "20 ms is not more than kMaxTimeDelta")
        p.observe(TouchSample(time: milliseconds(50) + 1, position: TouchPoint(x: 30, y: 0)))
        #expect(p.predict(horizon: milliseconds(4)) == nil, "one event after the reset")
    }

    @Test func leastSquaresAndKalmanRestartAfterAGap() throws {
        var lsq = try platform("chromium.leastSquares"), kalman = try platform("chromium.kalman")
        for t in [0.0, 8, 16, 24] { lsq.observe(Self.sample(t, t)); kalman.observe(Self.sample(t, t)) }
        #expect(lsq.predict(horizon: 0) != nil && kalman.predict(horizon: 0) != nil)
        for t in [45.0, 53, 61] { lsq.observe(Self.sample(t, t)); kalman.observe(Self.sample(t, t)) }
        #expect(lsq.predict(horizon: 0) != nil, "three events since the reset at 45 ms")
        #expect(kalman.predict(horizon: 0) == nil, "three updates since the reset: not yet stable")
        kalman.observe(Self.sample(69, 69))
        #expect(kalman.predict(horizon: 0) != nil, "four updates: stable (kStableIterNum)")
    }

    // linear_resampling_unittest.cc, ResampleMinDelta
    @Test func linearResamplingMinDelta() throws {
        var p = try platform("chromium.linearResampling")
        let expected = [false, false, true, true, false]
        for (t, has) in zip([0.0, 1, 3, 15, 36], expected) {
            p.observe(Self.sample(t, 0))
            #expect((p.predict(horizon: 0) != nil) == has, "after the event at \(t) ms")
        }
    }

    // empty_predictor.cc: the newest event, whatever the gap or the target
    @Test func emptyReturnsTheNewestEventAtItsOwnTime() throws {
        var p = try platform("chromium.empty")
        #expect(p.predict(horizon: 0) == nil)
        p.observe(Self.sample(0, 1, 2)); p.observe(Self.sample(100, 3, 4))
        #expect(p.predict(horizon: milliseconds(16)) == TouchPoint(x: 3, y: 4))
        #expect(p.predictedTime == milliseconds(100))
    }

    // kalman_predictor.h: kMaxTimeInQueue = 40 ms; events 8 ms apart from 0
    // to 72 ms leave those at 32 ... 72 ms
    @Test func kalmanKeepsFortyMilliseconds() throws {
        var p = try platform("chromium.kalman(heuristics)")
        for t in stride(from: 0.0, through: 72, by: 8) { p.observe(Self.sample(t, t)) }
        #expect(p.kalman.turns.count == 6)
        p.reset()
        #expect(p.kalman.turns.count == 0 && p.predict(horizon: 0) == nil)
    }

    // The heuristic's turn is atan2(x, y) of one step minus that of the
    // next, unwrapped: two steps upward (−y) leaning 0.01 rad right then
    // left turn by 0.02 rad, but their atan2 values straddle ±π, so the sum
    // is 2π − 0.02 rad, above 15°.
    @Test func kalmanHeuristicTurnIsUnwrapped() throws {
        var p = try platform("chromium.kalman(heuristics)")
        let lean = 0.01
        p.observe(Self.sample(0, 0, 0))
        p.observe(Self.sample(8, sine(lean), -cosine(lean)))
        p.observe(Self.sample(16, 0, -2 * cosine(lean)))
        let expected = 2 * Double.pi - 2 * lean
        #expect(Swift.abs(p.kalman.turns.totalTurn - expected) < 1e-12)
    }

    // ResampleLatency of each variant at 60 Hz (16 666 667 ns)
    @Test func resampleLatencyVariants() {
        let f: SimTime = 16_666_667
        #expect(ResampleLatency.standard.latency(frameInterval: f) == -5_000_000)
        #expect(ResampleLatency.time(milliseconds: 3.3).latency(frameInterval: f) == 3_300_000)
        #expect(ResampleLatency.frames(ratio: 0.5).latency(frameInterval: f) == 8_333_334 - 5_000_000)
        #expect(ResampleLatency.experiment.latency(frameInterval: f) == 6_250_000 - 5_000_000)
        #expect(ResampleLatency.fixedMilliseconds(-5).latency(frameInterval: f) == -5_000_000)
        #expect(ResampleLatency.fractional(0.25).latency(frameInterval: f) == 4_166_667)
    }

    // Chromium clamps unless ResamplingScrollEventsExperimentalPrediction is
    // on: events (10, 5) at 10 ms and (20, 10) at 30 ms, frame 45 ms
    @Test func experimentalVariantsAreNotClamped() throws {
        var time = try platform("chromium.linearResampling(time=3.3)")
        var fixed = try platform("chromium.linearResampling(fixedMs=3.3)")
        let out = chromiumPredictions(&time, x: [10, 20], y: [5, 10], t: [10, 30], at: [45])
        let alpha: Double = 18.3 / 20
        #expect(near(out, [(20 + 10 * alpha, 10 + 5 * alpha)], within: 1e-9), "sample at 48.3 ms")
        let clamped = chromiumPredictions(&fixed, x: [10, 20], y: [5, 10], t: [10, 30], at: [45])
        #expect(near(clamped, [(24, 12)], within: 1e-9), "sample clamped to 38 ms")
    }

    @Test func frameBasedVariantUsesTheGivenFrameInterval() throws {
        var p = try platform("chromium.linearResampling(frames)")
        p.observe(Self.sample(0, 0)); p.observe(Self.sample(10, 10))
        _ = p.predict(horizon: 0)
        #expect(p.predictedTime == milliseconds(10) + 8_333_334 - 5_000_000, "the 60 Hz default")
        _ = p.predict(horizon: 0, frameInterval: milliseconds(8))
        #expect(p.predictedTime == milliseconds(10 + 4 - 5), "half of 8 ms minus 5 ms")
    }

    // third_party/one_euro_filter/tests, SameValuesConstantTimestampTest
    @Test func oneEuroKeepsAConstant() {
        var f = ChromiumOneEuroFilter(minCutoff: 1, beta: 0)
        for i in 0..<100 {
            #expect(f.filter(TouchPoint(x: 0.5, y: 0.5), at: SimTime(i) * milliseconds(8)) == TouchPoint(x: 0.5, y: 0.5))
        }
    }

    // Hand-worked: values 0, 1, 3 at 0, 10, 30 ms with current Chromium's
    // defaults (mincutoff 4.7, β 0.01). The frequency becomes 100 Hz, then
    // 50 Hz; the speed comes from the previous *filtered* value (x1, not 1).
    @Test func oneEuroFollowsChromiumsFormulas() {
        var f = ChromiumOneEuroFilter()
        #expect(f.minCutoff == 4.7 && f.beta == 0.01 && f.version == .current)
        func alpha(_ cutoff: Double, _ hz: Double) -> Double { 1 / (1 + (1 / (2 * Double.pi * cutoff)) * hz) }
        #expect(f.filter(TouchPoint(x: 0, y: 0), at: 0).x == 0)
        let d1 = alpha(1, 100) * (1 - 0) * 100
        let x1 = alpha(4.7 + 0.01 * d1, 100) * 1
        #expect(Swift.abs(f.filter(TouchPoint(x: 1, y: 0), at: milliseconds(10)).x - x1) < 1e-12)
        let d2 = alpha(1, 50) * (3 - x1) * 50 + (1 - alpha(1, 50)) * d1
        let x2 = alpha(4.7 + 0.01 * d2, 50) * 3 + (1 - alpha(4.7 + 0.01 * d2, 50)) * x1
        #expect(Swift.abs(f.filter(TouchPoint(x: 3, y: 0), at: milliseconds(30)).x - x2) < 1e-12)
    }

    // The same with the 2019-2023 filter (mincutoff 1, β 0.001): the speed
    // comes from the raw previous value (1, not the filtered one).
    @Test func oneEuro2019FollowsItsFormulas() {
        var f = ChromiumOneEuroFilter(.v2019)
        func alpha(_ cutoff: Double, _ hz: Double) -> Double { 1 / (1 + (1 / (2 * Double.pi * cutoff)) * hz) }
        #expect(f.filter(TouchPoint(x: 0, y: 0), at: 0).x == 0)
        let d1 = alpha(1, 100) * (1 - 0) * 100
        let x1 = alpha(1 + 0.001 * d1, 100) * 1
        #expect(Swift.abs(f.filter(TouchPoint(x: 1, y: 0), at: milliseconds(10)).x - x1) < 1e-12)
        let d2 = alpha(1, 50) * (3 - 1) * 50 + (1 - alpha(1, 50)) * d1
        let x2 = alpha(1 + 0.001 * d2, 50) * 3 + (1 - alpha(1 + 0.001 * d2, 50)) * x1
        #expect(Swift.abs(f.filter(TouchPoint(x: 3, y: 0), at: milliseconds(30)).x - x2) < 1e-12)
    }

    // the filter sees every request at its target time, fed the newest
    // event when there is no prediction
    @Test func oneEuroSmoothsPredictionsAndIsFedWithoutThem() throws {
        var smoothed = try platform("chromium.linearFirst+1e"), raw = try platform("chromium.linearFirst")
        smoothed.observe(Self.sample(0, 100)); raw.observe(Self.sample(0, 100))
        #expect(smoothed.predict(horizon: milliseconds(8)) == nil, "one event: no prediction, but the filter starts at 100")
        for t in [8.0, 16] { smoothed.observe(Self.sample(t, 100 + t)); raw.observe(Self.sample(t, 100 + t)) }
        let rawAnswer = raw.predict(horizon: milliseconds(8)), smoothedAnswer = smoothed.predict(horizon: milliseconds(8))
        let r = try #require(rawAnswer), s = try #require(smoothedAnswer)
        #expect(r.x == 124)
        var f = ChromiumOneEuroFilter()
        _ = f.filter(TouchPoint(x: 100, y: 0), at: milliseconds(8))
        #expect(s == f.filter(r, at: milliseconds(24)))
        #expect(s.x > 100 && s.x < 124)
        // +1e2019 runs the 2019 filter on the same answers
        var old = try platform("chromium.linearFirst+1e2019")
        old.observe(Self.sample(0, 100))
        #expect(old.predict(horizon: milliseconds(8)) == nil)
        for t in [8.0, 16] { old.observe(Self.sample(t, 100 + t)) }
        let oldPredicted = old.predict(horizon: milliseconds(8))
        let oldAnswer = try #require(oldPredicted)
        var g = ChromiumOneEuroFilter(.v2019)
        _ = g.filter(TouchPoint(x: 100, y: 0), at: milliseconds(8))
        #expect(oldAnswer == g.filter(r, at: milliseconds(24)) && oldAnswer != s)
    }
}
