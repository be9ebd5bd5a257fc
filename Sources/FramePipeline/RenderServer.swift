import SimKernel

/// The Core Animation render server: turns the newest committed state into
/// a frame (prepare, then a GPU job). Waiting commits are merged; only the
/// newest is rendered. `vsync` (iOS 8) starts at a vsync wake;
/// `lowLatency` (iOS 9) starts as soon as a commit waits, the server is idle
/// and a buffer is free — except while animations are active.
extension PipelineRun {
    /// A commit reaches the render server.
    mutating func commitToRenderServer(_ c: Commit, now: SimTime) {
        if let old = pendingCommit {
            // merged away: a handler run is wasted when all its commits are
            if old.isLastOfRun && !old.earlierOfRunRendered { measurements.wastedUpdates += 1 }
        }
        pendingCommit = c
        if lowLatencyNow(now) { tryStartRender(now) }
    }

    /// The render server's vsync wake.
    mutating func renderServerWake(_ now: SimTime) {
        tryStartRender(now)
        buffers.atVsync(now)
        log?.bufferSamples.append(.init(time: now, held: buffers.held, allocated: buffers.allocated))
        queue.schedule(at: wakeTicker.advance(), kind: PipelineEvent.renderServerWake.rawValue)
    }

    /// Starts preparing the newest waiting commit when the server is idle
    /// and a buffer is free (or, adaptive, can be allocated).
    mutating func tryStartRender(_ now: SimTime) {
        guard preparing == nil, pendingCommit != nil, let buffer = buffers.acquire(at: now) else { return }
        let c = pendingCommit.unsafelyUnwrapped
        pendingCommit = nil
        if c.handlerRun == handlerRun { handlerRunRendered = true }
        let frame = Frame(id: nextFrameID, commit: c, path: .renderServer, buffer: buffer)
        nextFrameID += 1
        preparing = frame
        noteBuffersHeld()
        let duration = prepareTime.draw(&rng)
        log?.prepares.append(.init(start: now, end: now + duration, frame: frame.id, commitSeq: c.seq, buffer: buffer))
        queue.schedule(at: now + duration, kind: PipelineEvent.prepareDone.rawValue)
    }

    /// Prepare done: the frame's GPU job joins the FIFO GPU queue.
    mutating func prepareDone(_ now: SimTime) {
        let frame = preparing!
        preparing = nil
        let gpu = gpuTime.draw(&rng)
        enqueueGPU(GPUJob(duration: gpu, frame: frame), now: now)
        if lowLatencyNow(now) { tryStartRender(now) }
    }

    @inline(__always)
    mutating func noteBuffersHeld() {
        invariants.maxBuffersHeld = Swift.max(invariants.maxBuffersHeld, buffers.held)
        invariants.maxBuffersAllocated = Swift.max(invariants.maxBuffersAllocated, buffers.allocated)
    }
}
