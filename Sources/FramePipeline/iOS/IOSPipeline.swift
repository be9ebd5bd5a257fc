import SimKernel
import TouchModel

/// The iOS pipeline's events. At equal times they happen in the order of
/// ``tieRank`` (Docs/Model.md, "Time"): everything that completes at t is
/// visible to every decision made at t.
public enum IOSEvent: UInt8, SimulationEvent {
    /// A GPU job is done.
    case gpuDone
    /// The render server's prepare is done.
    case prepareDone
    /// The display's vsync latch.
    case latch
    /// The app commits a transaction.
    case commit
    /// A digitizer sample is ready. Under coalesced delivery scans are
    /// handled when their touches are needed (Docs/Engine.md, "Events
    /// handled within another"), not as events of their own.
    case sampleReady
    /// The render server's vsync wake. It is at the latch's vsync and is
    /// handled within the latch (Docs/Engine.md, "Events handled within
    /// another"); it is an event of its own only when an event of a lower
    /// rank waits at that instant.
    case renderServerWake
    /// A per-scan delivery of touches (`os.delivery: perScan`).
    case delivery
    /// A frame start (`os.delivery: coalesced`): the coalesced touches go
    /// to an idle app. Periodic, so a clock; the one-off per-scan delivery
    /// is a kind of its own. At the vsync itself (`os.dispatchDelay: 0`) it
    /// is handled within the latch, like the render server's wake.
    case frameStart
    /// The app changes what it shows on its own (`app.updates: blink`,
    /// WALT's screen test, ``Blinker``); drawn at the next frame start. A
    /// model event reported only by runs that can have it.
    case appUpdate
    /// The display's rate policy (``DisplayRate``): a timer expires, a
    /// delayed touch boost arrives, or a rate switch takes effect; payload
    /// ``DisplayRate/Timer``. After every other event of its instant.
    /// Reported only by a display that changes its rate.
    case displayTimer

    /// The order at equal times (1 first).
    public var tieRank: UInt8 {
        switch self {
        case .gpuDone: return 1
        case .prepareDone: return 2
        case .latch: return 3
        case .commit: return 4
        case .sampleReady, .appUpdate: return 5
        case .renderServerWake: return 6
        case .delivery, .frameStart: return 7
        case .displayTimer: return 8
        }
    }

    /// The periodic sources (Docs/Engine.md): the vsync latch, the scan
    /// and the frame start.
    public var clock: Int {
        switch self {
        case .latch: return 0
        case .sampleReady: return 1
        case .frameStart: return 2
        case .gpuDone, .prepareDone, .commit, .delivery, .renderServerWake, .appUpdate, .displayTimer: return -1
        }
    }

    /// Three clocks.
    public static var clocks: Int { 3 }

    /// The name in JSON and traces.
    public var name: String {
        switch self {
        case .gpuDone: return "gpuDone"
        case .prepareDone: return "prepareDone"
        case .latch: return "latch"
        case .commit: return "commit"
        case .sampleReady: return "sampleReady"
        case .renderServerWake: return "renderServerWake"
        case .delivery: return "delivery"
        case .frameStart: return "frameStart"
        case .appUpdate: return "appUpdate"
        case .displayTimer: return "displayTimer"
        }
    }
}

/// The iOS pipeline of the talk (Docs/Model.md): the stages wired output
/// to input. Each stage owns its state and says what it produced; this
/// type only passes a stage's output to the next stage and schedules the
/// events that follow. Docs/FollowingOneTouch.md walks a touch through it.
struct IOSPipeline: PlatformPipeline {
    typealias Event = IOSEvent

    /// What the run reads of its configuration as it goes. The model does
    /// not keep the configuration itself (about 1 KB and some 30
    /// references, copied into every run's model and released after).
    let facts: Facts

    struct Facts {
        let metalDirect: Bool
        let widthPoints, heightPoints: Double
        let touches: TouchUse
        let dispatchDelay, duration: SimTime
        let displayHz: Rational
        let vsyncClock: PeriodicClock
        let switchGrid: SwitchGrid
        let switchVsyncs: Int

