import SimKernel
import TouchModel

// The Android pipeline's wiring: what each stage's output starts next.
extension AndroidPipeline {
    /// A touch-down's handler runs now (not batched).
    mutating func startDown(_ down: Touch, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        consumer.beginTouch(down)
        let end = ui.beginDown(down, now: now, rng: &rng)
        s.schedule(.uiWorkDone, at: end)
        log?.android?.uiWork.append(.init(start: now, end: end, kind: .touchDown, frame: -1, frameTime: now, newestScan: down.scan))
    }

    /// A Choreographer frame with frame time `frameTime` targeting `target`
    /// runs now if it has work: batched samples old enough to consume, or a
    /// touch-down's response. Returns true when it runs.
    mutating func tryFrame(_ frameTime: SimTime, target: SimTime, late: Bool, _ now: SimTime,
                           _ s: inout EventScheduler<Event>) -> Bool {
        let sampleTime = consumer.sampleTime(frameTime: frameTime)
        let n = consumer.readyCount(sampleTime: sampleTime)
        let update = ui.updateDue(frameTime: frameTime)
        guard n > 0 || ui.responseDue(frameTime: frameTime) || update else { return false }
        // a frame that draws no touch (only the app's own update) has no touch content
        let touches = n > 0 || !ui.downResponses.isEmpty
        for i in 0..<ui.downResponses.count { measurement.drew(ui.downResponses[i].touch) }
        var consumption: Consumption?
        if n > 0 {
            consumption = consumer.consume(n, sampleTime: sampleTime)
            for i in 0..<n { measurement.drew(consumer.batch[i]) }
        }
        let seq = nextFrame
        let start = ui.beginFrame(consumption: consumption, batch: consumer.batch, frame: continuous ? nil : seq,
                                  now: now, rng: &rng)
        if n > 0 { consumer.finishConsumption() }
        if ui.predicts { measurement.predicted(start.prediction, strokeBegan: start.strokeBegan) }
        if update {
            ui.updateDrawn()
            blinkFrame = seq
            blinkDrawnAt = now
        }
        if !continuous {
            nextFrame += 1
            // built in place in each branch: a conditional content would be copied on every frame
            if touches {
                frames.begin(AndroidFrame(seq: seq, content: start.content, frameTime: frameTime, expected: target,
                                          deadline: target - choreographer.lastSf))
            } else {
                frames.begin(AndroidFrame(seq: seq, content: nil, frameTime: frameTime, expected: target,
                                          deadline: target - choreographer.lastSf))
            }
            timeline.begin(seq: seq, expected: target)
        }
        choreographer.ran(late: late)
        s.schedule(.uiWorkDone, at: start.end)
        log?.android?.uiWork.append(.init(start: now, end: start.end, kind: continuous ? .input : .frame,
                                          frame: continuous ? -1 : seq, frameTime: frameTime,
                                          newestScan: start.content.newest.scan))
        return true
    }

    /// The UI thread's work is done now.
    mutating func uiWorkDone(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        switch ui.finish() {
        case .down(let down):
            if continuous {
                measurement.drew(down)
                _ = ui.storeDown(down, now: now)
            } else {
                ui.respond(to: down, end: now)
            }
        case .input(let content):
            ui.store(content)
        case .frame(let frame):
            frames[frame].uiEnd = now
            if renderThread.busy {
                // the sync blocks until RenderThread queues its frame
                ui.waitForRenderThread(frame)
                syncSince = now
                return
            }
            handOver(frame, now, &s)
        case .idle:
            break
        }
        uiIdle(now, &s)
    }

    /// The UI thread syncs frame `frame` to RenderThread, which dequeues a buffer.
    mutating func handOver(_ frame: Int64, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        frames[frame].handedOver = now
        renderThread.receive(frame)
        renderRequested = now
        if let b = bufferQueue.dequeue(now: now) { producerGot(b, now, &s) }
    }

    /// The producer's dequeue got a buffer now.
    mutating func producerGot(_ b: (id: Int32, fence: ReleaseFence), _ now: SimTime, _ s: inout EventScheduler<Event>) {
        renderStart = now
        if continuous {
            glThread.got(buffer: b.id, fence: b.fence)
            s.schedule(.glRead, at: now)
        } else {
            let seq = renderThread.frame
            frames[seq].renderStart = now
            frames[seq].buffer = b.id
            frames[seq].bufferFence = b.fence
            s.schedule(.queueBuffer, at: renderThread.startCommands(now: now, rng: &rng))
        }
    }

