import SimKernel
import TouchModel

/// A GPU job of the Android pipeline: the frame it draws and its buffer.
struct AndroidGPUJob {
    var frame: Int64
    var buffer: Int32
    var submitted: SimTime
}

/// The Android pipeline (Docs/Android.md): the digitizer, InputDispatcher,
/// InputConsumer, Choreographer, UI thread, RenderThread (or GLSurfaceView's
/// GL thread), BufferQueue, GPU, SurfaceFlinger and display, wired output to
/// input. Each stage owns its state and says what it produced; this type
/// passes a stage's output to the next and schedules the events that follow.
struct AndroidPipeline: PlatformPipeline {
    typealias Event = AndroidEvent

    let configuration: PipelineConfiguration
    let timing: AndroidTiming
    let continuous: Bool
    /// Every duration drawn in the run comes from this generator, in event order.
    var rng: SeededRandom
    var digitizer: Digitizer
    var dispatch: InputDispatch
    var consumer: InputConsumer
    var choreographer: Choreographer
    var ui: UIThread
    /// The CPU's and GPU's ramp after idle (`device.idleRamp`; nil: none),
    /// owned here, and as the work stages and the event loop reach it.
    let rampOwner: FrequencyRamp?
    let ramp: Unowned<FrequencyRamp>?
    var renderThread: RenderThread
    var glThread: GLThread
    var bufferQueue: BufferQueue
    var gpu = GPU<AndroidGPUJob>()
    var gpuTime: DurationSampler
    var surfaceFlinger: SurfaceFlinger
    var display: Display<ShownFrame>
    var timeline: FrameTimeline
    /// The frames in flight; stages hold their numbers.
    var frames: FrameTable
    var measurement: Measurement
    /// Frames are numbered in the order they begin.
    var nextFrame: Int64 = 0
    var lastPresented: Int64 = -1
    var presentsOutOfOrder = 0
    var gpuJobsBeforeFence = 0
    /// Buffers released by a latch before their own GPU job ended.
    var earlyReleases = 0
    /// When the producer (RenderThread or GL thread) asked for its buffer (for the log).
    var renderRequested: SimTime = 0
    var renderStart: SimTime = 0
    /// When the UI thread blocked in the sync (for the log).
    var syncSince: SimTime = 0
    /// Frames dropped at latches since the last present (for the log).
    var dropsSincePresent = 0
    /// Bad input met during the run (a composition draw of `T` or more).
    var failure: LatsimError?
    let log: FrameLog?
    /// WALT's screen test (`app.updates: blink`): the app changes its
    /// colour on its own, timed from the photodiode (``Blinker``).
    let blinks: Bool
    var blinker: Blinker
    /// The frame that draws the latest change (Int64.max: not yet begun).
    var blinkFrame: Int64 = -1
    /// When that frame's UI work started.
    var blinkDrawnAt: SimTime = -1
    /// A display that changes its rate (`display.minHz`): its policy, and
    /// the rate the measurement's geometry, FrameTimeline and
    /// SurfaceFlinger's early-frame test follow.
    let switching: Bool
    var rate: DisplayRate
    var geometryHz: Rational
    /// Android 10's offsets know the peak of a display that switches.
    let peakOfSeveral: Bool

