import SimKernel
import TouchModel

/// Everything an Android run did, kept only when a trace or a pipeline
/// diagram asks for it (it grows with the simulated duration). Scans are
/// in ``FrameLog/scans``.
public final class AndroidFrameLog: @unchecked Sendable {
    /// A sample reaching the app's input channel.
    public struct Arrival: Sendable {
        /// The sample's scan window.
        public var scan: Int64
        /// Its evdev timestamp (ready) and its arrival at the channel.
        public var ready, arrival: SimTime
        /// True for a touch-down.
        public var down: Bool
        /// True for a tap's lift-off (``Touch/lifted``).
        public var lifted: Bool
        /// The reported position, points.
        public var position: TouchPoint
    }
    /// What the UI thread ran.
    public enum WorkKind: String, Sendable {
        /// A touch-down's handler.
        case touchDown
        /// A Choreographer frame.
        case frame
        /// A front-buffered app's input event (unbuffered): the touch
        /// handler hands the wet segment (or, on a lift, the dry commit) to
        /// the front-buffer renderer.
        case inkEvent
        /// A continuous app's input callback (it stores the position).
        case input
    }
    /// A stretch of UI-thread work.
    public struct UIWork: Sendable {
        /// When it ran.
        public var start, end: SimTime
        /// What it was.
        public var kind: WorkKind
        /// The frame it made; -1 for a touch-down or an input callback.
        public var frame: Int64
        /// The frame time (Choreographer frames).
        public var frameTime: SimTime
        /// The newest sample it drew (-1: none).
        public var newestScan: Int64
    }
    /// The UI thread blocked in the sync, waiting for RenderThread.
    public struct SyncWait: Sendable {
        /// When it blocked and when RenderThread took the frame.
        public var start, end: SimTime
        /// The frame it held.
        public var frame: Int64
    }
    /// RenderThread's (or the GL thread's) work on one frame.
    public struct RenderWork: Sendable {
        /// When it asked for a buffer, got it, and queued it.
        public var requested, start, queued: SimTime
        /// The frame.
        public var frame: Int64
        /// Its buffer.
        public var buffer: Int32
    }
    /// A GPU job.
    public struct GPUJob: Sendable {
        /// Submitted at the queue; started after the jobs before it and its
        /// release fence; ended.
        public var submitted, start, end: SimTime
        /// The frame.
        public var frame: Int64
        /// Its buffer.
        public var buffer: Int32
    }
    /// A latch at vsync-sf and its composition.
    public struct Latch: Sendable {
        /// The latch and the composition's end.
        public var time, compositionEnd: SimTime
        /// The frame.
        public var frame: Int64
        /// Its buffer.
        public var buffer: Int32
    }
    /// A frame sent from an idle command-mode panel: the wake of the gated
    /// clocks and the link (`display.idleWake`) from its composition's end.
    public struct IdleWake: Sendable {
        /// The wake's start (the composition's end) and end.
        public var start, end: SimTime
        /// The vsync the frame was ready for, and its present (the first TE
        /// after the wake): the wake cost it `present - ready`.
        public var ready, present: SimTime
        /// The frame.
        public var frame: Int64
    }
    /// A vsync-sf tick at which back-pressure latched nothing.
    public struct Skip: Sendable {
        /// The tick.
        public var time: SimTime
    }
    /// A present vsync: a new frame on screen, or the front repeated.
    public struct Present: Sendable {
        /// The vsync.
        public var time: SimTime
        /// The frame on screen after it.
        public var frame: Int64
        /// Its buffer.
        public var buffer: Int32
        /// A repeated vsync; a hitch; a frame with new touch content (measured).
        public var repeated, hitch, measured: Bool
    }
    /// One app frame from its frame time to its present or drop.
    public struct Frame: Sendable {
        /// Its number.
        public var seq: Int64
        /// Frame time, expected present (-1: continuous), deadline, queue,
        /// GPU end, latch (-1: never) and present (-1: dropped).
        public var frameTime, expected, deadline, queued, gpuDone, latched, presented: SimTime
        /// Its buffer.
        public var buffer: Int32
        /// FrameTimeline's class.
        public var jank: JankClass
        /// The number of the content it drew (-1: none).
        public var content: Int64
        /// The newest sample drawn.
        public var newestScan: Int64
        /// That sample's window start, and the drawn position's physical time.
        public var windowStart, physicalTime: SimTime
        /// The newest position: resampled (and how) or a sample.
        public var resampled: ResampleOutcome
    }