    /// The GL thread dequeues its next buffer.
    mutating func glDequeue(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        renderRequested = now
        if let b = bufferQueue.dequeue(now: now) { producerGot(b, now, &s) }
    }

    /// The UI thread becomes idle: a waiting touch-down first, else a frame
    /// owed by a vsync-app tick it missed, decided after this instant's events.
    mutating func uiIdle(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        if let down = ui.becomeIdle() {
            startDown(down, now, &s)
            return
        }
        if choreographer.missed {
            choreographer.missed = false
            if choreographer.newestTick(before: now) != nil { s.schedule(.deferredFrame, at: now) }
        }
    }

    /// queueBuffer: frame `seq` waits for SurfaceFlinger, its GPU job joins the queue.
    mutating func enqueue(_ seq: Int64, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        frames[seq].queued = now
        // a transaction: the idle timer restarts
        if switching && rate.activity(at: now, &s, kind: .displayTimer) { evaluateRate(now, &s) }
        let duration = gpuTime.draw(&rng)
        bufferQueue.enqueue(seq)
        let job = AndroidGPUJob(frame: seq, buffer: frames[seq].buffer, submitted: now)
        if let end = gpu.submit(job, duration: duration, now: now, fence: frames[seq].bufferFence) { gpuStarted(now, end, &s) }
    }

    /// A GPU job started now and ends at `end`.
    mutating func gpuStarted(_ now: SimTime, _ end: SimTime, _ s: inout EventScheduler<Event>) {
        if let w = gpu.running {
            if w.fence.signalsAt > lastPresented { gpuJobsBeforeFence += 1 }
            if frames[w.job.frame].seq == w.job.frame { frames[w.job.frame].gpuStart = now }
            log?.android?.gpuJobs.append(.init(submitted: w.job.submitted, start: now, end: end, frame: w.job.frame, buffer: w.job.buffer))
        }
        s.schedule(.gpuDone, at: end)
    }

    /// vsync-sf now, targeting `vsync`: SurfaceFlinger latches (or drops, or
    /// holds back), releases the buffer latched before, and composes.
    mutating func latch(_ vsync: SimTime, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        switch surfaceFlinger.decide(bufferQueue.queue, frames, now: now, vsync: vsync) {
        case .none:
            return
        case .backPressure:
            log?.android?.skips.append(.init(time: now))
        case .latch(let index):
            var handed: (id: Int32, fence: ReleaseFence)?
            for _ in 0..<index {
                // `latest`: older queued buffers are dropped, released at once
                let d = bufferQueue.acquire()
                timeline.dropped(seq: d)
                dropsSincePresent += 1
                logFrame(d, presented: -1, jank: .dropped)
                if let h = bufferQueue.release(frames[d].buffer, fence: .signalled, now: now) { handed = h }
            }
            let seq = bufferQueue.acquire()
            let l = surfaceFlinger.latch(seq, buffer: frames[seq].buffer, now: now, target: vsync, rng: &rng)
            frames[seq].latched = now
            frames[seq].previousLatch = l.previousLatch
            if let r = l.released {
                // the buffer latched before is released; its fence signals at this frame's present
                if frames[r.seq].seq == r.seq && frames[r.seq].gpuDone < 0 { earlyReleases += 1 }
                if let h = bufferQueue.release(r.buffer, fence: ReleaseFence(signalsAt: seq), now: now) { handed = h }
            }
            guard let compositionEnd = l.compositionEnd else {
                fail(composition: surfaceFlinger.badComposition ?? 0)
                s.removeAll()
                return
            }
            s.schedule(.compositionDone, at: compositionEnd)
            log?.android?.latches.append(.init(time: now, compositionEnd: compositionEnd, frame: seq, buffer: frames[seq].buffer))
            if let h = handed { producerGot(h, now, &s) }
        }
    }

