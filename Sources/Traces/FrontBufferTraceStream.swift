import FramePipeline
import SimKernel

/// A front-buffered Android app's trace (``FrontBufferTraceExport``) made
/// from its frame log as the run goes (``RunTraceStream``): a wet segment's
/// flow is drawn with its draw, the dry frame's slice on screen ends at the
/// next, and the timelines' frames wait as an Android run's do
/// (``TimelineQueue``).
final class FrontBufferTraceStream: RunTraceStream {
    private enum Section: Int {
        case scans = 2, arrivals, lifts, ui, dryCommits, wet, render, gpu, latches, sfTicks, shown, expected, actual
        // a list read that makes no section of its own
        case frames, presents
    }

    private let timelineTracks: Bool
    private let input, ui, render, gpu, sf, display, front: ChromeTrace.TrackID
    @exclusivity(unchecked) private var scanRef = SliceWindow(), uiRef = SliceWindow()
    private var flows: UInt64 = 0
    private var lastShown: AndroidFrameLog.Present?
    private var timelines: TimelineQueue

    init(_ c: PipelineConfiguration, scenario: String, timelineTracks: Bool, nativePackets: Bool,
         memoryLimit: Int = ChromeTrace.memoryLimit, sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit,
         interval: Int = 1_024, trims: Bool = true) {
        self.timelineTracks = timelineTracks && c.android.version.hasFrameTimeline
        var t = ChromeTrace(processName: "latsim \(scenario) (Android, front-buffered)", memoryLimit: memoryLimit)
        let vsync = t.track(named: "vsync")
        let tracks = FrontBufferTraceExport.threadTracks.map { t.track(named: $0) }
        (input, ui, render, gpu, sf, display, front) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4], tracks[5], tracks[6])
        timelines = TimelineQueue(expected: Section.expected.rawValue, actual: Section.actual.rawValue)
        let packets = nativePackets ? NativePackets(c, scenario: scenario, sortMemoryLimit: sortMemoryLimit, pid: t.pid) : nil
        super.init(c, trace: t, vsync: vsync, packets: packets, interval: interval, trims: trims)
    }

    override var keptSections: [Int] { [Section.expected.rawValue, Section.actual.rawValue] }

    private func unread<T>(_ list: [T], _ s: Section) -> ArraySlice<T> { unread(list, s.rawValue) }

    override func read(_ log: FrameLog, upTo now: SimTime, final: Bool) throws {
        guard let a = log.android else { return }
        let ms = { (ns: SimTime) -> TraceValue in .number(Double(ns) / 1e6) }
        trace.section(Section.scans.rawValue)
        for s in unread(log.scans, .scans) { scanRef[s.index] = AndroidTraceExport.scan(s, on: input, in: &trace) }
        trace.section(Section.arrivals.rawValue)
        let arrivals = unread(a.arrivals, .arrivals)
        for r in arrivals {
            trace.instant(input, name: r.down ? "DOWN \(r.scan) reaches the app" : "MOVE \(r.scan) reaches the app (unbuffered)",
                          atNs: r.arrival, args: ["evdev time ms": ms(r.ready)])
        }
        try withPackets { p in for r in arrivals { try p.add(arrival: r) } }
        trace.section(Section.lifts.rawValue)
        for l in unread(a.lifts, .lifts) { trace.instant(input, name: "UP reaches the app", atNs: l) }
        trace.section(Section.ui.rawValue)
        for w in unread(a.uiWork, .ui) {
            let ref = trace.slice(ui, name: "onTouchEvent: renderFrontBufferedLayer", startNs: w.start, durationNs: w.end - w.start,
                                  args: ["newest sample": .integer(w.newestScan)])
            if w.newestScan >= 0 { uiRef[w.newestScan] = ref }
        }
        trace.section(Section.dryCommits.rawValue)
        for d in unread(a.dryCommits, .dryCommits) {
            trace.instant(ui, name: "ACTION_UP: commit() (pen lifted at \(formatDecimal(Double(d.lift) / 1e6, places: 3)) ms)", atNs: d.posted,
                          args: ["lift ms": ms(d.lift), "seen ms": ms(d.seen), "dry frame": .integer(d.frame)])
        }
        trace.section(Section.wet.rawValue)
        for f in unread(a.frontDraws, .wet) {
            let draw = trace.slice(render, name: "draw wet segment \(f.draw) (front buffer)", startNs: f.renderStart,
                                   durationNs: f.submitted - f.renderStart, args: ["handed over ms": ms(f.posted)])
            let job = trace.slice(gpu, name: "GPU wet segment \(f.draw)", startNs: f.gpuStart, durationNs: f.gpuEnd - f.gpuStart,
                                  args: ["submitted ms": ms(f.submitted), "torn": .string(f.torn ? "yes" : "no")])
            let what = f.composed ? "shown through SurfaceFlinger from vsync \(formatDecimal(Double(f.shownFrom) / 1e6, places: 3)) ms"
                : "waiting for the scan-out to pass row \(formatDecimal(Double(f.rowOffset) / 1e6, places: 3)) ms into the refresh"
            let race = trace.slice(front, name: "segment \(f.draw): \(what)", startNs: f.gpuEnd, durationNs: f.pass - f.gpuEnd,
                                   args: ["pen y pt": .number(f.penY), "photons ms": ms(f.pass), "torn": .string(f.torn ? "yes" : "no")])
            if f.torn {
                trace.instant(front, name: "torn frame: the scan-out passed the pen's row while segment \(f.draw) was drawn",
                              atNs: f.gpuStart)
            }
            var steps: [ChromeTrace.SliceRef] = []
            if let s = scanRef[f.newestScan] { steps.append(s) }
            if let u = uiRef[f.newestScan] { steps.append(u) }
            steps += [draw, job, race]
            flows += 1
            trace.flow(id: flows, name: "touch \(f.newestScan)", through: steps)
            if flows % 4_096 == 0 {
                // what no later draw reaches
                scanRef.forget(below: f.newestScan - 4 * Self.frameLag)
                uiRef.forget(below: f.newestScan - 4 * Self.frameLag)
            }
        }
        trace.section(Section.render.rawValue)
        for w in unread(a.renderWork, .render) {
            if w.start > w.requested {
                trace.slice(render, name: "dequeueBuffer (waiting)", startNs: w.requested, durationNs: w.start - w.requested)
            }
            trace.slice(render, name: "draw dry stroke, frame \(w.frame) (multi-buffered layer)", startNs: w.start,
                        durationNs: w.queued - w.start, args: ["buffer": .integer(Int64(w.buffer))])
            trace.instant(render, name: "queueBuffer \(w.frame)", atNs: w.queued)
        }
        trace.section(Section.gpu.rawValue)
        for g in unread(a.gpuJobs, .gpu) {
            trace.slice(gpu, name: "GPU dry frame \(g.frame)", startNs: g.start, durationNs: g.end - g.start,
                        args: ["buffer": .integer(Int64(g.buffer)), "queued ms": ms(g.submitted)])
        }
        trace.section(Section.latches.rawValue)
        for l in unread(a.latches, .latches) {
            trace.slice(sf, name: "latch and composite dry frame \(l.frame); hide the front layer", startNs: l.time,
                        durationNs: l.compositionEnd - l.time, args: ["buffer": .integer(Int64(l.buffer))])
        }
        trace.section(Section.sfTicks.rawValue)
        for x in unread(a.sfTicks, .sfTicks) { trace.instant(sf, name: "vsync-sf", atNs: x) }
        for p in unread(a.presents, .presents) where !p.repeated {
            if let last = lastShown { shown(last, until: p.time) }
            lastShown = p
        }
        if final, let last = lastShown {
            shown(last, until: c.duration)
            lastShown = nil
        }
        try timelines.add(unread(a.frames, .frames))
        if timelineTracks {
            timelines.write(final: final, c.androidTiming, into: &trace)
        } else {
            let timing = c.androidTiming
        try timelines.take(final: final) { frames in try withPackets { try $0.add(frames, timing: timing) } }
        }
        settle(Section.scans.rawValue, through: scanRef)
        settle(Section.ui.rawValue, through: uiRef)
        settle(Section.wet.rawValue, through: nil)
    }

    private func shown(_ p: AndroidFrameLog.Present, until: SimTime) {
        trace.section(Section.shown.rawValue)
        trace.slice(display, name: "dry frame \(p.frame) on screen", startNs: p.time, durationNs: until - p.time,
                    args: ["buffer": .integer(Int64(p.buffer))])
    }
}

