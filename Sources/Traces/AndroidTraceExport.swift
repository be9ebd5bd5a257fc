import FramePipeline
import Scenarios
import SimKernel

/// Turns an Android run's frame log into a Chrome trace-event file laid
/// out as Perfetto shows an Android trace: a track per thread (input, UI
/// thread, RenderThread, GPU, SurfaceFlinger, display) with vsync-app and
/// vsync-sf instants, and (from Android 12) FrameTimeline's "Expected Timeline" and "Actual
/// Timeline" tracks, one slice per app frame, the actual slices carrying
/// the jank type and coloured by it. Overlapping frames (a pipeline deeper
/// than a period) go on numbered timeline tracks.
public enum AndroidTraceExport {
    /// The thread tracks, top to bottom (after the vsync track). HWUI's
    /// thread is named "RenderThread" on a device; here it is "HWUI render
    /// thread", since Perfetto's UI lifts any `*RenderThread*` thread above
    /// the others (``ChromeTrace/perfettoPromotes(_:)``) and the tracks
    /// would no longer read from input to display.
    public static var threadTracks: [String] {
        PipelineLane.android.map { $0 == .renderThread ? "HWUI render thread" : $0.trackName }
    }

    /// The trace viewers' colour for each FrameTimeline class (Perfetto:
    /// green on time, light green stuffed, red the app's jank, yellow
    /// SurfaceFlinger's, blue dropped).
    static func color(_ j: JankClass) -> String {
        switch j {
        case .onTime: return "good"
        case .bufferStuffing: return "olive"
        case .appDeadlineMissed: return "terrible"
        case .surfaceFlingerDeadlineMissed: return "yellow"
        case .dropped: return "rail_load"
        case .unknown: return "grey"
        }
    }

