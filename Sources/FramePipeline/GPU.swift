import SimKernel

/// The GPU: one FIFO queue. A completed frame joins the present queue.
/// Metal frames presented directly take a display buffer at submission,
/// waiting for one when none is free.
extension PipelineRun {
    mutating func enqueueGPU(_ job: GPUJob, now: SimTime) {
        if gpuRunning == nil {
            startGPU(job, now: now)
        } else {
            gpuQueue.append(job)
        }
    }

    mutating func startGPU(_ job: GPUJob, now: SimTime) {
        gpuRunning = job
        log?.gpuJobs.append(.init(start: now, end: now + job.duration, frame: job.frame.id,
                                  commitSeq: job.frame.commit.seq, metal: job.frame.path != .renderServer,
                                  buffer: job.frame.buffer))
        queue.schedule(at: now + job.duration, kind: PipelineEvent.gpuDone.rawValue)
    }

    /// The running GPU job is done.
    mutating func gpuDone(_ now: SimTime) {
        let job = gpuRunning!
        gpuRunning = nil
        if let next = gpuQueue.popFirst() { startGPU(next, now: now) }
        if job.frame.path != .metalWithCoreAnimation { presentQueue.append(job.frame) }
    }

    /// A Metal frame presented straight to the display (lowLatency,
    /// presentsWithTransaction false): no render server.
    mutating func submitMetalDirect(_ c: Commit, gpu: SimTime, now: SimTime) {
        let frame = Frame(id: nextFrameID, commit: c, path: .metal, buffer: -1)
        nextFrameID += 1
        var job = GPUJob(duration: gpu, frame: frame)
        if let b = buffers.acquire(at: now) {
            job.frame.buffer = b
            noteBuffersHeld()
            enqueueGPU(job, now: now)
        } else {
            bufferWaiters.append(job)
        }
    }

    /// Gives a display buffer back; a Metal frame waiting for one takes it.
    mutating func releaseBuffer(_ id: Int8, now: SimTime) {
        buffers.release(id)
        if var job = bufferWaiters.popFirst(), let b = buffers.acquire(at: now) {
            job.frame.buffer = b
            noteBuffersHeld()
            enqueueGPU(job, now: now)
        }
    }
}