    init(configuration c: PipelineConfiguration, trajectory: Trajectory, keepLog: Bool) {
        timing = c.androidTiming
        continuous = c.android.renderMode == .continuous
        rng = SeededRandom(seed: c.seed)
        digitizer = Digitizer(configuration: c, trajectory: trajectory)
        dispatch = InputDispatch(latency: c.android.dispatchLatency)
        consumer = InputConsumer(resampling: c.android.resampling, resampleLatency: c.android.resampleLatency,
                                 unbuffered: c.ink.unbufferedDispatch)
        choreographer = Choreographer(vsyncClock: c.vsyncClock, lead: timing.appDuration + timing.sfDuration,
                                      sfDuration: timing.sfDuration)
        ui = UIThread(configuration: c)
        renderThread = RenderThread(configuration: c)
        glThread = GLThread(configuration: c)
        bufferQueue = BufferQueue(count: timing.buffers)
        frames = FrameTable(buffers: timing.buffers)
        gpuTime = DurationSampler(c.gpuRender)
        surfaceFlinger = SurfaceFlinger(configuration: c, sfDuration: timing.sfDuration)
        display = Display(present: c.present, clock: c.vsyncClock)
        timeline = FrameTimeline(displayHz: c.displayHz)
        measurement = Measurement(configuration: c, trajectory: trajectory, predicts: ui.predicts)
        blinks = c.blinks
        blinker = Blinker(configuration: c)
        switching = c.rate.switches
        rate = DisplayRate(configuration: c)
        geometryHz = c.displayHz
        peakOfSeveral = c.rate.switches
        rampOwner = FrequencyRamp.of(c)
        ramp = rampOwner.map { Unowned($0) }
        ui.handlerTime.ramp = ramp
        renderThread.commandTime.ramp = ramp
        glThread.commandTime.ramp = ramp
        gpuTime.ramp = ramp
        if keepLog {
            let l = FrameLog()
            l.android = AndroidFrameLog()
            log = l
        } else {
            log = nil
        }
        // kept last, so the configuration is moved here, not copied
        configuration = c
    }

    /// Splits every measured frame into stages (``StageBudget``).
    mutating func keepBudget() {
        measurement.keepBudget(BudgetRecorder(platform: .android, configuration: configuration))
    }

    /// Keeps the platforms' prediction scorecards too.
    mutating func keepScorecards(_ cards: PredictionScorecards) {
        measurement.platform = cards.isEmpty ? nil : PlatformScorecards(cards, trajectory: measurement.truth.trajectory)
        ui.stampsPredictions = !cards.isEmpty
    }

    /// Installs a predictor in the app.
    mutating func usePredictor(_ p: some TouchPredictor) {
        ui.use(PredictorSlot(p))
        measurement.predicts = true
    }

    mutating func start(_ s: inout EventScheduler<Event>) {
        s.schedule(.presentVsync, at: display.firstLatch)
        s.schedule(.vsyncSf, at: surfaceFlinger.nextTick)
        s.schedule(.vsyncApp, at: choreographer.nextTick)
        s.schedule(.scanArrival, at: nextArrival)
        if continuous { glDequeue(0, &s) }
        if blinks { s.schedule(.appUpdate, at: Blinker.first) }
        if switching { rate.start(&s, kind: .displayTimer) }
    }

    /// The kinds only some runs have are reported by those.
    func reports(_ kind: AndroidEvent) -> Bool {
        switch kind {
        case .appUpdate: return blinks
        case .displayTimer: return switching
        default: return true
        }
    }

    /// When the next scan's touch arrives in the input channel (``AndroidEvent/scanArrival``).
    var nextArrival: SimTime { dispatch.arrival(ofSampleReadyAt: digitizer.nextReady) }

    /// The scans ready before the run's end whose touches had not arrived:
    /// they are in transit.
    mutating func finishEvents(before end: SimTime, _ s: inout EventScheduler<Event>) {
        while digitizer.nextReady < end {
            s.handledWithin(.sampleReady)
            if scan(readyAt: digitizer.nextReady) != nil { dispatch.leftInTransit() }
        }
    }

    /// The digitizer's scan whose touch is ready at `ready`.
    @inline(__always)
    mutating func scan(readyAt ready: SimTime) -> Touch? {
        guard let touch = digitizer.scan(readyAt: ready) else { return nil }
        log?.scans.append(.init(windowStart: touch.windowStart, windowEnd: digitizer.lastWindow.upperBound,
                                instant: touch.time, ready: ready, index: touch.scan))
        return touch
    }

    /// A scan's touch arrives in the app's input channel now.
    @inline(__always)
    mutating func arrive(_ touch: Touch, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        log?.android?.arrivals.append(.init(scan: touch.scan, ready: touch.ready, arrival: now, down: touch.began,
                                                     lifted: touch.lifted, position: touch.position))
        // a user-activity poke: the touch hint
        if switching && rate.touch(at: now, &s, kind: .displayTimer) { evaluateRate(now, &s) }
        if !touch.began && !touch.lifted {
            consumer.receive(touch)
        } else if ui.busy {
            ui.queueDown(touch)
        } else {
            startDown(touch, now, &s)
        }
    }