        init(_ c: borrowing PipelineConfiguration) {
            metalDirect = c.metalDirect
            (widthPoints, heightPoints) = (c.widthPoints, c.heightPoints)
            touches = c.touches
            (dispatchDelay, duration) = (c.dispatchDelay, c.duration)
            (displayHz, vsyncClock) = (c.displayHz, c.vsyncClock)
            (switchGrid, switchVsyncs) = (c.rate.switchGrid, c.rate.switchVsyncs)
        }
    }

    /// Every duration drawn in the run comes from this generator, in event order.
    var rng: SeededRandom
    var digitizer: Digitizer
    var delivery: TouchDelivery
    var app: App
    /// The CPU's and GPU's ramp after idle (`device.idleRamp`; nil: none),
    /// owned here, and as the work stages and the event loop reach it.
    let rampOwner: FrequencyRamp?
    let ramp: Unowned<FrequencyRamp>?
    var renderServer: RenderServer
    var gpu = GPU<Frame>()
    var metalLayer = MetalLayer()
    var buffers: BufferPool
    var display: Display<Frame>
    var measurement: Measurement
    var invariants = InvariantChecks()
    /// Frames are numbered in the order they are made, on every path.
    var nextFrameID: Int64 = 0
    /// The scan of the newest commit latched (latches follow commit order).
    var lastLatchedCommit: Int64 = -1
    /// The scan of the newest touch ready so far (-1: none): a repeated vsync
    /// while the front frame shows an older one had something new to show.
    var newestScanReady: Int64 = -1
    /// The commits from the front frame's on, which frames name by number.
    var commits = CommitTable()
    /// With the stage budget kept: the instants of every commit not yet
    /// rendered and of every frame not yet latched (``BudgetStamps``).
    var stamps = BudgetStamps()
    /// The app's response to force; nil when it does not use force.
    let force: ForceResponse?
    let log: FrameLog?
    /// Scans are handled when their touches are needed, not as events:
    /// under coalesced delivery nothing reads what a scan produces but the
    /// frame start and the latch (``scansReady(before:rank:_:)``).
    let scansOnDemand: Bool
    /// Frame starts are at the vsyncs (coalesced, no dispatch delay): each
    /// is handled within the latch at its vsync when nothing waits before
    /// it, else scheduled there, at the vsync.
    let frameStartsAtVsync: Bool
    /// WALT's screen test (`app.updates: blink`): the app changes its
    /// colour on its own, timed from the photodiode (``Blinker``).
    let blinks: Bool
    var blinker: Blinker
    /// A change made and not yet handed to the app (the next frame start does).
    var blinkPending = false
    /// The change, as the one touch of the handler run that draws it.
    var blinkTouch = Ring<Touch>()
    /// A display that changes its rate (`display.minHz`, ProMotion): its
    /// policy, and the rate the measurement's geometry follows.
    let switching: Bool
    var rate: DisplayRate
    var geometryHz: Rational
    /// Mid-frame event processing's lead (`app.midFrameLead`; nil: off).
    let midFrameLead: SimTime?
    /// With a mid-frame read: each handler run's end, by run, until its
    /// commit's frame is split into stages.
    var midFrameHandlerEnds = Ring<(run: Int64, end: SimTime)>()

