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
    /// A display that changes its rate: what its lower rate added to the
    /// frame's schedule beyond the peak rate's (``DisplayRate/rateWait(from:actual:offset:peakOffset:)``):
    /// iOS, the wait for the frame start, before delivery wait; Android,
    /// the later target vsync (a sparser grid, the low rate's work
    /// durations), at the end of present wait.
    case rateSwitchWait
    /// iOS: from ready to the delivery that runs the handler (the frame
    /// start, or a busy app).
    case deliveryWait
    /// Android: from the input channel to the start of the frame that
    /// consumes the sample (or draws a touch-down's response).
    case batchWait
    /// iOS: the touch handler, from its start to the commit the frame shows.
    case handler
    /// iOS with mid-frame event processing (`app.midFrameLead`): from the
    /// handler's end to the late read of the touches, the commit right
    /// after it (Docs/Ink.md, "Mid-frame input").
    case midFrameRead
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
    /// wait for its vsync); on a command-mode panel, to the vsync the frame
    /// was ready for.
    case presentWait
    /// Android, a command-mode panel only: what waking the gated clocks and
    /// the sleeping link cost a frame sent from idle (`display.idleWake`, an
    /// unpublished unknown): from the vsync it was ready for to the TE after
    /// the wake, whole periods, 0 when the wake ended before that vsync.
    case idleWake
    /// A front-buffered app (Android, Docs/Ink.md): from the input channel
    /// to the start of the UI-thread work that draws it (unbuffered input:
    /// the thread busy with earlier events; batched: the Choreographer's
    /// frame).
    case inputWait
    /// A front-buffered app: from the UI thread's hand-off to the
    /// front-buffer renderer's thread starting the draw (busy with an
    /// earlier draw or a dry commit).
    case renderWait
    /// A front-buffered app: the front-buffer renderer's commands for the
    /// draw, up to its GPU submission.
    case frontRender
    /// A front-buffered app: from the draw's end to the present that shows
    /// the front layer through SurfaceFlinger (a composed front buffer; on
    /// an overlay, a layer not yet shown); 0 on a shown overlay.
    case composeWait
    /// A front-buffered app: from the draw's end (or that present) to the
    /// scan-out passing the measured row: the scan line's race.
    case scanRace
    /// The scan-out from the top of the screen down to the measured row.
    case scanOut
    /// The panel's response (`device.panelResponse`).
    case panel

    /// The stages of a platform's frames, in order; an Android
    /// command-mode panel adds ``idleWake`` after ``presentWait``, a
    /// display that changes its rate ``rateSwitchWait`` before the first
    /// wait for its vsync.
    public static func stages(of platform: Platform, panel: PanelInterface = .video, switching: Bool = false) -> [BudgetStage] {
        let rate: [BudgetStage] = switching ? [.rateSwitchWait] : []
        switch platform {
        case .ios:
            return [.scan, .digitizer] + rate + [.deliveryWait, .handler, .renderServerWait, .prepare, .gpuWait, .gpu, .latchWait,
                                                 .scanOut, .panel]
        case .android:
            return [.resampling, .scan, .digitizer, .dispatch, .batchWait, .uiThread, .syncWait, .dequeueWait,
                    .renderThread, .gpuWait, .gpu, .latchWait, .presentWait] + rate
                + (panel == .command ? [.idleWake] : []) + [.scanOut, .panel]
        }
    }

    /// The stages of a configuration's frames, in order.
    public static func stages(of c: PipelineConfiguration) -> [BudgetStage] {
        if c.frontBuffered { return frontBufferedStages }
        if c.midFrameRead { return c.rate.switches ? midFrameStages.withRateSwitchWait : midFrameStages }
        return stages(of: c.platform, panel: c.platform == .android ? c.android.panelInterface : .video, switching: c.rate.switches)
    }

    /// The stages of an iOS app reading its touches mid-frame (Docs/Ink.md).
    public static let midFrameStages: [BudgetStage] = [
        .scan, .digitizer, .deliveryWait, .handler, .midFrameRead, .renderServerWait, .prepare, .gpuWait, .gpu, .latchWait,
        .scanOut, .panel,
    ]

    /// The stages of a front-buffered app's wet draws (Docs/Ink.md).
    public static let frontBufferedStages: [BudgetStage] = [
        .scan, .digitizer, .dispatch, .inputWait, .uiThread, .renderWait, .frontRender, .gpuWait, .gpu, .composeWait,
        .scanRace, .panel,
    ]

    /// A short name for tables and charts.
    public var phrase: String {
        switch self {
        case .resampling: return "resampling"
        case .scan: return "scan"
        case .digitizer: return "digitizer"
        case .dispatch: return "dispatch"
        case .rateSwitchWait: return "rate switch wait"
        case .deliveryWait: return "delivery wait"
        case .batchWait: return "batch wait"
        case .handler: return "handler"
        case .midFrameRead: return "mid-frame wait"
        case .inputWait: return "input wait"
        case .renderWait: return "render wait"
        case .frontRender: return "front render"
        case .composeWait: return "compose wait"
        case .scanRace: return "scan race"
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
        case .idleWake: return "idle wake"
        case .scanOut: return "scan-out"
        case .panel: return "panel"
        }
    }
}