    @inline(__always)
    mutating func handle(_ event: Event, payload: UInt8, _ s: inout EventScheduler<Event>) {
        let now = s.now
        ramp?.with { $0.now = now }
        switch event {
        case .scanArrival:
            s.handledWithin(.sampleReady)
            if let touch = scan(readyAt: digitizer.nextReady) {
                s.handledWithin(.inputChannel)
                arrive(touch, now, &s)
            }
            s.schedule(.scanArrival, at: nextArrival)

        case .appUpdate:
            // WALT's doBlinkRunnable: the colour changes and the view
            // invalidates; the next Choreographer frame draws it
            guard blinker.isDue(at: now) else { break }
            s.schedule(.appUpdate, at: blinker.make(at: now))
            ui.requestUpdate(at: now)
            blinkFrame = .max

        case .displayTimer:
            if rate.timer(payload, at: now, &s, kind: .displayTimer) { evaluateRate(now, &s) }

        case .sampleReady, .inputChannel:
            preconditionFailure("a scan and its arrival are one event, scanArrival")

        case .vsyncApp:
            let (frameTime, target) = choreographer.tick()
            s.schedule(.vsyncApp, at: choreographer.nextTick)
            log?.android?.appTicks.append(now)
            if ui.busy {
                choreographer.missed = true
            } else {
                _ = tryFrame(frameTime, target: target, late: false, now, &s)
            }

        case .deferredFrame:
            guard let (frameTime, target) = choreographer.newestTick(before: now) else { break }
            if ui.busy {
                choreographer.missed = true // a touch-down took the thread in this instant
            } else {
                _ = tryFrame(frameTime, target: target, late: true, now, &s)
            }

        case .uiWorkDone:
            uiWorkDone(now, &s)

        case .queueBuffer:
            let seq = continuous ? glThread.finishCommands() : renderThread.finishCommands()
            log?.android?.renderWork.append(.init(requested: renderRequested, start: renderStart, queued: now,
                                                  frame: seq, buffer: frames[seq].buffer))
            enqueue(seq, now, &s)
            if continuous {
                glDequeue(now, &s)
            } else if let next = ui.syncDone() {
                log?.android?.syncWaits.append(.init(start: syncSince, end: now, frame: next))
                handOver(next, now, &s)
                uiIdle(now, &s)
            }

        case .glRead:
            let seq = nextFrame
            nextFrame += 1
            let b = glThread.buffer
            frames.begin(AndroidFrame(seq: seq, content: ui.readStored(), frameTime: now, expected: -1, deadline: -1,
                                      buffer: b.id, bufferFence: b.fence, renderStart: now))
            timeline.begin(seq: seq, expected: -1)
            renderStart = now
            s.schedule(.queueBuffer, at: glThread.read(seq: seq, now: now, rng: &rng))

        case .gpuDone:
            let (done, nextEnd) = gpu.complete(now: now)
            if let nextEnd { gpuStarted(now, nextEnd, &s) }
            // the acquire fence signals (a dropped frame's record may be gone)
            if frames[done.frame].seq == done.frame { frames[done.frame].gpuDone = now }

        case .compositionDone:
            frames[surfaceFlinger.compositionDone()].composed = true

        case .presentVsync:
            if switching && display.vsyncs.hz != geometryHz { rateInForce(display.vsyncs.hz) }
            s.schedule(.presentVsync, at: display.nextLatch())
            if let seq = surfaceFlinger.presentable(now: now, frames) {
                present(seq, now, &s)
            } else if let front = display.front {
                // something new to show: an app frame in flight; due (a hitch) when
                // FrameTimeline expected it presented by now
                let owed = display.repeatFront(pending: timeline.hasFrameInFlight, due: timeline.owes(at: now))
                if let log {
                    log.android?.presents.append(.init(time: now, frame: front.seq, buffer: front.buffer, repeated: true,
                                                       hitch: owed, measured: false))
                    log.record(record(front.seq, .repeated, hitch: owed, now))
                }
            }

        case .vsyncSf:
            let vsync = surfaceFlinger.tick()
            s.schedule(.vsyncSf, at: surfaceFlinger.nextTick)
            log?.android?.sfTicks.append(now)
            latch(vsync, now, &s)
        }
    }
}
