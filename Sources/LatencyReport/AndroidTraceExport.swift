import Experiments
import FramePipeline
import Scenarios
import SimKernel

/// Turns an Android run's frame log into a Chrome trace-event file laid
/// out as Perfetto shows an Android trace: a track per thread (input, UI
/// thread, RenderThread, GPU, SurfaceFlinger, display) with vsync-app and
/// vsync-sf instants, and FrameTimeline's "Expected Timeline" and "Actual
/// Timeline" tracks, one slice per app frame, the actual slices carrying
/// the jank type and coloured by it. Overlapping frames (a pipeline deeper
/// than a period) go on numbered timeline tracks.
public enum AndroidTraceExport {
    /// The thread tracks, top to bottom.
    public static var threadTracks: [String] { PipelineLane.android.map(\.trackName) }

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

    /// The trace of an Android `result` that kept its frame log.
    public static func trace(_ result: RunResult, scenario: String) -> ChromeTrace? {
        guard let log = result.frameLog, let a = log.android else { return nil }
        let c = result.configuration
        let end = c.duration
        var t = ChromeTrace(processName: "latsim \(scenario) (Android)")
        let tracks = threadTracks.map { t.track(named: $0) }
        let (input, ui, render, gpu, sf, display) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4], tracks[5])
        let ms = { (ns: SimTime) -> TraceValue in .number(Double(ns) / 1e6) }

        for s in log.scans {
            t.slice(input, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
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
            }
            t.slice(ui, name: name, startNs: w.start, durationNs: w.end - w.start,
                    args: ["frame time ms": ms(w.frameTime), "newest sample": .integer(w.newestScan)])
        }
        for w in a.syncWaits {
            t.slice(ui, name: "syncFrameState: waiting for RenderThread", startNs: w.start, durationNs: w.end - w.start,
                    args: ["frame": .integer(w.frame)])
        }
        for w in a.renderWork {
            if w.start > w.requested {
                t.slice(render, name: "dequeueBuffer (waiting)", startNs: w.requested, durationNs: w.start - w.requested)
            }
            t.slice(render, name: "DrawFrame \(w.frame)", startNs: w.start, durationNs: w.queued - w.start,
                    args: ["buffer": .integer(Int64(w.buffer))])
            t.instant(render, name: "queueBuffer \(w.frame)", atNs: w.queued)
        }
        for g in a.gpuJobs {
            t.slice(gpu, name: "GPU frame \(g.frame)", startNs: g.start, durationNs: g.end - g.start,
                    args: ["buffer": .integer(Int64(g.buffer)), "queued ms": ms(g.submitted)])
        }
        for l in a.latches {
            t.slice(sf, name: "latch and composite frame \(l.frame)", startNs: l.time, durationNs: l.compositionEnd - l.time,
                    args: ["buffer": .integer(Int64(l.buffer))])
        }
        for s in a.skips { t.instant(sf, name: "back-pressure: nothing latched", atNs: s.time) }
        for x in a.appTicks { t.instant(ui, name: "vsync-app", atNs: x) }
        for x in a.sfTicks { t.instant(sf, name: "vsync-sf", atNs: x) }
        let shown = a.presents.filter { !$0.repeated }
        for (i, p) in shown.enumerated() {
            let until = i + 1 < shown.count ? shown[i + 1].time : end
            t.slice(display, name: "frame \(p.frame) on screen", startNs: p.time, durationNs: until - p.time,
                    args: ["buffer": .integer(Int64(p.buffer))])
        }
        for p in a.presents where p.repeated {
            t.instant(display, name: p.hitch ? "repeated frame (hitch)" : "repeated frame", atNs: p.time)
        }
        var k: Int64 = 0
        while c.vsyncClock.tick(k) < end {
            t.instant(nil, name: "vsync", atNs: c.vsyncClock.tick(k))
            k += 1
        }
        timelines(a, c, into: &t)
        flows(log, a, tracks, into: &t)
        return t
    }

    /// FrameTimeline's two timelines: expected `[A_k, V_k - D_sf]` and actual
    /// `[frame time, max(queue, GPU done)]`, one slice per frame presented
    /// or dropped, on as many tracks as overlapping frames need.
    static func timelines(_ a: AndroidFrameLog, _ c: PipelineConfiguration, into t: inout ChromeTrace) {
        let lead = c.androidTiming.appDuration + c.androidTiming.sfDuration
        var expected = TimelineTracks(name: "Expected Timeline"), actual = TimelineTracks(name: "Actual Timeline")
        let frames = a.frames.sorted { $0.seq < $1.seq }
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
            var args: [String: TraceValue] = ["Jank type": .string(f.jank.perfettoName), "class": .string(f.jank.rawValue),
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
    static func flows(_ log: FrameLog, _ a: AndroidFrameLog, _ tracks: [ChromeTrace.TrackID], into t: inout ChromeTrace) {
        var scans: [Int64: FrameLog.Scan] = [:]
        for s in log.scans { scans[s.index] = s }
        var uiByFrame: [Int64: AndroidFrameLog.UIWork] = [:], renderByFrame: [Int64: AndroidFrameLog.RenderWork] = [:]
        var gpuByFrame: [Int64: AndroidFrameLog.GPUJob] = [:], latchByFrame: [Int64: AndroidFrameLog.Latch] = [:]
        for w in a.uiWork where w.frame >= 0 { uiByFrame[w.frame] = w }
        for w in a.renderWork { renderByFrame[w.frame] = w }
        for g in a.gpuJobs { gpuByFrame[g.frame] = g }
        for l in a.latches { latchByFrame[l.frame] = l }
        for p in a.presents where p.measured {
            guard let f = a.frames.last(where: { $0.seq == p.frame }), let s = scans[f.newestScan] else { continue }
            var steps: [(track: ChromeTrace.TrackID, atNs: SimTime)] = [(tracks[0], PipelineTraceExport.inside(s.windowStart, s.windowEnd))]
            if let w = uiByFrame[p.frame] { steps.append((tracks[1], PipelineTraceExport.inside(w.start, w.end))) }
            if let w = renderByFrame[p.frame] { steps.append((tracks[2], PipelineTraceExport.inside(w.start, w.queued))) }
            if let g = gpuByFrame[p.frame] { steps.append((tracks[3], PipelineTraceExport.inside(g.start, g.end))) }
            if let l = latchByFrame[p.frame] { steps.append((tracks[4], PipelineTraceExport.inside(l.time, l.compositionEnd))) }
            steps.append((tracks[5], p.time + 1_000))
            t.flow(id: UInt64(p.frame + 1), name: "touch \(s.index)", steps: steps)
        }
    }
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
