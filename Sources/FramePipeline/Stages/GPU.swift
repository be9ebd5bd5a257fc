import SimKernel

/// A buffer's release fence as a GPU job sees it: it signals when the
/// presents of a pipeline have reached ``signalsAt`` (fences signal in
/// order, so one count says which have). A job whose buffer needs no wait
/// carries ``signalled``.
struct ReleaseFence: Hashable {
    /// The count of the present that signals it.
    var signalsAt: Int64

    /// A fence that has already signalled (or a buffer never presented).
    static let signalled = ReleaseFence(signalsAt: .min)
}

/// The GPU (Docs/Model.md, "GPU"): one FIFO queue of jobs, each running for
/// its duration once the jobs before it are done. Generic over what a job
/// carries, so every platform's frames use it.
///
/// A job may also wait for its buffer's release fence (Docs/Android.md,
/// "RenderThread"): at the head of the queue it holds the GPU until the
/// fence signals, and the jobs behind it wait too. A job submitted without
/// a fence (as every iOS job is) never waits.
struct GPU<Job> {
    /// A job, how long it runs, and the fence it waits for.
    struct Work {
        var job: Job
        var duration: SimTime
        var fence: ReleaseFence = .signalled
    }

    private var queue = Ring<Work>()
    private(set) var running: Work?
    /// When the running job started.
    private(set) var runningSince: SimTime = 0
    /// The head job, holding the GPU while it waits for its release fence.
    private(set) var blocked: Work?
    private var blockedSince: SimTime = 0
    /// Fences up to this count have signalled.
    private(set) var signalledThrough: Int64 = -1
    /// Jobs that waited for their release fence, and for how long in all.
    private(set) var fenceWaits = 0
    private(set) var fenceWaitTime: SimTime = 0

    /// Submits a job; returns its end when it starts at once (the GPU was
    /// idle and its fence, if any, has signalled).
    mutating func submit(_ job: Job, duration: SimTime, now: SimTime, fence: ReleaseFence = .signalled) -> SimTime? {
        let w = Work(job: job, duration: duration, fence: fence)
        guard running == nil && blocked == nil else {
            queue.append(w)
            return nil
        }
        return begin(w, now: now)
    }

    /// The running job is done: returns it, and the next job's end when one
    /// starts now.
    mutating func complete(now: SimTime) -> (done: Job, nextEnd: SimTime?) {
        let done = running.unsafelyUnwrapped.job
        running = nil
        runningSince = now
        guard let next = queue.popFirst() else { return (done, nil) }
        return (done, begin(next, now: now))
    }

    /// Fences up to `count` signal now: returns the end of the job that was
    /// waiting for one of them, when it starts.
    mutating func signal(through count: Int64, now: SimTime) -> SimTime? {
        signalledThrough = Swift.max(signalledThrough, count)
        guard let w = blocked, w.fence.signalsAt <= signalledThrough else { return nil }
        blocked = nil
        fenceWaitTime += now - blockedSince
        return begin(w, now: now)
    }

    /// Starts `w` now, or holds the GPU with it until its fence signals.
    private mutating func begin(_ w: Work, now: SimTime) -> SimTime? {
        if w.fence.signalsAt > signalledThrough {
            blocked = w
            blockedSince = now
            fenceWaits += 1
            return nil
        }
        running = w
        runningSince = now
        return now + w.duration
    }
}
