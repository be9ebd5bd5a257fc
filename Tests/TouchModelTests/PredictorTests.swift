import SimKernel
import Testing
@testable import TouchModel

@Suite("Predictors on analytic motion")
struct PredictorTests {
    static let ms = Nanos.perMillisecond
    /// Irregular sample times (coalesced touches are not evenly spaced).
    static let irregular: [SimTime] = [0, 8, 17, 25, 33, 42, 50, 59, 66, 75].map { $0 * ms + 137 }

    static func constantVelocity(_ s: Double) -> TouchPoint { TouchPoint(x: 100 + 420 * s, y: 300 - 250 * s) }
    static func constantAcceleration(_ s: Double) -> TouchPoint {
        TouchPoint(x: 50 + 300 * s + 0.5 * 2000 * s * s, y: 700 - 100 * s - 0.5 * 3500 * s * s)
    }

    @Test("linear predictors reproduce a constant-velocity line exactly", arguments: [PredictorKind.linearFirst, .linearSecond, .leastSquares])
    func linearIsExactOnConstantVelocity(kind: PredictorKind) {
        let input = PredictorTests.irregular.map { TouchSample(time: $0, position: PredictorTests.constantVelocity(Double($0) / 1e9)) }
        for horizon in [4 * PredictorTests.ms, 16 * PredictorTests.ms, 33 * PredictorTests.ms] {
            let truth = PredictorTests.constantVelocity(Double(input.last!.time + horizon) / 1e9)
            #expect(close(prediction(kind, input, horizon: horizon), truth, within: 1e-9))
        }
    }

    @Test("quadratic predictors reproduce constant acceleration exactly", arguments: [PredictorKind.linearSecond, .leastSquares])
    func quadraticIsExactOnConstantAcceleration(kind: PredictorKind) {
        let input = PredictorTests.irregular.map { TouchSample(time: $0, position: PredictorTests.constantAcceleration(Double($0) / 1e9)) }
        let horizon = 25 * PredictorTests.ms
        let truth = PredictorTests.constantAcceleration(Double(input.last!.time + horizon) / 1e9)
        #expect(close(prediction(kind, input, horizon: horizon), truth, within: 1e-8))
        // a first-order predictor cannot: it misses by about a h (t2 - t1)/2 + a h²/2
        let first = prediction(.linearFirst, input, horizon: horizon)!
        #expect(first.distance(to: truth) > 1)
    }

    @Test func kalmanConvergesOnConstantAcceleration() {
        let input = samples(count: 400, start: 0, interval: 8 * PredictorTests.ms, PredictorTests.constantAcceleration)
        let horizon = 16 * PredictorTests.ms
        let truth = PredictorTests.constantAcceleration(Double(input.last!.time + horizon) / 1e9)
        let p = prediction(.kalman, input, horizon: horizon)
        #expect(close(p, truth, within: 0.01), "kalman predicted \(String(describing: p)), truth \(truth)")
        let early = prediction(.kalman, Array(input.prefix(6)), horizon: horizon)!
        let earlyTruth = PredictorTests.constantAcceleration(Double(input[5].time + horizon) / 1e9)
        #expect(early.distance(to: earlyTruth) > p!.distance(to: truth), "the filter improves as it converges")
    }

    @Test func kalmanConvergesOnConstantVelocity() {
        let input = samples(count: 200, interval: 8 * PredictorTests.ms, PredictorTests.constantVelocity)
        let horizon = 16 * PredictorTests.ms
        let truth = PredictorTests.constantVelocity(Double(input.last!.time + horizon) / 1e9)
        #expect(close(prediction(.kalman, input, horizon: horizon), truth, within: 0.01))
    }

    @Test func noneReturnsTheNewestSample() {
        let input = samples(count: 3, interval: 8 * PredictorTests.ms, PredictorTests.constantVelocity)
        #expect(prediction(.none, input, horizon: 50 * PredictorTests.ms) == input[2].position)
    }

    @Test("each kind answers once it has enough history, not before")
    func historyRequirements() {
        let input = samples(count: 5, interval: 8 * PredictorTests.ms, PredictorTests.constantVelocity)
        let needed: [PredictorKind: Int] = [.none: 1, .linearFirst: 2, .linearSecond: 2, .leastSquares: 2,
                                            .kalman: BuiltinPredictor.kalmanStableCount]
        for kind in PredictorKind.allCases {
            var p = BuiltinPredictor(kind: kind)
            #expect(p.predict(horizon: 0) == nil)
            for (i, s) in input.enumerated() {
                p.observe(s)
                #expect((p.predict(horizon: 8 * PredictorTests.ms) != nil) == (i + 1 >= needed[kind]!), "\(kind) after \(i + 1)")
            }
            p.reset()
            #expect(p.predict(horizon: 0) == nil, "\(kind) forgets on reset")
        }
    }

