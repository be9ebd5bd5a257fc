import SimKernel
import TouchModel

/// A Core Animation transaction committed by the app.
struct Commit {
    /// Commits are numbered from 0 in the order they are made.
    var seq: Int64
    /// The main touch of the handler run that made it: the newest touch the
    /// app used.
    var mainTouch: Touch
    /// True for the last commit of its handler run (declared here, in the
    /// bytes the touch leaves: a commit is 128 bytes).
    var isLastOfRun: Bool
    /// How many touches the app had drawn in all when it committed.
    var drawnTouches: Int64
    /// Where the stroke's end is drawn (the predicted touch with prediction on).
    var drawn: TouchPoint
    /// The prediction horizon applied to ``drawn`` (0 without a prediction).
    var horizon: SimTime
    /// The handler run that made it.
    var handlerRun: Int64
    /// When its handler run started (the delivery).
    var delivered: SimTime
    /// When it was made.
    var committed: SimTime
}

/// A prediction the app made, for scoring.
struct PredictionMade {
    /// The predicted touch's position.
    var position: TouchPoint
    /// The instant it predicts (main touch time + horizon).
    var target: SimTime
    /// The main touch's time: the newest sample the predictor saw.
    var origin: SimTime
    /// The instant the predictor says its point stands for (a platform
    /// predictor's own time stamp; the target otherwise). Read only when
    /// the platform scorecards are kept.
    var stamp: SimTime
}

/// What starting a handler run produced.
struct HandlerStart {
    /// When the first commit is made.
    var firstCommit: SimTime
    /// When the handler ends.
    var end: SimTime
    /// A coalesced touch began a stroke (the predictor was reset).
    var strokeBegan: Bool
    /// The predicted touch drawn, when the predictor answered.
    var prediction: PredictionMade?
}

/// What a commit produced.
struct CommitMade {
    /// Metal GPU work encoded by the handler, with `app.rendering: metal`.
    var metalGPU: SimTime?
    /// When the next commit of this handler run is made; nil for the last
    /// (the app is idle again).
    var nextCommit: SimTime?
}

/// The app's main thread (Docs/Model.md, "App"): a delivery runs the touch
/// handler for `app.handler`; it commits `app.commits` evenly spaced
/// transactions, the last at the handler's end, each holding the main touch
/// and, with prediction on, the predicted touch.
struct App {
    let commitsPerRun: Int
    let touchUse: TouchUse
    let horizon: SimTime
    /// The display period, ns: the frame interval given with each request.
    let frameInterval: SimTime
    let rendersMetal: Bool
    var handlerTime: DurationSampler
    var metalTime: DurationSampler
    /// No observer: a `didSet` here made every mutating call through the
    /// optional copy the whole predictor out and back. Spelled `Optional`,
    /// so that it has no implicit `nil` first: the initialiser sets it
    /// once, in place (`PredictorSlot?` was zeroed, made aside, zeroed
    /// again and copied, some 2 KB each time).
    var predictor: Optional<PredictorSlot>
    /// Whether the app predicts touches (kept apart from ``predictor`` so the
    /// hot path never looks into it).
    private(set) var predicts: Bool

    /// Installs a predictor.
    mutating func use(_ p: PredictorSlot) {
        predictor = p
        predicts = true
    }
    /// Whether predictions carry the predictor's own time stamp (only the
    /// platform scorecards need it).
    var stampsPredictions = false
    /// True while the handler runs.
    private(set) var busy = false
    private(set) var handlerRuns = 0
    private(set) var run: Int64 = -1
    /// The run's start, and what its commits carry (a mid-frame read,
    /// MidFrameRead.swift, updates the touch, the drawn point and the horizon).
    private(set) var start: SimTime = 0
    private var duration: SimTime = 0
    private var nextCommitIndex = 1
    var mainTouch = Touch.none
    var drawnTouches: Int64 = 0
    var drawn = TouchPoint.zero
    var horizonApplied: SimTime = 0
    /// Commits made so far.
    private(set) var commitsMade: Int64 = 0

    init(configuration c: borrowing PipelineConfiguration) {
        commitsPerRun = c.commits
        touchUse = c.touches
        horizon = c.horizon
        frameInterval = c.frameInterval
        rendersMetal = c.rendering == .metal
        handlerTime = DurationSampler(c.handler)
        metalTime = DurationSampler(c.appGPU)
        if let spec = c.appPredictor {
            predictor = PredictorSlot(spec, frameInterval: c.frameInterval)
            predicts = true
        } else {
            predictor = nil
            predicts = false
        }
    }

    /// Runs the touch handler on a delivery's coalesced `touches` (the last
    /// is the main touch).
    mutating func beginHandler(_ touches: Ring<Touch>, now: SimTime, rng: inout SeededRandom) -> HandlerStart {
        busy = true
        handlerRuns += 1
        run += 1
        start = now
        duration = handlerTime.draw(&rng)
        nextCommitIndex = 1
        // copied from the ring as its bytes (a touch is plain data): copied
        // as a value, the 59-byte touch went by the stack in pieces of two
        // sizes, and a load of one waited for the store of the other
        precondition(!touches.isEmpty, "a delivery without touches")
        touches.copyBytes(of: touches.count &- 1, into: &mainTouch)
        drawnTouches += touchUse == .coalesced ? Int64(touches.count) : 1
        drawn = mainTouch.position
        horizonApplied = 0
        var began = false
        var prediction: PredictionMade?
        if predicts {
            // the predictor sees every touch delivered so far, never a later one
            for i in 0..<touches.count {
                let t = touches[i]
                if t.began {
                    predictor!.reset()
                    began = true
                }
                predictor!.observe(t.sample)
            }
            if let p = predictor!.predict(horizon: horizon, frameInterval: frameInterval) {
                drawn = p
                horizonApplied = horizon
                let target = mainTouch.time + horizon
                let stamp = stampsPredictions ? predictor!.predictedTime ?? target : target
                prediction = PredictionMade(position: p, target: target, origin: mainTouch.time, stamp: stamp)
            }
        }
        return HandlerStart(firstCommit: commitTime(1), end: start + duration, strokeBegan: began, prediction: prediction)
    }

    /// Commit `i` of `n` at `start + i * handler / n`, rounded half up.
    private func commitTime(_ i: Int) -> SimTime {
        let n = Int64(commitsPerRun)
        return n == 1 ? start + duration : start + Int64(roundHalfUp(Int128(duration) * Int128(i), Int128(n)))
    }

    /// The app commits its next transaction at `now`, made in `slot`.
    @inline(__always)
    mutating func commit(at now: SimTime, rng: inout SeededRandom, into slot: Uninitialized<Commit>) -> CommitMade {
        let index = nextCommitIndex
        let last = index == commitsPerRun
        slot.initialize(to: Commit(seq: commitsMade, mainTouch: mainTouch, isLastOfRun: last, drawnTouches: drawnTouches,
                                   drawn: drawn, horizon: horizonApplied, handlerRun: run, delivered: start, committed: now))
        commitsMade += 1
        let metal = rendersMetal ? metalTime.draw(&rng) : nil
        nextCommitIndex += 1
        if last { busy = false }
        return CommitMade(metalGPU: metal, nextCommit: last ? nil : commitTime(index + 1))
    }
}