    init(configuration c: borrowing PipelineConfiguration, trajectory: Trajectory, keepLog: Bool) {
        rng = SeededRandom(seed: c.seed)
        digitizer = Digitizer(configuration: c, trajectory: trajectory)
        delivery = TouchDelivery(configuration: c)
        app = App(configuration: c)
        renderServer = RenderServer(configuration: c)
        buffers = BufferPool(policy: c.buffering, releaseFrames: c.tripleReleaseFrames)
        display = Display(present: c.present, clock: c.vsyncClock)
        measurement = Measurement(configuration: c, trajectory: trajectory, predicts: app.predicts)
        invariants.policyMaximum = buffers.policyMaximum
        log = keepLog ? FrameLog() : nil
        force = c.force.isUsed ? ForceResponse(configuration: c, trajectory: trajectory, keepLog: keepLog) : nil
        log?.force = force?.log
        scansOnDemand = c.delivery == .coalesced
        frameStartsAtVsync = c.delivery == .coalesced && c.dispatchDelay == 0
        blinks = c.blinks
        blinker = Blinker(configuration: c)
        switching = c.rate.switches
        rate = DisplayRate(configuration: c)
        geometryHz = c.displayHz
        midFrameLead = c.ink.midFrameLead
        rampOwner = FrequencyRamp.of(c)
        ramp = rampOwner.map { Unowned($0) }
        app.handlerTime.ramp = ramp
        app.metalTime.ramp = ramp
        renderServer.gpuTime.ramp = ramp
        facts = Facts(c)
    }

    /// The kinds only some runs have are reported by those.
    func reports(_ kind: IOSEvent) -> Bool {
        switch kind {
        case .appUpdate: return blinks
        case .displayTimer: return switching
        default: return true
        }
    }

    /// Installs a predictor in the app (a user's own, or a built-in).
    mutating func usePredictor(_ p: some TouchPredictor) {
        app.use(PredictorSlot(p))
        measurement.predicts = true
        force?.dropPredictor()
    }

    /// Splits every measured frame into stages (``StageBudget``) of a run
    /// of `c` (the run's configuration).
    mutating func keepBudget(_ c: borrowing PipelineConfiguration) {
        measurement.keepBudget(BudgetRecorder(platform: .ios, configuration: c))
        stamps.keep()
    }

    /// Keeps the platforms' prediction scorecards too.
    mutating func keepScorecards(_ cards: PredictionScorecards) {
        measurement.platform = cards.isEmpty ? nil : PlatformScorecards(cards, trajectory: measurement.truth.trajectory)
        app.stampsPredictions = !cards.isEmpty
    }

    func start(_ s: inout EventScheduler<Event>) {
        s.schedule(.latch, at: display.firstLatch)
        if !frameStartsAtVsync, let f = delivery.firstFrameStart { s.schedule(.frameStart, at: f) }
        if !scansOnDemand { s.schedule(.sampleReady, at: digitizer.nextReady) }
        if blinks { s.schedule(.appUpdate, at: Blinker.first) }
    }

    /// The scans ready before the run's end.
    mutating func finishEvents(before end: SimTime, _ s: inout EventScheduler<Event>) {
        scansReady(before: end, rank: 0, &s)
    }