extension [BudgetStage] {
    /// An iOS list with ``BudgetStage/rateSwitchWait`` before its delivery
    /// wait: the frame start a lower rate put later.
    public var withRateSwitchWait: [BudgetStage] {
        guard let i = firstIndex(of: .deliveryWait) else { return self }
        var stages = self
        stages.insert(.rateSwitchWait, at: i)
        return stages
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
    public let stats: [StreamingStats]
    /// Each stage's total, ns: the means add up to the mean touch-to-photon.
    public let totalNanos: [Int64]
    /// False when a total overflowed 64 bits (centuries of latency): the
    /// means then come from the streams, exact to a few parts in 1e16.
    public let totalsExact: Bool
    /// Frames whose stages did not add up to their touch-to-photon (an
    /// invariant: always 0).
    public let mismatches: Int

    /// Frames split.
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
}

/// Splits measured frames into stages during a run (``StageBudget``): the
/// pipeline walks a frame's chain of instants with ``begin(at:)``,
/// ``until(_:)`` and ``end(total:)``, once per measured frame, from the few
/// instants it stamped on the way. Its storage is allocated once, when the
/// run is prepared, and written in place through plain pointers: nothing is
/// allocated per frame, and nothing is copied (a reference: only one run
/// uses a recorder).
final class BudgetRecorder {
    let stages: [BudgetStage]
    let count: Int
    /// The frame being split: its chain so far, as offsets from its start
    /// (``BudgetChain``), ns.
    let current: UnsafeMutablePointer<SimTime>
    /// Durations worked out from a chain (``durations(of:into:)``).
    private let scratch: UnsafeMutablePointer<SimTime>
    /// Bit i set: stage i is a lead (a duration of its own, Android's
    /// resampling), not an instant along the chain.
    private let leads: UInt64
    /// Each stage's total, ns.
    let totals: UnsafeMutablePointer<Int64>
    /// Each stage's durations, ms.
    let stats: UnsafeMutablePointer<StreamingStats>
    /// The scan clock, and a walk over its ticks that follows the measured
    /// touches' windows (they only move forward): no division per frame.
    private let scanClock: PeriodicClock
    private var windowEnds: Ticker
    /// The stages the last chain had.
    private var filled = 0
    private var overflowed = false
    private(set) var mismatches = 0
    /// The distinct chains (with their totals) counted since the last flush.
    private let splits: Splits

    /// A tapping finger's touches carry an event number, not a scan window:
    /// whether it taps, and whether its touch-downs and lift-offs take a
    /// measured delay from the instant.
    private let taps: Bool
    private let digitizerDelay: SimTime
    private let downDelay: Bool
    private let upDelay: Bool

    init(platform: Platform, configuration c: borrowing PipelineConfiguration) {
        stages = BudgetStage.stages(of: c)
        count = stages.count
        // room for every stage there is: a chain writes without a bounds
        // check, and ``end(_:total:)`` checks it had its platform's count
        // and the frame's total after them (an entry of ``Splits``)
        current = .allocate(capacity: BudgetChain.capacity + 1)
        current.initialize(repeating: 0, count: BudgetChain.capacity + 1)
        scratch = .allocate(capacity: BudgetChain.capacity)
        scratch.initialize(repeating: 0, count: BudgetChain.capacity)
        leads = stages.enumerated().reduce(0) { $1.element == .resampling ? $0 | 1 << UInt64($1.offset) : $0 }
        totals = .allocate(capacity: count)
        totals.initialize(repeating: 0, count: count)
        stats = .allocate(capacity: count)
        stats.initialize(repeating: Measurements.milliseconds(), count: count)
        scanClock = c.scanClock
        windowEnds = scanClock.ticks(from: 1)
        splits = Splits(width: count + 1)
        taps = c.taps
        digitizerDelay = c.digitizerDelay
        downDelay = c.touchDownDelay != nil
        upDelay = c.touchUpDelay != nil
    }

    deinit {
        current.deallocate()
        scratch.deallocate()
        totals.deallocate()
        stats.deinitialize(count: count)
        stats.deallocate()
    }

