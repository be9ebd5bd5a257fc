import SimKernel
import TouchModel

/// A front-buffered app's events (Docs/Ink.md, "Tie order"): at equal times
/// completions come before decisions, as on the Android pipeline.
public enum FrontBufferedEvent: UInt8, SimulationEvent {
    /// A GPU job is done: a wet draw's pixels are in the front buffer, or
    /// the dry frame's acquire fence signals.
    case gpuDone
    /// SurfaceFlinger's composition is done.
    case compositionDone
    /// A hardware vsync: a latched dry frame goes on screen, or the front
    /// frame repeats.
    case presentVsync
    /// The front-buffer renderer's commands are done: a wet draw goes to the
    /// GPU, a dry frame is queued (queueBuffer) and goes to the GPU.
    case renderDone
    /// The touch handler's run is done: it hands its segment (or its dry
    /// commit) to the renderer.
    case uiWorkDone
    /// A digitizer sample is ready (handled within ``scanArrival``).
    case sampleReady
    /// A sample reaches the app (handled within ``scanArrival``).
    case inputChannel
    /// vsync-sf: SurfaceFlinger latches.
    case vsyncSf
    /// Bookkeeping: a scan and its touch's arrival, one event at the
    /// arrival (as on the Android pipeline).
    case scanArrival

    public var tieRank: UInt8 {
        switch self {
        case .gpuDone: return 1
        case .compositionDone: return 2
        case .presentVsync: return 3
        case .renderDone: return 4
        case .uiWorkDone: return 5
        case .sampleReady: return 6
        case .inputChannel, .scanArrival: return 7
        case .vsyncSf: return 8
        }
    }

    public var name: String {
        switch self {
        case .gpuDone: return "gpuDone"
        case .compositionDone: return "composeDone"
        case .presentVsync: return "presentVsync"
        case .renderDone: return "renderDone"
        case .uiWorkDone: return "uiWorkDone"
        case .sampleReady: return "sampleReady"
        case .inputChannel: return "inputChannel"
        case .vsyncSf: return "vsyncSf"
        case .scanArrival: return "scanArrival"
        }
    }

    public var clock: Int {
        switch self {
        case .presentVsync: return 0
        case .scanArrival: return 1
        case .vsyncSf: return 2
        default: return -1
        }
    }

    public static var clocks: Int { 3 }

    public var isBookkeeping: Bool { self == .scanArrival }
}

/// A GPU job of a front-buffered app: a wet draw, or a dry frame and its buffer.
struct FrontGPUJob {
    var dry: Bool
    var frame: Int64
    var buffer: Int32
    var submitted: SimTime
}

/// A front-buffered Android ink app (Docs/Ink.md): the digitizer,
/// InputDispatcher, the UI thread with unbuffered input, the front-buffer
/// renderer's thread, the GPU, and for the dry stroke the BufferQueue,
/// SurfaceFlinger and the display. The wet stroke never goes through
/// SurfaceFlinger once the front layer is on screen: each draw reaches the
/// eye when the scan-out next passes the pen's row (``ScanRace``), or, on
/// a composed front buffer, at the present of SurfaceFlinger's next latch.
struct FrontBufferedPipeline: PlatformPipeline {
    typealias Event = FrontBufferedEvent

    let configuration: PipelineConfiguration
    let timing: AndroidTiming
    let race: ScanRace
    let plane: FrontBufferPlane
    var rng: SeededRandom
    var digitizer: Digitizer
    var dispatch: InputDispatch
    var ui: InkUIThread
    /// The CPU's and GPU's ramp after idle (`device.idleRamp`; nil: none),
    /// owned here, and as the work stages and the event loop reach it.
    let rampOwner: FrequencyRamp?
    let ramp: Unowned<FrequencyRamp>?
    var renderer: FrontBufferRenderer
    var bufferQueue: BufferQueue
    var gpu = GPU<FrontGPUJob>()
    var gpuTime: DurationSampler
    var surfaceFlinger: SurfaceFlinger
    var display: Display<ShownFrame>
    var timeline: FrameTimeline
    var frames: FrameTable
    var measurement: Measurement
    /// Wet draws submitted to the GPU and not started, oldest first.
    var wetInFlight = Ring<WetSegment>()
    /// The wet draw the GPU is running, taken from ``wetInFlight`` when it
    /// starts (the GPU runs one job at a time, in submission order).
    var wetRunning: WetSegment?
    /// Dry commits on their way, by frame, oldest first.
    var dryInFlight = Ring<(frame: Int64, commit: DryCommit)>()
    var nextFrame: Int64 = 0
    var lastPresented: Int64 = -1
    var presentsOutOfOrder = 0
    var gpuJobsBeforeFence = 0
    var dropsSincePresent = 0
    var tornDraws = 0
    var composedDraws = 0
    var failure: LatsimError?
    let log: FrameLog?