    @inline(__always)
    mutating func handle(_ event: Event, payload: UInt8, _ s: inout EventScheduler<Event>) {
        let now = s.now
        ramp?.with { $0.now = now }
        switch event {
        case .sampleReady:
            scan(readyAt: now, &s)
            s.schedule(.sampleReady, at: digitizer.nextReady)
            requestPerScanDelivery(&s)

        case .frameStart:
            if !frameStartsAtVsync { s.schedule(.frameStart, at: delivery.nextFrameStart()) }
            frameStart(now, &s)

        case .delivery:
            delivery.perScanServed()
            if !app.busy && delivery.hasWaiting { deliver(now, &s) }

        case .commit:
            if midFrameLead != nil { midFrameRead(now, &s) }
            // made in its place in the table: built elsewhere and copied, its
            // last fields were read back before their stores were done
            let (made, c) = commits.make { app.commit(at: now, rng: &rng, into: $0) }
            let waiting = RenderServer.Waiting(seq: c.value.seq, handlerRun: c.value.handlerRun, isLastOfRun: c.value.isLastOfRun)
            // the app's activity: the display's dwell restarts
            if switching && rate.activity(at: now, &s, kind: .displayTimer) { evaluateRate(now, &s) }
            log?.commits.append(.init(time: now, seq: waiting.seq, mainTouch: c.value.mainTouch.scan))
            if let force, let end = force.committed(run: waiting.handlerRun, now: now) { renderServer.animate(until: end) }
            if let metal = made.metalGPU {
                if facts.metalDirect {
                    submitMetalDirect(commit: waiting.seq, gpu: metal, now, &s)
                } else {
                    // through Core Animation: the Metal job joins the GPU queue
                    // now; the render-server frame of this commit runs after it
                    submitGPU(Frame(id: -1, commit: waiting.seq, path: .metalWithCoreAnimation, buffer: -1), duration: metal, now, &s)
                    commitToRenderServer(waiting, now, &s)
                }
            } else {
                commitToRenderServer(waiting, now, &s)
            }
            if let next = made.nextCommit {
                s.schedule(.commit, at: next)
            } else {
                requestPerScanDelivery(&s)
            }

        case .renderServerWake:
            renderServerWake(now, &s)

        case .displayTimer:
            if rate.timer(payload, at: now, &s, kind: .displayTimer) { evaluateRate(now, &s) }

        case .appUpdate:
            guard blinker.isDue(at: now) else { break }
            s.schedule(.appUpdate, at: blinker.make(at: now))
            blinkPending = true

        case .prepareDone:
            let (frame, gpuTime) = renderServer.finishPrepare(rng: &rng)
            submitGPU(frame, duration: gpuTime, now, &s)
            if renderServer.lowLatency(at: now) { tryStartRender(now, &s) }

        case .gpuDone:
            let started = gpu.runningSince
            let (done, nextEnd) = gpu.complete(now: now)
            if stamps.isKept && done.id >= 0 { stamps.gpuRan(buffer: done.buffer, from: started, to: now) }
            if let nextEnd {
                logGPUStart(now)
                s.schedule(.gpuDone, at: nextEnd)
            }
            if done.path != .metalWithCoreAnimation { display.completed(done) }

        case .latch:
            scansReady(before: now, rank: IOSEvent.latch.tieRank, &s)
            if switching && display.vsyncs.hz != geometryHz {
                geometryHz = display.vsyncs.hz
                measurement.geometry.setRate(geometryHz)
            }
            s.schedule(.latch, at: display.nextLatch())
            latch(now, &s)
            // the render server wakes at the same vsync, after every event
            // that comes before it at this instant: now, unless one waits
            if s.handleNow(.renderServerWake) { renderServerWake(now, &s) }
            // the frame start at this vsync comes next, unless something
            // waits before it (a wake deferred above among them)
            if frameStartsAtVsync && s.handleNow(.frameStart) { frameStart(now, &s) }
        }
    }

    /// A frame start: the touches ready by now go to the app if it is idle.
    @inline(__always)
    mutating func frameStart(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        scansReady(before: now, rank: IOSEvent.frameStart.tieRank, &s)
        if !app.busy && (delivery.hasWaiting || blinkPending) {
            if delivery.hasWaiting { deliver(now, &s) } else { deliverBlink(now, &s) }
        }
    }

    /// The app draws its latest change (a display-link callback): a handler
    /// run whose one "touch" is the change, at its instant.
    @inline(never)
    mutating func deliverBlink(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        blinkPending = false
        let made = blinker.madeAt
        blinkTouch.removeAll()
        blinkTouch.append(Touch(scan: blinker.count - 1, time: made, windowStart: made, ready: made,
                                position: TouchPoint(x: facts.widthPoints / 2, y: facts.heightPoints / 2),
                                began: false))
        let run = app.beginHandler(blinkTouch, now: now, rng: &rng)
        log?.handlers.append(.init(start: now, end: run.end, run: app.run, mainTouch: blinker.count - 1))
        s.schedule(.commit, at: run.firstCommit)
    }

    /// The render server's vsync wake.
    @inline(__always)
    mutating func renderServerWake(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        tryStartRender(now, &s)
        buffers.atVsync(now)
        log?.bufferSamples.append(.init(time: now, held: buffers.held, allocated: buffers.allocated))
    }

    // MARK: wiring