/// An Android run's frames on their way to FrameTimeline's timelines, which
/// list them in increasing vsync id: a frame is logged when presented or
/// dropped, a few frames at most after newer ones, so each waits until
/// ``RunTraceStream/frameLag`` newer frames have been logged (all of them
/// at the run's end).
struct TimelineQueue {
    private var waiting: [AndroidFrameLog.Frame] = []
    private var newestSeq = Int64.min, writtenSeq = Int64.min
    private var expectedTracks = TimelineTracks(name: "Expected Timeline", group: 1)
    private var actualTracks = TimelineTracks(name: "Actual Timeline", group: 2)
    private let expected, actual: Int

    /// The timelines' slices go to sections `expected` and `actual`.
    init(expected: Int, actual: Int) {
        self.expected = expected
        self.actual = actual
    }

    /// Takes the frames logged since the last call; an internal error for
    /// a frame logged after one `frameLag` newer went out.
    mutating func add(_ frames: ArraySlice<AndroidFrameLog.Frame>) throws {
        for f in frames {
            guard f.seq > writtenSeq else {
                throw LatsimError(.internal, problem: "frame \(f.seq) was logged after \(RunTraceStream.frameLag) newer frames: the trace cannot place it")
            }
            waiting.append(f)
            newestSeq = max(newestSeq, f.seq)
        }
    }

    /// The frames whose turn has come, in increasing vsync id; they are
    /// gone from the queue after `body`.
    mutating func take(final: Bool, _ body: (ArraySlice<AndroidFrameLog.Frame>) throws -> Void) rethrows {
        guard !waiting.isEmpty else { return }
        let limit = final ? Int64.max : newestSeq - RunTraceStream.frameLag
        guard final || waiting.contains(where: { $0.seq <= limit }) else { return }
        waiting.sort { $0.seq < $1.seq }
        let cut = waiting.firstIndex { $0.seq > limit } ?? waiting.count
        guard cut > 0 else { return }
        try body(waiting[..<cut])
        writtenSeq = waiting[cut - 1].seq
        waiting.removeFirst(cut)
    }

    /// Writes the frames whose turn has come to the expected and actual timelines.
    mutating func write(final: Bool, _ timing: AndroidTiming, into t: inout ChromeTrace) {
        var expectedTracks = self.expectedTracks, actualTracks = self.actualTracks
        let (e, a) = (expected, actual)
        take(final: final) { frames in
            t.section(e)
            for f in frames { AndroidTraceExport.expectedSlice(f, timing, on: &expectedTracks, in: &t) }
            t.section(a)
            for f in frames { AndroidTraceExport.actualSlice(f, on: &actualTracks, in: &t) }
        }
        self.expectedTracks = expectedTracks
        self.actualTracks = actualTracks
    }

    /// Lets the frames whose turn has come go unwritten.
    mutating func drop(final: Bool) { take(final: final) { _ in } }
}
