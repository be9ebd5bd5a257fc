import SimKernel
import TouchModel

/// What a run measures (Docs/Model.md, "What is measured"), streamed into
/// constant-memory statistics: the latency of every displayed frame that
/// carries new touch content, per-sample latency, and prediction accuracy.
/// Every platform's pipeline tells it what the app drew and what a vsync
/// showed; nothing here grows with the simulated duration.
struct Measurement {
    var geometry: FrameGeometry
    /// The noise-free finger, for prediction scoring.
    var truth: TrajectoryCursor
    /// Whether the app predicts: then the effective figures are recorded.
    var predicts: Bool
    var touchToPhotonMs = Measurements.milliseconds()
    var pipelineFrames = Measurements.frames()
    var effectiveMs = Measurements.milliseconds()
    var effectiveFrames = Measurements.frames()
    var perSampleMs = Measurements.milliseconds()
    var frameToPhotonMs = Measurements.milliseconds()
    /// Every measured frame's touch-to-photon split into stages, when the
    /// run keeps the budget (the pipeline splits it; see ``StageBudget``).
    private(set) var budget: BudgetRecorder?
    /// The same recorder, unretained (``budget`` keeps it alive): a frame's
    /// split goes through it without a retain and release per frame.
    private(set) var budgetRecorder: Unowned<BudgetRecorder>?

    /// Keeps the stage budget with `recorder`.
    mutating func keepBudget(_ recorder: BudgetRecorder) {
        budget = recorder
        budgetRecorder = Unowned(recorder)
    }
    /// The photon instant of the newest touch of the frame measured last
    /// (``frameShown(latch:content:newest:drawnTouches:drawn:horizon:)``):
    /// its frame-to-photon and its stage budget end there.
    private(set) var measuredPhoton: SimTime = 0
    var tapToPhotonMs = Measurements.milliseconds()
    var liftToPhotonMs = Measurements.milliseconds()
    /// A tapping finger: each drawn touch is a tap's touch-down, measured
    /// from its contact; the drag figures are not recorded.
    let taps: Bool
    /// WALT's screen test (`app.updates: blink`): frames show the app's
    /// changes, measured by frame-to-photon only.
    let blinks: Bool
    /// Whether touches are classed as first after idle or steady, and the
    /// quiet gap that decides it.
    let classifies: Bool
    let quietGap: SimTime
    /// The vsync of the last frame that showed new content (Int64.min: none yet).
    private var lastNewVsync = SimTime.min
    var firstTouchMs = Measurements.milliseconds()
    var steadyTouchMs = Measurements.milliseconds()
    var prediction = PredictionScorer()
    /// A scrolling app's tracker (`app.scrolls`); nil otherwise. This and
    /// ``ink`` are spelled `Optional`, so that they have no implicit `nil`
    /// first and the initialiser sets each once: set again after an
    /// implicit `nil`, the whole measurement (5 KB) was copied aside.
    var scroll: Optional<ScrollTracker>
    /// Whether there is a tracker: tested per touch and per frame without
    /// reading the (large) optional above, which would copy it.
    let scrolling: Bool
    /// The platforms' scorecards, when asked for (nil: no cost at all).
    var platform: PlatformScorecards?
    /// An ink app's figures (Docs/Ink.md); nil otherwise.
    var ink: Optional<InkTracker>
    /// Whether a shown frame's ink is measured at its latch (an ink app
    /// drawing through the buffered pipeline): tested per frame without
    /// reading the optional above. A front-buffered app measures its draws
    /// itself (``inkShown(newest:photon:drawn:)``).
    let inkAtLatch: Bool
    /// The content number (iOS: the scan) of the newest touch shown so far.
    private var newestShown: Int64 = -1
    /// Touches the app drew and no frame has shown yet: what per-sample
    /// latency needs of each, its true time and its row.
    private var drawnWaiting = Ring<(time: SimTime, y: Double)>()
    /// A tapping finger: which of the touches waiting are lift-offs.
    private var drawnLifts = Ring<Bool>()
    private var drawnShown: Int64 = 0
    /// The divisions of the streams recorded per frame, remembered
    /// (``MillisecondsMemo``): each answer is the division's.
    private var touchToPhotonMemo = MillisecondsMemo()
    private var frameToPhotonMemo = MillisecondsMemo()
    private var perSampleMemo = MillisecondsMemo()
    /// The last pipeline-frames count and the interval it was computed
    /// from, `latch - windowStart` (Int64.min before the first).
    private var framesInterval = Int64.min
    private var framesCount = 0.0
    /// With prediction: the horizon in milliseconds, and the last effective
    /// frames count with the count and horizon it was computed from.
    private var horizonMemo = MillisecondsMemo()
    private var effectiveFor: (frames: Double, horizon: SimTime, count: Double) = (.nan, 0, .nan)

