import DequeModule
import SimKernel

/// The GPU (Docs/Model.md, "GPU"): one FIFO queue of jobs, each running for
/// its duration once the jobs before it are done. Generic over what a job
/// carries, so every platform's frames use it.
struct GPU<Job> {
    /// A job and how long it runs.
    struct Work {
        var job: Job
        var duration: SimTime
    }

    private var queue = Deque<Work>()
    private(set) var running: Work?
    /// When the running job started.
    private(set) var runningSince: SimTime = 0

    /// Submits a job; returns its end when it starts at once (the GPU was idle).
    mutating func submit(_ job: Job, duration: SimTime, now: SimTime) -> SimTime? {
        let w = Work(job: job, duration: duration)
        guard running == nil else {
            queue.append(w)
            return nil
        }
        running = w
        runningSince = now
        return now + duration
    }

    /// The running job is done: returns it, and the next job's end when one
    /// starts now.
    mutating func complete(now: SimTime) -> (done: Job, nextEnd: SimTime?) {
        let done = running.unsafelyUnwrapped.job
        running = queue.popFirst()
        runningSince = now
        return (done, running.map { now + $0.duration })
    }
}