    /// The end of the scan window that saw `t`. A tap's touch-down or
    /// lift-off with `auto` timing is seen by the first window that begins
    /// at or after its instant (its `windowStart`); with a measured delay no
    /// window is modelled, and the whole delay is the digitizer's.
    @inline(__always)
    func windowEnd(of t: Touch) -> SimTime {
        // a scanned touch is ready the digitizer's delay after its window
        if t.scanned { return t.ready &- digitizerDelay }
        guard taps else { return windowEnd(of: t.scan) }
        if t.lifted ? upDelay : downDelay { return t.time }
        return scanClock.tick(scanClock.index(atOrAfter: t.windowStart) &+ 1)
    }

    /// The end of scan window `scan`.
    @inline(__always)
    func windowEnd(of scan: Int64) -> SimTime {
        let k = scan &+ 1
        if k < windowEnds.index || k > windowEnds.index &+ 64 { return scanClock.tick(k) }
        while windowEnds.index < k { windowEnds.advance() }
        return windowEnds.time
    }

    /// The stages of the frame last split, ns.
    var currentStages: UnsafeBufferPointer<SimTime> {
        let n = Swift.min(filled, count)
        durations(of: current, stages: n, into: scratch)
        return UnsafeBufferPointer(start: scratch, count: n)
    }

    /// The stages of a chain given as offsets (``BudgetChain``), into `d`;
    /// returns their sum. Each instant's stage lasts from the chain's
    /// cursor (the latest instant so far, from 0) until it, empty when the
    /// cursor is already past it; a lead is a duration of its own and does
    /// not move the cursor.
    @discardableResult
    func durations(of offsets: UnsafePointer<SimTime>, stages n: Int, into d: UnsafeMutablePointer<SimTime>) -> SimTime {
        var cursor: SimTime = 0, sum: SimTime = 0
        for i in 0..<n {
            if leads >> UInt64(i) & 1 != 0 {
                d[i] = offsets[i]
            } else {
                let end = Swift.max(offsets[i], cursor)
                d[i] = end &- cursor
                cursor = end
            }
            sum &+= d[i]
        }
        return sum
    }

    /// A frame whose touch was taken at `start` begins: its chain is walked
    /// on the stack (``BudgetChain``), into the recorder's storage.
    @inline(__always)
    func chain(from start: SimTime) -> BudgetChain {
        BudgetChain(out: current, expected: splits.expected, start: start)
    }

    /// The frame's chain is complete, its touch-to-photon `total` ns: its
    /// stages are counted. A steady pipeline's frames go through the same
    /// few chains over and over (a 120 Hz scan under a 60 Hz display takes
    /// turns between a handful), so a chain, with its total, is counted as
    /// an entry of the distinct ones seen lately (``Splits``); the streams
    /// and totals take each entry's stages once per batch, with its count.
    /// Every figure the budget reports (exact totals, percentiles, maximum)
    /// depends on which values were recorded and how often, not on their
    /// order, so batching changes no figure.
    @inline(__always)
    func end(_ chain: BudgetChain, total: SimTime) {
        filled = chain.filled
        guard filled == count else {
            mismatches += 1
            return
        }
        // the entry expected next, compared offset by offset as the chain
        // was walked (no second pass over the stages), and by its total
        if chain.differs | (total ^ chain.expected[count]) == 0 {
            splits.countExpected()
            return
        }
        current[count] = total
        let mismatched = durations(of: current, stages: count, into: scratch) != total
        if !splits.count(current, mismatched: mismatched) {
            flush()
            _ = splits.count(current, mismatched: mismatched)
        }
    }

    /// Records the stages of every entry counted so far into the streams
    /// and totals.
    private func flush() {
        splits.settle()
        var overflow = false
        for k in 0..<splits.used {
            let n = splits.counts[k]
            if splits.mismatched[k] { mismatches += n }
            durations(of: splits.split(k), stages: count, into: scratch)
            for i in 0..<count {
                let d = scratch[i]
                stats[i].record(Double(d) / 1e6, count: n)
                let (product, o1) = d.multipliedReportingOverflow(by: Int64(n))
                let (t, o2) = totals[i].addingReportingOverflow(product)
                totals[i] = t
                overflow = overflow || o1 || o2
            }
        }
        if overflow { overflowed = true }
        splits.removeAll()
    }

