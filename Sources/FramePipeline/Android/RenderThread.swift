import SimKernel

/// HWUI's RenderThread (Docs/Android.md, "RenderThread"): it takes the
/// frame the UI thread syncs to it, dequeues a buffer (waiting while none
/// is free), issues the frame's commands for `android.renderThread`, and
/// queues the buffer. It is busy from the sync until the queue.
struct RenderThread {
    var commandTime: DurationSampler
    /// From the sync to the queue.
    private(set) var busy = false
    /// The frame it works on (waiting for a buffer, or issuing commands).
    private(set) var frame: Int64 = -1

    init(configuration c: borrowing PipelineConfiguration) {
        commandTime = DurationSampler(c.android.renderThread)
    }

    /// The UI thread syncs frame `seq` to it.
    mutating func receive(_ seq: Int64) {
        busy = true
        frame = seq
    }

    /// Its frame got its buffer now: returns when the commands are issued
    /// and the buffer is queued.
    mutating func startCommands(now: SimTime, rng: inout SeededRandom) -> SimTime {
        now + commandTime.draw(&rng)
    }

    /// The commands are issued: returns the frame to queue; the thread is free.
    mutating func finishCommands() -> Int64 {
        busy = false
        return frame
    }
}

/// GLSurfaceView's GL thread in `RENDERMODE_CONTINUOUSLY` (Docs/Android.md,
/// "Touch-down, tap and render modes"): it dequeues a buffer (waiting while
/// none is free), reads the newest position the app stored, issues commands
/// for `android.renderThread`, queues, and starts again at once. Its frame
/// time is the instant it reads the position.
struct GLThread {
    var commandTime: DurationSampler
    /// The buffer it dequeued, with the release fence it had.
    private(set) var buffer: (id: Int32, fence: ReleaseFence) = (-1, .signalled)
    /// The frame it issues commands for.
    private(set) var frame: Int64 = -1

    init(configuration c: borrowing PipelineConfiguration) {
        commandTime = DurationSampler(c.android.renderThread)
    }

    /// It got a buffer now; it reads the stored position after the
    /// completions of this instant.
    mutating func got(buffer id: Int32, fence: ReleaseFence) { buffer = (id, fence) }

    /// It reads the stored position now, as frame `seq`: returns when its
    /// buffer is queued.
    mutating func read(seq: Int64, now: SimTime, rng: inout SeededRandom) -> SimTime {
        frame = seq
        return now + commandTime.draw(&rng)
    }

    /// The commands are issued: returns the frame to queue.
    mutating func finishCommands() -> Int64 { frame }
}
