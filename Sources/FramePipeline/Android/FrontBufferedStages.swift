import SimKernel
import TouchModel

// The stages of a front-buffered ink app (Docs/Ink.md): its UI thread,
// which takes stylus input unbuffered, and the front-buffer renderer's
// thread, which draws the wet stroke into the front buffer and, on pen-up,
// the dry stroke into the multi-buffered layer.

/// A wet segment: what the touch handler hands the front-buffer renderer
/// (androidx's `renderFrontBufferedLayer(param)`), and what the draw
/// needs to be measured.
struct WetSegment {
    /// Content is numbered from 0 as the app makes it.
    var content: Int64
    /// The newest pen sample drawn.
    var newest: Touch
    /// Where the stroke's end is drawn (the predicted point with prediction on).
    var drawn: TouchPoint
    /// The prediction horizon applied to ``drawn``.
    var horizon: SimTime
    /// Samples drawn so far (per-sample latency).
    var drawnSamples: Int64
    /// When the newest sample reached the app's input channel.
    var arrived: SimTime
    /// When the touch handler that drew it started, and handed it over.
    var uiStart: SimTime
    var posted: SimTime
    /// When the renderer started the draw and submitted its GPU work, and
    /// when the GPU started it (-1 before).
    var renderStart: SimTime = -1
    var submitted: SimTime = -1
    var gpuStart: SimTime = -1
}

/// A dry commit on pen-up (androidx's `commit()`): the whole stroke
/// rendered into the multi-buffered layer, which goes through the
/// BufferQueue and SurfaceFlinger.
struct DryCommit {
    /// The pen's lift (its true instant), the scan that saw it, and when
    /// the touch handler handed the commit over.
    var lift: SimTime
    var seen: SimTime
    var posted: SimTime
    /// The stroke's last sample drawn (the dry stroke's end, at its row).
    var last: Touch
}

/// What the UI thread hands the renderer.
enum FrontRequest {
    case wet(WetSegment)
    case dry(DryCommit)
}

/// What reached a front-buffered app: a stylus sample, or a lift.
enum InkInput {
    case touch(Touch, arrived: SimTime)
    case lift(instant: SimTime, seen: SimTime, arrived: SimTime)
}

/// A front-buffered app's UI thread (Docs/Ink.md, "The front-buffered
/// app"): its input is unbuffered (`View.requestUnbufferedDispatch`), so
/// each sample is consumed as it reaches the app, with no resampling; what
/// arrives while the thread is busy is consumed together when it becomes
/// idle (ViewRootImpl's `consumeBatchedInputEvents(-1)`). Each group of
/// samples runs the touch handler for `app.handler`, which hands the wet
/// segment (the newest sample, or its prediction) to the renderer; a lift
/// ends the group, and its handler hands over the dry commit.
struct InkUIThread {
    var handlerTime: DurationSampler
    let horizon: SimTime
    let frameInterval: SimTime
    var predictor: PredictorSlot?
    private(set) var predicts: Bool
    /// Whether predictions carry the predictor's own stamp (platform scorecards).
    var stampsPredictions = false
    private(set) var busy = false
    /// Input that reached the app while the thread was busy, oldest first.
    private(set) var waiting = Ring<InkInput>()
    /// What the current run of the handler hands over at its end.
    private(set) var wet: WetSegment?
    private(set) var dry: DryCommit?
    private var contentCount: Int64 = 0
    private var drawnSamples: Int64 = 0
    /// The newest sample drawn (the dry stroke's end).
    private var lastDrawn = Touch.none
    private(set) var handlerRuns = 0
    /// Samples taken (an invariant: none lost).
    private(set) var taken = 0
    private var lastTaken: Int64 = -1
    private(set) var outOfOrder = 0

    init(configuration c: borrowing PipelineConfiguration) {
        handlerTime = DurationSampler(c.handler)
        horizon = c.horizon
        frameInterval = c.frameInterval
        predictor = c.appPredictor.map { PredictorSlot($0, frameInterval: c.frameInterval) }
        predicts = predictor != nil
    }

    /// Installs a predictor.
    mutating func use(_ p: PredictorSlot) {
        predictor = p
        predicts = true
    }

    /// Input reached the app.
    mutating func receive(_ input: InkInput) { waiting.append(input) }

    /// The samples the current run drew, oldest first.
    private(set) var justDrawn = Ring<Touch>()

