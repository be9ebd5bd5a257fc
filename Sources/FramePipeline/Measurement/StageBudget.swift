import SimKernel

/// A stage of the touch-to-photon budget (Docs/Budget.md): a span of a
/// measured frame's life, named as in Docs/FollowingOneTouch.md. Each
/// platform's frames pass through its own list of stages, in order.
public enum BudgetStage: String, CaseIterable, Sendable {
    /// Android: the resampled point's lead over the newest consumed sample
    /// (zero or negative: resampling draws a later instant than the sample).
    case resampling
    /// From the sample instant to the end of its scan window.
    case scan
    /// From the window's end to the sample being ready (`device.digitizerDelay`).
    case digitizer
    /// Android: InputReader and InputDispatcher (`android.dispatchLatency`).
    case dispatch
    /// iOS: from ready to the delivery that runs the handler (the frame
    /// start, or a busy app).
    case deliveryWait
    /// Android: from the input channel to the start of the frame that
    /// consumes the sample (or draws a touch-down's response).
    case batchWait
    /// iOS: the touch handler, from its start to the commit the frame shows.
    case handler
    /// Android: the UI thread's frame work (input, animation, traversal).
    case uiThread
    /// Android: the UI thread blocked in the sync while RenderThread is busy.
    case syncWait
    /// Android: RenderThread (or the GL thread) waiting for a free buffer.
    case dequeueWait
    /// Android: RenderThread's commands, up to queueBuffer.
    case renderThread
    /// iOS: from the commit to the render server starting its prepare (a
    /// vsync wake, a busy server, no free buffer); for a Metal layer
    /// presented directly, the wait for a drawable.
    case renderServerWait
    /// iOS: the render server's prepare.
    case prepare
    /// The frame's GPU job waiting behind other jobs (Android: or for its
    /// buffer's release fence).
    case gpuWait
    /// The frame's GPU job.
    case gpu
    /// From the GPU's end to the latch (iOS: the vsync; Android:
    /// SurfaceFlinger's vsync-sf latch).
    case latchWait
    /// Android: from the latch to the present vsync (composition, and the
    /// wait for its vsync).
    case presentWait
    /// The scan-out from the top of the screen down to the measured row.
    case scanOut
    /// The panel's response (`device.panelResponse`).
    case panel

    /// The stages of a platform's frames, in order.
    public static func stages(of platform: Platform) -> [BudgetStage] {
        switch platform {
        case .ios:
            return [.scan, .digitizer, .deliveryWait, .handler, .renderServerWait, .prepare, .gpuWait, .gpu, .latchWait,
                    .scanOut, .panel]
        case .android:
            return [.resampling, .scan, .digitizer, .dispatch, .batchWait, .uiThread, .syncWait, .dequeueWait,
                    .renderThread, .gpuWait, .gpu, .latchWait, .presentWait, .scanOut, .panel]
        }
    }

    /// A short name for tables and charts.
    public var phrase: String {
        switch self {
        case .resampling: return "resampling"
        case .scan: return "scan"
        case .digitizer: return "digitizer"
        case .dispatch: return "dispatch"
        case .deliveryWait: return "delivery wait"
        case .batchWait: return "batch wait"
        case .handler: return "handler"
        case .uiThread: return "UI thread"
        case .syncWait: return "sync wait"
        case .dequeueWait: return "dequeue wait"
        case .renderThread: return "RenderThread"
        case .renderServerWait: return "render server wait"
        case .prepare: return "prepare"
        case .gpuWait: return "GPU wait"
        case .gpu: return "GPU"
        case .latchWait: return "latch wait"
        case .presentWait: return "present wait"
        case .scanOut: return "scan-out"
        case .panel: return "panel"
        }
    }
}

/// The touch-to-photon budget of a run: every measured frame's latency
/// split into its platform's stages, each streamed like the other figures.
/// A frame's stages are the gaps between a chain of instants from its
/// touch to its photons (each instant at or after the one before, so no
/// stage is negative except Android's resampling lead), so they add up to
/// its touch-to-photon to the nanosecond.
public struct StageBudget: Sendable {
    /// The stages, in order.
    public let stages: [BudgetStage]
    /// Each stage's durations, ms.
    public internal(set) var stats: [StreamingStats]
    /// Each stage's total, ns: the means add up to the mean touch-to-photon.
    public internal(set) var totalNanos: [Int64]
    /// False once a total overflowed 64 bits (centuries of latency): the
    /// means then come from the streams, exact to a few parts in 1e16.
    public private(set) var totalsExact = true
    /// The frame being split: its stages so far, ns (capacity kept).
    private(set) var current: [SimTime] = []
    private var cursor: SimTime = 0

    /// An empty budget for `platform`'s stages.
    public init(platform: Platform) {
        stages = BudgetStage.stages(of: platform)
        stats = stages.map { _ in Measurements.milliseconds() }
        totalNanos = stages.map { _ in 0 }
        current.reserveCapacity(stages.count)
    }

    /// Frames split so far.
    public var frames: Int { stats.first?.count ?? 0 }

    /// The stage's durations, or nil when the platform has no such stage.
    public subscript(_ stage: BudgetStage) -> StreamingStats? {
        stages.firstIndex(of: stage).map { stats[$0] }
    }

    /// The stage's mean, ms, from the exact total (nil before any frame).
    public func meanMs(_ stage: BudgetStage) -> Double? {
        guard frames > 0, let i = stages.firstIndex(of: stage) else { return nil }
        return totalsExact ? Double(totalNanos[i]) / Double(frames) / 1e6 : stats[i].mean
    }

    /// A frame whose touch was taken at `start` begins.
    @inline(__always)
    mutating func begin(at start: SimTime) {
        current.removeAll(keepingCapacity: true)
        cursor = start
    }

    /// A stage of a given length that does not move along the chain
    /// (Android's resampling lead).
    @inline(__always)
    mutating func add(_ duration: SimTime) { current.append(duration) }

    /// The next stage lasts until `instant` (or is empty when the chain is
    /// already past it).
    @inline(__always)
    mutating func until(_ instant: SimTime) {
        let end = Swift.max(cursor, instant)
        current.append(end - cursor)
        cursor = end
    }

    /// Frames whose stages did not add up to their touch-to-photon (an
    /// invariant: always 0).
    public private(set) var mismatches = 0

    /// The frame's stages are complete, its touch-to-photon `total` ns:
    /// they are recorded.
    @inline(__always)
    mutating func end(total: SimTime) {
        var sum: SimTime = 0
        for i in 0..<current.count {
            sum &+= current[i]
            let d = current[i]
            stats[i].record(Double(d) / 1e6)
            let (sum, overflow) = totalNanos[i].addingReportingOverflow(d)
            totalNanos[i] = sum
            if overflow { totalsExact = false }
        }
        if sum != total || current.count != stages.count { mismatches += 1 }
    }

    /// Adds values still pending in the streams.
    mutating func settle() {
        for i in stats.indices { stats[i].settle() }
    }
}