    @Test("bounded error on a circle at 600 points/s, 8 ms sampling, 16 ms ahead", arguments: PredictorKind.allCases)
    func boundedErrorOnCircle(kind: PredictorKind) throws {
        let trajectory = try Trajectory.make("circle", parameters: TrajectoryParameters(seed: 3))
        var p = BuiltinPredictor(kind: kind)
        let horizon = 16 * PredictorTests.ms
        var worst = 0.0
        for i in 0..<500 {
            let t = SimTime(i) * 8 * PredictorTests.ms
            p.observe(TouchSample(time: t, position: trajectory.state(at: t).position))
            guard i >= 50, let guess = p.predict(horizon: horizon) else { continue }
            worst = max(worst, guess.distance(to: trajectory.state(at: t + horizon).position))
        }
        // radius 230 points, speed 600: the centripetal acceleration is 1565 points/s²
        // (measured: none 9.599, linearFirst 0.300, quadratic 0.0083, kalman 0.0079)
        let bound: [PredictorKind: Double] = [.none: 9.7, .linearFirst: 0.35, .linearSecond: 0.01,
                                              .leastSquares: 0.01, .kalman: 0.01]
        #expect(worst < bound[kind]!, "\(kind): worst error \(worst)")
        if kind == .none { #expect(worst > 9.5, "no prediction lags by speed x horizon = 9.6 points") }
    }

    @Test("a prediction after k samples uses only those k", arguments: PredictorKind.allCases)
    func neverUsesUnseenSamples(kind: PredictorKind) {
        let input = PredictorTests.irregular.map { TouchSample(time: $0, position: PredictorTests.constantAcceleration(Double($0) / 1e9) + TouchPoint(x: Double($0 % 7), y: 0)) }
        var incremental = BuiltinPredictor(kind: kind)
        for k in 1...input.count {
            incremental.observe(input[k - 1])
            let fresh = prediction(kind, Array(input.prefix(k)), horizon: 12 * PredictorTests.ms)
            #expect(incremental.predict(horizon: 12 * PredictorTests.ms) == fresh, "\(kind) after \(k) samples")
        }
    }

    @Test func sameTimestampReplacesTheNewestSample() {
        let input = samples(count: 3, interval: 8 * PredictorTests.ms, PredictorTests.constantVelocity)
        for kind in PredictorKind.allCases {
            var p = BuiltinPredictor(kind: kind)
            for s in input { p.observe(s) }
            p.observe(TouchSample(time: input[2].time, position: TouchPoint(x: 0, y: 0)))
            p.observe(input[2])
            var q = BuiltinPredictor(kind: kind)
            for s in input { q.observe(s) }
            #expect(p.predict(horizon: 5 * PredictorTests.ms) == q.predict(horizon: 5 * PredictorTests.ms), "\(kind)")
            #expect(p.historyCount == min(3, input.count))
        }
    }

    @Test func oneEuroSmoothingReducesNoiseJitter() {
        var rng = SeededRandom(seed: 9)
        let noise = DigitizerNoise(sigma: 1.5)
        let input = samples(count: 300, interval: 8 * PredictorTests.ms) { _ in TouchPoint(x: 400, y: 500) }
            .map { TouchSample(time: $0.time, position: noise.apply($0.position, rng: &rng)) }
        func spread(_ config: PredictorConfiguration) -> Double {
            var p = BuiltinPredictor(config)
            var moments = RunningMoments()
            for (i, s) in input.enumerated() {
                p.observe(s)
                if i >= 100, let g = p.predict(horizon: 8 * PredictorTests.ms) { moments.record(g.distance(to: TouchPoint(x: 400, y: 500))) }
            }
            return moments.rms!
        }
        let raw = spread(PredictorConfiguration(kind: .linearFirst))
        let smoothed = spread(PredictorConfiguration(kind: .linearFirst, oneEuro: OneEuroParameters()))
        #expect(smoothed < raw / 5, "raw \(raw), smoothed \(smoothed)")
    }

    @Test func oneEuroPassesTheFirstValueAndRepeatsForOldTimes() {
        var f = OneEuroFilter(parameters: OneEuroParameters())
        let a = TouchPoint(x: 10, y: 20)
        #expect(f.filter(a, at: 0) == a)
        let b = f.filter(TouchPoint(x: 30, y: 20), at: 8 * PredictorTests.ms)
        #expect(b.x > 10 && b.x < 30 && b.y == 20)
        #expect(f.filter(TouchPoint(x: 99, y: 99), at: 4 * PredictorTests.ms) == b)
    }

    @Test func smoothedQueriesAreRepeatableAtAnyHorizon() {
        let input = samples(count: 20, interval: 8 * PredictorTests.ms, PredictorTests.constantAcceleration)
        var p = BuiltinPredictor(PredictorConfiguration(kind: .kalman, oneEuro: OneEuroParameters()))
        for s in input {
            p.observe(s)
            let long = p.predict(horizon: 16 * PredictorTests.ms)
            let short = p.predict(horizon: 4 * PredictorTests.ms)
            #expect(p.predict(horizon: 16 * PredictorTests.ms) == long)
            #expect(p.predict(horizon: 4 * PredictorTests.ms) == short)
        }
        // a smoothed predictor lags a straight-line acceleration less than none does, but lags
        let truth = PredictorTests.constantAcceleration(Double(input.last!.time + 16 * PredictorTests.ms) / 1e9)
        let smoothed = p.predict(horizon: 16 * PredictorTests.ms)!
        #expect(smoothed.distance(to: truth) > 0.1)
        #expect(smoothed.distance(to: truth) < input.last!.position.distance(to: truth))
    }
}