    /// Starts the touch handler now on the waiting input, up to and
    /// including the first lift (the samples drawn are then in
    /// ``justDrawn``). Nil when nothing waits.
    mutating func begin(now: SimTime, rng: inout SeededRandom) -> (end: SimTime, prediction: PredictionMade?, strokeBegan: Bool)? {
        guard !waiting.isEmpty else { return nil }
        busy = true
        justDrawn.removeAll()
        handlerRuns += 1
        wet = nil
        dry = nil
        var began = false
        var newest: Touch?
        var arrived: SimTime = 0
        while let input = waiting.first {
            _ = waiting.removeFirst()
            switch input {
            case .touch(let t, let at):
                if t.scan <= lastTaken { outOfOrder += 1 }
                lastTaken = t.scan
                taken += 1
                drawnSamples += 1
                if predicts {
                    if t.began {
                        predictor!.reset()
                        began = true
                    }
                    predictor!.observe(t.sample)
                }
                justDrawn.append(t)
                newest = t
                lastDrawn = t
                arrived = at
            case .lift(let instant, let seen, _):
                dry = DryCommit(lift: instant, seen: seen, posted: -1, last: lastDrawn)
            }
            if dry != nil { break }
        }
        let end = now + handlerTime.draw(&rng)
        var prediction: PredictionMade?
        if let t = newest {
            var w = WetSegment(content: contentCount, newest: t, drawn: t.position, horizon: 0, drawnSamples: drawnSamples,
                               arrived: arrived, uiStart: now, posted: end)
            contentCount += 1
            if predicts, let p = predictor!.predict(horizon: horizon, frameInterval: frameInterval) {
                w.drawn = p
                w.horizon = horizon
                let target = t.time + horizon
                let stamp = stampsPredictions ? predictor!.predictedTime ?? target : target
                prediction = PredictionMade(position: p, target: target, origin: t.time, stamp: stamp)
            }
            wet = w
        }
        if dry != nil { dry!.posted = end }
        return (end, prediction, began)
    }

    /// The handler's run is done: the thread is idle.
    mutating func finish() { busy = false }
}

/// The front-buffer renderer's thread (androidx's `GLFrontBufferedRenderer`
/// GL thread, `CanvasFrontBufferedRenderer`'s render thread): one thread
/// for both layers, in the order it was asked. A wet draw takes every
/// segment handed over before it starts in one pass (the library draws
/// its pending parameters together) and goes to the GPU unsynchronised:
/// the pixels are in the front buffer when the GPU job ends. A dry commit
/// dequeues a buffer of the multi-buffered layer, renders the stroke into
/// it and queues it for SurfaceFlinger, whose present hides the front
/// layer; wet draws asked for after a commit wait for that present (the
/// library holds them while it commits).
struct FrontBufferRenderer {
    var commandTime: DurationSampler
    /// Requests not yet started, oldest first.
    private(set) var requests = Ring<FrontRequest>()
    /// The request being rendered (its commands running, or a dry commit
    /// waiting for a buffer).
    private(set) var current: FrontRequest?
    /// A dry commit is on its way (from its start to its present).
    var dryInFlight = false
    /// The vsync from which the front layer is on screen; `.max` while it
    /// is hidden (before the first draw, and after each dry commit's
    /// present).
    var shownFrom: SimTime = .max
    /// Wet draws, and the segments merged into a later one before it started.
    private(set) var wetDraws = 0
    private(set) var merged = 0

    init(configuration c: borrowing PipelineConfiguration) {
        commandTime = DurationSampler(c.android.renderThread)
    }

    /// A request is handed over: a wet segment after a wet one that has not
    /// started replaces it (one pass draws both; the newer is measured).
    mutating func receive(_ r: FrontRequest) {
        if case .wet = r, let last = requests.last, case .wet = last {
            _ = requests.removeLast()
            merged += 1
        }
        requests.append(r)
    }

    /// True when the thread is busy.
    var busy: Bool { current != nil }

    /// The next request the thread may start now, taken from the queue: nil
    /// while busy, with nothing asked, or with a wet draw held behind a dry
    /// commit in flight.
    mutating func next() -> FrontRequest? {
        guard current == nil, let r = requests.first else { return nil }
        if case .wet = r, dryInFlight { return nil }
        _ = requests.removeFirst()
        current = r
        if case .dry = r { dryInFlight = true }
        if case .wet = r { wetDraws += 1 }
        return r
    }

    /// The current request, stamped (a wet draw's start).
    mutating func update(_ r: FrontRequest) { current = r }

    /// The commands are done (queued or submitted): the thread is free.
    mutating func finish() -> FrontRequest {
        let r = current!
        current = nil
        return r
    }
}