    /// The present vsync shows frame `seq` now.
    mutating func present(_ seq: Int64, _ now: SimTime, _ s: inout EventScheduler<Event>) {
        _ = display.show(ShownFrame(seq: seq, buffer: frames[seq].buffer))
        if seq <= lastPresented { presentsOutOfOrder += 1 }
        lastPresented = seq
        // the release fence of the buffer latched before it signals
        if let end = gpu.signal(through: seq, now: now) { gpuStarted(now, end, &s) }
        // classified from the fields it needs: the frame is not copied
        let expected = frames[seq].expected
        let jank = timeline.presented(seq, expected: expected, jank: timeline.classify(
            expected: expected, deadline: frames[seq].deadline, previousLatch: frames[seq].previousLatch,
            end: Swift.max(frames[seq].queued, frames[seq].gpuDone), present: now), now: now)
        var measured = false
        let start = frames[seq].frameTime
        if let c = frames[seq].content {
            measurement.frameToPhoton(latch: now, y: c.newest.position.y, frameStart: start)
            measured = measurement.frameShown(latch: now, content: c.seq, newest: c.newest, drawnTouches: c.drawnSamples,
                                              drawn: c.drawn, horizon: c.horizon)
            if measured && measurement.budget != nil { splitBudget(seq, c, present: now) }
        } else {
            measurement.frameToPhoton(latch: now, y: configuration.heightPoints / 2, frameStart: start)
        }
        // WALT's photodiode, at the screen's centre, sees the change the
        // first frame that draws it shows: the next is posted from then
        var blinkShown = false
        if blinks && seq >= blinkFrame && blinker.awaiting {
            let photon = measurement.geometry.photonTime(latch: now, y: configuration.heightPoints / 2)
            if let next = blinker.seen(at: photon) { s.schedule(.appUpdate, at: next) }
            blinkShown = true
            if measurement.budget != nil { splitBlinkBudget(seq, photon: photon, present: now) }
        }
        if let log {
            if let w = surfaceFlinger.lastWake {
                log.android?.idleWakes.append(.init(start: w.start, end: w.end, ready: w.ready, present: now, frame: seq))
            }
            log.android?.presents.append(.init(time: now, frame: seq, buffer: frames[seq].buffer, repeated: false, hitch: false, measured: measured))
            logFrame(seq, presented: now, jank: jank)
            var r = record(seq, measured || blinkShown ? .new : .old, hitch: false, now)
            if measured, let c = frames[seq].content {
                r.pipelineFrames = measurement.geometry.pipelineFrames(latch: now, windowStart: c.newest.windowStart)
            }
            if blinkShown {
                // the change is the frame's news: its instant stands for the touch's
                r.touchScan = blinker.count - 1
                r.touchTime = blinker.madeAt
                r.photon = measurement.geometry.photonTime(latch: now, y: configuration.heightPoints / 2)
            }
            log.record(r, stages: measured || blinkShown ? measurement.budget!.currentStages : nil)
        }
    }

    /// The stage budget of a measured frame presented at `present`: the
    /// resampled point's lead, then the chain from the newest sample's
    /// instant through its window's end, ready, the input channel, the
    /// frame's UI work, the sync, the buffer, queueBuffer, the GPU queue and
    /// job, the latch (on a command-mode panel, the vsync the frame was
    /// ready for before an idle wake held it) and the present to the photons.
    mutating func splitBudget(_ seq: Int64, _ c: DrawnContent, present: SimTime) {
        guard let recorder = measurement.budgetRecorder else { return }
        let t = c.newest
        // the photons of the newest sample, as the frame was measured
        let photon = measurement.measuredPhoton
        let panel = measurement.geometry.panelResponse
        recorder.with { b in
            var chain = b.chain(from: t.time - c.lead)
            chain.add(-c.lead)
            chain.until(b.windowEnd(of: t))
            chain.until(t.ready)
            chain.until(t.ready + dispatch.latency)
            chain.until(c.drawnAt)
            chain.until(frames[seq].uiEnd)
            chain.until(frames[seq].handedOver)
            chain.until(frames[seq].renderStart)
            chain.until(frames[seq].queued)
            chain.until(frames[seq].gpuStart)
            chain.until(frames[seq].gpuDone)
            chain.until(frames[seq].latched)
            if switching {
                let ready = Swift.max(t.ready + dispatch.latency, c.downEnd)
                chain.until(present - rateWait(from: ready, target: frames[seq].expected))
            }
            if surfaceFlinger.commandPanel { chain.until(surfaceFlinger.lastWake?.ready ?? present) }
            chain.until(present)
            chain.until(photon - panel)
            chain.until(photon)
            b.end(chain, total: photon - t.time)
        }
    }