    /// The digitizer's scan whose touch is ready at `now`.
    @inline(__always)
    mutating func scan(readyAt now: SimTime, _ s: inout EventScheduler<Event>) {
        if let touch = digitizer.scan(readyAt: now) {
            newestScanReady = touch.scan
            if switching { touched(s.now, &s) }
            delivery.receive(touch)
            log?.scans.append(.init(windowStart: touch.windowStart, windowEnd: digitizer.lastWindow.upperBound,
                                    instant: touch.time, ready: now, index: touch.scan))
        }
    }

    /// With scans on demand, the scans an event of tie rank `rank` at `now`
    /// comes after: those ready before `now`, and at `now` when the scan's
    /// rank is lower. Each is handled as its event would have been, in
    /// order (nothing between reads what a scan produces), and counted.
    @inline(__always)
    mutating func scansReady(before now: SimTime, rank: UInt8, _ s: inout EventScheduler<Event>) {
        guard scansOnDemand else { return }
        let scanRank = IOSEvent.sampleReady.tieRank
        while digitizer.nextReady < now || (digitizer.nextReady == now && scanRank < rank) {
            s.handledWithin(.sampleReady)
            scan(readyAt: digitizer.nextReady, &s)
        }
    }

    /// `perScan`: a delivery now, once, when the app is idle and touches wait.
    @inline(__always)
    mutating func requestPerScanDelivery(_ s: inout EventScheduler<Event>) {
        if delivery.wantsPerScanDelivery(appIdle: !app.busy) { s.schedule(.delivery, at: s.now) }
    }

    /// Hands the waiting touches to the app's touch handler.
    mutating func deliver(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        // the touches are read in place: a copy would make the delivery's
        // queue copy itself when it is emptied
        let run = app.beginHandler(delivery.waiting, now: now, rng: &rng)
        measurement.drew(delivery.waiting, use: facts.touches)
        if app.predicts { measurement.predicted(run.prediction, strokeBegan: run.strokeBegan) }
        force?.delivered(delivery.waiting, run: app.run, now: now)
        if let log {
            let first = delivery.waiting.first!.scan, last = delivery.waiting.last!.scan
            log.deliveries.append(.init(time: now, first: first, last: last, count: delivery.waiting.count))
            log.handlers.append(.init(start: now, end: run.end, run: app.run, mainTouch: last))
        }
        delivery.handedOver()
        if let lead = midFrameLead {
            // the commit waits for the late read (Docs/Ink.md, "Mid-frame input")
            midFrameHandlerEnds.append((app.run, run.end))
            s.schedule(.commit, at: midFrameCommit(lead: lead, delivered: now, handlerEnd: run.end))
        } else {
            s.schedule(.commit, at: run.firstCommit)
        }
    }

    /// A commit reaches the render server.
    mutating func commitToRenderServer(_ c: RenderServer.Waiting, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        renderServer.receive(c)
        if renderServer.lowLatency(at: now) { tryStartRender(now, &s) }
    }

    /// The render server starts preparing the waiting commit when it is idle
    /// and a buffer can be had.
    ///
    /// Asked two or three times a frame and mostly answered no: the test is
    /// inlined where it is asked, the start is a call.
    @inline(__always)
    mutating func tryStartRender(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        if renderServer.wantsToStart { startRender(now, &s) }
    }

    /// ``tryStartRender(_:_:)`` once a commit waits and the server is idle.
    mutating func startRender(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        guard let buffer = buffers.acquire(at: now) else { return }
        let (frame, done) = renderServer.start(frame: nextFrameID, buffer: buffer, now: now, rng: &rng)
        nextFrameID += 1
        if stamps.isKept { stamps.began(frame.id, buffer: buffer, prepareStart: now) }
        log?.prepares.append(.init(start: now, end: done, frame: frame.id, commitSeq: frame.commit, buffer: buffer))
        s.schedule(.prepareDone, at: done)
    }

