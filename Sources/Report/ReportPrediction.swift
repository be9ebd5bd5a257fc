import Charts
import Experiments
import Foundation
import Measures
import FramePipeline
import Scenarios
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
        var chart = HorizonErrorChart(series: series, yLabel: "photon-time error, rms (points)", xLabel: "prediction horizon (ms; one 60 Hz frame = 16.7 ms)",
                                      title: "What the eye sees: drawn position vs finger at photon time",
                                      subtitle: "synthetic minimum-jerk strokes at 600 pt/s, 120 Hz scan, 60 Hz display", framePeriodMs: 1000.0 / 60)
        chart.photonLatencyMs = Figure.touchToPhotonP50.value(try run("ios9-prediction"))
        page.chart(try render(chart, "prediction-horizon"), alt: "photon-time error against prediction horizon per predictor")
        page.add(Self.horizonCaption(chart))
        page.add()
        page = try motionChart(page)
        page.add("The same comparison on the recorded $1 gesture strokes (real stylus motion; Wobbrock, Wilson and Li, UIST 2007) is in Docs/Prediction.md, \"Results on recorded strokes\": the repository holds one subject of the data set (Tests/Fixtures/dollar-unistroke), so this report leaves it out; with all subjects in a folder, `latsim predict --dataset DIR --include medium,fast`.")
        page.add()
        return page
    }

    /// What the horizon chart shows, from its own points: where each
    /// predictor's error is least, scoped to the motion it was scored on.
    static func horizonCaption(_ chart: HorizonErrorChart) -> String {
        let minima = chart.minima.filter { $0.predictor != PredictorKind.none.rawValue }
        var text = "Without prediction the drawn stroke trails the finger by the whole touch-to-photon latency, whatever the horizon."
        guard let best = minima.min(by: { $0.errorPx < $1.errorPx }) else { return text }
        let frame = chart.framePeriodMs ?? 1000.0 / 60
        let each = minima.map { "\($0.predictor) \(formatDecimal($0.errorPx, places: 2)) pt at \(formatDecimal($0.horizonMs, places: 1)) ms" }
        text += " On these synthetic strokes each predictor's least error is: " + each.joined(separator: "; ") + "."
        text += " The least of all, \(formatDecimal(best.errorPx, places: 2)) pt, is at a horizon of \(formatDecimal(best.horizonMs / frame, places: 2)) frames"
        if let l = chart.photonLatencyMs { text += ", against a touch-to-photon latency of \(formatDecimal(l, places: 1)) ms (the dashed line)" }
        text += "; beyond it the extrapolations overshoot where the strokes stop and turn."
        text += " This ranks the predictors on synthetic minimum-jerk strokes only; recorded strokes rank them differently (the README's `$1` figures, `latsim predict --dataset`)."
        return text
    }

    /// What the finger-path chart shows, from its own data: how far, in
    /// points and in milliseconds, each drawn end trails the finger at the
    /// last frame's photons.
    static func motionCaption(_ chart: MotionChart) -> String {
        var parts: [String] = []
        for (i, d) in chart.drawn.enumerated() {
            guard let pt = chart.lag(d.path) else { continue }
            let ms = i < chart.lagMs.count ? chart.lagMs[i] : nil
            parts.append("\(d.name) \(formatDecimal(pt, places: 1)) pt" + (ms.map { " (\(formatDecimal($0, places: 1)) ms of motion)" } ?? ""))
        }
        guard !parts.isEmpty else { return "At this duration no frame was drawn in the window." }
        return "When the last frame's photons leave the panel, its drawn end trails the finger by: " + parts.joined(separator: "; ")
            + ". Without prediction the lag is the frame's whole touch-to-photon time; a frame of prediction takes its horizon off, and what remains is the time the predicted position still lags plus the predictor's error where the circle curves."
    }

    /// True finger path and the drawn stroke end over half a second.
    func motionChart(_ page: Page) throws -> Page {
        var page = page
        // a circle makes the lag easy to see: the drawn end trails along the arc
        let window: (SimTime, SimTime) = (1_200_000_000, 1_600_000_000)
        let lead: SimTime = 60_000_000 // frames latched this long into the window show samples from inside it
        var drawn: [(name: String, path: [(x: Double, y: Double)])] = []
        var lags: [Double?] = []
        var truePath: [(x: Double, y: Double)] = []
        // "now": the photons of the last frame with new touch content latched in the window (the same frame in every run)
        var now: (latch: SimTime, photon: SimTime)?
        for (name, predictor) in [("no prediction", PredictorKind.none),
                                  ("linearFirst 1 frame ahead", .linearFirst),
                                  ("kalman 1 frame ahead", .kalman)] {
            let r = try run("ios9-prediction", keepLog: true, duration: 2 * Nanos.perSecond) {
                $0.predictor = PredictorSpec(predictor)
                $0.trajectory = "circle"
            }
            guard let log = r.frameLog else { continue }
            if now == nil, let last = log.frames.last(where: { $0.kind == .new && $0.vsync <= window.1 }) {
                now = (last.vsync, last.photon)
            }
            guard let now else { continue }
            let shown = log.latches.filter { !$0.repeated && $0.time >= window.0 + lead && $0.time <= now.latch }
            drawn.append((name: name, path: shown.map { (x: $0.drawnX, y: $0.drawnY) }))
            // the drawn end is the position of (touch time + horizon); the finger is at the photon time
            let record = log.frames.last { $0.kind == .new && $0.vsync <= now.latch }
            lags.append(record.map { Double($0.photon - $0.touchTime - (shown.last?.horizon ?? 0)) / 1e6 })
            if truePath.isEmpty {
                let t = try Trajectory.make("circle", parameters: r.configuration.trajectoryParameters)
                var at = window.0
                while at < now.photon {
                    let p = t.state(at: at).position
                    truePath.append((x: p.x, y: p.y))
                    at += 2_000_000
                }
                let p = t.state(at: now.photon).position
                truePath.append((x: p.x, y: p.y))
            }
        }
        var chart = MotionChart(truePath: truePath, drawn: drawn, title: "The finger and the stroke drawn behind it",
                                subtitle: "a finger circling at 600 pt/s (ios9-prediction: 120 Hz scan, 60 Hz display); finger now: at the photons of the last frame shown")
        chart.lagMs = lags
        page.chart(try render(chart, "prediction-motion"), alt: "true finger path and drawn paths with and without prediction")
        page.add(Self.motionCaption(chart))
        page.add()
        return page
    }
}
