import SimKernel
import TouchModel

/// What the app draws as the touch's newest position, and what measuring it
/// needs (Docs/Android.md, "Measurements").
struct DrawnContent {
    /// Content is numbered from 0 as the app makes it; a frame shows new
    /// content when its number is above the last one shown.
    var seq: Int64
    /// The newest position drawn: a resampled point (its physical time as
    /// ``Touch/time``) or a digitizer sample; ``Touch/scan`` and
    /// ``Touch/windowStart`` are those of the newest sample drawn.
    var newest: Touch
    /// Digitizer samples the app has drawn so far.
    var drawnSamples: Int64
    /// Where the stroke's end is drawn (the predicted position with prediction on).
    var drawn: TouchPoint
    /// The prediction horizon applied to ``drawn``.
    var horizon: SimTime
    /// How the newest position was made.
    var resampled: ResampleOutcome
}

/// How a Choreographer frame's newest position was made.
enum ResampleOutcome: UInt8 {
    /// A digitizer sample as reported (resampling off, no point, or a
    /// touch-down).
    case none
    /// Interpolated toward a sample still in the batch.
    case interpolated
    /// Extrapolated from the last two samples.
    case extrapolated
}

/// One app frame, one buffer, from its frame time to its present.
struct AndroidFrame {
    /// Frames are numbered from 0 in the order they begin.
    var seq: Int64
    /// What it draws; nil for a continuous frame read before any touch.
    var content: DrawnContent?
    /// The Choreographer frame time, or the GL thread's read instant.
    var frameTime: SimTime
    /// Its expected present `V_k`; -1 for a continuous frame (no vsync id).
    var expected: SimTime
    /// Its deadline `V_k - D_sf` (on-demand frames).
    var deadline: SimTime
    /// The buffer it draws into (-1 until dequeued).
    var buffer: Int32 = -1
    /// The release fence its buffer had at dequeue: its GPU job waits for it.
    var bufferFence: ReleaseFence = .signalled
    /// When it was queued (queueBuffer), -1 before.
    var queued: SimTime = -1
    /// When its GPU job ended (the acquire fence), -1 before.
    var gpuDone: SimTime = -1
    /// When SurfaceFlinger latched it, -1 before.
    var latched: SimTime = -1
    /// The vsync of the vsync-sf tick that latched it.
    var latchVsync: SimTime = -1
    /// The latch instant of the buffer latched just before it (-1: none).
    var previousLatch: SimTime = -1
    /// When its composition ended, -1 before.
    var composed: SimTime = -1
    /// True when its present signals the release fence of the buffer
    /// latched before it.
    var signalsFence = false

    /// A frame of `renderMode: continuous`: no vsync id.
    var isContinuous: Bool { expected < 0 }
}