    /// The budget so far, its streams settled.
    func result() -> StageBudget {
        flush()
        var all = Array(UnsafeBufferPointer(start: stats, count: count))
        for i in all.indices { all[i].settle() }
        return StageBudget(stages: stages, stats: all,
                           totalNanos: Array(UnsafeBufferPointer(start: totals, count: count)),
                           totalsExact: !overflowed, mismatches: mismatches)
    }
}

/// A measured frame's chain of instants from its touch to its photons
/// (``BudgetRecorder/chain(from:)``): a value on the stack. It keeps each
/// instant as its offset from the chain's start, and compares it with the
/// chain expected as it goes; the stages are worked out from the offsets
/// only for a chain not seen lately (``BudgetRecorder/durations(of:stages:into:)``):
/// each lasts from the latest instant before it until its own.
struct BudgetChain {
    /// The most stages a chain can have: every stage there is.
    static let capacity = BudgetStage.allCases.count
    let out: UnsafeMutablePointer<SimTime>
    /// The chain it is expected to repeat (``Splits/expected``), ``capacity``
    /// offsets.
    let expected: UnsafePointer<SimTime>
    /// The instant offsets are taken from.
    let start: SimTime
    /// Stages stored so far.
    var filled = 0
    /// Zero while every offset so far equals the expected chain's.
    var differs: SimTime = 0

    init(out: UnsafeMutablePointer<SimTime>, expected: UnsafePointer<SimTime>, start: SimTime) {
        self.out = out
        self.expected = expected
        self.start = start
    }

    @inline(__always)
    private mutating func store(_ value: SimTime) {
        precondition(filled < Self.capacity, "a budget chain has more stages than there are")
        out[filled] = value
        differs |= value ^ expected[filled]
        filled &+= 1
    }

    /// A lead: a stage of a given length that does not move along the
    /// chain (Android's resampling lead).
    @inline(__always)
    mutating func add(_ duration: SimTime) { store(duration) }

    /// The next stage lasts until `instant`.
    @inline(__always)
    mutating func until(_ instant: SimTime) { store(instant &- start) }
}

/// The distinct chains a ``BudgetRecorder`` has counted and not yet
/// recorded: up to ``capacity`` entries of `width` values each (a chain's
/// offsets, then its frame's total), with how many frames each stands
/// for; allocated once.
///
/// A steady pipeline's chains come round in a cycle (on
/// `ios9-coalescing-120hz`, two chains a nanosecond apart, from the
/// rounding of 120 Hz and 60 Hz instants, take turns), so the entry
/// expected next is the one found a period ago: a ``BudgetChain``
/// compares itself with it as it is walked (``expected``), and only a
/// chain that differs is looked for among the others. The period is
/// learned: after a miss it becomes the shortest (of at most
/// ``longestPeriod`` frames) with which the entries of the last
/// ``historySize`` frames repeat.
final class Splits {
    static let capacity = 16
    /// The frames remembered, and the longest period learned.
    static let historySize = 16
    static let longestPeriod = 8
    /// Values per entry.
    let width: Int
    /// The entries, in the order they were entered.
    private let table: UnsafeMutablePointer<SimTime>
    /// How many frames each entry stands for.
    let counts: UnsafeMutablePointer<Int>
    /// Whether each entry's stages fail to add up to its total.
    let mismatched: UnsafeMutablePointer<Bool>
    /// Entries used.
    private(set) var used = 0
    /// The entries found for the last frames (a ring), frames counted
    /// since the entries were last recorded, and the period.
    private let history: UnsafeMutablePointer<Int>
    private var found = 0
    private var period = 1
    /// The entries expected in turn from the last frame counted by
    /// ``count(_:mismatched:)`` on: each the one found `period` frames
    /// before it, so a cycle of `period` entries, or none before `period`
    /// frames were found (``cycleLength`` 0).
    private let cycle: UnsafeMutablePointer<Int>
    private let cycleValues: UnsafeMutablePointer<UnsafePointer<SimTime>>
    private var cycleLength = 0
    /// Where in the cycle the next frame is, and the frames foretold since
    /// the cycle was set, not yet counted (``settle()`` counts them).
    private var phase = 0
    private var foretold = 0
    /// The values of ``none``, an entry no chain matches (they are
    /// `Int64.min`, which no offset or total is).
    private let noneValues: UnsafePointer<SimTime>
    /// The values of the entry expected next (``none``'s when none is).
    private(set) var expected: UnsafePointer<SimTime>

