import SimKernel
import Testing
@testable import TouchModel

@Suite("Chromium prediction scorecard")
struct ChromiumScorecardTests {
    // base/metrics/histogram.cc InitializeBucketRanges for (1, 1000, 50):
    // each bound is the previous times (1000/previous)^(1/buckets left),
    // rounded, at least one more; e.g. 12 → 12 · (1000/12)^(1/37) = 13.5 → 14,
    // 789 → 789 · (1000/789)^(1/2) = 888.3 → 888, and the last is 1000
    @Test func umaBucketBounds() {
        #expect(ChromiumHistogram.lowerBounds == [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 23, 26, 29, 33, 37, 42, 47, 53, 60, 67, 75,
            84, 95, 107, 120, 135, 152, 171, 192, 216, 243, 273, 307, 345, 388, 437, 492, 554, 623, 701, 789, 888, 1000,
        ])
        #expect(ChromiumHistogram.bucketIndex(of: 13) == 12 && ChromiumHistogram.bucketIndex(of: 14) == 13)
        #expect(ChromiumHistogram.bucketIndex(of: 5000) == 49, "overflow bucket")
    }

    /// The truth of a piecewise-linear path through real events: position by
    /// interpolation, velocity the slope of the segment (per second).
    static func truth(at t: Double, events: [(t: Double, p: Double)]) -> FingerState {
        let i = events.lastIndex { $0.t <= t }!
        let a = events[i], b = events[i + 1]
        let slope = (b.p - a.p) / (b.t - a.t)
        let p = a.p + slope * (t - a.t)
        return FingerState(position: TouchPoint(x: p, y: p), velocity: TouchPoint(x: slope * 1000, y: slope * 1000), isDown: true)
    }

    // prediction_metrics_handler_unittest.cc, PredictionMetricTest: real
    // events R0–R5 on the diagonal, five predictions stamped 2 ms after a
    // real event and shown 2 ms later; the truth is the path through the
    // real events, so every UMA sample must match Chromium's
    @Test func chromiumsPredictionMetricTest() {
        let events: [(t: Double, p: Double)] = [(8, 1), (16, 2), (24, 4), (32, 7), (40, 5), (48, 3)]
        let predictions: [(p: Double, t: Double, frame: Double)] = [(1, 10, 12), (3.5, 18, 20), (5, 26, 28), (7, 34, 36), (3, 42, 44)]
        var card = ChromiumPredictionScorecard(scrollAxisOnly: false)
        for x in predictions {
            card.record(predicted: TouchPoint(x: x.p, y: x.p), truth: Self.truth(at: x.t, events: events),
                        frameTruth: Self.truth(at: x.frame, events: events))
        }
        let r = card.result
        func buckets(_ h: ChromiumHistogram) -> [[Int]] { h.nonEmptyBuckets.map { [$0.lowerBound, $0.count] } }
        #expect(buckets(r.overPrediction) == [[0, 1], [1, 1], [2, 1]])
        #expect(buckets(r.underPrediction) == [[0, 2]])
        #expect(buckets(r.predictionScore) == [[0, 3], [1, 1], [2, 1]])
        #expect(buckets(r.frameOverPrediction) == [[0, 1], [1, 1]])
        #expect(buckets(r.frameUnderPrediction) == [[0, 2], [1, 1]])
        #expect(buckets(r.framePredictionScore) == [[0, 3], [1, 2]])
        #expect(r.rightDirection == 3 && r.wrongDirection == 1)
        #expect(buckets(r.predictionJitter) == [[0, 1], [1, 2], [2, 1]])
        #expect(buckets(r.visualJitter) == [[1, 2], [2, 2]])
    }

    /// A line at 350 points/s along x, sampled by predictions every 8 ms;
    /// each prediction is shown 10 ms after its timestamp (3.5 points on).
    static func line(_ t: Double) -> FingerState {
        FingerState(position: TouchPoint(x: 100 + 350 * t, y: 50), velocity: TouchPoint(x: 350, y: 0), isDown: true)
    }

    static func score(offset: TouchPoint, count: Int = 10) -> ChromiumPredictionMetrics {
        var card = ChromiumPredictionScorecard()
        for i in 0..<count {
            let t = 0.1 + 0.008 * Double(i)
            card.record(predicted: line(t).position + offset, truth: line(t), frameTruth: line(t + 0.010))
        }
        return card.result
    }

    @Test func perfectPredictorScoresZero() {
        let r = Self.score(offset: .zero)
        #expect(r.predictionScore.count == 10 && r.predictionScore.largest == 0)
        #expect(r.overPrediction.count == 10 && r.underPrediction.count == 0, "an error of 0 counts as over (s ≥ 0)")
        #expect(r.predictionJitter.count == 9 && r.predictionJitter.largest == 0)
        #expect(r.wrongDirection == 0 && r.rightDirection == 9)
        // at the frame time the finger is 3.5 points further: behind by 3.5
        #expect(Swift.abs(r.frameUnderPrediction.mean! - 3.5) < 1e-9 && r.frameUnderPrediction.count == 10)
        #expect(r.frameUnderPrediction.nonEmptyBuckets.map(\.lowerBound) == [3], "3.5 truncated to the sample 3")
    }

    @Test func overshootIsOverPrediction() {
        let r = Self.score(offset: TouchPoint(x: 5.25, y: 0))
        #expect(Swift.abs(r.overPrediction.mean! - 5.25) < 1e-9 && r.underPrediction.count == 0)
        #expect(r.overPrediction.nonEmptyBuckets.map(\.lowerBound) == [5])
        #expect(Swift.abs(r.frameOverPrediction.mean! - 1.75) < 1e-9, "the frame truth is 3.5 points on")
        #expect(r.predictionJitter.largest < 1e-9, "a constant error does not jitter")
    }

    @Test func lagIsUnderPrediction() {
        let r = Self.score(offset: TouchPoint(x: -2, y: 0))
        #expect(Swift.abs(r.underPrediction.mean! - 2) < 1e-9 && r.overPrediction.count == 0)
        #expect(Swift.abs(r.frameUnderPrediction.mean! - 5.5) < 1e-9)
    }

    @Test func sidewaysErrorCountsAsOver() {
        let r = Self.score(offset: TouchPoint(x: 0, y: 2))
        #expect(Swift.abs(r.overPrediction.mean! - 2) < 1e-9, "v · e = 0 ≥ 0")
    }

    // predictions at 10, 8 and 12 points along a rightward motion: the second
    // moved left (wrong), the third right
    @Test func wrongDirection() {
        var card = ChromiumPredictionScorecard()
        let truth = FingerState(position: TouchPoint(x: 9, y: 0), velocity: TouchPoint(x: 100, y: 0), isDown: true)
        for x in [10.0, 8, 12] { card.record(predicted: TouchPoint(x: x, y: 0), truth: truth, frameTruth: truth) }
        let r = card.result
        #expect(r.wrongDirection == 1 && r.rightDirection == 1 && r.wrongDirectionFraction == 0.5)
        // errors +1, −1, +3 against the same truth: jitter |−2| then |4|
        #expect(r.predictionJitter.nonEmptyBuckets.map(\.lowerBound) == [2, 4])
    }

    @Test func strokesAndLiftOff() {
        var card = ChromiumPredictionScorecard()
        let truth = FingerState(position: .zero, velocity: TouchPoint(x: 1, y: 0), isDown: true)
        var lifted = truth
        lifted.isDown = false
        card.record(predicted: TouchPoint(x: 1, y: 0), truth: truth, frameTruth: truth)
        card.record(predicted: TouchPoint(x: 1, y: 0), truth: truth, frameTruth: lifted)
        card.strokeBegan()
        card.record(predicted: TouchPoint(x: 5, y: 0), truth: truth, frameTruth: truth)
        let r = card.result
        #expect(r.skipped == 1 && r.evaluated == 2)
        #expect(r.predictionJitter.count == 0, "no previous prediction across strokes")
    }

    @Test func scrollScoresTheYAxisOnly() {
        var card = ChromiumPredictionScorecard(scrollAxisOnly: true)
        let truth = FingerState(position: TouchPoint(x: 0, y: 10), velocity: TouchPoint(x: 500, y: -100), isDown: true)
        card.record(predicted: TouchPoint(x: 40, y: 7), truth: truth, frameTruth: truth)
        let r = card.result
        #expect(r.overPrediction.mean == 3, "3 points further up, the way y moves; x ignored")
    }
}
