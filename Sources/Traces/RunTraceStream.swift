import FramePipeline
import SimKernel

/// A run's trace made from its frame log as the run goes
/// (``FrameLogConsumer``): every ``interval`` vsyncs it turns what was
/// logged since the last time into events and, when it `trims`, empties
/// the log's lists, so that neither the log nor the trace's lists grow
/// with the simulated duration. Each kind of event goes to its own section
/// of the trace (``ChromeTrace/section(_:)``), so that the file lists them
/// as a trace made from the whole log at once does, byte for byte: a
/// platform's stream (``AndroidTraceStream``, ``IOSTraceStream``) reads
/// its lists in the order that trace adds them.
///
/// What needs a later record waits for it: a frame's "on screen" slice
/// ends at the next frame shown, and its flow is drawn then. The tables a
/// flow looks slices up in (``SliceWindow``) keep what a flow can still
/// reach: ``frameLag`` frames and four times as many samples before the
/// last flow's.
class RunTraceStream: FrameLogConsumer {
    let interval: Int
    // one thread reads a log: no run-time exclusivity checks on every event
    @exclusivity(unchecked) var trace: ChromeTrace
    let c: PipelineConfiguration
    let trims: Bool
    /// An Android run's FrameTimeline and input-event packets, for a native trace.
    let packets: NativePackets?
    private var failure: (any Error)?

    /// How far back, in frames, a flow may reach for its slices, and how
    /// many frames a frame may be logged after.
    static let frameLag: Int64 = 1_024

    /// Section 0 holds the display's vsyncs, 1 its rate; a platform's
    /// lists start at ``firstSection``.
    static let firstSection = 2
    private let vsyncTrack: ChromeTrace.TrackID
    // the display's vsyncs, made up to the time consumed
    private var clock: PeriodicClock
    private var tick: Int64 = 0
    private var rateByBoundary: [SimTime: Rational] = [:]
    private var rateStarted = false
    // where each list was read to (a log that is not trimmed), by section
    private var read = [Int](repeating: 0, count: 32)

    /// `trace` holds the tracks, the vsync track first.
    init(_ c: PipelineConfiguration, trace t: ChromeTrace, vsync: ChromeTrace.TrackID, packets: NativePackets? = nil,
         interval: Int, trims: Bool) {
        self.c = c
        self.packets = packets
        self.trims = trims
        self.interval = max(1, interval)
        trace = t
        vsyncTrack = vsync
        clock = c.vsyncClock
    }

    final func consume(_ log: FrameLog, now: SimTime) {
        consume(log, now: now, final: false)
    }

    /// Reads what is left of the log at the run's end and returns the trace.
    final func finish(_ log: FrameLog) -> ChromeTrace {
        consume(log, now: c.duration, final: true)
        return trace
    }

    private func consume(_ log: FrameLog, now: SimTime, final: Bool) {
        guard failure == nil else { return }
        do {
            try displayVsyncs(log, upTo: now)
            try read(log, upTo: now, final: final)
            if trace.settledEvents != nil {
                // the events of sections no flow reaches are settled as soon as made
                for k in 0..<trace.sectionCount where !windowed.contains(k) && !keptSections.contains(k) {
                    trace.settleMarks(section: k, below: trace.count(inSection: k))
                }
            }
            if trims {
                log.removeAllRecords()
                for k in read.indices { read[k] = 0 }
            }
        } catch {
            failure = error
        }
    }

    /// Throws what reading the log met: a spill file for a native trace's
    /// packets that could not be written (an environment error), or a
    /// record logged too late to be placed (an internal one). Neither can
    /// happen when the whole log is read at once.
    final func check() throws {
        if let failure { throw failure }
    }

    /// Settles the flows of section `k` that no flow can reach any more: a
    /// flow reaches that section's slices through `window` alone (all of
    /// them when nil: its slices are joined as they are made).
    final func settle(_ k: Int, through window: SliceWindow?) {
        windowed.insert(k)
        trace.settleMarks(section: k, below: window?.earliest ?? trace.count(inSection: k))
    }

    /// Runs `work` on the native trace's packets, if any. When the trace
    /// is written as the run goes, the packets it makes are encoded here
    /// and put in the sorter in turn with the settled events (on their
    /// thread, which then is the sorter's one user).
    final func withPackets(_ work: (NativePackets) throws -> Void) throws {
        guard let packets else { return }
        guard let settled = trace.settledEvents else { return try work(packets) }
        let batch = try packets.batch { try work(packets) }
        let sorter = packets.sorter
        settled.add { try batch.add(to: sorter) }
    }

    /// The sections settled through ``settle(_:through:)``.
    private var windowed: Set<Int> = []

    /// The sections whose events stay in the trace until it is written:
    /// those on tracks that may be written in another place than added
    /// (``ChromeTrace/track(named:group:)``), whose tids are known only then.
    var keptSections: [Int] { [] }

    /// Has the trace's settled events written as the run goes
    /// (``ChromeTrace/settledEvents``), before any is made.
    final func writeSettled(_ settled: SettledEvents) {
        precondition(trace.eventCount == 0, "settled events are written from the first")
        (settled as? SettledJSON)?.kept = keptSections
        trace.settledEvents = settled
    }

    deinit {
        // a trace dropped unwritten lets its thread end
        trace.settledEvents?.close()
    }

    /// Reads the platform's lists (the vsyncs before `now` are made).
    func read(_ log: FrameLog, upTo now: SimTime, final: Bool) throws {}

    /// The records of `list` not read yet, in order; `k` is the list's own
    /// number (its section).
    final func unread<T>(_ list: [T], _ k: Int) -> ArraySlice<T> {
        let from = read[k]
        read[k] = list.count
        return list[min(from, list.count)...]
    }

    /// The display's vsyncs as a trace draws them, and its rate as a
    /// counter (Docs/TraceFormats.md): a display at one rate ticks on its
    /// clock for the whole run; a display that changes its rate
    /// (`display.minHz`) ticks on each rate's grid from the vsync its
    /// switch took effect at (the first switch logged for that vsync), and
    /// its rate is a counter track ("display rate", in Hz) sampled at the
    /// start and at each switch. Made here up to `now`: a rate switch logged
    /// later takes effect at or after its request, so at or after `now`.
    private func displayVsyncs(_ log: FrameLog, upTo now: SimTime) throws {
        let end = c.duration
        if c.rate.switches && !rateStarted {
            rateStarted = true
            trace.section(1)
            trace.counter("display rate", atNs: 0, values: ["Hz": c.displayHz.doubleValue])
        }
        for s in unread(log.rateSwitches, 1) where s.boundary < end {
            let hz = rateByBoundary[s.boundary] ?? s.hz  // the first switch logged at a boundary rules it
            rateByBoundary[s.boundary] = hz
            vsyncs(before: s.boundary)
            clock = PeriodicClock(hz: hz, phase: s.boundary)
            tick = 0
            if c.rate.switches {
                trace.section(1)
                trace.counter("display rate", atNs: s.boundary, values: ["Hz": s.hz.doubleValue])
            }
        }
        vsyncs(before: min(now, end))
        // a switch logged later takes effect at or after `now`
        if rateByBoundary.count > 64 { rateByBoundary = rateByBoundary.filter { $0.key >= now } }
    }

    private func vsyncs(before limit: SimTime) {
        trace.section(0)
        while clock.tick(tick) < limit {
            trace.instant(vsyncTrack, name: "vsync", atNs: clock.tick(tick))
            tick += 1
        }
    }
}