    /// The trace of an Android `result` that kept its frame log; with
    /// `timelineTracks` FrameTimeline's timelines are thread tracks (the
    /// JSON has no other way to show them; a native trace carries them as
    /// FrameTimeline packets, ``frameTimeline(_:scenario:)``). The trace
    /// holds `memoryLimit` bytes of its events, the rest in a spill file.
    public static func trace(_ result: RunResult, scenario: String, timelineTracks: Bool = true,
                             memoryLimit: Int = ChromeTrace.memoryLimit) -> ChromeTrace? {
        if result.configuration.frontBuffered {
            return FrontBufferTraceExport.trace(result, scenario: scenario, timelineTracks: timelineTracks, memoryLimit: memoryLimit)
        }
        guard let log = result.frameLog, let a = log.android else { return nil }
        let c = result.configuration
        let end = c.duration
        var t = ChromeTrace(processName: "latsim \(scenario) (Android)", memoryLimit: memoryLimit)
        let vsync = t.track(named: "vsync")
        let tracks = threadTracks.map { t.track(named: $0) }
        let (input, ui, render, gpu, sf, display) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4], tracks[5])
        let ms = { (ns: SimTime) -> TraceValue in .number(Double(ns) / 1e6) }
        var refs = FlowSlices()

        t.displayVsyncs(result, on: vsync)
        for s in log.scans {
            refs.scan[s.index] = t.slice(input, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
                                         args: ["sample instant ms": ms(s.instant), "evdev time ms": ms(s.ready)])
        }
        for r in a.arrivals {
            t.instant(input, name: r.down ? "DOWN \(r.scan) reaches the app" : "MOVE \(r.scan) reaches the app", atNs: r.arrival,
                      args: ["evdev time ms": ms(r.ready)])
        }
        for w in a.uiWork {
            let name: String
            switch w.kind {
            case .frame: name = "Choreographer#doFrame \(w.frame)"
            case .touchDown: name = "deliverInputEvent DOWN \(w.newestScan)"
            case .input: name = "Choreographer#doFrame (input, stored for the GL thread)"
            case .inkEvent: name = "onTouchEvent: renderFrontBufferedLayer"
            }
            let ref = t.slice(ui, name: name, startNs: w.start, durationNs: w.end - w.start,
                              args: ["frame time ms": ms(w.frameTime), "newest sample": .integer(w.newestScan)])
            if w.frame >= 0 { refs.ui[w.frame] = ref }
        }
        for w in a.syncWaits {
            t.slice(ui, name: "syncFrameState: waiting for RenderThread", startNs: w.start, durationNs: w.end - w.start,
                    args: ["frame": .integer(w.frame)])
        }
        for w in a.renderWork {
            if w.start > w.requested {
                t.slice(render, name: "dequeueBuffer (waiting)", startNs: w.requested, durationNs: w.start - w.requested)
            }
            refs.render[w.frame] = t.slice(render, name: "DrawFrame \(w.frame)", startNs: w.start, durationNs: w.queued - w.start,
                                           args: ["buffer": .integer(Int64(w.buffer))])
            t.instant(render, name: "queueBuffer \(w.frame)", atNs: w.queued)
        }
        for g in a.gpuJobs {
            refs.gpu[g.frame] = t.slice(gpu, name: "GPU frame \(g.frame)", startNs: g.start, durationNs: g.end - g.start,
                                        args: ["buffer": .integer(Int64(g.buffer)), "queued ms": ms(g.submitted)])
        }
        for l in a.latches {
            refs.latch[l.frame] = t.slice(sf, name: "latch and composite frame \(l.frame)", startNs: l.time,
                                          durationNs: l.compositionEnd - l.time, args: ["buffer": .integer(Int64(l.buffer))])
        }
        for w in a.idleWakes {
            // a command-mode panel sent this frame from idle: its clocks and link woke first
            t.slice(sf, name: "idle wake (display.idleWake, an unknown) frame \(w.frame)", startNs: w.start, durationNs: w.end - w.start,
                    args: ["ready for vsync ms": ms(w.ready), "present ms": ms(w.present), "cost ms": ms(w.present - w.ready)])
        }
        for s in a.skips { t.instant(sf, name: "back-pressure: nothing latched", atNs: s.time) }
        for x in a.appTicks { t.instant(ui, name: "vsync-app", atNs: x) }
        for x in a.sfTicks { t.instant(sf, name: "vsync-sf", atNs: x) }
        let shown = a.presents.filter { !$0.repeated }
        for (i, p) in shown.enumerated() {
            let until = i + 1 < shown.count ? shown[i + 1].time : end
            let ref = t.slice(display, name: "frame \(p.frame) on screen", startNs: p.time, durationNs: until - p.time,
                              args: ["buffer": .integer(Int64(p.buffer))])
            if p.measured { refs.present[p.frame] = ref }
        }
        if c.android.panelInterface == .command {
            // the host writes each new frame into the panel's memory from its TE pulse, ahead of the panel's read
            for p in shown { t.instant(display, name: "TE: frame \(p.frame) written to panel memory", atNs: p.time) }
        }
        for p in a.presents where p.repeated {
            t.instant(display, name: p.hitch ? "repeated frame (hitch)" : "repeated frame", atNs: p.time)
        }
        for f in log.frames {
            t.counter("BufferQueue", atNs: f.vsync, values: ["buffers held": Double(f.buffersHeld)])
        }
        if timelineTracks && c.android.version.hasFrameTimeline { timelines(a, c, into: &t) }
        flows(log, a, refs, into: &t)
        return t
    }

    /// The slices a flow may pass through, by frame (scans by sample; a
    /// measured frame's present by its frame, a frame being shown once).
    struct FlowSlices {
        var scan = SliceTable(), ui = SliceTable(), render = SliceTable(), gpu = SliceTable(), latch = SliceTable()
        var present = SliceTable()
    }

    /// The run's frames as FrameTimeline reports them: the app's expected
    /// timeline `[A_k, V_k - D_sf]` and actual `[frame time, max(queue, GPU
    /// done)]` as in the JSON's timeline tracks; SurfaceFlinger's actual
    /// timeline from the latch to the present, its expected one the `D_sf`
    /// before the present it aimed at (the frame's expected present when
    /// the frame is SurfaceFlinger's jank, its present otherwise). Present
    /// type: dropped, on time within 2 ms of the expected present (AOSP's
    /// threshold), late or early beyond; unknown for a frame without a
    /// vsync id. Frames whose work had not ended by the run's end are left
    /// out. Nil on a release without FrameTimeline (before Android 12).
    public static func frameTimeline(_ result: RunResult, scenario: String) -> FrameTimelineTracks? {
        let c = result.configuration
        guard let a = result.frameLog?.android, c.android.version.hasFrameTimeline else { return nil }
        let timing = c.androidTiming
        let lead = timing.appDuration + timing.sfDuration
        var frames: [TimelineFrame] = []
        for f in a.frames.sortedIfNeeded(by: \.seq) {
            let end = max(f.queued, f.gpuDone)
            guard end >= f.frameTime else { continue }
            let expected: ClosedRange<SimTime>? = f.expected >= 0 ? min(f.expected - lead, f.deadline)...f.deadline : nil
            let present: TimelineFrame.Present
            if f.presented < 0 { present = .dropped }
            else if f.expected < 0 { present = .unknown }
            else if f.presented - f.expected > FrameTimelineThreshold.present { present = .late }
            else if f.expected - f.presented > FrameTimelineThreshold.present { present = .early }
            else { present = .onTime }
            var displayExpected: ClosedRange<SimTime>?, displayActual: ClosedRange<SimTime>?
            let sfLate = f.jank == .surfaceFlingerDeadlineMissed
            if f.presented >= 0 {
                let target = sfLate ? f.expected : f.presented
                displayExpected = min(target - timing.sfDuration, target)...target
                if f.latched >= 0 && f.latched <= f.presented { displayActual = f.latched...f.presented }
            }
            frames.append(TimelineFrame(token: f.seq + 1, expected: expected, actual: f.frameTime...end,
                                        displayExpected: displayExpected, displayActual: displayActual, present: present,
                                        jank: f.jank, onTimeFinish: f.expected < 0 || end <= f.deadline,
                                        displayPresent: sfLate ? .late : .onTime))
        }
        return FrameTimelineTracks(frames: frames, layerName: "latsim \(scenario)#0")
    }

    /// FrameTimeline's two timelines: expected `[A_k, V_k - D_sf]` and actual
    /// `[frame time, max(queue, GPU done)]`, one slice per frame presented
    /// or dropped, on as many tracks as overlapping frames need.
    static func timelines(_ a: AndroidFrameLog, _ c: PipelineConfiguration, into t: inout ChromeTrace) {
        let lead = c.androidTiming.appDuration + c.androidTiming.sfDuration
        var expected = TimelineTracks(name: "Expected Timeline"), actual = TimelineTracks(name: "Actual Timeline")
        let frames = a.frames.sortedIfNeeded(by: \.seq)
        for f in frames where f.expected >= 0 {
            let start = f.expected - lead
            let track = expected.track(for: start, end: f.deadline, in: &t)
            t.slice(track, name: "\(f.seq)", startNs: start, durationNs: f.deadline - start,
                    args: ["expected present ms": .number(Double(f.expected) / 1e6), "deadline ms": .number(Double(f.deadline) / 1e6)],
                    color: "good")
        }
        for f in frames {
            let end = max(f.queued, f.gpuDone)
            guard end >= f.frameTime else { continue }
            let track = actual.track(for: f.frameTime, end: end, in: &t)
            var args: TraceArgs = ["Jank type": .string(f.jank.perfettoName), "class": .string(f.jank.rawValue),
                                              "buffer": .integer(Int64(f.buffer)), "resampled": .string(f.resampled)]
            if f.presented >= 0 { args["actual present ms"] = .number(Double(f.presented) / 1e6) }
            if f.expected >= 0 {
                args["expected present ms"] = .number(Double(f.expected) / 1e6)
                args["On time finish"] = .string(end <= f.deadline ? "Yes" : "No")
                let late = f.presented - f.expected
                args["Present type"] = .string(f.presented < 0 ? "Dropped Frame" : (late <= 2_000_000 ? "On-time Present" : "Late Present"))
            }
            t.slice(track, name: "\(f.seq)", startNs: f.frameTime, durationNs: end - f.frameTime, args: args, color: color(f.jank))
        }
    }

    /// A flow per measured frame: scan, UI work, RenderThread, GPU, latch, present.
    static func flows(_ log: FrameLog, _ a: AndroidFrameLog, _ refs: FlowSlices, into t: inout ChromeTrace) {
        var frameBySeq = DenseIndex()
        for (i, f) in a.frames.enumerated() { frameBySeq[f.seq] = i }
        // a repeated present shows no new frame: its frame's slice is an earlier present's
        for p in a.presents where p.measured && !p.repeated {
            guard let i = frameBySeq[p.frame], case let f = a.frames[i], let first = refs.scan[f.newestScan],
                  let last = refs.present[p.frame] else { continue }
            var steps = [first]
            for ref in [refs.ui[p.frame], refs.render[p.frame], refs.gpu[p.frame], refs.latch[p.frame]] {
                if let ref { steps.append(ref) }
            }
            steps.append(last)
            t.flow(id: UInt64(p.frame + 1), name: "touch \(f.newestScan)", through: steps)
        }
    }
}

