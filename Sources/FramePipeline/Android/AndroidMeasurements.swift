import SimKernel

/// The Android pipeline's own figures of a run (Docs/Android.md,
/// "Measurements"), beside the latency streams every platform has.
public struct AndroidMeasurements: Sendable {
    /// `D_app` as resolved, ns.
    public var appDuration: SimTime = 0
    /// `D_sf` as resolved, ns.
    public var sfDuration: SimTime = 0
    /// The BufferQueue's buffers.
    public var buffers = 0
    /// FrameTimeline's class of every presented or dropped app frame; nil
    /// on a release without FrameTimeline (before Android 12,
    /// ``AndroidVersion/hasFrameTimeline``).
    public var frameTimeline: FrameTimelineCounts?
    /// The most buffers held at once (from dequeue to release).
    public var maxBuffersHeld = 0
    /// Dequeues that waited for a free buffer.
    public var dequeueWaits = 0
    /// Their wait in all, ns.
    public var dequeueWaitTime: SimTime = 0
    /// GPU jobs that waited for their buffer's release fence.
    public var fenceWaits = 0
    /// Their wait in all, ns.
    public var fenceWaitTime: SimTime = 0
    /// The most buffers queued and not latched at once.
    public var maxQueued = 0
    /// The most buffers latched and not yet presented at once.
    public var maxLatchedPending = 0
    /// vsync-sf ticks with a queued buffer at which back-pressure latched nothing.
    public var backPressureSkips = 0
    /// Buffers released by a latch before their own GPU job ended.
    public var earlyReleases = 0
    /// Choreographer frames that ran.
    public var choreographerFrames = 0
    /// Of them, those decided late (the skipped-frame correction).
    public var lateFrames = 0
    /// Frames that consumed samples and interpolated their newest position.
    public var interpolated = 0
    /// Frames that extrapolated it.
    public var extrapolated = 0
    /// Frames that consumed samples and added no point (resampling on).
    public var notResampled = 0
    /// Frames sent from an idle command-mode panel (Docs/Android.md, "The
    /// panel's interface"); 0 on a video-mode panel or without a wake.
    public var idleWakes = 0
    /// What the wake cost them in all, ns: from the vsync each was ready for
    /// to its present.
    public var idleWakeDelay: SimTime = 0

    /// No figure yet.
    public init() {}
}
