import SimKernel
import TouchModel

/// What the UI thread is doing.
enum UIWork {
    /// Nothing.
    case idle
    /// The touch handler of a touch-down.
    case down(Touch)
    /// A Choreographer frame (its number): input, then traversal (measure,
    /// layout, record).
    case frame(Int64)
    /// A Choreographer frame of a continuous app: the input callback stores
    /// the position for the GL thread.
    case input(DrawnContent)
}

/// What starting a Choreographer frame produced.
struct FrameStart {
    /// The content the frame draws.
    var content: DrawnContent
    /// When the UI thread's work ends.
    var end: SimTime
    /// The prediction drawn, for scoring.
    var prediction: PredictionMade?
    /// A sample handed to the predictor began a stroke.
    var strokeBegan: Bool
}

/// The app's UI (main) thread (Docs/Android.md, "Choreographer frame" and
/// "Touch-down"): it runs a touch-down's handler at once, and each
/// Choreographer frame's input and traversal for `app.handler`; at the end
/// of a frame it syncs to RenderThread, blocking while RenderThread is busy.
/// It owns the app's drawing: the newest position, the prediction, and (in
/// continuous mode) the position stored for the GL thread.
struct UIThread {
    var handlerTime: DurationSampler
    let horizon: SimTime
    /// No observer: a `didSet` here made every mutating call through the
    /// optional copy the whole predictor out and back.
    private(set) var predictor: PredictorSlot?
    /// Whether the app predicts (kept apart from ``predictor``).
    private(set) var predicts: Bool
    /// The display period, which a platform predictor is told.
    let frameInterval: SimTime
    /// Whether a prediction carries the instant the predictor says it stands
    /// for (only the platform scorecards read it).
    var stampsPredictions = false
    private(set) var busy = false
    private(set) var work = UIWork.idle
    /// A frame whose UI work is done, waiting for RenderThread (the sync blocks).
    private(set) var syncing: Int64?
    /// Touch-downs that reached the channel while the thread was busy.
    private var downsWaiting = Ring<Touch>()
    /// Touch-downs handled and not yet drawn, each with its handler's end.
    private(set) var downResponses = Ring<(touch: Touch, end: SimTime)>()
    private(set) var handlerRuns = 0
    /// Deliveries: touch-downs handled, and frames that consumed samples.
    private(set) var deliveries = 0
    private var contentCount: Int64 = 0
    private var drawnSamples: Int64 = 0
    /// Continuous mode: the position stored for the GL thread, and whether it was read.
    private(set) var stored: DrawnContent?
    private var storedRead = true
    /// Stored positions replaced before the GL thread read them.
    private(set) var wastedUpdates = 0

    /// Installs a predictor.
    mutating func use(_ p: PredictorSlot) {
        predictor = p
        predicts = true
    }

    init(configuration c: borrowing PipelineConfiguration) {
        handlerTime = DurationSampler(c.handler)
        horizon = c.horizon
        frameInterval = c.frameInterval
        predictor = c.appPredictor.map { PredictorSlot($0, frameInterval: c.frameInterval) }
        predicts = predictor != nil
    }

    /// A touch-down reaches the channel while the thread is busy: it waits.
    mutating func queueDown(_ down: Touch) { downsWaiting.append(down) }

    /// Runs a touch-down's handler now; returns its end.
    mutating func beginDown(_ down: Touch, now: SimTime, rng: inout SeededRandom) -> SimTime {
        busy = true
        work = .down(down)
        handlerRuns += 1
        deliveries += 1
        if predicts {
            predictor!.reset()
            predictor!.observe(down.sample)
        }
        return now + handlerTime.draw(&rng)
    }

    /// True when a touch-down's response is frame work for frame time `f`
    /// (its handler ended at or before `f`).
    func responseDue(frameTime f: SimTime) -> Bool {
        guard let first = downResponses.first else { return false }
        return first.end <= f
    }

