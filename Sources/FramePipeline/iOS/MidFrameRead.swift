import SimKernel
import TouchModel

// Mid-frame event processing (iPadOS 13; Docs/Ink.md, "Mid-frame input"):
// the app reads its touches a second time within the frame, just before it
// submits the frame, and draws the newest. Apple said that "4 ms of our
// improvement comes from a technique called mid-frame event processing"
// and published nothing of its timing, so when the late read happens is a
// key, `app.midFrameLead`: the read is that long before the vsync the frame
// is for (the first after its delivery), or at the handler's end if that
// is later; the app commits right after it. A lead shorter than the frame's
// own rendering misses that vsync. Off by default.

extension TouchDelivery {
    /// A mid-frame read takes the first `n` waiting touches (ready by the
    /// read): they are delivered, but no delivery is counted (the handler
    /// run's delivery was).
    mutating func lateRead(_ n: Int) {
        var last = lastDelivered
        for _ in 0..<n {
            let t = waiting.removeFirst()
            if t.scan <= last { outOfOrderLate += 1 }
            last = t.scan
        }
        lastDelivered = last
        lateDelivered += n
        lateReads += 1
    }
}

extension App {
    /// A mid-frame read of `n` touches (the first `n` of `touches`, ready by
    /// the read): the newest becomes the main touch the commit carries; the
    /// predictor sees them and predicts again from it. Returns the new
    /// prediction, when the app predicts and the predictor answered.
    mutating func lateRead(_ touches: Ring<Touch>, count n: Int, strokeBegan began: inout Bool) -> PredictionMade? {
        mainTouch = touches[n - 1]
        drawnTouches += touchUse == .coalesced ? Int64(n) : 1
        drawn = mainTouch.position
        horizonApplied = 0
        guard predicts else { return nil }
        for i in 0..<n {
            let t = touches[i]
            if t.began {
                predictor!.reset()
                began = true
            }
            predictor!.observe(t.sample)
        }
        guard let p = predictor!.predict(horizon: horizon, frameInterval: frameInterval) else { return nil }
        drawn = p
        horizonApplied = horizon
        let target = mainTouch.time + horizon
        let stamp = stampsPredictions ? predictor!.predictedTime ?? target : target
        return PredictionMade(position: p, target: target, origin: mainTouch.time, stamp: stamp)
    }
}

extension IOSPipeline {
    /// When a handler run delivered at `delivered`, whose handler ends at
    /// `handlerEnd`, commits with a mid-frame read `lead` before its vsync:
    /// the read, at `max(handler end, V - lead)` with `V` the first vsync
    /// after the delivery.
    func midFrameCommit(lead: SimTime, delivered: SimTime, handlerEnd: SimTime) -> SimTime {
        let clock = facts.vsyncClock
        let vsync = clock.tick(clock.index(atOrBefore: delivered) + 1)
        return Swift.max(handlerEnd, vsync - lead)
    }

    /// The mid-frame read of a handler run, now, just before its commit: the
    /// app takes every touch ready by now (after those its delivery took),
    /// draws the newest and predicts again.
    mutating func midFrameRead(_ now: SimTime, _ s: inout EventScheduler<Event>) {
        // a read sees a scan ready at its own instant, as a frame start does
        scansReady(before: now, rank: IOSEvent.delivery.tieRank, &s)
        var n = 0
        while n < delivery.waiting.count && delivery.waiting[n].ready <= now { n += 1 }
        guard n > 0 else { return }
        var began = false
        let prediction = app.lateRead(delivery.waiting, count: n, strokeBegan: &began)
        if facts.touches == .coalesced {
            for i in 0..<n { measurement.drew(delivery.waiting[i]) }
        } else {
            measurement.drew(delivery.waiting[n - 1])
        }
        if app.predicts { measurement.predicted(prediction, strokeBegan: began) }
        log?.lateReads.append(.init(time: now, commit: now, first: delivery.waiting[0].scan,
                                    last: delivery.waiting[n - 1].scan, count: n))
        delivery.lateRead(n)
    }
}

extension IOSPipeline {
    /// The handler end of run `run` (a mid-frame read's budget), forgetting
    /// the runs before it.
    mutating func midFrameHandlerEnd(run: Int64) -> SimTime {
        while let first = midFrameHandlerEnds.first, first.run < run { _ = midFrameHandlerEnds.removeFirst() }
        return midFrameHandlerEnds.first?.end ?? 0
    }
}