    // inlined into the models' initialisers, so that it is made in its
    // place in the model (called, it was made aside and copied in)
    @inline(__always)
    init(configuration c: borrowing PipelineConfiguration, trajectory: Trajectory, predicts: Bool) {
        geometry = FrameGeometry(c)
        truth = TrajectoryCursor(trajectory)
        self.predicts = predicts
        taps = trajectory.taps
        blinks = c.blinks
        classifies = c.measuresFirstTouch
        quietGap = c.quietGap
        let scrolls = c.scrolls && !taps
        scrolling = scrolls
        scroll = scrolls ? ScrollTracker(slop: c.touchSlop, trajectory: trajectory) : nil
        inkAtLatch = c.inkApp && !c.frontBuffered
        ink = c.inkApp || c.midFrameRead ? InkTracker(c) : nil
    }

    /// A handler run drew `touches` (a delivery's coalesced touches: every
    /// one with `coalesced`, the main touch with `main`).
    mutating func drew(_ touches: Ring<Touch>, use: TouchUse) {
        if scrolling { for i in 0..<touches.count { scroll!.drew(touches[i]) } }
        if use == .coalesced {
            for i in 0..<touches.count {
                drawnWaiting.append((touches[i].time, touches[i].position.y))
                if taps { drawnLifts.append(touches[i].lifted) }
            }
        } else {
            let main = touches.last!
            drawnWaiting.append((main.time, main.position.y))
            if taps { drawnLifts.append(main.lifted) }
        }
    }

