import Foundation
import Testing
@testable import TouchModel

@Suite("Regression gate")
struct BaselineTests {
    static let metrics = BaselineMetrics(errorRms: 2.0, errorP95: 4.0, errorMax: 9.0, alongTrackMean: -1.5,
                                         crossTrackRms: 0.5, jitter: 0.3, photonRms: 6.0, photonP95: 11.0)

    static func baseline(_ m: BaselineMetrics, predictor: String = "kalman") -> PredictionBaseline {
        PredictionBaseline(entries: [BaselineEntry(item: "strokes", predictor: predictor, horizonMs: 8, metrics: m)])
    }

    @Test func degradationBeyondToleranceIsARegression() {
        var worse = BaselineTests.metrics
        worse.errorRms = 2.2          // +10%
        worse.photonP95 = 11.3        // +2.7%, within 5%
        let changes = compareBaselines(baseline: BaselineTests.baseline(BaselineTests.metrics),
                                       current: BaselineTests.baseline(worse), tolerancePercent: 5)
        #expect(changes.count == 1)
        #expect(changes.first?.metric == "errorRms" && changes.first?.isRegression == true)
        #expect(abs((changes.first?.changePercent ?? 0) - 10) < 1e-9)
        #expect(changes.first?.description == "strokes kalman@8ms errorRms: 2 -> 2.2 (+10%) REGRESSION")
    }

    @Test func changesWithinToleranceAreNotRegressions() {
        var slightly = BaselineTests.metrics
        slightly.errorRms = 2.08      // +4%
        slightly.jitter = 0.309       // +3% but under the 0.01 point floor anyway
        let changes = compareBaselines(baseline: BaselineTests.baseline(BaselineTests.metrics),
                                       current: BaselineTests.baseline(slightly), tolerancePercent: 5)
        #expect(changes.isEmpty)
        let all = compareBaselines(baseline: BaselineTests.baseline(BaselineTests.metrics),
                                   current: BaselineTests.baseline(slightly), tolerancePercent: 5, includeUnchanged: true)
        #expect(all.count == PredictionMetric.allCases.count && all.allSatisfy { !$0.isRegression })
    }

    @Test func nearZeroMetricsDoNotFlap() {
        var a = BaselineTests.metrics, b = BaselineTests.metrics
        a.crossTrackRms = 0.001
        b.crossTrackRms = 0.004       // +300%, but 0.003 points
        #expect(compareBaselines(baseline: BaselineTests.baseline(a), current: BaselineTests.baseline(b), tolerancePercent: 5).isEmpty)
    }

    @Test func alongTrackIsWorseWhenFurtherFromZero() {
        var late = BaselineTests.metrics, better = BaselineTests.metrics, flipped = BaselineTests.metrics
        late.alongTrackMean = -2.0    // later
        better.alongTrackMean = -1.0  // less late: a change, not a regression
        flipped.alongTrackMean = 1.5  // same distance, overshooting now
        let base = BaselineTests.baseline(BaselineTests.metrics)
        let r1 = compareBaselines(baseline: base, current: BaselineTests.baseline(late), tolerancePercent: 5)
        #expect(r1.count == 1 && r1[0].isRegression)
        let r2 = compareBaselines(baseline: base, current: BaselineTests.baseline(better), tolerancePercent: 5)
        #expect(r2.count == 1 && !r2[0].isRegression)
        let r3 = compareBaselines(baseline: base, current: BaselineTests.baseline(flipped), tolerancePercent: 5)
        #expect(r3.count == 1 && !r3[0].isRegression && r3[0].metric == "alongTrackMean")
    }

    @Test func missingEntriesAreReported() {
        let base = BaselineTests.baseline(BaselineTests.metrics, predictor: "kalman")
        let current = BaselineTests.baseline(BaselineTests.metrics, predictor: "linearFirst")
        let changes = compareBaselines(baseline: base, current: current, tolerancePercent: 5)
        #expect(changes.count == 2)
        #expect(changes.contains { $0.predictor == "kalman" && $0.metric == "entry" && $0.isRegression && $0.new == nil })
        #expect(changes.contains { $0.predictor == "linearFirst" && $0.metric == "entry" && !$0.isRegression && $0.old == nil })
        #expect(changes.map(\.description) == ["strokes kalman@8ms: missing from the current run REGRESSION",
                                                "strokes linearFirst@8ms: new entry"])
    }

    @Test func jsonIsDeterministicAndRoundTrips() throws {
        let e1 = BaselineEntry(item: "b", predictor: "kalman", horizonMs: 8.5, metrics: BaselineTests.metrics)
        let e2 = BaselineEntry(item: "a", predictor: "none", horizonMs: 16, metrics: BaselineTests.metrics)
        let one = try PredictionBaseline(entries: [e1, e2]).encodedJSON()
        let two = try PredictionBaseline(entries: [e2, e1]).encodedJSON()
        #expect(one == two)
        let text = String(decoding: one, as: UTF8.self)
        #expect(text.contains("\"horizonMs\" : 8.5"))
        #expect(text.range(of: "\"item\" : \"a\"")!.lowerBound < text.range(of: "\"item\" : \"b\"")!.lowerBound)
        let back = try PredictionBaseline.decode(one)
        #expect(back.entries == [e2, e1] && back.version == PredictionBaseline.currentVersion)
    }

    @Test func metricsFromAScoreAreRounded() {
        var s = PredictionScorer()
        s.recordPrediction(predicted: TouchPoint(x: 1.0 / 3, y: 0), truth: FingerState(position: .zero, velocity: TouchPoint(x: 1000, y: 0), isDown: true))
        let m = BaselineMetrics(s.score(pointsPerMM: 6.4))
        #expect(m.errorRms == 0.333333 && m.alongTrackMean == 0.333333 && m.jitter == 0)
    }
}