    /// The stage budget of the frame that shows the app's latest change
    /// (WALT's screen test), presented at `present`, its photons at
    /// `photon`: from the change to the photons, as a touch's from its
    /// sample, with no scan, digitizer or dispatch (Docs/Budget.md).
    mutating func splitBlinkBudget(_ seq: Int64, photon: SimTime, present: SimTime) {
        guard let ref = measurement.budgetRecorder else { return }
        let made = blinker.madeAt
        let panel = measurement.geometry.panelResponse
        ref.with { b in
            var chain = b.chain(from: made)
            chain.add(0)
            chain.until(made)
            chain.until(made)
            chain.until(made)
            chain.until(blinkDrawnAt)
            chain.until(frames[seq].uiEnd)
            chain.until(frames[seq].handedOver)
            chain.until(frames[seq].renderStart)
            chain.until(frames[seq].queued)
            chain.until(frames[seq].gpuStart)
            chain.until(frames[seq].gpuDone)
            chain.until(frames[seq].latched)
            if switching { chain.until(present - rateWait(from: made, target: frames[seq].expected)) }
            if surfaceFlinger.commandPanel { chain.until(surfaceFlinger.lastWake?.ready ?? present) }
            chain.until(present)
            chain.until(photon - panel)
            chain.until(photon)
            b.end(chain, total: photon - made)
        }
    }

    /// The per-frame record of frame `seq` shown at the present vsync `now`.
    mutating func record(_ seq: Int64, _ kind: FrameRecord.Kind, hitch: Bool, _ now: SimTime) -> FrameRecord {
        let t = frames[seq].seq == seq ? frames[seq].content?.newest : nil
        defer { dropsSincePresent = 0 }
        return FrameRecord(vsync: now, frame: seq, kind: kind, hitch: hitch, dropped: dropsSincePresent,
                           buffersHeld: bufferQueue.heldCount, touchScan: t?.scan ?? -1, touchTime: t?.time ?? 0,
                           photon: t.map { measurement.geometry.photonTime(latch: now, y: $0.position.y) } ?? 0,
                           pipelineFrames: nil, stageOffset: -1)
    }

    /// A composition draw reached the display period: the run stops with bad input.
    mutating func fail(composition d: SimTime) {
        failure = LatsimError(key: "android.sfCompose", value: configuration.android.sfCompose.description,
                              problem: "drew \(DurationSyntax.format(d)), which reaches the display period T = \(formatDecimal(configuration.framePeriod.doubleValue / 1e6, places: 6))ms: SurfaceFlinger's composition must fit in its period",
                              expected: "a distribution whose every draw is below T")
    }

    func logFrame(_ seq: Int64, presented: SimTime, jank: JankClass) {
        guard let log = log?.android else { return }
        let f = frames[seq]
        let c = f.content
        log.frames.append(.init(seq: f.seq, frameTime: f.frameTime, expected: f.expected, deadline: f.deadline,
                                queued: f.queued, gpuDone: f.gpuDone, latched: f.latched, presented: presented,
                                buffer: f.buffer, jank: jank, content: c?.seq ?? -1, newestScan: c?.newest.scan ?? -1,
                                windowStart: c?.newest.windowStart ?? 0, physicalTime: c?.newest.time ?? 0,
                                resampled: c?.resampled ?? .none))
    }

    func tripleBufferedTime(until end: SimTime) -> SimTime { 0 }

    /// The figures of the finished run.
    mutating func finish(into m: inout Measurements) -> InvariantChecks {
        measurement.finish(into: &m)
        m.count(display: display, droppedFrames: timeline.counts[.dropped], digitizer: digitizer,
                work: (ui.deliveries, ui.handlerRuns, ui.wastedUpdates))
        if switching { m.displayRate = rate.figures(until: configuration.duration) }
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
        a.earlyReleases = earlyReleases
        a.choreographerFrames = choreographer.frames
        a.lateFrames = choreographer.lateFrames
        a.interpolated = consumer.interpolated
        a.extrapolated = consumer.extrapolated
        a.notResampled = consumer.notResampled
        a.idleWakes = surfaceFlinger.idleWakes
        a.idleWakeDelay = surfaceFlinger.idleWakeDelay
        m.android = a
        var checks = InvariantChecks()
        checks.budgetMismatches = m.budget?.mismatches ?? 0
        checks.latchesOutOfCommitOrder = presentsOutOfOrder
        checks.samplesOutOfOrder = consumer.outOfOrder
        checks.samplesLost = digitizer.touchesMade - consumer.taken - consumer.batch.count - dispatch.count - ui.downsWaitingCount
        checks.policyMaximum = timing.buffers
        checks.maxBuffersHeld = bufferQueue.maxHeld
        checks.maxBuffersAllocated = timing.buffers
        checks.bufferConflicts = bufferQueue.conflicts
        checks.gpuJobsBeforeFence = gpuJobsBeforeFence
        checks.presentsBeforeExpected = timeline.early
        return checks
    }
}