    /// The app drew one digitizer sample (Android: a touch-down, or a sample
    /// its frame consumed).
    mutating func drew(_ touch: Touch) {
        if scrolling { scroll!.drew(touch) }
        drawnWaiting.append((touch.time, touch.position.y))
        if taps { drawnLifts.append(touch.lifted) }
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
    /// the app drew; its frame started at `frameStart` (the delivery that
    /// ran its handler). Returns true when it carries new touch content (and
    /// was measured).
    mutating func frameShown(latch: SimTime, mainTouch s: Touch, drawnTouches: Int64, drawn: TouchPoint, horizon: SimTime,
                             frameStart: SimTime) -> Bool {
        let measured = frameShown(latch: latch, content: s.scan, newest: s, drawnTouches: drawnTouches, drawn: drawn, horizon: horizon)
        if measured { frameToPhotonMs.record(frameToPhotonMemo.of(measuredPhoton - frameStart)) }
        return measured
    }

    /// Frame-to-photon of a frame latched at `latch` whose frame started at
    /// `frameStart`, its content at screen row `y`.
    @inline(__always)
    mutating func frameToPhoton(latch: SimTime, y: Double, frameStart: SimTime) {
        frameToPhotonMs.record(frameToPhotonMemo.of(geometry.photonTime(latch: latch, y: y) - frameStart))
    }

    /// A frame shown at `latch` whose content is numbered `content` (content
    /// numbers grow with every new drawing): `newest` is the newest position
    /// drawn, its true time (for Android, a resampled point's physical time)
    /// and scan window; the rest as above. Returns true when the content is
    /// new (and was measured).
    mutating func frameShown(latch: SimTime, content: Int64, newest s: Touch, drawnTouches: Int64, drawn: TouchPoint,
                             horizon: SimTime) -> Bool {
        let measured = content > newestShown
        if measured { measuredPhoton = geometry.photonTime(latch: latch, y: s.position.y) }
        // WALT's screen test: a frame's news is the app's change, not a touch
        if blinks {
            if measured { newestShown = content }
            return measured
        }
        if measured && !taps {
            newestShown = content
            let photon = measuredPhoton
            let ttp = touchToPhotonMemo.of(photon - s.time)
            // the count depends on the interval alone, which mostly repeats
            let interval = latch - s.windowStart
            if interval != framesInterval {
                framesInterval = interval
                framesCount = geometry.pipelineFrames(latch: latch, windowStart: s.windowStart)
            }
            let frames = framesCount
            touchToPhotonMs.record(ttp)
            if classifies { classify(ttp, touch: s.time) }
            pipelineFrames.record(frames)
            if scrolling { scroll!.shown(s, photon: photon, finger: truth.state(at: photon)) }
            if predicts {
                effectiveMs.record(ttp - horizonMemo.of(horizon))
                if frames.bitPattern != effectiveFor.frames.bitPattern || horizon != effectiveFor.horizon {
                    effectiveFor = (frames, horizon, geometry.frames(frames, minus: horizon))
                }
                effectiveFrames.record(effectiveFor.count)
                prediction.recordPhoton(drawn: drawn, truth: truth.state(at: photon).position)
            }
            if inkAtLatch { inkShown(newest: s, photon: ink!.photon(vsync: latch, y: s.position.y), drawn: drawn) }
        }
        if measured && taps { newestShown = content }
        while drawnShown < drawnTouches, let d = drawnWaiting.popFirst() {
            drawnShown += 1
            // a tap's touch is its contact: the first frame that shows it is its tap-to-photon
            let ms = perSampleMemo.of(geometry.photonTime(latch: latch, y: d.y) - d.time)
            if !taps {
                perSampleMs.record(ms)
            } else if drawnLifts.popFirst() == true {
                liftToPhotonMs.record(ms)
            } else {
                tapToPhotonMs.record(ms)
                if classifies { classify(ms, touch: d.time) }
            }
        }
        if measured && classifies { lastNewVsync = latch }
        return measured
    }

    /// A touch at `touch` shown with latency `ms`: first after idle when no
    /// frame showed new content in the quiet gap before it, else steady.
    private mutating func classify(_ ms: Double, touch: SimTime) {
        if lastNewVsync == .min || lastNewVsync < touch - quietGap {
            firstTouchMs.record(ms)
        } else {
            steadyTouchMs.record(ms)
        }
    }

    /// An ink app shows the pen position `newest` at `photon` (at its own
    /// row), the stroke's end drawn at `drawn`.
    mutating func inkShown(newest: Touch, photon: SimTime, drawn: TouchPoint) {
        let pen = truth.state(at: photon).position
        ink!.shown(newest: newest, photon: photon, drawn: drawn, truth: pen)
    }

    /// The streams, settled; without prediction the effective figures are
    /// the measured ones (they were not recorded twice). The streams are
    /// moved into `m`, a run's measurements not written yet (swapped with
    /// its empty ones, without a retain or release): the run has ended,
    /// and this measurement records no more.
    mutating func finish(into m: inout Measurements) {
        if !predicts {
            effectiveMs = touchToPhotonMs
            effectiveFrames = pipelineFrames
        }
        swap(&m.touchToPhotonMs, &touchToPhotonMs)
        swap(&m.pipelineFrames, &pipelineFrames)
        swap(&m.effectiveMs, &effectiveMs)
        swap(&m.effectiveFrames, &effectiveFrames)
        swap(&m.perSampleMs, &perSampleMs)
        swap(&m.frameToPhotonMs, &frameToPhotonMs)
        m.budget = budget?.result()
        swap(&m.tapToPhotonMs, &tapToPhotonMs)
        swap(&m.liftToPhotonMs, &liftToPhotonMs)
        swap(&m.firstTouchMs, &firstTouchMs)
        swap(&m.steadyTouchMs, &steadyTouchMs)
        swap(&m.prediction, &prediction)
        // the figures only some runs have, set only by those (`m` has none
        // yet): a nil of a few hundred bytes was made and copied about for
        // each in every other run
        if scroll != nil { m.scroll = scroll!.figures }
        if ink != nil {
            var i = ink!.figures
            i.settle()
            m.ink = i
        }
        if platform != nil {
            m.chromiumScorecard = platform!.chromium?.result
            m.androidScorecard = platform!.android?.result
        }
        m.settle()
    }
}

extension Measurement {
    /// A front-buffered draw ending at `drawEnd` (Docs/Ink.md): its content
    /// reaches the eye at each row when the scan-out next passes it, from
    /// the vsync `from` on (the front layer on screen, or a composed
    /// present). `vsync` is the pass over the measured row; the rest as
    /// ``frameShown(latch:content:newest:drawnTouches:drawn:horizon:)``,
    /// with every drawn sample's photons at its own row's pass. Returns true
    /// when the content is new (and was measured).
    mutating func frontDrawShown(race: ScanRace, drawEnd: SimTime, from: SimTime, vsync: SimTime, content: Int64,
                                 newest s: Touch, drawnTouches: Int64, drawn: TouchPoint, horizon: SimTime) -> Bool {
        let measured = content > newestShown
        if measured {
            newestShown = content
            measuredPhoton = geometry.photonTime(latch: vsync, y: s.position.y)
            let photon = measuredPhoton
            let ttp = touchToPhotonMemo.of(photon - s.time)
            let frames = geometry.pipelineFrames(latch: vsync, windowStart: s.windowStart)
            touchToPhotonMs.record(ttp)
            pipelineFrames.record(frames)
            if predicts {
                effectiveMs.record(ttp - horizonMemo.of(horizon))
                effectiveFrames.record(geometry.frames(frames, minus: horizon))
                prediction.recordPhoton(drawn: drawn, truth: truth.state(at: photon).position)
            }
        }
        while drawnShown < drawnTouches, let d = drawnWaiting.popFirst() {
            drawnShown += 1
            let row = geometry.rowOffset ?? roundHalfUp(d.y / geometry.heightPoints * geometry.framePeriodNanos)
            let photon = race.pass(atOrAfter: drawEnd, row: row, from: from) + geometry.panelResponse
            perSampleMs.record(perSampleMemo.of(photon - d.time))
        }
        return measured
    }
}

extension Measurements {
    /// Writes what every platform's run counted besides its streams
    /// (``Measurement/finish(into:)`` moves those): what the display showed
    /// (with `droppedFrames`, which each platform counts its own way), what
    /// the digitizer made, and the app's work. The display and the
    /// digitizer are read where the model keeps them: passed beside the
    /// measurement's own finish, which mutates the model, they were copied
    /// (some 3 KB a run).
    mutating func count<Shown>(display: borrowing Display<Shown>, droppedFrames: Int, digitizer: borrowing Digitizer,
                               work: (deliveries: Int, handlerRuns: Int, wastedUpdates: Int)) {
        framesPresented = display.framesPresented
        repeatedFrames = display.repeatedFrames
        self.droppedFrames = droppedFrames
        hitches = display.hitches
        (deliveries, handlerRuns, wastedUpdates) = work
        samples = digitizer.touchesMade
        touchDownMs = digitizer.touchDownMs
        touchDownMs.settle()
        touchUpMs = digitizer.touchUpMs
        touchUpMs.settle()
    }
}