    init(configuration c: PipelineConfiguration, trajectory: Trajectory, keepLog: Bool) {
        timing = c.androidTiming
        race = ScanRace(clock: c.vsyncClock, sfDuration: timing.sfDuration)
        plane = c.ink.frontBufferPlane
        rng = SeededRandom(seed: c.seed)
        digitizer = Digitizer(configuration: c, trajectory: trajectory)
        dispatch = InputDispatch(latency: c.android.dispatchLatency)
        ui = InkUIThread(configuration: c)
        renderer = FrontBufferRenderer(configuration: c)
        bufferQueue = BufferQueue(count: timing.buffers)
        frames = FrameTable(buffers: timing.buffers)
        gpuTime = DurationSampler(c.gpuRender)
        surfaceFlinger = SurfaceFlinger(configuration: c, sfDuration: timing.sfDuration)
        display = Display(present: c.present, clock: c.vsyncClock)
        timeline = FrameTimeline(displayHz: c.displayHz)
        measurement = Measurement(configuration: c, trajectory: trajectory, predicts: ui.predicts)
        rampOwner = FrequencyRamp.of(c)
        ramp = rampOwner.map { Unowned($0) }
        ui.handlerTime.ramp = ramp
        renderer.commandTime.ramp = ramp
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

    mutating func keepBudget() {
        measurement.keepBudget(BudgetRecorder(platform: .android, configuration: configuration))
    }

    mutating func keepScorecards(_ cards: PredictionScorecards) {
        measurement.platform = cards.isEmpty ? nil : PlatformScorecards(cards, trajectory: measurement.truth.trajectory)
        ui.stampsPredictions = !cards.isEmpty
    }

    mutating func usePredictor(_ p: some TouchPredictor) {
        ui.use(PredictorSlot(p))
        measurement.predicts = true
    }

    mutating func start(_ s: inout EventScheduler<Event>) {
        s.schedule(.presentVsync, at: display.firstLatch)
        s.schedule(.vsyncSf, at: surfaceFlinger.nextTick)
        s.schedule(.scanArrival, at: nextArrival)
    }

    var nextArrival: SimTime { dispatch.arrival(ofSampleReadyAt: digitizer.nextReady) }

    mutating func finishEvents(before end: SimTime, _ s: inout EventScheduler<Event>) {
        while digitizer.nextReady < end {
            s.handledWithin(.sampleReady)
            if scan(readyAt: digitizer.nextReady) != nil { dispatch.leftInTransit() }
        }
    }

    mutating func scan(readyAt ready: SimTime) -> Touch? {
        guard let touch = digitizer.scan(readyAt: ready) else { return nil }
        log?.scans.append(.init(windowStart: touch.windowStart, windowEnd: digitizer.lastWindow.upperBound,
                                instant: touch.time, ready: ready, index: touch.scan))
        return touch
    }

    mutating func handle(_ event: Event, payload: UInt8, _ s: inout EventScheduler<Event>) {
        let now = s.now
        ramp?.with { $0.now = now }
        switch event {
        case .scanArrival:
            s.handledWithin(.sampleReady)
            if let touch = scan(readyAt: digitizer.nextReady) {
                s.handledWithin(.inputChannel)
                log?.android?.arrivals.append(.init(scan: touch.scan, ready: touch.ready, arrival: now, down: touch.began,
                                                     lifted: touch.lifted, position: touch.position))
                ui.receive(.touch(touch, arrived: now))
            } else if let lift = digitizer.lift {
                // the scan saw the pen up: ACTION_UP reaches the app with it
                digitizer.lift = nil
                s.handledWithin(.inputChannel)
                log?.android?.lifts.append(now)
                ui.receive(.lift(instant: lift.instant, seen: lift.seen, arrived: now))
            }
            if !ui.busy { startHandler(now, &s) }
            s.schedule(.scanArrival, at: nextArrival)

        case .sampleReady, .inputChannel:
            preconditionFailure("a scan and its arrival are one event, scanArrival")

        case .uiWorkDone:
            if let w = ui.wet { renderer.receive(.wet(w)) }
            if let d = ui.dry { renderer.receive(.dry(d)) }
            ui.finish()
            startRender(now, &s)
            startHandler(now, &s)

        case .renderDone:
            renderDone(now, &s)

        case .gpuDone:
            let (done, nextEnd) = gpu.complete(now: now)
            // the draw that ended is taken before the next job starts (a wet job after a wet one)
            let drawn = done.dry ? nil : wetRunning.take()
            if let nextEnd { gpuStarted(now, nextEnd, &s) }
            if done.dry {
                if frames[done.frame].seq == done.frame { frames[done.frame].gpuDone = now }
            } else {
                wetDrawn(drawn.unsafelyUnwrapped, end: now)
            }

        case .compositionDone:
            frames[surfaceFlinger.compositionDone()].composed = true

        case .presentVsync:
            s.schedule(.presentVsync, at: display.nextLatch())
            if let seq = surfaceFlinger.presentable(now: now, frames) {
                present(seq, now, &s)
            } else if let front = display.front {
                let owed = display.repeatFront(pending: timeline.hasFrameInFlight, due: timeline.owes(at: now))
                log?.android?.presents.append(.init(time: now, frame: front.seq, buffer: front.buffer, repeated: true,
                                                    hitch: owed, measured: false))
            }

        case .vsyncSf:
            let vsync = surfaceFlinger.tick()
            s.schedule(.vsyncSf, at: surfaceFlinger.nextTick)
            log?.android?.sfTicks.append(now)
            latch(vsync, now, &s)
        }
    }

    /// The touch handler runs now on the input waiting, if the thread is idle.
    mutating func startHandler(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        guard !ui.busy, let run = ui.begin(now: now, rng: &rng) else { return }
        for i in 0..<ui.justDrawn.count { measurement.drew(ui.justDrawn[i]) }
        if ui.predicts && !ui.justDrawn.isEmpty { measurement.predicted(run.prediction, strokeBegan: run.strokeBegan) }
        s.schedule(.uiWorkDone, at: run.end)
        log?.android?.uiWork.append(.init(start: now, end: run.end, kind: .inkEvent, frame: -1, frameTime: -1,
                                          newestScan: ui.wet?.newest.scan ?? -1))
    }

    /// The renderer's thread starts its next request now, if it can.
    mutating func startRender(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        guard let r = renderer.next() else { return }
        switch r {
        case .wet(var w):
            w.renderStart = now
            renderer.update(.wet(w))
            s.schedule(.renderDone, at: now + renderer.commandTime.draw(&rng))
        case .dry(let d):
            // the multi-buffered layer's frame: it takes a buffer first
            let seq = nextFrame
            nextFrame += 1
            frames.begin(AndroidFrame(seq: seq, content: nil, frameTime: now, expected: -1, deadline: -1, renderStart: -1))
            timeline.begin(seq: seq, expected: -1)
            dryInFlight.append((seq, d))
            log?.android?.dryCommits.append(.init(lift: d.lift, seen: d.seen, posted: d.posted, frame: seq))
            if let b = bufferQueue.dequeue(now: now) { dryGotBuffer(b, now, &s) }
        }
    }

    /// The dry frame's dequeue got a buffer now: its commands run.
    mutating func dryGotBuffer(_ b: (id: Int32, fence: ReleaseFence), _ now: SimTime, _ s: inout EventScheduler<Event>) {
        let seq = dryInFlight.last!.frame
        frames[seq].renderStart = now
        frames[seq].buffer = b.id
        frames[seq].bufferFence = b.fence
        s.schedule(.renderDone, at: now + renderer.commandTime.draw(&rng))
    }

    /// The renderer's commands are done now.
    mutating func renderDone(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        switch renderer.finish() {
        case .wet(var w):
            w.submitted = now
            wetInFlight.append(w)
            let job = FrontGPUJob(dry: false, frame: w.content, buffer: -1, submitted: now)
            if let end = gpu.submit(job, duration: gpuTime.draw(&rng), now: now) { gpuStarted(now, end, &s) }
        case .dry:
            let seq = dryInFlight.last!.frame
            frames[seq].queued = now
            bufferQueue.enqueue(seq)
            log?.android?.renderWork.append(.init(requested: frames[seq].frameTime, start: frames[seq].renderStart, queued: now,
                                                  frame: seq, buffer: frames[seq].buffer))
            let job = FrontGPUJob(dry: true, frame: seq, buffer: frames[seq].buffer, submitted: now)
            if let end = gpu.submit(job, duration: gpuTime.draw(&rng), now: now, fence: frames[seq].bufferFence) {
                gpuStarted(now, end, &s)
            }
        }
        startRender(now, &s)
    }

    /// A GPU job started now and ends at `end`.
    mutating func gpuStarted(_ now: SimTime, _ end: SimTime, _ s: inout EventScheduler<Event>) {
        if let w = gpu.running {
            if w.job.dry {
                if w.fence.signalsAt > lastPresented { gpuJobsBeforeFence += 1 }
                if frames[w.job.frame].seq == w.job.frame { frames[w.job.frame].gpuStart = now }
                log?.android?.gpuJobs.append(.init(submitted: w.job.submitted, start: now, end: end, frame: w.job.frame,
                                                   buffer: w.job.buffer))
            } else {
                // wet jobs run in the order they were submitted: the one starting is the oldest waiting
                var w = wetInFlight.removeFirst()
                w.gpuStart = now
                wetRunning = w
            }
        }
        s.schedule(.gpuDone, at: end)
    }

    /// A wet draw's GPU job ended at `end`: its segment is in the front
    /// buffer. It reaches the eye at the scan-out's next pass over its row
    /// (from the vsync the layer is on screen), or through SurfaceFlinger.
    mutating func wetDrawn(_ w: WetSegment, end: SimTime) {
        let penRow = measurement.ink!.rowOffset(w.newest.position.y)
        var torn = false
        var composed: Bool
        let from: SimTime
        switch plane {
        case .composition:
            // composed by SurfaceFlinger's GPU at its first latch after the draw: read whole, never torn
            from = race.composedPresent(readyAt: end)
            composed = true
        case .overlay:
            // a pass while the GPU drew the segment, with the layer on screen, tears
            if renderer.shownFrom != .max {
                torn = race.tears(start: w.gpuStart, end: end, row: penRow, from: renderer.shownFrom)
            }
            // the layer hidden: this draw's transaction shows it at SurfaceFlinger's next latch
            if renderer.shownFrom == .max { renderer.shownFrom = race.composedPresent(readyAt: end) }
            from = renderer.shownFrom
            composed = end <= from
        }
        if torn { tornDraws += 1 }
        if composed { composedDraws += 1 }
        let measureRow = measurement.geometry.rowOffset ?? penRow
        let vsync = race.passVsync(atOrAfter: end, row: measureRow, from: from)
        let measured = measurement.frontDrawShown(race: race, drawEnd: end, from: from, vsync: vsync, content: w.content,
                                                  newest: w.newest, drawnTouches: w.drawnSamples, drawn: w.drawn,
                                                  horizon: w.horizon)
        let inkPass = race.pass(atOrAfter: end, row: penRow, from: from)
        measurement.inkShown(newest: w.newest, photon: inkPass + measurement.geometry.panelResponse, drawn: w.drawn)
        if measured && measurement.budget != nil { splitBudget(w, end: end, composedUntil: composed ? from : end) }
        if let log {
            log.android?.frontDraws.append(.init(draw: w.content, posted: w.posted, renderStart: w.renderStart,
                                                 submitted: w.submitted, gpuStart: w.gpuStart, gpuEnd: end,
                                                 newestScan: w.newest.scan, penY: w.newest.position.y, rowOffset: penRow,
                                                 shownFrom: from, pass: inkPass, composed: composed, torn: torn))
            var r = FrameRecord(vsync: vsync, frame: w.content, kind: measured ? .new : .old, hitch: false, dropped: 0,
                                buffersHeld: bufferQueue.heldCount, touchScan: w.newest.scan, touchTime: w.newest.time,
                                photon: measurement.measuredPhoton, pipelineFrames: nil, stageOffset: -1)
            if measured { r.pipelineFrames = measurement.geometry.pipelineFrames(latch: vsync, windowStart: w.newest.windowStart) }
            log.record(r, stages: measured ? measurement.budget?.currentStages : nil)
        }
    }

    /// The stage budget of a wet draw (Docs/Budget.md, "A front-buffered
    /// app"): the chain from the newest sample's instant through its
    /// window's end, ready, the channel, the touch handler, the renderer's
    /// thread, the GPU, the present that showed the layer (composed, or a
    /// layer not yet on screen) and the scan-out's pass to the photons.
    mutating func splitBudget(_ w: WetSegment, end: SimTime, composedUntil: SimTime) {
        guard let recorder = measurement.budgetRecorder else { return }
        let t = w.newest
        let photon = measurement.measuredPhoton
        let panel = measurement.geometry.panelResponse
        recorder.with { b in
            var chain = b.chain(from: t.time)
            chain.until(b.windowEnd(of: t))
            chain.until(t.ready)
            chain.until(w.arrived)
            chain.until(w.uiStart)
            chain.until(w.posted)
            chain.until(w.renderStart)
            chain.until(w.submitted)
            chain.until(w.gpuStart)
            chain.until(end)
            chain.until(composedUntil)
            chain.until(photon - panel)
            chain.until(photon)
            b.end(chain, total: photon - t.time)
        }
    }

    /// vsync-sf now, targeting `vsync`: SurfaceFlinger latches a queued dry
    /// frame (as on the Android pipeline), releases the buffer latched
    /// before, and composes.
    mutating func latch(_ vsync: SimTime, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        switch surfaceFlinger.decide(bufferQueue.queue, frames, now: now, vsync: vsync) {
        case .none:
            return
        case .backPressure:
            log?.android?.skips.append(.init(time: now))
        case .latch(let index):
            var handed: (id: Int32, fence: ReleaseFence)?
            for _ in 0..<index {
                let d = bufferQueue.acquire()
                timeline.dropped(seq: d)
                dropsSincePresent += 1
                if let h = bufferQueue.release(frames[d].buffer, fence: .signalled, now: now) { handed = h }
            }
            let seq = bufferQueue.acquire()
            let l = surfaceFlinger.latch(seq, buffer: frames[seq].buffer, now: now, target: vsync, rng: &rng)
            frames[seq].latched = now
            frames[seq].previousLatch = l.previousLatch
            if let r = l.released {
                if let h = bufferQueue.release(r.buffer, fence: ReleaseFence(signalsAt: seq), now: now) { handed = h }
            }
            guard let compositionEnd = l.compositionEnd else {
                failure = LatsimError(key: "android.sfCompose", value: configuration.android.sfCompose.description,
                                      problem: "drew \(DurationSyntax.format(surfaceFlinger.badComposition ?? 0)), which reaches the display period: SurfaceFlinger's composition must fit in its period",
                                      expected: "a distribution whose every draw is below T")
                s.removeAll()
                return
            }
            s.schedule(.compositionDone, at: compositionEnd)
            log?.android?.latches.append(.init(time: now, compositionEnd: compositionEnd, frame: seq, buffer: frames[seq].buffer))
            // only a dry frame dequeues: a buffer handed to a waiting dequeue is its
            if let h = handed { dryGotBuffer(h, now, &s) }
        }
    }

    /// The present vsync shows dry frame `seq` now: the dry stroke is on
    /// screen, and the same transaction hides the front layer.
    mutating func present(_ seq: Int64, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        _ = display.show(ShownFrame(seq: seq, buffer: frames[seq].buffer))
        if seq <= lastPresented { presentsOutOfOrder += 1 }
        lastPresented = seq
        if let end = gpu.signal(through: seq, now: now) { gpuStarted(now, end, &s) }
        let jank = timeline.presented(seq, expected: -1, jank: timeline.classify(
            expected: -1, deadline: -1, previousLatch: frames[seq].previousLatch,
            end: Swift.max(frames[seq].queued, frames[seq].gpuDone), present: now), now: now)
        while let d = dryInFlight.first, d.frame <= seq {
            _ = dryInFlight.removeFirst()
            guard d.frame == seq else { continue }
            let y = d.commit.last.position.y
            measurement.frameToPhoton(latch: now, y: y, frameStart: frames[seq].frameTime)
            measurement.ink!.dryCommitted(lift: d.commit.lift, photon: measurement.ink!.photon(vsync: now, y: y))
        }
        renderer.shownFrom = .max
        renderer.dryInFlight = false
        if let log {
            log.android?.presents.append(.init(time: now, frame: seq, buffer: frames[seq].buffer, repeated: false, hitch: false,
                                               measured: false))
            let f = frames[seq]
            log.android?.frames.append(.init(seq: f.seq, frameTime: f.frameTime, expected: -1, deadline: -1, queued: f.queued,
                                             gpuDone: f.gpuDone, latched: f.latched, presented: now, buffer: f.buffer,
                                             jank: jank, content: -1, newestScan: -1, windowStart: 0, physicalTime: 0,
                                             resampled: .none))
            log.record(FrameRecord(vsync: now, frame: seq, kind: .old, hitch: false, dropped: dropsSincePresent,
                                   buffersHeld: bufferQueue.heldCount, touchScan: -1, touchTime: 0, photon: 0,
                                   pipelineFrames: nil, stageOffset: -1))
        }
        dropsSincePresent = 0
        startRender(now, &s)
    }

    func tripleBufferedTime(until end: SimTime) -> SimTime { 0 }

    /// Every kind of a front-buffered run is its own.
    func reports(_ kind: FrontBufferedEvent) -> Bool { true }

    mutating func finish(into m: inout Measurements) -> InvariantChecks {
        measurement.finish(into: &m)
        m.count(display: display, droppedFrames: timeline.counts[.dropped], digitizer: digitizer,
                work: (ui.handlerRuns, ui.handlerRuns, renderer.merged))
        m.ink?.wetDraws = renderer.wetDraws
        m.ink?.tornDraws = tornDraws
        m.ink?.composedDraws = composedDraws
        var a = AndroidMeasurements()
        a.appDuration = timing.appDuration
        a.sfDuration = timing.sfDuration
        a.buffers = timing.buffers
        a.frameTimeline = configuration.android.version.hasFrameTimeline ? timeline.counts : nil
        a.maxBuffersHeld = bufferQueue.maxHeld
        a.dequeueWaits = bufferQueue.dequeueWaits
        a.dequeueWaitTime = bufferQueue.dequeueWaitTime
        a.fenceWaits = gpu.fenceWaits
        a.fenceWaitTime = gpu.fenceWaitTime
        a.maxQueued = bufferQueue.maxQueued
        a.maxLatchedPending = surfaceFlinger.maxLatchedPending
        a.backPressureSkips = surfaceFlinger.backPressureSkips
        m.android = a
        var checks = InvariantChecks()
        checks.budgetMismatches = m.budget?.mismatches ?? 0
        checks.latchesOutOfCommitOrder = presentsOutOfOrder
        checks.samplesOutOfOrder = ui.outOfOrder
        var waiting = 0
        for i in 0..<ui.waiting.count { if case .touch = ui.waiting[i] { waiting += 1 } }
        checks.samplesLost = digitizer.touchesMade - ui.taken - waiting - dispatch.count
        checks.policyMaximum = timing.buffers
        checks.maxBuffersHeld = bufferQueue.maxHeld
        checks.maxBuffersAllocated = timing.buffers
        checks.bufferConflicts = bufferQueue.conflicts
        checks.gpuJobsBeforeFence = gpuJobsBeforeFence
        checks.presentsBeforeExpected = timeline.early
        return checks
    }
}
