import FramePipeline
import LatsimOutput
import Scenarios
import SimKernel

/// An Android run's trace (``AndroidTraceExport``) made from its frame log
/// as the run goes: every ``interval`` vsyncs it turns what was logged
/// since the last time into events and, when it `trims`, empties the
/// log's lists, so that neither the log nor the trace's lists grow with
/// the simulated duration. Each kind of event goes to its own section of
/// the trace (``ChromeTrace/section(_:)``), so the file lists them as a
/// trace made from the whole log at once does, byte for byte.
///
/// What needs a later record waits for it: a frame's "on screen" slice
/// ends at the next frame shown, and its flow is drawn then; the
/// FrameTimeline frames go out in increasing vsync id, held until
/// ``frameLag`` newer frames have been logged (a frame is logged when
/// presented or dropped, a few frames at most after newer ones). The
/// tables that flows look slices up in keep what a flow can still reach.
final class AndroidTraceStream: FrameLogConsumer {
    let interval: Int
    // one thread reads a log: no run-time exclusivity checks on every event
    @exclusivity(unchecked) private(set) var trace: ChromeTrace
    /// FrameTimeline's and the input events' packets (a native trace's).
    let packets: AndroidPackets?
    private let c: PipelineConfiguration
    private let timelineTracks: Bool
    private let trims: Bool
    private var failure: (any Error)?

    /// Frames logged after this many newer ones are out of order beyond
    /// what the pipeline can make.
    static let frameLag: Int64 = 1_024

    private enum Section: Int {
        case vsync, rate, scans, arrivals, ui, syncWaits, render, gpu, latches, idleWakes, skips, appTicks, sfTicks
        case shown, tearing, repeated, bufferQueue, expected, actual
    }

    private let vsync, input, ui, render, gpu, sf, display: ChromeTrace.TrackID
    private var expectedTracks = TimelineTracks(name: "Expected Timeline", group: 1)
    private var actualTracks = TimelineTracks(name: "Actual Timeline", group: 2)

    // the display's vsyncs, made up to the time consumed
    private var clock: PeriodicClock
    private var tick: Int64 = 0
    private var rateByBoundary: [SimTime: Rational] = [:]

    // where each list was read to (a log that is not trimmed)
    private var read = [Int](repeating: 0, count: 20)
    private var rateStarted = false

    // the slices a flow may pass through
    @exclusivity(unchecked) private var scanRef = SliceWindow(), uiRef = SliceWindow(), renderRef = SliceWindow()
    @exclusivity(unchecked) private var gpuRef = SliceWindow(), latchRef = SliceWindow()
    /// Each frame's newest sample (its last logged record's).
    @exclusivity(unchecked) private var newestScan: [Int64: Int64] = [:]
    /// The frame shown last, whose slice waits for the next.
    private var lastShown: AndroidFrameLog.Present?
    /// The frames logged and not yet written to the timelines, and the
    /// newest vsync id logged and the last written.
    private var waiting: [AndroidFrameLog.Frame] = []
    private var newestSeq = Int64.min, writtenSeq = Int64.min
    /// The gesture's touch-down (input events).
    private var downTime: SimTime?

