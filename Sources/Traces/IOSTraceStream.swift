import FramePipeline
import SimKernel

/// An iOS run's trace (``PipelineTraceExport/trace(_:scenario:memoryLimit:)``)
/// made from its frame log as the run goes (``RunTraceStream``). A
/// measured frame's flow, from its touch's scan through the handler run
/// that took the touch, the render server's prepare and the GPU to the
/// frame on screen, is drawn once the frame's slice has ended and a
/// handler run has taken a newer touch (the flow goes through the last
/// handler run that took its touch).
final class IOSTraceStream: RunTraceStream {
    private enum Section: Int {
        case scans = 2, deliveries, handlers, commits, prepares, gpu, shown, repeated, drops, buffers
        // lists read that make no section of their own
        case latches
    }

    private let touch, app, server, gpu, display: ChromeTrace.TrackID

    // the slices a flow may pass through: scans by sample, handler runs by
    // the touch they took (the last run's), prepares, GPU work and frames
    // on screen by frame
    @exclusivity(unchecked) private var scanRef = SliceWindow(), handlerRef = SliceWindow()
    @exclusivity(unchecked) private var prepareRef = SliceWindow(), gpuRef = SliceWindow(), shownRef = SliceWindow()
    /// The newest touch a handler run took.
    private var newestHandled = Int64.min
    /// The latch that put the last new frame on screen, whose slice waits for the next.
    private var lastShown: FrameLog.Latch?
    /// The measured latches whose flows wait, in order.
    private var flows: [FrameLog.Latch] = []
    private var forgotten = 0

    init(_ c: PipelineConfiguration, scenario: String, nativePackets: Bool = false, memoryLimit: Int = ChromeTrace.memoryLimit,
         sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit, interval: Int = 1_024, trims: Bool = true) {
        var t = ChromeTrace(processName: "latsim \(scenario)", memoryLimit: memoryLimit)
        let tracks = PipelineTraceExport.trackNames.map { t.track(named: $0) }
        (touch, app, server, gpu, display) = (tracks[1], tracks[2], tracks[3], tracks[4], tracks[5])
        let packets = nativePackets ? NativePackets(sortMemoryLimit: sortMemoryLimit, pid: t.pid) : nil
        super.init(c, trace: t, vsync: tracks[0], packets: packets, interval: interval, trims: trims)
    }

    private func unread<T>(_ list: [T], _ s: Section) -> ArraySlice<T> { unread(list, s.rawValue) }