    /// A Metal frame presented straight to the display takes a drawable now,
    /// or waits for one.
    mutating func submitMetalDirect(commit seq: Int64, gpu: SimTime, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        var frame = Frame(id: nextFrameID, commit: seq, path: .metal, buffer: -1)
        nextFrameID += 1
        if let b = buffers.acquire(at: now) {
            frame.buffer = b
            if stamps.isKept { stamps.began(frame.id, buffer: b, prepareStart: -1) }
            submitGPU(frame, duration: gpu, now, &s)
        } else {
            metalLayer.waitForDrawable(frame, gpu: gpu)
        }
    }

    /// A job joins the GPU's queue.
    mutating func submitGPU(_ frame: Frame, duration: SimTime, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        if stamps.isKept && frame.id >= 0 { stamps.submitted(buffer: frame.buffer, at: now) }
        if let end = gpu.submit(frame, duration: duration, now: now) {
            logGPUStart(now)
            s.schedule(.gpuDone, at: end)
        }
    }

    func logGPUStart(_ now: SimTime) {
        guard let log, let w = gpu.running else { return }
        log.gpuJobs.append(.init(start: now, end: now + w.duration, frame: w.job.id, commitSeq: w.job.commit,
                                 metal: w.job.path != .renderServer, buffer: w.job.buffer))
    }

    /// A display buffer is free again; a Metal frame waiting for a drawable
    /// takes it.
    @inline(__always)
    mutating func releaseBuffer(_ id: Int8, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        buffers.release(id)
        if var waiting = metalLayer.nextWaiting(), let b = buffers.acquire(at: now) {
            waiting.frame.buffer = b
            if stamps.isKept { stamps.began(waiting.frame.id, buffer: b, prepareStart: -1) }
            submitGPU(waiting.frame, duration: waiting.gpu, now, &s)
        }
    }

    /// The vsync latch: a completed frame becomes the front buffer, or the
    /// front frame repeats.
    mutating func latch(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        guard let frame = display.frameToLatch() else {
            if let front = display.front {
                // something new to show: a touch ready or a commit made that is newer
                // than the front frame's; due (a hitch) when that newer commit was
                // made before this vsync
                let committed = app.commitsMade - 1 > front.commit
                let owed = display.repeatFront(pending: committed || newestScanReady > commits[front.commit].mainTouch.scan,
                                               due: committed)
                if let log {
                    log.latches.append(.init(time: now, frame: front.id, commitSeq: front.commit, mainTouch: commits[front.commit].mainTouch.scan,
                                             buffer: front.buffer, repeated: true, hitch: owed, measured: false))
                    log.record(record(front, .repeated, hitch: owed, dropped: 0, now))
                }
            }
            return
        }
        var dropped = 0
        while let old = display.dropOlder() {
            log?.drops.append(.init(time: now, frame: old.id))
            dropped += 1
            releaseBuffer(old.buffer, now, &s)
        }
        if let previous = display.show(frame) { releaseBuffer(previous.buffer, now, &s) }
        // read in place: a commit is 128 bytes
        let commit = commits.inPlace(frame.commit)
        if commit.value.seq <= lastLatchedCommit { invariants.latchesOutOfCommitOrder += 1 }
        lastLatchedCommit = commit.value.seq
        let measured = measurement.frameShown(latch: now, mainTouch: commit.value.mainTouch,
                                              drawnTouches: commit.value.drawnTouches, drawn: commit.value.drawn,
                                              horizon: commit.value.horizon, frameStart: commit.value.delivered)
        if stamps.isKept, let stamp = stamps.latched(frame.id, buffer: frame.buffer), measured {
            splitBudget(commit, stamp, latch: now)
        }
        // WALT's photodiode, at the screen's centre, sees the change: the
        // next is posted from then
        if blinks && measured, let next = blinker.seen(at: measurement.measuredPhoton) { s.schedule(.appUpdate, at: next) }
        if let log {
            let c = commit.value
            log.latches.append(.init(time: now, frame: frame.id, commitSeq: c.seq, mainTouch: c.mainTouch.scan,
                                     buffer: frame.buffer, repeated: false, hitch: false, measured: measured,
                                     drawnX: c.drawn.x, drawnY: c.drawn.y, horizon: c.horizon))
            var r = record(frame, measured ? .new : .old, hitch: false, dropped: dropped, now)
            if measured { r.pipelineFrames = measurement.geometry.pipelineFrames(latch: now, windowStart: c.mainTouch.windowStart) }
            log.record(r, stages: measured ? measurement.budget?.currentStages : nil)
        }
        force?.frameShown(latch: now, commit: commit.value, measured: measured)
        // the front frame's commit is the oldest any frame names from now on
        commits.forget(before: commit.value.seq)
        if renderServer.lowLatency(at: now) { tryStartRender(now, &s) }
    }

