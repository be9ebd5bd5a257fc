import SimKernel
@testable import TouchModel

/// Milliseconds (possibly fractional) as simulated time.
func milliseconds(_ x: Double) -> SimTime { roundHalfUp(x * 1e6) }

/// A platform predictor from its spec text.
func platform(_ spec: String, frameInterval: SimTime = PlatformPredictor.defaultFrameInterval) throws -> PlatformPredictor {
    guard case .platform(let c) = try PredictorSpec(parsing: spec) else { throw LatsimError(problem: "\(spec) is not a platform predictor") }
    return PlatformPredictor(c, frameInterval: frameInterval)
}

/// Chromium's `InputPredictorTest::ValidatePredictor` with prediction times
/// (ui/base/prediction/input_predictor_unittest_helpers.cc): after each
/// event, when the predictor has a prediction, ask for the next prediction
/// time; returns every answer.
func chromiumPredictions(_ p: inout PlatformPredictor, x: [Double], y: [Double], t: [Double],
                         at predictionTimes: [Double], frameInterval: SimTime? = nil) -> [TouchPoint] {
    p.reset()
    var out: [TouchPoint] = []
    for i in t.indices {
        p.observe(TouchSample(time: milliseconds(t[i]), position: TouchPoint(x: x[i], y: y[i])))
        guard out.count < predictionTimes.count else { continue }
        let horizon = milliseconds(predictionTimes[out.count]) - milliseconds(t[i])
        let answer = frameInterval.map { p.predict(horizon: horizon, frameInterval: $0) } ?? p.predict(horizon: horizon)
        if let answer { out.append(answer) }
    }
    return out
}

/// Chromium's `InputPredictorTest::ValidatePredictor` without prediction
/// times: before each event, when the predictor has a prediction, predict
/// that event; returns the largest miss and the number of predictions.
func chromiumPredictsNextEvents(_ p: inout PlatformPredictor, x: [Double], y: [Double], t: [Double]) -> (worst: Double, count: Int) {
    p.reset()
    var worst = 0.0, count = 0
    var newest: SimTime?
    for i in t.indices {
        let truth = TouchPoint(x: x[i], y: y[i])
        if let newest, let guess = p.predict(horizon: milliseconds(t[i]) - newest) {
            worst = max(worst, Swift.max(Swift.abs(guess.x - truth.x), Swift.abs(guess.y - truth.y)))
            count += 1
        }
        p.observe(TouchSample(time: milliseconds(t[i]), position: truth))
        newest = milliseconds(t[i])
    }
    return (worst, count)
}

/// Per-axis closeness, Chromium's `EXPECT_NEAR` on x and y.
func near(_ a: [TouchPoint], _ b: [(Double, Double)], within epsilon: Double) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).allSatisfy { Swift.abs($0.x - $1.0) <= epsilon && Swift.abs($0.y - $1.1) <= epsilon }
}