    /// Starts a Choreographer frame: it draws the touch-downs handled so
    /// far and the samples the frame consumed (the first
    /// `consumption.count` of `batch`, the newest one resampled), then works
    /// for `app.handler`. With a `frame` number (an on-demand frame) it draws
    /// that frame; without, the work is a continuous app's input callback.
    mutating func beginFrame(consumption: Consumption?, batch: Ring<Touch>, frame: Int64?,
                             now: SimTime, rng: inout SeededRandom) -> FrameStart {
        busy = true
        handlerRuns += 1
        var newest = Touch.none
        var resampled = ResampleOutcome.none
        var lead: SimTime = 0
        var began = false
        var downEnd: SimTime = -1
        for r in downResponses {
            drawnSamples += 1
            newest = r.touch
            downEnd = r.end
        }
        downResponses.removeAll()
        if let consumption {
            downEnd = -1
            deliveries += 1
            drawnSamples += Int64(consumption.count)
            newest = consumption.current
            if let p = consumption.point {
                lead = p.physicalTime - newest.time
                newest.time = p.physicalTime
                newest.position = p.position
                resampled = p.kind
            }
            if predicts {
                for i in 0..<consumption.count {
                    if batch[i].began { predictor!.reset(); began = true }
                    predictor!.observe(batch[i].sample)
                }
            }
        }
        var content = DrawnContent(seq: contentCount, newest: newest, drawnSamples: drawnSamples, drawn: newest.position,
                                   horizon: 0, resampled: resampled, lead: lead, drawnAt: now, downEnd: downEnd)
        contentCount += 1
        var prediction: PredictionMade?
        // the prediction reaches `horizon` past the drawn position's time
        if predicts, let p = predictor!.predict(horizon: horizon + lead, frameInterval: frameInterval) {
            content.drawn = p
            content.horizon = horizon
            let target = newest.time + horizon
            let stamp = stampsPredictions ? predictor!.predictedTime ?? target : target
            prediction = PredictionMade(position: p, target: target, origin: newest.time, stamp: stamp)
        }
        if let frame {
            work = .frame(frame)
        } else {
            work = .input(content)
        }
        return FrameStart(content: content, end: now + handlerTime.draw(&rng), prediction: prediction, strokeBegan: began)
    }

    /// The work is done: returns it. The thread stays busy until
    /// ``becomeIdle()`` (or the sync, ``waitForRenderThread(_:)``).
    mutating func finish() -> UIWork {
        let w = work
        work = .idle
        return w
    }

    /// A touch-down's handler ended now: its response is owed to a frame.
    mutating func respond(to down: Touch, end: SimTime) { downResponses.append((down, end)) }

    /// Continuous mode: a touch-down's handler stores its position.
    mutating func storeDown(_ down: Touch, now: SimTime) -> DrawnContent {
        drawnSamples += 1
        let c = DrawnContent(seq: contentCount, newest: down, drawnSamples: drawnSamples, drawn: down.position,
                             horizon: 0, resampled: .none, drawnAt: now)
        contentCount += 1
        store(c)
        return c
    }

    /// Continuous mode: the position the GL thread will read.
    mutating func store(_ content: DrawnContent) {
        if !storedRead { wastedUpdates += 1 }
        stored = content
        storedRead = false
    }

    /// Continuous mode: the GL thread reads the stored position.
    mutating func readStored() -> DrawnContent? {
        storedRead = true
        return stored
    }

    /// The frame's UI work is done but RenderThread is busy: the thread
    /// blocks in the sync.
    mutating func waitForRenderThread(_ frame: Int64) { syncing = frame }

    /// RenderThread is free: the blocked sync hands its frame over.
    mutating func syncDone() -> Int64? {
        defer { syncing = nil }
        return syncing
    }

    /// The thread becomes idle: returns a touch-down that was waiting, to
    /// be handled first (the Looper's input callback).
    mutating func becomeIdle() -> Touch? {
        busy = false
        return downsWaiting.popFirst()
    }

    /// Touch-downs waiting for the thread.
    var downsWaitingCount: Int { downsWaiting.count }

    /// When the app last changed what it shows on its own and no frame has
    /// drawn it yet (-1: none; `app.updates: blink`).
    private(set) var updateRequested: SimTime = -1

    /// The app changes what it shows now: the next frame draws it.
    mutating func requestUpdate(at now: SimTime) { updateRequested = now }

    /// True when an update is frame work for frame time `f` (requested at
    /// or before it).
    @inline(__always)
    func updateDue(frameTime f: SimTime) -> Bool { updateRequested >= 0 && updateRequested <= f }

    /// A frame draws the update.
    mutating func updateDrawn() { updateRequested = -1 }
}