    init(_ c: PipelineConfiguration, scenario: String, timelineTracks: Bool, nativePackets: Bool,
         memoryLimit: Int = ChromeTrace.memoryLimit, sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit,
         interval: Int = 1_024, trims: Bool = true) {
        self.c = c
        self.timelineTracks = timelineTracks
        self.trims = trims
        self.interval = max(1, interval)
        var t = ChromeTrace(processName: "latsim \(scenario) (Android)", memoryLimit: memoryLimit)
        vsync = t.track(named: "vsync")
        let tracks = AndroidTraceExport.threadTracks.map { t.track(named: $0) }
        (input, ui, render, gpu, sf, display) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4], tracks[5])
        trace = t
        clock = c.vsyncClock
        if nativePackets {
            let p = AndroidPackets(sortMemoryLimit: sortMemoryLimit, pid: t.pid)
            if c.android.version.hasFrameTimeline {
                p.frameTimeline(layerName: "latsim \(scenario)#0", surfaceFlingerPid: FrameTimelineTracks.defaultSurfaceFlingerPid)
            }
            packets = p
        } else {
            packets = nil
        }
    }

    func consume(_ log: FrameLog, now: SimTime) {
        guard failure == nil else { return }
        do { try read(log, upTo: now, final: false) } catch { failure = error }
    }

    /// Reads what is left of the log at the run's end and returns the
    /// trace.
    func finish(_ log: FrameLog) -> ChromeTrace {
        consume(log, now: c.duration, final: true)
        return trace
    }

    private func consume(_ log: FrameLog, now: SimTime, final: Bool) {
        guard failure == nil else { return }
        do { try read(log, upTo: now, final: final) } catch { failure = error }
    }

    /// Throws what reading the log met: a spill file for the packets that
    /// could not be written (an environment error), or a frame logged too
    /// late to be placed (an internal one). Neither can happen when the
    /// whole log is read at once without native packets.
    func check() throws {
        if let failure { throw failure }
    }

    /// The records of `list` not read yet, in order.
    private func unread<T>(_ list: [T], _ s: Section) -> ArraySlice<T> {
        let from = read[s.rawValue]
        read[s.rawValue] = list.count
        return list[min(from, list.count)...]
    }

    private func read(_ log: FrameLog, upTo now: SimTime, final: Bool) throws {
        guard let a = log.android else { return }
        let end = c.duration
        let ms = { (ns: SimTime) -> TraceValue in .number(Double(ns) / 1e6) }

        // the vsyncs before `now` (a rate switch logged later takes effect
        // at or after its request, so at or after `now`), and the rate
        for s in unread(log.rateSwitches, .rate) where s.boundary < end {
            let hz = rateByBoundary[s.boundary] ?? s.hz  // the first switch logged at a boundary rules it
            rateByBoundary[s.boundary] = hz
            vsyncs(before: s.boundary)
            clock = PeriodicClock(hz: hz, phase: s.boundary)
            tick = 0
            if c.rate.switches {
                trace.section(Section.rate.rawValue)
                trace.counter("display rate", atNs: s.boundary, values: ["Hz": s.hz.doubleValue])
            }
        }
        vsyncs(before: min(now, end))
        trace.section(Section.scans.rawValue)
        for s in unread(log.scans, .scans) {
            scanRef[s.index] = trace.slice(input, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
                                           args: ["sample instant ms": ms(s.instant), "evdev time ms": ms(s.ready)])
        }
        trace.section(Section.arrivals.rawValue)
        for r in unread(a.arrivals, .arrivals) {
            trace.instant(input, name: r.down ? "DOWN \(r.scan) reaches the app" : "MOVE \(r.scan) reaches the app", atNs: r.arrival,
                          args: ["evdev time ms": ms(r.ready)])
            if let packets {
                if r.down { downTime = r.ready }
                let action: InputEventTouch.Action = r.down ? .down : (r.lifted ? .up : .move)
                // a scan index past 2^32 wraps (a run of 2^32 scans is 7 weeks at 1 kHz)
                try packets.add(InputEventTouch(eventID: UInt32(truncatingIfNeeded: r.scan), eventTime: r.ready, downTime: downTime,
                                                dispatch: r.arrival, action: action, x: r.position.x, y: r.position.y))
            }
        }
        trace.section(Section.ui.rawValue)
        for w in unread(a.uiWork, .ui) {
            let name: String
            switch w.kind {
            case .frame: name = "Choreographer#doFrame \(w.frame)"
            case .touchDown: name = "deliverInputEvent DOWN \(w.newestScan)"
            case .input: name = "Choreographer#doFrame (input, stored for the GL thread)"
            case .inkEvent: name = "onTouchEvent: renderFrontBufferedLayer"
            }
            let ref = trace.slice(ui, name: name, startNs: w.start, durationNs: w.end - w.start,
                                  args: ["frame time ms": ms(w.frameTime), "newest sample": .integer(w.newestScan)])
            if w.frame >= 0 { uiRef[w.frame] = ref }
        }
        trace.section(Section.syncWaits.rawValue)
        for w in unread(a.syncWaits, .syncWaits) {
            trace.slice(ui, name: "syncFrameState: waiting for RenderThread", startNs: w.start, durationNs: w.end - w.start,
                        args: ["frame": .integer(w.frame)])
        }
        trace.section(Section.render.rawValue)
        for w in unread(a.renderWork, .render) {
            if w.start > w.requested {
                trace.slice(render, name: "dequeueBuffer (waiting)", startNs: w.requested, durationNs: w.start - w.requested)
            }
            renderRef[w.frame] = trace.slice(render, name: "DrawFrame \(w.frame)", startNs: w.start, durationNs: w.queued - w.start,
                                             args: ["buffer": .integer(Int64(w.buffer))])
            trace.instant(render, name: "queueBuffer \(w.frame)", atNs: w.queued)
        }
        trace.section(Section.gpu.rawValue)
        for g in unread(a.gpuJobs, .gpu) {
            gpuRef[g.frame] = trace.slice(gpu, name: "GPU frame \(g.frame)", startNs: g.start, durationNs: g.end - g.start,
                                          args: ["buffer": .integer(Int64(g.buffer)), "queued ms": ms(g.submitted)])
        }
        trace.section(Section.latches.rawValue)
        for l in unread(a.latches, .latches) {
            latchRef[l.frame] = trace.slice(sf, name: "latch and composite frame \(l.frame)", startNs: l.time,
                                            durationNs: l.compositionEnd - l.time, args: ["buffer": .integer(Int64(l.buffer))])
        }
        trace.section(Section.idleWakes.rawValue)
        for w in unread(a.idleWakes, .idleWakes) {
            // a command-mode panel sent this frame from idle: its clocks and link woke first
            trace.slice(sf, name: "idle wake (display.idleWake, an unknown) frame \(w.frame)", startNs: w.start, durationNs: w.end - w.start,
                        args: ["ready for vsync ms": ms(w.ready), "present ms": ms(w.present), "cost ms": ms(w.present - w.ready)])
        }
        trace.section(Section.skips.rawValue)
        for s in unread(a.skips, .skips) { trace.instant(sf, name: "back-pressure: nothing latched", atNs: s.time) }
        trace.section(Section.appTicks.rawValue)
        for x in unread(a.appTicks, .appTicks) { trace.instant(ui, name: "vsync-app", atNs: x) }
        trace.section(Section.sfTicks.rawValue)
        for x in unread(a.sfTicks, .sfTicks) { trace.instant(sf, name: "vsync-sf", atNs: x) }

        // each frame's newest sample, for its flow; the timelines' frames wait for their turn
        for f in unread(a.frames, .expected) {
            newestScan[f.seq] = f.newestScan
            guard f.seq > writtenSeq else {
                throw LatsimError(.internal, problem: "frame \(f.seq) was logged after \(Self.frameLag) newer frames: the trace cannot place it")
            }
            waiting.append(f)
            newestSeq = max(newestSeq, f.seq)
        }
        // a frame's slice ends where the next frame shown begins; its flow is drawn then
        for p in unread(a.presents, .shown) {
            if p.repeated {
                trace.section(Section.repeated.rawValue)
                trace.instant(display, name: p.hitch ? "repeated frame (hitch)" : "repeated frame", atNs: p.time)
                continue
            }
            if let last = lastShown { shown(last, until: p.time) }
            lastShown = p
            if c.android.panelInterface == .command {
                // the host writes each new frame into the panel's memory from its TE pulse, ahead of the panel's read
                trace.section(Section.tearing.rawValue)
                trace.instant(display, name: "TE: frame \(p.frame) written to panel memory", atNs: p.time)
            }
        }
        if final, let last = lastShown {
            shown(last, until: end)
            lastShown = nil
        }
        trace.section(Section.bufferQueue.rawValue)
        for f in unread(log.frames, .bufferQueue) {
            trace.counter("BufferQueue", atNs: f.vsync, values: ["buffers held": Double(f.buffersHeld)])
        }
        try timelines(final: final)
        if trims { trim(log, a) }
    }

    /// The display's vsync instants before `limit` not yet made.
    private func vsyncs(before limit: SimTime) {
        if c.rate.switches && !rateStarted {
            rateStarted = true
            trace.section(Section.rate.rawValue)
            trace.counter("display rate", atNs: 0, values: ["Hz": c.displayHz.doubleValue])
        }
        trace.section(Section.vsync.rawValue)
        while clock.tick(tick) < limit {
            trace.instant(vsync, name: "vsync", atNs: clock.tick(tick))
            tick += 1
        }
    }

    /// The slice of a frame on screen from `p` to `until`, and its flow
    /// when it was measured: scan, UI work, RenderThread, GPU, latch, present.
    private func shown(_ p: AndroidFrameLog.Present, until: SimTime) {
        trace.section(Section.shown.rawValue)
        let ref = trace.slice(display, name: "frame \(p.frame) on screen", startNs: p.time, durationNs: until - p.time,
                              args: ["buffer": .integer(Int64(p.buffer))])
        guard p.measured, let scan = newestScan[p.frame], let first = scanRef[scan] else { return }
        var steps = [first]
        steps.reserveCapacity(6)
        if let r = uiRef[p.frame] { steps.append(r) }
        if let r = renderRef[p.frame] { steps.append(r) }
        if let r = gpuRef[p.frame] { steps.append(r) }
        if let r = latchRef[p.frame] { steps.append(r) }
        steps.append(ref)
        trace.flow(id: UInt64(p.frame + 1), name: "touch \(scan)", through: steps)
        // what no later flow reaches: frames before this one, samples well before its newest
        forget(below: p.frame, scan: scan)
    }

    private var forgotten = 0
    private func forget(below frame: Int64, scan: Int64) {
        forgotten += 1
        guard forgotten >= 4_096 else { return }
        forgotten = 0
        let keepFrom = frame - Self.frameLag
        uiRef.forget(below: keepFrom)
        renderRef.forget(below: keepFrom)
        gpuRef.forget(below: keepFrom)
        latchRef.forget(below: keepFrom)
        newestScan = newestScan.filter { $0.key >= keepFrom }
        scanRef.forget(below: scan - 4 * Self.frameLag)
    }

    /// Writes the waiting frames `frameLag` behind the newest (all of them
    /// at the end) to FrameTimeline's timelines, in increasing vsync id.
    private func timelines(final: Bool) throws {
        guard !waiting.isEmpty else { return }
        let limit = final ? Int64.max : newestSeq - Self.frameLag
        guard final || waiting.contains(where: { $0.seq <= limit }) else { return }
        waiting.sort { $0.seq < $1.seq }
        let cut = waiting.firstIndex { $0.seq > limit } ?? waiting.count
        guard cut > 0 else { return }
        let timing = c.androidTiming
        let hasFrameTimeline = c.android.version.hasFrameTimeline
        if timelineTracks && hasFrameTimeline {
            trace.section(Section.expected.rawValue)
            for f in waiting[..<cut] { AndroidTraceExport.expectedSlice(f, timing, on: &expectedTracks, in: &trace) }
            trace.section(Section.actual.rawValue)
            for f in waiting[..<cut] { AndroidTraceExport.actualSlice(f, on: &actualTracks, in: &trace) }
        }
        if let packets, hasFrameTimeline {
            for f in waiting[..<cut] {
                if let frame = AndroidTraceExport.timelineFrame(f, timing: timing) { try packets.add(frame) }
            }
        }
        writtenSeq = waiting[cut - 1].seq
        waiting.removeFirst(cut)
    }

    /// Empties the lists read (their capacity kept).
    private func trim(_ log: FrameLog, _ a: AndroidFrameLog) {
        log.scans.removeAll(keepingCapacity: true)
        log.rateSwitches.removeAll(keepingCapacity: true)
        log.frames.removeAll(keepingCapacity: true)
        a.arrivals.removeAll(keepingCapacity: true)
        a.uiWork.removeAll(keepingCapacity: true)
        a.syncWaits.removeAll(keepingCapacity: true)
        a.renderWork.removeAll(keepingCapacity: true)
        a.gpuJobs.removeAll(keepingCapacity: true)
        a.latches.removeAll(keepingCapacity: true)
        a.idleWakes.removeAll(keepingCapacity: true)
        a.skips.removeAll(keepingCapacity: true)
        a.presents.removeAll(keepingCapacity: true)
        a.frames.removeAll(keepingCapacity: true)
        a.appTicks.removeAll(keepingCapacity: true)
        a.sfTicks.removeAll(keepingCapacity: true)
        for k in read.indices { read[k] = 0 }
    }
}