    init(width: Int) {
        precondition(width <= BudgetChain.capacity + 1)
        self.width = width
        // the entries, then ``none``: a chain and its total are read from
        // the entry expected, up to a whole chain's worth and one more
        let entries = width * Self.capacity, padding = BudgetChain.capacity + 1
        table = .allocate(capacity: entries + padding)
        table.initialize(repeating: 0, count: entries)
        (table + entries).initialize(repeating: .min, count: padding)
        counts = .allocate(capacity: Self.capacity)
        counts.initialize(repeating: 0, count: Self.capacity)
        mismatched = .allocate(capacity: Self.capacity)
        mismatched.initialize(repeating: false, count: Self.capacity)
        history = .allocate(capacity: Self.historySize)
        history.initialize(repeating: 0, count: Self.historySize)
        noneValues = UnsafePointer(table + entries)
        expected = noneValues
        cycle = .allocate(capacity: Self.longestPeriod)
        cycle.initialize(repeating: 0, count: Self.longestPeriod)
        cycleValues = .allocate(capacity: Self.longestPeriod)
        cycleValues.initialize(repeating: noneValues, count: Self.longestPeriod)
    }

    deinit {
        table.deallocate()
        counts.deallocate()
        mismatched.deallocate()
        history.deallocate()
        cycle.deallocate()
        cycleValues.deallocate()
    }

    /// Entry `k`'s values.
    @inline(__always)
    func split(_ k: Int) -> UnsafeMutablePointer<SimTime> { table + k &* width }

    /// Sets the cycle expected from the frames found (none counted since
    /// unless it is settled): the last `period` entries found, in order.
    private func setCycle() {
        cycleLength = found >= period ? period : 0
        for j in 0..<cycleLength {
            cycle[j] = history[(found &- period &+ j) & (Self.historySize - 1)]
            cycleValues[j] = UnsafePointer(split(cycle[j]))
        }
        phase = 0
        expected = cycleLength > 0 ? cycleValues[0] : noneValues
    }

    /// Counts one more frame as the ``expected`` entry (its chain matched
    /// it, so there was one: ``none`` matches no chain). The count is kept
    /// as frames foretold in the cycle, and spread over its entries when
    /// the counts are read (``settle()``).
    @inline(__always)
    func countExpected() {
        foretold &+= 1
        phase &+= 1
        if phase == cycleLength { phase = 0 }
        expected = cycleValues[phase]
    }

    /// Counts the frames foretold since the cycle was set: frame `i` of
    /// them was the cycle's entry `i % period`, so each entry stands for
    /// `foretold / period` of them and the first `foretold % period` for
    /// one more; the last of them (up to ``historySize``) are remembered
    /// in order. Called before the counts or the history are read.
    func settle() {
        let n = foretold
        guard n > 0 else { return }
        let p = cycleLength
        for j in 0..<p { counts[cycle[j]] &+= n / p + (j < n % p ? 1 : 0) }
        let remembered = Swift.min(n, Self.historySize)
        found &+= n - remembered
        for i in (n - remembered)..<n { remember(cycle[i % p]) }
        foretold = 0
    }

    @inline(__always)
    private func remember(_ k: Int) {
        history[found & (Self.historySize - 1)] = k
        found &+= 1
    }

    @inline(__always)
    private func matches(_ k: Int, _ s: UnsafeMutablePointer<SimTime>) -> Bool {
        let t = split(k)
        var i = 0
        while i < width {
            if t[i] != s[i] { return false }
            i &+= 1
        }
        return true
    }

    /// Counts one more frame as the entry `s` (`width` values), one other
    /// than the entry expected (`mismatched`: its stages do not add up to
    /// its total); false when `s` is new and there is no room left for it
    /// (nothing is counted then).
    func count(_ s: UnsafeMutablePointer<SimTime>, mismatched isMismatched: Bool) -> Bool {
        settle()
        var k = 0
        while k < used && !matches(k, s) { k &+= 1 }
        if k == used {
            guard used < Self.capacity else { return false }
            split(used).update(from: s, count: width)
            counts[used] = 0
            mismatched[used] = isMismatched
            used &+= 1
        }
        counts[k] &+= 1
        period = learnedPeriod(newest: k)
        remember(k)
        setCycle()
        return true
    }

    /// The shortest period with which `k` and the entries before it repeat
    /// (the one learned so far when none does).
    private func learnedPeriod(newest k: Int) -> Int {
        // back(j): the entry found j frames before `k`
        func back(_ j: Int) -> Int { j == 0 ? k : history[(found &- j) & (Self.historySize - 1)] }
        let known = Swift.min(found, Self.historySize)
        var p = 1
        while p <= Swift.min(Self.longestPeriod, known) {
            var j = 0
            while j &+ p <= known && back(j) == back(j &+ p) { j &+= 1 }
            if j &+ p > known { return p }
            p &+= 1
        }
        return period
    }

    /// Forgets every entry.
    func removeAll() {
        used = 0
        found = 0
        foretold = 0
        setCycle()
    }
}
