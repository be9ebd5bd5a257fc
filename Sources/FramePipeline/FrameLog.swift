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
    /// A mid-frame read (`app.midFrameLead`): at `time`, before the commit
    /// at `commit`, the app took `count` touches, scans `first` to `last`.
    public struct LateRead: Sendable { public var time, commit: SimTime; public var first, last: Int64; public var count: Int }
    public struct BufferSample: Sendable { public var time: SimTime; public var held, allocated: Int }
    /// A rate switch: when the policy asked for it, the vsync it took
    /// effect at, and the new rate.
    public struct RateSwitch: Sendable { public var requested, boundary: SimTime; public var hz: Rational }

    public var scans: [Scan] = []
    public var deliveries: [Delivery] = []
    public var handlers: [Handler] = []
    public var commits: [CommitMark] = []
    public var prepares: [Prepare] = []
    public var gpuJobs: [GPUWork] = []
    public var latches: [Latch] = []
    public var drops: [Drop] = []
    public var lateReads: [LateRead] = []
    public var bufferSamples: [BufferSample] = []
    /// The display's rate switches (a display that changes its rate).
    public var rateSwitches: [RateSwitch] = []
    /// An Android run's own records (nil on iOS).
    public var android: AndroidFrameLog?
    /// Every vsync after the first frame, in order (`--frames`).
    public var frames: [FrameRecord] = []
    /// The stage durations of the measured frames, ns, one run of the
    /// platform's stages per measured frame (see ``FrameRecord/stageOffset``).
    public var stageNanos: [SimTime] = []

    /// False when nothing reads the measured frames' stages (a trace without
    /// `--frames`): ``stageNanos`` stays empty and no offset is set.
    var keepsStages = true
    /// Where the vsyncs' records go instead of ``frames`` when the run
    /// streams them (``PipelineRun/streamFrames(to:)``).
    var stream: (any FrameRecordSink)?
    /// Records handed to ``stream`` since the events were last dropped.
    private var streamed = 0
    /// What reads the log as the run makes it (a trace written as the run
    /// goes): called every ``FrameLogConsumer/interval`` vsyncs, it may
    /// empty the lists it has read.
    var consumer: (any FrameLogConsumer)?
    /// Vsyncs recorded since ``consumer`` was last called.
    private var sinceConsumed = 0

    /// Adds a vsync's record; a measured one takes the budget's stages of
    /// the frame just split. A streaming log hands it on; without a
    /// ``consumer`` it keeps nothing: every 1,024 records it drops the
    /// events it was given, which nothing reads during a run, so its memory
    /// stays that of 1,024 vsyncs. With one (`--frames` and `--trace`
    /// together), the record is also kept, without its stages, until the
    /// consumer has read it.
    func record(_ r: FrameRecord, stages: UnsafeBufferPointer<SimTime>? = nil) {
        var r = r
        if let stream {
            stream.frame(r, stages: stages)
            if consumer == nil {
                streamed += 1
                if streamed == 1_024 {
                    streamed = 0
                    dropEvents()
                }
                return
            }
        } else if let stages, keepsStages {
            r.stageOffset = stageNanos.count
            stageNanos.append(contentsOf: stages)
        }
        frames.append(r)
        if let consumer {
            sinceConsumed += 1
            if sinceConsumed >= consumer.interval {
                sinceConsumed = 0
                consumer.consume(self, now: r.vsync)
            }
        }
    }

    /// Empties every list of records, the vsyncs' and Android's too
    /// (capacity kept): a trace made as the run goes has read them.
    public func removeAllRecords() {
        dropEvents()
        frames.removeAll(keepingCapacity: true)
        android?.removeAll()
    }

    /// Empties the event lists (capacity kept).
    private func dropEvents() {
        scans.removeAll(keepingCapacity: true)
        deliveries.removeAll(keepingCapacity: true)
        handlers.removeAll(keepingCapacity: true)
        commits.removeAll(keepingCapacity: true)
        prepares.removeAll(keepingCapacity: true)
        gpuJobs.removeAll(keepingCapacity: true)
        latches.removeAll(keepingCapacity: true)
        drops.removeAll(keepingCapacity: true)
        lateReads.removeAll(keepingCapacity: true)
        bufferSamples.removeAll(keepingCapacity: true)
        rateSwitches.removeAll(keepingCapacity: true)
    }

    /// A force run's records (nil when the app does not use force).
    public var force: ForceLog?

    public init() {}
}

/// Reads a run's frame log while the run makes it (``PipelineRun/consumeLog(with:)``):
/// every `interval` vsyncs, ``consume(_:now:)`` gets the log as it stands
/// at `now` (nothing logged later happens before `now`), and may empty
/// the lists it has read, so that the log holds about `interval` vsyncs.
public protocol FrameLogConsumer: AnyObject {
    var interval: Int { get }
    func consume(_ log: FrameLog, now: SimTime)
}

/// Takes a run's vsync records as they are made (`--frames` written as
/// the run goes): `stages` holds a measured frame's stage durations, ns,
/// in the order of the run's ``StageBudget/stages`` (nil otherwise), and
/// is valid only during the call. The record's ``FrameRecord/stageOffset``
/// is -1.
public protocol FrameRecordSink: AnyObject {
    func frame(_ record: FrameRecord, stages: UnsafeBufferPointer<SimTime>?)
}

/// One vsync of a run as `--frames` exports it: what the display showed,
/// and for a frame with new touch content its latency and stage budget.
public struct FrameRecord: Sendable {
    /// What a vsync showed.
    public enum Kind: String, Sendable {
        /// A frame with touch content newer than any shown before (measured).
        case new
        /// A new frame whose touch content was already shown.
        case old
        /// The front frame again.
        case repeated
    }

    /// The vsync (iOS: the latch; Android: the present).
    public var vsync: SimTime
    /// The frame on screen.
    public var frame: Int64
    public var kind: Kind
    /// A repeated frame while newer content was owed.
    public var hitch: Bool
    /// Frames dropped at this vsync (Android: at the latches since the last present).
    public var dropped: Int
    /// Display buffers held (iOS: by the render server's pool; Android: by the BufferQueue's producer and consumer).
    public var buffersHeld: Int
    /// The touch drawn (its scan window), -1 when none.
    public var touchScan: Int64
    /// The true time of the position drawn (Android: a resampled point's physical time).
    public var touchTime: SimTime
    /// The photon instant of the position drawn.
    public var photon: SimTime
    /// The talk's pipeline frames of a measured frame; nil otherwise.
    public var pipelineFrames: Double?
    /// Where its stage durations start in ``FrameLog/stageNanos`` (-1: not measured).
    public var stageOffset: Int

    /// Touch-to-photon, ns, of a measured frame.
    public var touchToPhoton: SimTime? { kind == .new ? photon - touchTime : nil }
}

extension FrameLog {
    /// The stage durations of measured frame `r`, ns, in the order of the
    /// run's ``StageBudget/stages`` (empty when not measured).
    public func stages(of r: FrameRecord, count: Int) -> ArraySlice<SimTime> {
        r.stageOffset < 0 ? [] : stageNanos[r.stageOffset..<(r.stageOffset + count)]
    }
}
