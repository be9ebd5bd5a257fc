import SimKernel
import TouchModel

/// The app's main thread: a delivery runs the touch handler (`app.handler`);
/// it commits `app.commits` evenly spaced transactions, the last at the
/// handler's end, each holding the newest sample it used and, with
/// prediction on, the predicted position.
extension PipelineRun {
    /// Runs the touch handler on the samples in `waiting`.
    mutating func startHandler(_ now: SimTime) {
        appBusy = true
        measurements.handlerRuns += 1
        handlerRun += 1
        handlerRunRendered = false
        handlerStart = now
        handlerDuration = handlerTime.draw(&rng)
        let newest = waiting.last!
        newestUsed = ShownSample(index: newest.index, time: newest.time, windowStart: newest.windowStart, y: newest.position.y)
        // what the app draws: every coalesced touch, or only the main touch
        if configuration.touches == .coalesced {
            for i in 0..<waiting.count {
                let s = waiting[i]
                drawnWaiting.append(DrawnSample(time: s.time, y: s.position.y))
            }
            drawnTotal += Int64(waiting.count)
        } else {
            drawnWaiting.append(DrawnSample(time: newest.time, y: newest.position.y))
            drawnTotal += 1
        }
        drawnPosition = newest.position
        horizonApplied = 0
        if predicting { predict(newest) }
        log?.handlers.append(.init(start: now, end: now + handlerDuration, run: handlerRun, mainTouch: newest.index))
        scheduleCommit(1)
    }

    /// Touch prediction (MODEL.md section 6): the predictor sees every
    /// sample delivered so far, never a later one.
    mutating func predict(_ newest: Sample) {
        for i in 0..<waiting.count {
            let s = waiting[i]
            if s.strokeBegan {
                predictor!.reset()
                measurements.prediction.strokeBegan()
            }
            predictor!.observe(TouchSample(time: s.time, position: s.position))
        }
        let h = configuration.horizon
        if let p = predictor!.predict(horizon: h) {
            drawnPosition = p
            horizonApplied = h
            measurements.prediction.recordPrediction(predicted: p, truth: finger.state(at: newest.time + h))
        }
    }

    /// Commit `i` of `n` at `start + i * handler / n`, rounded half up.
    mutating func scheduleCommit(_ i: Int) {
        let n = Int64(configuration.commits)
        let at = n == 1 ? handlerStart + handlerDuration
            : handlerStart + Int64(roundHalfUp(Int128(handlerDuration) * Int128(i), Int128(n)))
        queue.schedule(at: at, kind: PipelineEvent.commit.rawValue, payload: UInt16(i))
    }

    /// The app commits a transaction.
    mutating func appCommit(_ now: SimTime, index: Int) {
        let n = configuration.commits
        let commit = Commit(seq: commitSeq, newest: newestUsed, drawnTotal: drawnTotal,
                            drawn: drawnPosition, horizon: horizonApplied, handlerRun: handlerRun,
                            isLastOfRun: index == n, earlierOfRunRendered: handlerRunRendered)
        commitSeq += 1
        log?.commits.append(.init(time: now, seq: commit.seq, mainTouch: commit.newest.index))
        if configuration.rendering == .metal {
            let gpu = metalTime.draw(&rng)
            if configuration.metalDirect {
                submitMetalDirect(commit, gpu: gpu, now: now)
            } else {
                // through Core Animation: the Metal job joins the GPU queue
                // now; the render-server frame of this commit runs after it
                let job = Frame(id: -1, commit: commit, path: .metalWithCoreAnimation, buffer: -1)
                enqueueGPU(GPUJob(duration: gpu, frame: job), now: now)
                commitToRenderServer(commit, now: now)
            }
        } else {
            commitToRenderServer(commit, now: now)
        }
        if index < n {
            scheduleCommit(index + 1)
        } else {
            appBusy = false
            requestPerScanDelivery(now)
        }
    }
}
