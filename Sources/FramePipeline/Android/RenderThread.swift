import SimKernel

/// HWUI's RenderThread (Docs/Android.md, "RenderThread"): it takes the
/// frame the UI thread syncs to it, dequeues a buffer (waiting while none
/// is free), issues the frame's commands for `android.renderThread`, and
/// queues the buffer. It is busy from the sync until the queue.
struct RenderThread {
    let commandTime: DurationSampler
    /// From the sync to the queue.
    private(set) var busy = false
    /// The frame it works on (waiting for a buffer, or issuing commands).
    private var frame: AndroidFrame?

    init(configuration c: PipelineConfiguration) {
        commandTime = DurationSampler(c.android.renderThread)
    }

    /// The UI thread syncs a frame to it.
    mutating func receive(_ f: AndroidFrame) {
        busy = true
        frame = f
    }

    /// Its frame got `buffer` (with the release fence it had) now: returns
    /// when the commands are issued and the buffer is queued.
    mutating func startCommands(buffer: Int32, fence: ReleaseFence, now: SimTime, rng: inout SeededRandom) -> SimTime {
        frame!.buffer = buffer
        frame!.bufferFence = fence
        return now + commandTime.draw(&rng)
    }

    /// The commands are issued: returns the frame to queue; the thread is free.
    mutating func finishCommands() -> AndroidFrame {
        busy = false
        defer { frame = nil }
        return frame.unsafelyUnwrapped
    }
}

/// GLSurfaceView's GL thread in `RENDERMODE_CONTINUOUSLY` (Docs/Android.md,
/// "Touch-down, tap and render modes"): it dequeues a buffer (waiting while
/// none is free), reads the newest position the app stored, issues commands
/// for `android.renderThread`, queues, and starts again at once. Its frame
/// time is the instant it reads the position.
struct GLThread {
    let commandTime: DurationSampler
    /// The buffer it dequeued and has not drawn into yet.
    private var buffer: (id: Int32, fence: ReleaseFence)?
    /// The frame it issues commands for.
    private var frame: AndroidFrame?

    init(configuration c: PipelineConfiguration) {
        commandTime = DurationSampler(c.android.renderThread)
    }

    /// It got a buffer now; it reads the stored position after the
    /// completions of this instant.
    mutating func got(buffer id: Int32, fence: ReleaseFence) { buffer = (id, fence) }

    /// It reads `content` now, as frame `seq`: returns when its buffer is queued.
    mutating func read(_ content: DrawnContent?, seq: Int64, now: SimTime, rng: inout SeededRandom) -> SimTime {
        let b = buffer.unsafelyUnwrapped
        buffer = nil
        frame = AndroidFrame(seq: seq, content: content, frameTime: now, expected: -1, deadline: -1,
                             buffer: b.id, bufferFence: b.fence)
        return now + commandTime.draw(&rng)
    }

    /// The commands are issued: returns the frame to queue.
    mutating func finishCommands() -> AndroidFrame {
        defer { frame = nil }
        return frame.unsafelyUnwrapped
    }
}
