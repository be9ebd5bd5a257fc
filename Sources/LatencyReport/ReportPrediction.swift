import Experiments
import FramePipeline
import Scenarios
import Foundation
import SimKernel
import TouchModel

extension ReportWriter {
    /// The prediction section: what each predictor does to the error the eye
    /// sees, on synthetic strokes, and a picture of the drawn stroke.
    public func predictionSection(_ page: Page) throws -> Page {
        var page = page
        progress("prediction")
        let corpus = PredictionCorpus(items: [PredictionCorpusItem(name: "strokes", motion: .synthetic(kind: "strokes", seed: seed), duration: "20s")])
        let predictors = PredictorKind.allCases
        let horizons = try ["0frames", "0.25frames", "0.5frames", "0.75frames", "1frame", "1.25frames", "1.5frames", "2frames"]
            .map { (text: String) throws(LatsimError) -> Horizon in try Horizon(parsing: text) }
        let results = try corpus.run(corpus.cells(predictors: predictors.map { .latsim($0) }, horizons: horizons), seed: seed)
        let rows = PredictionTable.rows(results)

        page.add("## Touch prediction")
        page.add()
        page.add("`latsim predict` on 20 s of synthetic minimum-jerk strokes (120 Hz scan, 60 Hz display, the `ios9-prediction` scenario). Photon-time error is the distance between where the stroke's end is drawn and where the finger is when that frame's photons leave the panel: what the eye sees. Along-track is the signed error along the motion (+ overshoot, − lateness).")
        page.add()
        page.add("| predictor | horizon (frames) | error rms (pt) | along-track mean (pt) | jitter (pt) | photon error rms (pt) | photon error p95 (pt) | cut vs none |")
        page.add("|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows where [0.5, 1, 1.5].contains((r.horizonFrames * 100).rounded() / 100) {
            let s = r.score
            page.add("| \(r.predictor) | \(formatDecimal(r.horizonFrames, places: 2)) | \(formatDecimal(s.errorPx.rms, places: 3)) | \(formatDecimal(s.alongTrackMeanPx, places: 3)) | \(formatDecimal(s.jitterPx, places: 3)) | \(formatDecimal(s.photonErrorPx.rms, places: 3)) | \(formatDecimal(s.photonErrorPx.p95, places: 3)) | \(r.predictor == PredictionTable.reference ? "ref" : r.photonCutPercent.map { formatDecimal($0, places: 1) + "%" } ?? "-") |")
        }
        page.add()
        if let twins = PredictionTable.twinNote(rows) {
            page.add(twins)
            page.add()
        }
        let series = predictors.map { p in
            (predictor: p.rawValue, points: rows.filter { $0.predictor == p.rawValue }.map { (horizonMs: $0.horizonMs, errorPx: $0.score.photonErrorPx.rms) })
        }
        let chart = HorizonErrorChart(series: series, yLabel: "photon-time error, rms (points)", xLabel: "prediction horizon (ms; one 60 Hz frame = 16.7 ms)",
                                      title: "What the eye sees: drawn position vs finger at photon time",
                                      subtitle: "synthetic minimum-jerk strokes at 600 pt/s, 120 Hz scan, 60 Hz display", framePeriodMs: 1000.0 / 60)
        page.chart(try render(chart, "prediction-horizon"), alt: "photon-time error against prediction horizon per predictor")
        page.add("Without prediction the drawn stroke trails the finger by the whole touch-to-photon latency, whatever the horizon. Predicting further ahead shrinks the trail; here the error is least at 1.5 frames (25 ms), a little under the 29 ms from sample to photon, and grows again beyond it as the extrapolations overshoot where the strokes stop and turn. The second-order and Kalman predictors follow the minimum-jerk acceleration that the first-order one misses.")
        page.add()
        page = try motionChart(page)
        page.add("The same comparison on the recorded $1 gesture strokes (real stylus motion; not part of this report because the data set is not shipped): `latsim predict --dataset ../shared/datasets/dollar-unistroke --include medium,fast`.")
        page.add()
        return page
    }

    /// True finger path and the drawn stroke end over half a second.
    func motionChart(_ page: Page) throws -> Page {
        var page = page
        // a circle makes the lag easy to see: the drawn end trails along the arc
        let window: (SimTime, SimTime) = (1_200_000_000, 1_600_000_000)
        let lead: SimTime = 60_000_000 // frames latched this long into the window show samples from inside it
        var drawn: [(name: String, path: [(x: Double, y: Double)])] = []
        var truePath: [(x: Double, y: Double)] = []
        for (name, predictor) in [("drawn, no prediction", PredictorKind.none),
                                  ("drawn, linearFirst 1 frame ahead", .linearFirst),
                                  ("drawn, kalman 1 frame ahead", .kalman)] {
            let r = try run("ios9-prediction", keepLog: true, duration: 2 * Nanos.perSecond) {
                $0.predictor = PredictorSpec(predictor)
                $0.trajectory = "circle"
            }
            guard let log = r.frameLog else { continue }
            let path = log.latches.filter { !$0.repeated && $0.time >= window.0 + lead && $0.time <= window.1 }.map { (x: $0.drawnX, y: $0.drawnY) }
            drawn.append((name: name, path: path))
            if truePath.isEmpty {
                let t = try Trajectory.make("circle", parameters: r.configuration.trajectoryParameters)
                var at = window.0
                while at <= window.1 {
                    let p = t.state(at: at).position
                    truePath.append((x: p.x, y: p.y))
                    at += 2_000_000
                }
            }
        }
        let chart = MotionChart(truePath: truePath, drawn: drawn, title: "The finger and the stroke drawn behind it",
                                subtitle: "0.4 s of a finger circling at 600 pt/s (ios9-prediction: 120 Hz scan, 60 Hz display); drawn = where each frame on screen puts the stroke's end")
        page.chart(try render(chart, "prediction-motion"), alt: "true finger path and drawn paths with and without prediction")
        page.add("Without prediction the drawn end of the stroke trails the finger by the whole touch-to-photon latency (about 2.5 frames of motion at the moment of the photons). One frame of prediction closes part of that gap; a first-order predictor also cuts the corner of the curve, which the second-order and Kalman predictors follow.")
        page.add()
        return page
    }
}