// The display's rate (Docs/Android.md, "Display rate").
extension AndroidPipeline {
    /// The work durations at `hz` (AOSP's `updatePhaseConfiguration(fps)`:
    /// the configuration's offsets or durations for that rate).
    func timing(at hz: Rational) -> AndroidTiming {
        AndroidTiming(configuration.android, displayHz: hz, peakOfSeveral: peakOfSeveral && hz == configuration.displayHz)
    }

    /// The policy asks for another rate: SurfaceFlinger initiates the mode
    /// change at its next wake-up, and the HWC applies it
    /// `display.switchVsyncs` vsyncs of the old rate later, at the first
    /// vsync from then (`display.switchGrid: peak`: the first tick of the
    /// peak rate's grid); with the kernel idle timer the driver does it at
    /// the next vsync. Every stage that follows vsync moves to the new grid
    /// there, with the work durations of the new rate.
    @inline(never)
    mutating func evaluateRate(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        guard let hz = rate.evaluate(at: now) else { return }
        let r = configuration.rate
        let current = display.vsyncs.clock
        let kernel = r.kernelIdleTimer
        let initiated = kernel ? now : Swift.max(now, surfaceFlinger.nextTick)
        let periods = kernel ? 0 : Int64(r.switchVsyncs)
        let period = current.tick(1) - current.tick(0)
        let grid = r.switchGrid == .peak ? PeriodicClock(hz: configuration.displayHz, phase: current.phase) : current
        var boundary = grid.tick(grid.index(atOrAfter: initiated + periods * period))
        if boundary <= now { boundary = grid.tick(grid.index(atOrBefore: now) + 1) }
        let t = timing(at: hz)
        if display.vsyncs.switchRate(at: boundary, to: hz) { s.reschedule(.presentVsync, at: display.vsyncs.time) }
        if surfaceFlinger.switchRate(at: boundary, to: hz, sfDuration: t.sfDuration, now: now) {
            s.reschedule(.vsyncSf, at: surfaceFlinger.nextTick)
        }
        if choreographer.switchRate(at: boundary, to: hz, lead: t.appDuration + t.sfDuration, sfDuration: t.sfDuration, now: now) {
            s.reschedule(.vsyncApp, at: choreographer.nextTick)
        }
        rate.committed(at: boundary, to: hz, &s, kind: .displayTimer)
        log?.rateSwitches.append(.init(requested: now, boundary: boundary, hz: hz))
    }

    /// What the display's lower rate added to the schedule of a frame
    /// whose work could start from `t`, which targeted the vsync `target`
    /// (the stage budget's rate switch wait).
    func rateWait(from t: SimTime, target: SimTime) -> SimTime {
        let hz = rate.segment(at: t).hz
        guard hz != configuration.displayHz, target >= 0 else { return 0 }
        return rate.rateWait(from: t, actual: target, offset: lead(at: hz), peakOffset: timing.appDuration + timing.sfDuration)
    }

    /// `D_app + D_sf` at `hz`.
    func lead(at hz: Rational) -> SimTime {
        let t = timing(at: hz)
        return t.appDuration + t.sfDuration
    }

    /// The display refreshes at `hz` from this vsync on: the photons'
    /// scan-out, FrameTimeline's period and SurfaceFlinger's early-frame
    /// test follow it.
    mutating func rateInForce(_ hz: Rational) {
        geometryHz = hz
        measurement.geometry.setRate(hz)
        timeline.setRate(hz)
        surfaceFlinger.rateInForce(hz)
    }
}
