import FramePipeline
import SimKernel

/// The trace of a front-buffered Android app (Docs/Ink.md, "Traces"): both
/// layers. The wet stroke's track per thread (input, UI thread, the
/// front-buffer renderer, GPU) ends on the front buffer's own track, one
/// slice per draw from its end to the scan-out's pass over the pen's row
/// (the scan line's race), a torn draw marked; the dry stroke goes through
/// SurfaceFlinger to the display track (the multi-buffered layer), as an
/// Android frame does. One flow per draw joins scan, touch handler,
/// renderer, GPU and the race.
enum FrontBufferTraceExport {
    /// The tracks, top to bottom (after the vsync track).
    static let threadTracks = [
        "Input (digitizer, InputReader, InputDispatcher)", "UI thread", "Front-buffer renderer thread", "GPU", "SurfaceFlinger",
        "Display (multi-buffered layer)", "Front buffer (scan-out at the pen's row)",
    ]

    static func trace(_ result: RunResult, scenario: String, timelineTracks: Bool, memoryLimit: Int) -> ChromeTrace? {
        guard let log = result.frameLog, let a = log.android else { return nil }
        let c = result.configuration
        let end = c.duration
        var t = ChromeTrace(processName: "latsim \(scenario) (Android, front-buffered)", memoryLimit: memoryLimit)
        let vsync = t.track(named: "vsync")
        let tracks = threadTracks.map { t.track(named: $0) }
        let (input, ui, render, gpu, sf, display, front) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4], tracks[5], tracks[6])
        let ms = { (ns: SimTime) -> TraceValue in .number(Double(ns) / 1e6) }
        var scanRefs = SliceTable(), uiRefs = SliceTable()

        t.displayVsyncs(result, on: vsync)
        for s in log.scans {
            scanRefs[s.index] = t.slice(input, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
                                        args: ["sample instant ms": ms(s.instant), "evdev time ms": ms(s.ready)])
        }
        for r in a.arrivals {
            t.instant(input, name: r.down ? "DOWN \(r.scan) reaches the app" : "MOVE \(r.scan) reaches the app (unbuffered)",
                      atNs: r.arrival, args: ["evdev time ms": ms(r.ready)])
        }
        for l in a.lifts { t.instant(input, name: "UP reaches the app", atNs: l) }
        for w in a.uiWork {
            let ref = t.slice(ui, name: "onTouchEvent: renderFrontBufferedLayer", startNs: w.start, durationNs: w.end - w.start,
                              args: ["newest sample": .integer(w.newestScan)])
            if w.newestScan >= 0 { uiRefs[w.newestScan] = ref }
        }
        for d in a.dryCommits {
            t.instant(ui, name: "ACTION_UP: commit() (pen lifted at \(formatDecimal(Double(d.lift) / 1e6, places: 3)) ms)", atNs: d.posted,
                      args: ["lift ms": ms(d.lift), "seen ms": ms(d.seen), "dry frame": .integer(d.frame)])
        }
        var flows: UInt64 = 0
        for f in a.frontDraws {
            let draw = t.slice(render, name: "draw wet segment \(f.draw) (front buffer)", startNs: f.renderStart,
                               durationNs: f.submitted - f.renderStart, args: ["handed over ms": ms(f.posted)])
            let job = t.slice(gpu, name: "GPU wet segment \(f.draw)", startNs: f.gpuStart, durationNs: f.gpuEnd - f.gpuStart,
                              args: ["submitted ms": ms(f.submitted), "torn": .string(f.torn ? "yes" : "no")])
            let what = f.composed ? "shown through SurfaceFlinger from vsync \(formatDecimal(Double(f.shownFrom) / 1e6, places: 3)) ms"
                : "waiting for the scan-out to pass row \(formatDecimal(Double(f.rowOffset) / 1e6, places: 3)) ms into the refresh"
            let race = t.slice(front, name: "segment \(f.draw): \(what)", startNs: f.gpuEnd, durationNs: f.pass - f.gpuEnd,
                               args: ["pen y pt": .number(f.penY), "photons ms": ms(f.pass), "torn": .string(f.torn ? "yes" : "no")])
            if f.torn {
                t.instant(front, name: "torn frame: the scan-out passed the pen's row while segment \(f.draw) was drawn",
                          atNs: f.gpuStart)
            }
            var steps: [ChromeTrace.SliceRef] = []
            if let s = scanRefs[f.newestScan] { steps.append(s) }
            if let u = uiRefs[f.newestScan] { steps.append(u) }
            steps += [draw, job, race]
            flows += 1
            t.flow(id: flows, name: "touch \(f.newestScan)", through: steps)
        }
        for w in a.renderWork {
            if w.start > w.requested {
                t.slice(render, name: "dequeueBuffer (waiting)", startNs: w.requested, durationNs: w.start - w.requested)
            }
            t.slice(render, name: "draw dry stroke, frame \(w.frame) (multi-buffered layer)", startNs: w.start,
                    durationNs: w.queued - w.start, args: ["buffer": .integer(Int64(w.buffer))])
            t.instant(render, name: "queueBuffer \(w.frame)", atNs: w.queued)
        }
        for g in a.gpuJobs {
            t.slice(gpu, name: "GPU dry frame \(g.frame)", startNs: g.start, durationNs: g.end - g.start,
                    args: ["buffer": .integer(Int64(g.buffer)), "queued ms": ms(g.submitted)])
        }
        for l in a.latches {
            t.slice(sf, name: "latch and composite dry frame \(l.frame); hide the front layer", startNs: l.time,
                    durationNs: l.compositionEnd - l.time, args: ["buffer": .integer(Int64(l.buffer))])
        }
        for x in a.sfTicks { t.instant(sf, name: "vsync-sf", atNs: x) }
        let shown = a.presents.filter { !$0.repeated }
        for (i, p) in shown.enumerated() {
            let until = i + 1 < shown.count ? shown[i + 1].time : end
            t.slice(display, name: "dry frame \(p.frame) on screen", startNs: p.time, durationNs: until - p.time,
                    args: ["buffer": .integer(Int64(p.buffer))])
        }
        if timelineTracks && c.android.version.hasFrameTimeline { AndroidTraceExport.timelines(a, c, into: &t) }
        return t
    }
}