    /// The per-frame record of `frame` shown at the vsync `now`.
    func record(_ frame: Frame, _ kind: FrameRecord.Kind, hitch: Bool, dropped: Int, _ now: SimTime) -> FrameRecord {
        let t = commits[frame.commit].mainTouch
        return FrameRecord(vsync: now, frame: frame.id, kind: kind, hitch: hitch, dropped: dropped, buffersHeld: buffers.held,
                           touchScan: t.scan, touchTime: t.time,
                           photon: measurement.geometry.photonTime(latch: now, y: t.position.y), pipelineFrames: nil,
                           stageOffset: -1)
    }

    /// The stage budget of a measured frame latched at `latch`: the chain
    /// from its main touch's instant through its window's end, ready,
    /// delivery, commit, prepare, GPU queue and job, the latch and the
    /// scan-out to the photons. Its commit and its stamps are read in place
    /// (a commit is 128 bytes).
    @inline(__always)
    mutating func splitBudget(_ commit: InPlace<Commit>, _ stamps: InPlace<BudgetStamps.Frame>, latch: SimTime) {
        guard let recorder = measurement.budgetRecorder else { return }
        // the photons of the main touch, as the frame was measured
        let photon = measurement.measuredPhoton
        let panel = measurement.geometry.panelResponse
        let handlerEnd = midFrameLead != nil ? midFrameHandlerEnd(run: commit.value.handlerRun) : 0
        recorder.with { b in
            let c = commit.value
            var chain = b.chain(from: c.mainTouch.time)
            // a blink has no scan window: its scan and digitizer are empty
            chain.until(blinks ? c.mainTouch.time : b.windowEnd(of: c.mainTouch))
            chain.until(c.mainTouch.ready)
            if switching {
                let d = facts.dispatchDelay
                let wait = delivery.policy == .perScan ? 0
                    : rate.rateWait(from: c.mainTouch.ready, actual: c.delivered - d, offset: -d, peakOffset: -d)
                chain.until(c.mainTouch.ready + wait)
            }
            if midFrameLead != nil {
                // the late read is at the commit; it took the main touch when that was ready after the delivery
                let late = c.mainTouch.ready > c.delivered
                chain.until(late ? c.committed : c.delivered)
                chain.until(late ? c.committed : handlerEnd)
            } else {
                chain.until(c.delivered)
            }
            chain.until(c.committed)
            let stamp = stamps.value
            chain.until(stamp.prepareStart)
            chain.until(stamp.submitted)
            chain.until(stamp.gpuStart)
            chain.until(stamp.gpuEnd)
            chain.until(latch)
            chain.until(photon - panel)
            chain.until(photon)
            b.end(chain, total: photon - c.mainTouch.time)
        }
    }

    func tripleBufferedTime(until end: SimTime) -> SimTime { buffers.tripleBufferedTime(until: end) }

