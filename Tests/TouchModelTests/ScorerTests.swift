import SimKernel
import Testing
@testable import TouchModel

@Suite("Prediction scoring")
struct ScorerTests {
    /// The finger at (100, 100) moving right and down at 45°, 500 points/s.
    static let truth = FingerState(position: TouchPoint(x: 100, y: 100),
                                   velocity: TouchPoint(x: 300, y: 400), isDown: true)

    @Test func overshootAlongTheMotionIsPositiveWithNoCrossTrack() {
        var s = PredictionScorer()
        // 3 points along (0.6, 0.8)
        s.recordPrediction(predicted: TouchPoint(x: 101.8, y: 102.4), truth: ScorerTests.truth)
        let score = s.score(pointsPerMM: 6.4)
        #expect(abs(score.alongTrackMeanPx - 3) < 1e-12)
        #expect(abs(score.crossTrackRmsPx) < 1e-12)
        #expect(abs(score.errorPx.rms - 3) < 1e-12)
        #expect(abs(score.errorPx.max - 3) < 1e-12)
        #expect(abs(score.errorMM.rms - 3 / 6.4) < 1e-12)
        #expect(score.samples == 1 && score.movingSamples == 1 && score.jitterPx == 0)
    }

    @Test func latenessIsNegativeAndSidewaysErrorIsCrossTrack() {
        var s = PredictionScorer()
        // 2 points behind, and one prediction 4 points to the side (along (-0.8, 0.6))
        s.recordPrediction(predicted: TouchPoint(x: 98.8, y: 98.4), truth: ScorerTests.truth)
        s.recordPrediction(predicted: TouchPoint(x: 96.8, y: 102.4), truth: ScorerTests.truth)
        let score = s.score(pointsPerMM: 6.4)
        #expect(abs(score.alongTrackMeanPx - (-1)) < 1e-12)   // (-2 + 0) / 2
        #expect(abs(score.crossTrackRmsPx - (16.0 / 2).squareRoot()) < 1e-12)
        #expect(abs(score.errorPx.rms - ((4 + 16) / 2.0).squareRoot()) < 1e-12)
        // error vectors (-1.2, -1.6) then (-3.2, 2.4): change (-2, 4), length √20
        #expect(abs(score.jitterPx - 20.0.squareRoot()) < 1e-12)
        #expect(score.errorPx.p50 == 2 || abs(score.errorPx.p50 - 2) < 0.002)
        #expect(abs(score.errorPx.max - 4) < 1e-12)
    }

    @Test func stillFingerCountsInMagnitudeOnly() {
        var s = PredictionScorer()
        let still = FingerState(position: TouchPoint(x: 10, y: 10), velocity: .zero, isDown: true)
        s.recordPrediction(predicted: TouchPoint(x: 13, y: 14), truth: still)
        let score = s.score(pointsPerMM: 6.4)
        #expect(score.samples == 1 && score.movingSamples == 0)
        #expect(score.errorPx.rms == 5 && score.alongTrackMeanPx == 0 && score.crossTrackRmsPx == 0)
    }

    @Test func jitterRestartsAtEachStroke() {
        var s = PredictionScorer()
        s.recordPrediction(predicted: TouchPoint(x: 100, y: 100), truth: ScorerTests.truth)
        s.strokeBegan()
        s.recordPrediction(predicted: TouchPoint(x: 200, y: 100), truth: ScorerTests.truth)
        #expect(s.score(pointsPerMM: 1).jitterPx == 0)
        s.recordPrediction(predicted: TouchPoint(x: 203, y: 104), truth: ScorerTests.truth)
        // one change within the second stroke: (100, 0) -> (103, 4), length 5
        #expect(abs(s.score(pointsPerMM: 1).jitterPx - 5) < 1e-12)
    }

    @Test func photonErrorAndMergeAddUp() {
        var a = PredictionScorer(), b = PredictionScorer()
        a.recordPhoton(drawn: TouchPoint(x: 0, y: 0), truth: TouchPoint(x: 3, y: 4))
        b.recordPhoton(drawn: TouchPoint(x: 0, y: 0), truth: TouchPoint(x: 0, y: 1))
        a.recordPrediction(predicted: TouchPoint(x: 101.8, y: 102.4), truth: ScorerTests.truth)
        b.recordPrediction(predicted: TouchPoint(x: 98.8, y: 98.4), truth: ScorerTests.truth)
        a.merge(b)
        let score = a.score(pointsPerMM: 2)
        #expect(score.photonErrorPx.samples == 2)
        #expect(abs(score.photonErrorPx.rms - 13.0.squareRoot()) < 1e-12)
        #expect(abs(score.photonErrorPx.p95 - 5) < 0.01)
        #expect(abs(score.photonErrorMM.rms - 13.0.squareRoot() / 2) < 1e-12)
        #expect(score.samples == 2 && abs(score.alongTrackMeanPx - 0.5) < 1e-12)
    }

    @Test func emptyScoreIsZero() {
        let score = PredictionScorer().score(pointsPerMM: 6.4)
        #expect(score.samples == 0 && score.errorPx == ErrorStats() && score.photonErrorPx == PhotonStats())
    }
}