    /// A front-buffered app's draw into the front buffer (Docs/Ink.md).
    public struct FrontDraw: Sendable {
        /// The draw's number.
        public var draw: Int64
        /// The UI thread's hand-off, the renderer's start, the GPU
        /// submission, and the GPU job's start and end.
        public var posted, renderStart, submitted, gpuStart, gpuEnd: SimTime
        /// The newest sample drawn.
        public var newestScan: Int64
        /// The pen's row: its position (points) and its scan-out offset after a vsync.
        public var penY: Double
        public var rowOffset: SimTime
        /// The vsync from which the front layer was on screen for this draw.
        public var shownFrom: SimTime
        /// The scan-out's pass over the pen's row that showed it (the photons, before the panel).
        public var pass: SimTime
        /// Shown through SurfaceFlinger (a composed plane, or a layer not yet on screen).
        public var composed: Bool
        /// The scan-out passed the pen's row while the GPU drew it.
        public var torn: Bool
    }
    /// A front-buffered app's dry commit: the pen's lift, its being seen
    /// and handed to the renderer, and the frame that carried the dry stroke.
    public struct DryCommit: Sendable {
        public var lift, seen, posted: SimTime
        public var frame: Int64
    }

    /// Samples reaching the channel, in order.
    public var arrivals: [Arrival] = []
    /// Front-buffer draws, in order (front-buffered apps).
    public var frontDraws: [FrontDraw] = []
    /// Dry commits, in order (front-buffered apps).
    public var dryCommits: [DryCommit] = []
    /// Lifts reaching the app (front-buffered apps): the instant it saw them.
    public var lifts: [SimTime] = []
    /// UI-thread work, in order of start.
    public var uiWork: [UIWork] = []
    /// Syncs that blocked.
    public var syncWaits: [SyncWait] = []
    /// RenderThread (GL thread) work, in order of queue.
    public var renderWork: [RenderWork] = []
    /// GPU jobs, in order of start.
    public var gpuJobs: [GPUJob] = []
    /// Latches, in order.
    public var latches: [Latch] = []
    /// Idle wakes, in order (a command-mode panel with `display.idleWake` above 0).
    public var idleWakes: [IdleWake] = []
    /// vsync-sf ticks held back.
    public var skips: [Skip] = []
    /// Present vsyncs after the first present.
    public var presents: [Present] = []
    /// Frames presented or dropped, in that order.
    public var frames: [Frame] = []
    /// vsync-app ticks.
    public var appTicks: [SimTime] = []
    /// vsync-sf ticks.
    public var sfTicks: [SimTime] = []

    /// Empties every list (capacity kept).
    func removeAll() {
        arrivals.removeAll(keepingCapacity: true)
        frontDraws.removeAll(keepingCapacity: true)
        dryCommits.removeAll(keepingCapacity: true)
        lifts.removeAll(keepingCapacity: true)
        uiWork.removeAll(keepingCapacity: true)
        syncWaits.removeAll(keepingCapacity: true)
        renderWork.removeAll(keepingCapacity: true)
        gpuJobs.removeAll(keepingCapacity: true)
        latches.removeAll(keepingCapacity: true)
        idleWakes.removeAll(keepingCapacity: true)
        skips.removeAll(keepingCapacity: true)
        presents.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        appTicks.removeAll(keepingCapacity: true)
        sfTicks.removeAll(keepingCapacity: true)
    }

    /// An empty log.
    public init() {}
}
