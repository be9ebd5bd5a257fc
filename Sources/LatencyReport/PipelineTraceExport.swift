import Experiments
import FramePipeline
import Scenarios
import Foundation
import SimKernel

/// Turns a run's frame log into a Chrome trace-event file (Perfetto UI and
/// chrome://tracing open it): a track per stage, a slice per piece of work,
/// vsync instants, a counter of display buffers, and a flow from each
/// measured touch sample through delivery, commit, prepare and GPU to the
/// latch that showed it.
public enum PipelineTraceExport {
    /// Track names, top to bottom: the diagram's lanes.
    public static var trackNames: [String] { PipelineLane.ios.map(\.trackName) }

    /// The trace of a run that kept its frame log; nil when it did not. An
    /// Android run gets Android's tracks and timelines (``AndroidTraceExport``).
    public static func trace(_ result: RunResult, scenario: String) -> ChromeTrace? {
        if result.configuration.platform == .android { return AndroidTraceExport.trace(result, scenario: scenario) }
        guard let log = result.frameLog else { return nil }
        let index = FrameLogIndex(log)
        var t = ChromeTrace(processName: "latsim \(scenario)")
        let tracks = trackNames.map { t.track(named: $0) }
        let (touch, app, server, gpu, display) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4])
        let end = result.configuration.duration

        for s in log.scans {
            t.slice(touch, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
                    args: ["sample instant ms": .number(Double(s.instant) / 1e6), "ready ms": .number(Double(s.ready) / 1e6)])
        }
        for d in log.deliveries {
            t.instant(app, name: d.count > 1 ? "deliver \(d.count) coalesced touches" : "deliver touch", atNs: d.time,
                      args: ["main touch": .integer(d.last)])
        }
        for h in log.handlers {
            t.slice(app, name: "touch handler", startNs: h.start, durationNs: h.end - h.start,
                    args: ["main touch": .integer(h.mainTouch), "run": .integer(h.run)])
        }
        for c in log.commits {
            t.instant(app, name: "commit", atNs: c.time, args: ["commit": .integer(c.seq), "main touch": .integer(c.mainTouch)])
        }
        for p in log.prepares {
            t.slice(server, name: "prepare frame \(p.frame)", startNs: p.start, durationNs: p.end - p.start,
                    args: ["commit": .integer(p.commitSeq), "buffer": .integer(Int64(p.buffer))])
        }
        for g in log.gpuJobs {
            let name = g.frame < 0 ? "Metal work (commit \(g.commitSeq))" : (g.metal ? "Metal frame \(g.frame)" : "render frame \(g.frame)")
            t.slice(gpu, name: name, startNs: g.start, durationNs: g.end - g.start,
                    args: ["commit": .integer(g.commitSeq), "buffer": .integer(Int64(g.buffer))])
        }
        for (l, until) in index.shownFrames(until: end) {
            t.slice(display, name: "frame \(l.frame) on screen", startNs: l.time, durationNs: until - l.time,
                    args: ["commit": .integer(l.commitSeq), "main touch": .integer(l.mainTouch), "buffer": .integer(Int64(l.buffer))])
        }
        for l in log.latches where l.repeated {
            t.instant(display, name: l.hitch ? "repeated frame (hitch)" : "repeated frame", atNs: l.time)
        }
        for d in log.drops { t.instant(display, name: "dropped frame \(d.frame)", atNs: d.time) }
        var k: Int64 = 0
        let clock = result.configuration.vsyncClock
        while clock.tick(k) < end {
            t.instant(nil, name: "vsync", atNs: clock.tick(k))
            k += 1
        }
        for b in log.bufferSamples {
            t.counter("display buffers", atNs: b.time, values: ["in use": Double(b.held), "allocated": Double(b.allocated)])
        }
        // a flow per measured frame: scan -> handler -> prepare -> GPU -> display
        for l in log.latches where l.measured {
            guard let j = index.journey(of: l) else { continue }
            var steps: [(track: ChromeTrace.TrackID, atNs: SimTime)] = [(touch, inside(j.scan.windowStart, j.scan.windowEnd))]
            if let h = j.handler { steps.append((app, inside(h.start, h.end))) }
            if let p = j.prepare { steps.append((server, inside(p.start, p.end))) }
            if let g = j.gpu { steps.append((gpu, inside(g.start, g.end))) }
            steps.append((display, l.time + 1_000))
            t.flow(id: UInt64(l.frame + 1), name: "touch \(j.scan.index)", steps: steps)
        }
        return t
    }

    /// An instant strictly inside [a, b) when the span allows it.
    static func inside(_ a: SimTime, _ b: SimTime) -> SimTime {
        b - a > 2_000 ? a + 1_000 : a + (b - a) / 2
    }
}
