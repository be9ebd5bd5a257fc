import DequeModule
import SimKernel
import TouchModel

/// What a run measures (Docs/Model.md, "What is measured"), streamed into
/// constant-memory statistics: the latency of every displayed frame that
/// carries new touch content, per-sample latency, and prediction accuracy.
/// Every platform's pipeline tells it what the app drew and what a vsync
/// showed; nothing here grows with the simulated duration.
struct Measurement {
    let geometry: FrameGeometry
    /// The noise-free finger, for prediction scoring.
    var truth: TrajectoryCursor
    /// Whether the app predicts: then the effective figures are recorded.
    var predicts: Bool
    var touchToPhotonMs = Measurements.milliseconds()
    var pipelineFrames = Measurements.frames()
    var effectiveMs = Measurements.milliseconds()
    var effectiveFrames = Measurements.frames()
    var perSampleMs = Measurements.milliseconds()
    var prediction = PredictionScorer()
    /// The platforms' scorecards, when asked for (nil: no cost at all).
    var platform: PlatformScorecards?
    /// The scan of the newest touch shown so far.
    private var newestShown: Int64 = -1
    /// Touches the app drew and no frame has shown yet: what per-sample
    /// latency needs of each, its true time and its row.
    private var drawnWaiting = Deque<(time: SimTime, y: Double)>()
    private var drawnShown: Int64 = 0

    init(configuration c: PipelineConfiguration, trajectory: Trajectory, predicts: Bool) {
        geometry = FrameGeometry(c)
        truth = TrajectoryCursor(trajectory)
        self.predicts = predicts
    }

    /// A handler run drew `touches` (a delivery's coalesced touches: every
    /// one with `coalesced`, the main touch with `main`).
    mutating func drew(_ touches: Deque<Touch>, use: TouchUse) {
        if use == .coalesced {
            for i in 0..<touches.count { drawnWaiting.append((touches[i].time, touches[i].position.y)) }
        } else {
            let main = touches.last!
            drawnWaiting.append((main.time, main.position.y))
        }
    }

    /// The app predicted (after the start of a stroke when `strokeBegan`).
    mutating func predicted(_ p: PredictionMade?, strokeBegan: Bool) {
        if strokeBegan {
            prediction.strokeBegan()
            if platform != nil { platform!.strokeBegan() }
        }
        if let p {
            prediction.recordPrediction(predicted: p.position, truth: truth.state(at: p.target))
            if platform != nil { platform!.record(p) }
        }
    }

    /// A frame latched at `latch` shows `mainTouch`, drawn at `drawn` with
    /// `horizon` of prediction, and every touch up to the `drawnTouches`-th
    /// the app drew. Returns true when it carries new touch content (and was
    /// measured).
    mutating func frameShown(latch: SimTime, mainTouch s: Touch, drawnTouches: Int64, drawn: TouchPoint, horizon: SimTime) -> Bool {
        let measured = s.scan > newestShown
        if measured {
            newestShown = s.scan
            let photon = geometry.photonTime(latch: latch, y: s.position.y)
            let ttp = Double(photon - s.time) / 1e6
            let frames = geometry.pipelineFrames(latch: latch, windowStart: s.windowStart)
            touchToPhotonMs.record(ttp)
            pipelineFrames.record(frames)
            if predicts {
                effectiveMs.record(ttp - Double(horizon) / 1e6)
                effectiveFrames.record(geometry.frames(frames, minus: horizon))
                prediction.recordPhoton(drawn: drawn, truth: truth.state(at: photon).position)
            }
        }
        while drawnShown < drawnTouches, let d = drawnWaiting.popFirst() {
            drawnShown += 1
            perSampleMs.record(Double(geometry.photonTime(latch: latch, y: d.y) - d.time) / 1e6)
        }
        return measured
    }

    /// The streams, settled; without prediction the effective figures are
    /// the measured ones (they were not recorded twice).
    mutating func finish(into m: inout Measurements) {
        if !predicts {
            effectiveMs = touchToPhotonMs
            effectiveFrames = pipelineFrames
        }
        m.touchToPhotonMs = touchToPhotonMs
        m.pipelineFrames = pipelineFrames
        m.effectiveMs = effectiveMs
        m.effectiveFrames = effectiveFrames
        m.perSampleMs = perSampleMs
        m.prediction = prediction
        m.chromium = platform?.chromium?.result
        m.android = platform?.android?.result
        m.settle()
    }
}
