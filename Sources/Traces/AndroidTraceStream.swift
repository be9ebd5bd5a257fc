import FramePipeline
import LatsimOutput
import Scenarios
import SimKernel

/// An Android run's trace (``AndroidTraceExport``) made from its frame log
/// as the run goes (``RunTraceStream``). Besides a frame's slice on screen
/// and its flow, the FrameTimeline frames wait: they go out in increasing
/// vsync id, held until ``RunTraceStream/frameLag`` newer frames have been
/// logged (a frame is logged when presented or dropped, a few frames at
/// most after newer ones). A native trace's FrameTimeline and input-event
/// packets go to its sorter as they are made (``NativePackets``).
final class AndroidTraceStream: RunTraceStream {
    private let timelineTracks: Bool

    private enum Section: Int {
        case scans = 2, arrivals, ui, syncWaits, render, gpu, latches, idleWakes, skips, appTicks, sfTicks
        case shown, tearing, repeated, bufferQueue, expected, actual
        // lists read that make no section of their own
        case frames, presents
    }

    private let input, ui, render, gpu, sf, display: ChromeTrace.TrackID

    // the slices a flow may pass through
    @exclusivity(unchecked) private var scanRef = SliceWindow(), uiRef = SliceWindow(), renderRef = SliceWindow()
    @exclusivity(unchecked) private var gpuRef = SliceWindow(), latchRef = SliceWindow()
    /// Each frame's newest sample (its last logged record's).
    @exclusivity(unchecked) private var newestScan: [Int64: Int64] = [:]
    /// The frame shown last, whose slice waits for the next.
    private var lastShown: AndroidFrameLog.Present?
    /// The frames logged and not yet written to the timelines.
    private var timelines = TimelineQueue(expected: Section.expected.rawValue, actual: Section.actual.rawValue)

    init(_ c: PipelineConfiguration, scenario: String, timelineTracks: Bool, nativePackets: Bool,
         memoryLimit: Int = ChromeTrace.memoryLimit, sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit,
         interval: Int = 1_024, trims: Bool = true) {
        self.timelineTracks = timelineTracks
        var t = ChromeTrace(processName: "latsim \(scenario) (Android)", memoryLimit: memoryLimit)
        let vsync = t.track(named: "vsync")
        let tracks = AndroidTraceExport.threadTracks.map { t.track(named: $0) }
        (input, ui, render, gpu, sf, display) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4], tracks[5])
        let packets = nativePackets ? NativePackets(c, scenario: scenario, sortMemoryLimit: sortMemoryLimit, pid: t.pid) : nil
        super.init(c, trace: t, vsync: vsync, packets: packets, interval: interval, trims: trims)
    }

    override var keptSections: [Int] { [Section.expected.rawValue, Section.actual.rawValue] }

    /// The records of `list` not read yet, in order.
    private func unread<T>(_ list: [T], _ s: Section) -> ArraySlice<T> { unread(list, s.rawValue) }

    override func read(_ log: FrameLog, upTo now: SimTime, final: Bool) throws {
        guard let a = log.android else { return }
        let end = c.duration
        let ms = { (ns: SimTime) -> TraceValue in .number(Double(ns) / 1e6) }
        trace.section(Section.scans.rawValue)
        for s in unread(log.scans, .scans) { scanRef[s.index] = AndroidTraceExport.scan(s, on: input, in: &trace) }
        trace.section(Section.arrivals.rawValue)
        let arrivals = unread(a.arrivals, .arrivals)
        for r in arrivals {
            trace.instant(input, name: r.down ? "DOWN \(r.scan) reaches the app" : "MOVE \(r.scan) reaches the app", atNs: r.arrival,
                          args: ["evdev time ms": ms(r.ready)])
        }
        try withPackets { p in for r in arrivals { try p.add(arrival: r) } }
        trace.section(Section.ui.rawValue)
        for w in unread(a.uiWork, .ui) {
            let name: TraceName
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
        let frames = unread(a.frames, .frames)
        for f in frames { newestScan[f.seq] = f.newestScan }
        try timelines.add(frames)
        // a frame's slice ends where the next frame shown begins; its flow is drawn then
        for p in unread(a.presents, .presents) {
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
        try writeTimelines(final: final)
        settle(Section.scans.rawValue, through: scanRef)
        settle(Section.ui.rawValue, through: uiRef)
        settle(Section.render.rawValue, through: renderRef)
        settle(Section.gpu.rawValue, through: gpuRef)
        settle(Section.latches.rawValue, through: latchRef)
        settle(Section.shown.rawValue, through: nil)
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

    /// Writes the frames whose turn has come (``TimelineQueue``) to the
    /// JSON's timeline tracks or a native trace's FrameTimeline packets.
    private func writeTimelines(final: Bool) throws {
        guard c.android.version.hasFrameTimeline else { return timelines.drop(final: final) }
        if timelineTracks { return timelines.write(final: final, c.androidTiming, into: &trace) }
        let timing = c.androidTiming
        try timelines.take(final: final) { frames in try withPackets { try $0.add(frames, timing: timing) } }
    }
}
