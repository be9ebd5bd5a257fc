import SimKernel
import Testing
@testable import TouchModel

@Suite("Android prediction scorecard")
struct AndroidScorecardTests {
    static let interval = AndroidPredictionScorecard.defaultPredictionInterval

    // k = round(ahead / 4 166 666 ns − 1): 2 ms → round(−0.52) = −1 (none),
    // 6.2 ms → round(0.488) = 0, 6.3 ms → round(0.512) = 1, 23 ms → 5 (none)
    @Test func fourMillisecondBuckets() {
        let card = AndroidPredictionScorecard()
        #expect(card.bucket(ahead: milliseconds(2)) == nil)
        #expect(card.bucket(ahead: Self.interval) == 0)
        #expect(card.bucket(ahead: milliseconds(6.2)) == 0)
        #expect(card.bucket(ahead: milliseconds(6.3)) == 1)
        #expect(card.bucket(ahead: 5 * Self.interval) == 4)
        #expect(card.bucket(ahead: milliseconds(23)) == nil)
        #expect(card.result.buckets.map(\.deltaTimeBucketMilliseconds) == [4, 8, 12, 16, 20], "4 166 666 ns / 1 ms = 4")
        #expect(card.result.buckets.allSatisfy { $0.count == 0 && $0.alongTrajectoryErrorMean == nil })
    }

    /// A line along x at `speed` points/s.
    static func line(_ seconds: Double, speed: Double = 600) -> FingerState {
        FingerState(position: TouchPoint(x: 10 + speed * seconds, y: 20), velocity: TouchPoint(x: speed, y: 0), isDown: true)
    }

    /// One prediction per bucket for each of `origins`, missing the truth by `offset`.
    static func score(offset: TouchPoint, speed: Double = 600, origins: Int = 4) -> AndroidPredictionMetrics {
        var card = AndroidPredictionScorecard()
        for o in 0..<origins {
            let origin = SimTime(o) * milliseconds(8)
            for k in 1...5 {
                let target = origin + SimTime(k) * interval
                let truth = line(Double(target) / 1e9, speed: speed)
                card.record(predicted: truth.position + offset, originTime: origin, targetTime: target, truth: truth)
            }
        }
        return card.result
    }

    @Test func perfectPredictorScoresZero() {
        let r = Self.score(offset: .zero)
        for b in r.buckets {
            #expect(b.count == 4 && b.alongTrajectoryErrorMean == 0 && b.alongTrajectoryErrorStd == 0 && b.offTrajectoryRmse == 0)
            #expect(b.scaleInvariantAlongTrajectoryRmse == 0)
        }
        #expect(r.unbucketed == 0 && r.scaleInvariantAlongTrajectoryRmseAverage == 0)
    }

    @Test func overshootAlongAndMissAcross() {
        let ahead = Self.score(offset: TouchPoint(x: 2.5, y: 0))
        #expect(ahead.buckets.allSatisfy { Swift.abs($0.alongTrajectoryErrorMean! - 2.5) < 1e-9 && $0.alongTrajectoryErrorStd! < 1e-6 && $0.offTrajectoryRmse! < 1e-9 })
        let behindAndAside = Self.score(offset: TouchPoint(x: -1, y: 2))
        #expect(behindAndAside.buckets.allSatisfy { Swift.abs($0.alongTrajectoryErrorMean! + 1) < 1e-9 && Swift.abs($0.offTrajectoryRmse! - 2) < 1e-9 })
    }

    // along errors +1 and +3 in one bucket: mean 2, standard deviation 1
    @Test func meanAndStandardDeviation() {
        var card = AndroidPredictionScorecard()
        let truth = Self.line(0.1)
        for e in [1.0, 3] {
            card.record(predicted: truth.position + TouchPoint(x: e, y: 0), originTime: 0, targetTime: 2 * Self.interval, truth: truth)
        }
        let b = card.result.buckets[1]
        #expect(b.count == 2 && b.alongTrajectoryErrorMean == 2 && b.alongTrajectoryErrorStd == 1)
        #expect(Swift.abs(b.offTrajectoryRmse!) < 1e-12)
    }

    // only the last two buckets, and only above 1100 points/s
    @Test func highVelocity() {
        let fast = Self.score(offset: TouchPoint(x: 0, y: 3), speed: 1200)
        #expect(fast.buckets.map(\.highVelocityCount) == [0, 0, 0, 4, 4])
        #expect(fast.buckets[3].highVelocityOffTrajectoryRmse == 3 && fast.buckets[4].highVelocityAlongTrajectoryRmse == 0)
        #expect(fast.buckets[2].highVelocityOffTrajectoryRmse == nil)
        let slow = Self.score(offset: TouchPoint(x: 0, y: 3), speed: 1000)
        #expect(slow.buckets.allSatisfy { $0.highVelocityCount == 0 })
    }

    // error 1 at 1000 points/s: the path of the last 5 intervals is
    // 1000 × 5 × 4.166666 ms = 20.83333 points, plus 0.001
    @Test func scaleInvariant() {
        let r = Self.score(offset: TouchPoint(x: 1, y: 0), speed: 1000)
        let path = 1000 * 5 * 4.166666e-3 + 0.001
        #expect(Swift.abs(r.buckets[0].scaleInvariantAlongTrajectoryRmse! - 1 / path) < 1e-12)
        #expect(Swift.abs(r.scaleInvariantAlongTrajectoryRmseAverage! - 1 / path) < 1e-12)
        #expect(r.scaleInvariantOffTrajectoryRmseAverage == 0)
        var card = AndroidPredictionScorecard()
        let truth = Self.line(0.05, speed: 1000)
        card.record(predicted: truth.position + TouchPoint(x: 0, y: 2), originTime: 0, targetTime: Self.interval,
                    truth: truth, truthPathLength: 10)
        #expect(card.result.buckets[0].scaleInvariantOffTrajectoryRmse == 2 / 10.001)
        #expect(card.result.scaleInvariantOffTrajectoryRmseAverage == nil, "not every bucket has data")
    }

    // a still finger has no direction: the whole error is both along and off
    @Test func stillFinger() {
        var card = AndroidPredictionScorecard()
        let still = FingerState(position: TouchPoint(x: 5, y: 5), velocity: .zero, isDown: true)
        card.record(predicted: TouchPoint(x: 8, y: 9), originTime: 0, targetTime: Self.interval, truth: still)
        let b = card.result.buckets[0]
        #expect(b.alongTrajectoryErrorMean == 5 && b.offTrajectoryRmse == 5)
        #expect(b.scaleInvariantAlongTrajectoryRmse == 5 / 0.001, "no path: only the epsilon")
    }

    @Test func outsideTheBuckets() {
        var card = AndroidPredictionScorecard()
        let truth = Self.line(0)
        card.record(predicted: truth.position, originTime: 0, targetTime: milliseconds(30), truth: truth)
        card.record(predicted: truth.position, originTime: 0, targetTime: milliseconds(1), truth: truth)
        #expect(card.result.unbucketed == 2 && card.result.buckets.allSatisfy { $0.count == 0 })
        #expect(AndroidPredictionMetrics.milliunits(nil) == Int32.min)
        #expect(AndroidPredictionMetrics.milliunits(1.2345) == 1234)
    }
}