/// FrameTimeline's thresholds (AOSP `FrameTimeline`: 2 ms for a present).
enum FrameTimelineThreshold {
    static let present: SimTime = 2 * Nanos.perMillisecond
}

/// The tracks of one FrameTimeline timeline: a slice goes on the first
/// track free at its start, a new numbered track when none is.
struct TimelineTracks {
    let name: String
    private var tracks: [(id: ChromeTrace.TrackID, freeFrom: SimTime)] = []

    init(name: String) { self.name = name }

    mutating func track(for start: SimTime, end: SimTime, in t: inout ChromeTrace) -> ChromeTrace.TrackID {
        if let i = tracks.firstIndex(where: { $0.freeFrom <= start }) {
            tracks[i].freeFrom = max(end, start + 1)
            return tracks[i].id
        }
        let id = t.track(named: tracks.isEmpty ? name : "\(name) (\(tracks.count + 1))")
        tracks.append((id, max(end, start + 1)))
        return id
    }
}

extension Array {
    /// The elements in increasing `key` (``sorted(by:)``); the array itself,
    /// not a copy, when it already is (a long run's frames usually are).
    func sortedIfNeeded(by key: (Element) -> Int64) -> [Element] {
        var previous = Int64.min
        for e in self {
            let k = key(e)
            if k < previous { return sorted { key($0) < key($1) } }
            previous = k
        }
        return self
    }
}
