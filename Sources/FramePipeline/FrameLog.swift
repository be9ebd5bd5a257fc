import SimKernel

/// Everything that happened in a run, kept only when a trace or a pipeline
/// diagram asks for it (it grows with the simulated duration).
public final class FrameLog: @unchecked Sendable {
    public struct Scan: Sendable { public var windowStart, windowEnd, instant, ready: SimTime; public var index: Int64 }
    public struct Delivery: Sendable { public var time: SimTime; public var first, last: Int64; public var count: Int }
    public struct Handler: Sendable { public var start, end: SimTime; public var run: Int64; public var mainTouch: Int64 }
    public struct CommitMark: Sendable { public var time: SimTime; public var seq: Int64; public var mainTouch: Int64 }
    public struct Prepare: Sendable { public var start, end: SimTime; public var frame, commitSeq: Int64; public var buffer: Int8 }
    public struct GPUWork: Sendable {
        public var start, end: SimTime
        /// -1 for Metal work that rides with a Core Animation frame.
        public var frame, commitSeq: Int64
        public var metal: Bool
        public var buffer: Int8
    }
    public struct Latch: Sendable {
        public var time: SimTime
        public var frame, commitSeq, mainTouch: Int64
        public var buffer: Int8
        public var repeated, hitch, measured: Bool
        /// Where the frame draws the stroke's end (the predicted position
        /// with prediction on), in points.
        public var drawnX = 0.0, drawnY = 0.0
        /// The prediction horizon applied to that position.
        public var horizon: SimTime = 0
    }
    public struct Drop: Sendable { public var time: SimTime; public var frame: Int64 }
    public struct BufferSample: Sendable { public var time: SimTime; public var held, allocated: Int }

    public var scans: [Scan] = []
    public var deliveries: [Delivery] = []
    public var handlers: [Handler] = []
    public var commits: [CommitMark] = []
    public var prepares: [Prepare] = []
    public var gpuJobs: [GPUWork] = []
    public var latches: [Latch] = []
    public var drops: [Drop] = []
    public var bufferSamples: [BufferSample] = []
    /// An Android run's own records (nil on iOS).
    public var android: AndroidFrameLog?
    /// A force run's records (nil when the app does not use force).
    public var force: ForceLog?

    public init() {}
}
