import SimKernel

/// How FrameTimeline classes a frame (Perfetto's `actual_frame_timeline_slice`).
public enum JankClass: String, Sendable, CaseIterable {
    /// Presented within 2 ms of its expected present.
    case onTime
    /// Its work (queue and GPU) ended after its deadline.
    case appDeadlineMissed
    /// Late because the buffer before it was latched at or after its
    /// deadline, its own work done in time for that.
    case bufferStuffing
    /// The app was on time; composition (or latchUnsignaled's wait for the
    /// GPU) ran past the vsync.
    case surfaceFlingerDeadlineMissed
    /// Never presented (`os.present: latest`).
    case dropped
    /// A continuous frame: no vsync id, not classified.
    case unknown

    /// Perfetto's jank-type string.
    public var perfettoName: String {
        switch self {
        case .onTime: return "None"
        case .appDeadlineMissed: return "App Deadline Missed"
        case .bufferStuffing: return "Buffer Stuffing"
        case .surfaceFlingerDeadlineMissed: return "SurfaceFlinger CPU Deadline Missed"
        case .dropped: return "Dropped Frame"
        case .unknown: return "Unknown Jank"
        }
    }
}

/// The FrameTimeline counts of a run: one class per presented or dropped
/// app frame; frames still in flight at the end are not counted.
public struct FrameTimelineCounts: Sendable, Hashable {
    /// Frames of each class, in ``JankClass`` order.
    public private(set) var counts = [Int](repeating: 0, count: JankClass.allCases.count)

    /// No frame yet.
    public init() {}

    /// The count of one class.
    public subscript(c: JankClass) -> Int { counts[JankClass.allCases.firstIndex(of: c)!] }

    @inline(__always)
    mutating func add(_ c: JankClass) {
        switch c {
        case .onTime: counts[0] += 1
        case .appDeadlineMissed: counts[1] += 1
        case .bufferStuffing: counts[2] += 1
        case .surfaceFlingerDeadlineMissed: counts[3] += 1
        case .dropped: counts[4] += 1
        case .unknown: counts[5] += 1
        }
    }
}

/// Android 12+'s FrameTimeline (Docs/Android.md, "Measurements"): it
/// follows each app frame from its frame time to its present or drop and
/// classes it as AOSP's `SurfaceFrame::classifyJankLocked` does (2 ms
/// present threshold, 0 ms deadline threshold, stuffing tested first).
/// It also knows the oldest frame in flight, for the hitch rule.
struct FrameTimeline {
    static let presentThreshold: SimTime = 2 * Nanos.perMillisecond
    /// The display period rounded half up to ns: `lastLatch + T`, an
    /// instant, rounds to `lastLatch` plus this.
    let roundedPeriod: SimTime
    private(set) var counts = FrameTimelineCounts()
    /// Frames begun and not yet presented or dropped, oldest first.
    private var inFlight = Ring<(seq: Int64, expected: SimTime, done: Bool)>()
    /// On-demand frames presented before their expected present (an invariant).
    private(set) var early = 0

    init(displayHz: Rational) {
        roundedPeriod = PeriodicClock(hz: displayHz).tick(1)
    }

    /// A frame begins (`expected` -1: a continuous frame).
    @inline(__always)
    mutating func begin(seq: Int64, expected: SimTime) { inFlight.append((seq, expected, false)) }

    /// True while a frame has begun and is neither presented nor dropped.
    var hasFrameInFlight: Bool { !inFlight.isEmpty }

    /// True when the oldest frame in flight was expected at or before `vsync`
    /// (a repeated vsync is then a hitch); continuous frames never are.
    func owes(at vsync: SimTime) -> Bool {
        guard let f = inFlight.first else { return false }
        return f.expected >= 0 && f.expected <= vsync
    }

    /// Frame `seq` was dropped.
    mutating func dropped(seq: Int64) {
        counts.add(.dropped)
        finish(seq)
    }

    /// Frame `seq`, expected at `expected` (-1: continuous) and classified
    /// `c` (``classify(_:present:)``), is presented now: returns its class.
    mutating func presented(_ seq: Int64, expected: SimTime, jank c: JankClass, now: SimTime) -> JankClass {
        finish(seq)
        if expected >= 0 && now < expected { early += 1 }
        counts.add(c)
        return c
    }

    /// The class of frame `f` presented at `present`.
    func classify(_ f: borrowing AndroidFrame, present: SimTime) -> JankClass {
        classify(expected: f.expected, deadline: f.deadline, previousLatch: f.previousLatch,
                 end: Swift.max(f.queued, f.gpuDone), present: present)
    }

    /// The class of a frame expected at `expected` (-1: continuous) with
    /// its deadline, the latch before it, and the end of its work (queued
    /// and its GPU done), presented at `present`.
    func classify(expected: SimTime, deadline: SimTime, previousLatch: SimTime, end: SimTime, present: SimTime) -> JankClass {
        if expected < 0 { return .unknown }
        let late = present - expected
        if late <= Self.presentThreshold { return .onTime }
        if previousLatch >= 0 && previousLatch >= deadline {
            // stuffed: judged against lastLatch + T, an instant rounded half up
            return end <= previousLatch + roundedPeriod ? .bufferStuffing : .appDeadlineMissed
        }
        return end > deadline ? .appDeadlineMissed : .surfaceFlingerDeadlineMissed
    }

    private mutating func finish(_ seq: Int64) {
        for i in 0..<inFlight.count where inFlight[i].seq == seq { inFlight[i].done = true }
        while let first = inFlight.first, first.done { inFlight.removeFirst() }
    }
}
