import SimKernel

/// Everything an Android run did, kept only when a trace or a pipeline
/// diagram asks for it (it grows with the simulated duration). Scans are
/// in ``FrameLog/scans``.
public final class AndroidFrameLog: @unchecked Sendable {
    /// A sample reaching the app's input channel.
    public struct Arrival: Sendable { public var scan: Int64; public var ready, arrival: SimTime; public var down: Bool }
    /// What the UI thread ran.
    public enum WorkKind: String, Sendable { case touchDown, frame, input }
    /// A stretch of UI-thread work; `frame` is -1 for a touch-down or a
    /// continuous app's input callback.
    public struct UIWork: Sendable {
        public var start, end: SimTime
        public var kind: WorkKind
        public var frame: Int64
        /// The frame time (Choreographer frames).
        public var frameTime: SimTime
        /// The newest sample it drew (-1: none).
        public var newestScan: Int64
    }
    /// The UI thread blocked in the sync, waiting for RenderThread.
    public struct SyncWait: Sendable { public var start, end: SimTime; public var frame: Int64 }
    /// RenderThread's (or the GL thread's) work on one frame: from the sync
    /// (or the dequeue) to the buffer, then commands until the queue.
    public struct RenderWork: Sendable { public var requested, start, queued: SimTime; public var frame: Int64; public var buffer: Int32 }
    /// A GPU job: submitted at the queue, started after its fence.
    public struct GPUJob: Sendable { public var submitted, start, end: SimTime; public var frame: Int64; public var buffer: Int32 }
    /// A latch at vsync-sf and its composition.
    public struct Latch: Sendable { public var time, compositionEnd: SimTime; public var frame: Int64; public var buffer: Int32 }
    /// A vsync-sf tick at which back-pressure latched nothing.
    public struct Skip: Sendable { public var time: SimTime }
    /// A present vsync: a new frame on screen, or the front repeated.
    public struct Present: Sendable {
        public var time: SimTime
        public var frame: Int64
        public var buffer: Int32
        public var repeated, hitch, measured: Bool
    }
    /// One app frame from its frame time to its present (-1: dropped).
    public struct Frame: Sendable {
        public var seq: Int64
        public var frameTime, expected, deadline, queued, gpuDone, latched, presented: SimTime
        public var buffer: Int32
        /// FrameTimeline's class.
        public var jank: JankClass
        /// The content it drew: its number (-1: none), the newest sample's
        /// scan and window start, and the drawn position's physical time.
        public var content: Int64
        public var newestScan: Int64
        public var windowStart, physicalTime: SimTime
        /// The newest position: resampled (and how) or a sample.
        public var resampled: String
    }

    public var arrivals: [Arrival] = []
    public var uiWork: [UIWork] = []
    public var syncWaits: [SyncWait] = []
    public var renderWork: [RenderWork] = []
    public var gpuJobs: [GPUJob] = []
    public var latches: [Latch] = []
    public var skips: [Skip] = []
    public var presents: [Present] = []
    public var frames: [Frame] = []
    /// vsync-app and vsync-sf ticks.
    public var appTicks: [SimTime] = []
    public var sfTicks: [SimTime] = []

    public init() {}
}