    /// The figures of the finished run.
    mutating func finish(into m: inout Measurements) -> InvariantChecks {
        measurement.finish(into: &m)
        m.count(display: display, droppedFrames: display.droppedFrames, digitizer: digitizer,
                work: (delivery.deliveries, app.handlerRuns, renderServer.wastedUpdates))
        if switching { m.displayRate = rate.figures(until: facts.duration) }
        m.force = force?.finish()
        // asked first: `m.ink?.x = …` reads and writes the boxed ink figures
        // (a nil of 570 bytes copied about, in a run without ink)
        if measurement.ink != nil {
            m.ink?.lateReads = delivery.lateReads
            m.ink?.lateReadTouches = delivery.lateDelivered
        }
        var checks = invariants
        checks.budgetMismatches = (m.budget?.mismatches ?? 0) + stamps.missing
        checks.samplesOutOfOrder = delivery.outOfOrder + delivery.outOfOrderLate
        checks.samplesLost = digitizer.touchesMade - delivery.delivered - delivery.lateDelivered - delivery.waiting.count
        checks.bufferConflicts = buffers.conflicts
        checks.maxBuffersHeld = buffers.maxHeld
        checks.maxBuffersAllocated = buffers.maxAllocated
        return checks
    }
}

// The display's rate (Docs/Model.md, "Display rate").
extension IOSPipeline {
    /// A touch is ready (handled now): the display's touch boost.
    @inline(never)
    mutating func touched(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        if rate.touch(at: now, &s, kind: .displayTimer) { evaluateRate(now, &s) }
    }

    /// The policy asks for another rate: it takes effect at the first vsync
    /// `display.switchVsyncs` vsyncs of the old rate from now (on
    /// `display.switchGrid: peak`, the first tick of the peak rate's
    /// grid), where the latch, the render server's wake and the frame
    /// starts move to the new grid.
    @inline(never)
    mutating func evaluateRate(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        guard let hz = rate.evaluate(at: now) else { return }
        let r = facts
        let current = display.vsyncs.clock
        let period = current.tick(1) - current.tick(0)
        let grid = r.switchGrid == .peak ? PeriodicClock(hz: r.displayHz, phase: current.phase) : current
        let boundary = grid.tick(grid.index(atOrAfter: now + Int64(r.switchVsyncs) * period))
        if display.vsyncs.switchRate(at: boundary, to: hz) { s.reschedule(.latch, at: display.vsyncs.time) }
        if !frameStartsAtVsync && delivery.policy == .coalesced, delivery.vsyncs.switchRate(at: boundary, to: hz) {
            s.reschedule(.frameStart, at: delivery.vsyncs.time + delivery.dispatchDelay)
        }
        rate.committed(at: boundary, to: hz, &s, kind: .displayTimer)
        log?.rateSwitches.append(.init(requested: now, boundary: boundary, hz: hz))
    }
}

/// The commits frames name by number (``Frame/commit``), from the oldest a
/// frame may still name on: commits are made in order, and frames are
/// latched in commit order, so a latch forgets every commit before its
/// frame's. A ring: nothing is allocated once it has held the most commits
/// in flight at once.
struct CommitTable {
    private let ring = Ring<Commit>()
    /// The number of the oldest commit kept.
    private var first: Int64 = 0

    /// A commit is made (its number is the next) in its slot by `make`;
    /// returns what `make` returns and the commit, in place.
    @inline(__always)
    func make<R>(_ make: (Uninitialized<Commit>) -> R) -> (R, InPlace<Commit>) {
        let made = ring.appendInPlace(make)
        return (made, ring.inPlace(ring.count &- 1))
    }

    /// Commit `seq` (kept: from the front frame's on).
    subscript(seq: Int64) -> Commit {
        @inline(__always) get { inPlace(seq).value }
    }

    /// Commit `seq` where it is kept (valid until commits are forgotten).
    @inline(__always)
    func inPlace(_ seq: Int64) -> InPlace<Commit> {
        let i = Int(truncatingIfNeeded: seq &- first)
        precondition(i >= 0 && i < ring.count, "commit \(seq) is not kept")
        return ring.inPlace(i)
    }

    /// Forgets the commits before `seq`.
    mutating func forget(before seq: Int64) {
        while first < seq && !ring.isEmpty {
            ring.removeFirst()
            first &+= 1
        }
    }
}