    override func read(_ log: FrameLog, upTo now: SimTime, final: Bool) throws {
        trace.section(Section.scans.rawValue)
        for s in unread(log.scans, .scans) {
            scanRef[s.index] = trace.slice(touch, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
                                           args: ["sample instant ms": .number(Double(s.instant) / 1e6), "ready ms": .number(Double(s.ready) / 1e6)])
        }
        trace.section(Section.deliveries.rawValue)
        for d in unread(log.deliveries, .deliveries) {
            trace.instant(app, name: d.count > 1 ? "deliver \(d.count) coalesced touches" : "deliver touch", atNs: d.time,
                          args: ["main touch": .integer(d.last)])
        }
        trace.section(Section.handlers.rawValue)
        for h in unread(log.handlers, .handlers) {
            handlerRef[h.mainTouch] = trace.slice(app, name: "touch handler", startNs: h.start, durationNs: h.end - h.start,
                                                  args: ["main touch": .integer(h.mainTouch), "run": .integer(h.run)])
            newestHandled = max(newestHandled, h.mainTouch)
        }
        trace.section(Section.commits.rawValue)
        for c in unread(log.commits, .commits) {
            trace.instant(app, name: "commit", atNs: c.time, args: ["commit": .integer(c.seq), "main touch": .integer(c.mainTouch)])
        }
        trace.section(Section.prepares.rawValue)
        for p in unread(log.prepares, .prepares) {
            prepareRef[p.frame] = trace.slice(server, name: "prepare frame \(p.frame)", startNs: p.start, durationNs: p.end - p.start,
                                              args: ["commit": .integer(p.commitSeq), "buffer": .integer(Int64(p.buffer))])
        }
        trace.section(Section.gpu.rawValue)
        for g in unread(log.gpuJobs, .gpu) {
            let name: TraceName = g.frame < 0 ? "Metal work (commit \(g.commitSeq))" : (g.metal ? "Metal frame \(g.frame)" : "render frame \(g.frame)")
            let ref = trace.slice(gpu, name: name, startNs: g.start, durationNs: g.end - g.start,
                                  args: ["commit": .integer(g.commitSeq), "buffer": .integer(Int64(g.buffer))])
            if g.frame >= 0 { gpuRef[g.frame] = ref }
        }
        // a frame's slice ends where the next new frame begins
        for l in unread(log.latches, .latches) {
            if l.repeated {
                trace.section(Section.repeated.rawValue)
                trace.instant(display, name: l.hitch ? "repeated frame (hitch)" : "repeated frame", atNs: l.time)
            } else {
                if let last = lastShown { shown(last, until: l.time) }
                lastShown = l
            }
            if l.measured { flows.append(l) }
        }
        if final, let last = lastShown {
            shown(last, until: c.duration)
            lastShown = nil
        }
        trace.section(Section.drops.rawValue)
        for d in unread(log.drops, .drops) { trace.instant(display, name: "dropped frame \(d.frame)", atNs: d.time) }
        trace.section(Section.buffers.rawValue)
        for b in unread(log.bufferSamples, .buffers) {
            trace.counter("display buffers", atNs: b.time, values: ["in use": Double(b.held), "allocated": Double(b.allocated)])
        }
        drawFlows(final: final)
        settle(Section.scans.rawValue, through: scanRef)
        settle(Section.handlers.rawValue, through: handlerRef)
        settle(Section.prepares.rawValue, through: prepareRef)
        settle(Section.gpu.rawValue, through: gpuRef)
        settle(Section.shown.rawValue, through: shownRef)
    }

    private func shown(_ l: FrameLog.Latch, until: SimTime) {
        trace.section(Section.shown.rawValue)
        shownRef[l.frame] = trace.slice(display, name: "frame \(l.frame) on screen", startNs: l.time, durationNs: until - l.time,
                                        args: ["commit": .integer(l.commitSeq), "main touch": .integer(l.mainTouch),
                                               "buffer": .integer(Int64(l.buffer))])
    }

    /// The flows of the measured latches whose slices are all made: the
    /// frame's slice on screen has ended and no later handler run can take
    /// the latch's touch (a run took a newer one).
    private func drawFlows(final: Bool) {
        var done = 0
        for l in flows {
            guard final || ((lastShown.map { $0.time > l.time } ?? true) && newestHandled > l.mainTouch) else { break }
            done += 1
            guard let first = scanRef[l.mainTouch], let last = shownRef[l.frame] else { continue }
            var steps = [first]
            steps.reserveCapacity(5)
            if let r = handlerRef[l.mainTouch] { steps.append(r) }
            if let r = prepareRef[l.frame] { steps.append(r) }
            if let r = gpuRef[l.frame] { steps.append(r) }
            steps.append(last)
            trace.flow(id: UInt64(l.frame + 1), name: "touch \(l.mainTouch)", through: steps)
            forgotten += 1
            if forgotten >= 4_096 {
                // what no later flow reaches
                forgotten = 0
                let frames = l.frame - Self.frameLag, touches = l.mainTouch - 4 * Self.frameLag
                scanRef.forget(below: touches)
                handlerRef.forget(below: touches)
                prepareRef.forget(below: frames)
                gpuRef.forget(below: frames)
                shownRef.forget(below: frames)
            }
        }
        flows.removeFirst(done)
    }
}
