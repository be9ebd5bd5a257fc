import FramePipeline
import Scenarios
import SimKernel

/// Builds the pipeline diagram of an Android run from its frame log: lanes
/// Input, UI thread, RenderThread, GPU, SurfaceFlinger and Display, one
/// column per display frame with vsync-app and vsync-sf ticks, boxes
/// coloured by BufferQueue buffer, and one touch followed from its scan to
/// its photon, with the resampled point it was drawn at.
public enum AndroidDiagramBuilder {
    /// Colour keys for work that holds no buffer.
    static let uiWorkKey = 100
    static let waitKey = 101
    /// Tick colours.
    static let vsyncAppColor = ChartStyle.vsyncApp
    static let vsyncSfColor = ChartStyle.vsyncSf

    /// A diagram of `frames` display frames of `result` (an Android run that
    /// kept its frame log), after `warmUpFrames`. Nil when no touch was shown
    /// in the window.
    public static func diagram(_ result: RunResult, scenario: String, frames: Int = 8, warmUpFrames: Int = 12) -> PipelineDiagramChart? {
        if result.configuration.frontBuffered {
            return FrontBufferDiagramBuilder.diagram(result, scenario: scenario, frames: frames, warmUpFrames: warmUpFrames)
        }
        guard let log = result.frameLog, let a = log.android, frames > 0 else { return nil }
        let c = result.configuration
        let clock = c.vsyncClock
        let start = clock.tick(Int64(warmUpFrames)), end = clock.tick(Int64(warmUpFrames + frames))
        var scans: [Int64: FrameLog.Scan] = [:]
        for s in log.scans { scans[s.index] = s }
        // follow the first frame shown in the window whose newest sample was scanned in it
        guard let followed = a.frames.first(where: { f in
            guard f.presented >= 0, f.presented < end, f.content >= 0, let s = scans[f.newestScan] else { return false }
            return s.windowStart >= start
        }), let scan = scans[followed.newestScan] else { return nil }

        func overlaps(_ lo: SimTime, _ hi: SimTime) -> Bool { hi > start && lo < end }
        var boxes: [DiagramBox] = []
        for s in log.scans where overlaps(s.windowStart, s.windowEnd) {
            boxes.append(DiagramBox(lane: .input, startNs: s.windowStart, endNs: s.windowEnd, label: "scan", colorKey: uiWorkKey,
                                    highlighted: s.index == scan.index))
        }
        // the UI work that drew the followed touch: its frame, or (continuous) the input callback that stored it
        let continuous = c.android.renderMode == .continuous
        func drewFollowed(_ w: AndroidFrameLog.UIWork) -> Bool {
            continuous ? w.kind == .input && w.newestScan == followed.newestScan : w.frame == followed.seq
        }
        for w in a.uiWork where overlaps(w.start, w.end) {
            let label = w.kind == .frame ? "doFrame" : (w.kind == .touchDown ? "touch-down" : "input")
            boxes.append(DiagramBox(lane: .uiThread, startNs: w.start, endNs: max(w.end, w.start + 1), label: label,
                                    colorKey: uiWorkKey, highlighted: drewFollowed(w)))
        }
        for w in a.syncWaits where overlaps(w.start, w.end) {
            boxes.append(DiagramBox(lane: .uiThread, startNs: w.start, endNs: w.end, label: "sync", colorKey: waitKey))
        }
        for w in a.renderWork where overlaps(w.requested, w.queued) {
            if w.start > w.requested {
                boxes.append(DiagramBox(lane: .renderThread, startNs: w.requested, endNs: w.start, label: "dequeue", colorKey: waitKey))
            }
            boxes.append(DiagramBox(lane: .renderThread, startNs: w.start, endNs: max(w.queued, w.start + 1), label: DiagramBox.bufferName(Int(w.buffer)),
                                    colorKey: Int(w.buffer), highlighted: w.frame == followed.seq))
        }
        for g in a.gpuJobs where overlaps(g.start, g.end) {
            boxes.append(DiagramBox(lane: .gpu, startNs: g.start, endNs: max(g.end, g.start + 1), label: DiagramBox.bufferName(Int(g.buffer)),
                                    colorKey: Int(g.buffer), highlighted: g.frame == followed.seq))
        }
        for l in a.latches where overlaps(l.time, l.compositionEnd) {
            boxes.append(DiagramBox(lane: .surfaceFlinger, startNs: l.time, endNs: max(l.compositionEnd, l.time + 1),
                                    label: "compose", colorKey: Int(l.buffer), highlighted: l.frame == followed.seq))
        }
        for w in a.idleWakes where overlaps(w.start, w.end) {
            boxes.append(DiagramBox(lane: .surfaceFlinger, startNs: w.start, endNs: max(w.end, w.start + 1), label: "idle wake",
                                    colorKey: waitKey, highlighted: w.frame == followed.seq))
        }
        let shown = a.presents.filter { !$0.repeated }
        for (i, p) in shown.enumerated() {
            let until = i + 1 < shown.count ? shown[i + 1].time : c.duration
            guard overlaps(p.time, until) else { continue }
            boxes.append(DiagramBox(lane: .display, startNs: p.time, endNs: until, label: DiagramBox.bufferName(Int(p.buffer)),
                                    colorKey: Int(p.buffer), highlighted: p.frame == followed.seq))
        }

        var markers: [DiagramMarker] = []
        if followed.resampled != .none {
            markers.append(DiagramMarker(lane: .input, timeNs: followed.physicalTime, label: "resampled point"))
        }
        let ticks = a.appTicks.map { DiagramTick(lane: .uiThread, timeNs: $0, label: "vsync-app", color: vsyncAppColor) }
            + a.sfTicks.map { DiagramTick(lane: .surfaceFlinger, timeNs: $0, label: "vsync-sf", color: vsyncSfColor) }

        var path = [DiagramPathPoint(lane: .input, timeNs: scan.instant)]
        if let arrival = a.arrivals.first(where: { $0.scan == scan.index }) {
            path.append(DiagramPathPoint(lane: .input, timeNs: arrival.arrival))
        }
        if let w = a.uiWork.first(where: drewFollowed) {
            path.append(DiagramPathPoint(lane: .uiThread, timeNs: w.start))
            if continuous { path.append(DiagramPathPoint(lane: .uiThread, timeNs: w.end)) }
        }
        if let w = a.renderWork.first(where: { $0.frame == followed.seq }) {
            path.append(DiagramPathPoint(lane: .renderThread, timeNs: w.start))
            path.append(DiagramPathPoint(lane: .renderThread, timeNs: w.queued))
        }
        if let g = a.gpuJobs.first(where: { $0.frame == followed.seq }) { path.append(DiagramPathPoint(lane: .gpu, timeNs: g.end)) }
        if followed.latched >= 0 { path.append(DiagramPathPoint(lane: .surfaceFlinger, timeNs: followed.latched)) }
        path.append(DiagramPathPoint(lane: .display, timeNs: followed.presented))

        let geometry = FrameGeometry(c)
        let framesOfLatency = geometry.pipelineFrames(latch: followed.presented, windowStart: scan.windowStart)
        let photon = geometry.photonTime(latch: followed.presented, y: c.heightPoints / 2)
        let ttp = Double(photon - followed.physicalTime) / 1e6
        let timing = c.androidTiming
        var names: [Int: String] = [uiWorkKey: "touch and UI work", waitKey: a.idleWakes.isEmpty ? "waiting" : "waiting, idle wake"]
        for b in 0..<timing.buffers { names[b] = DiagramBox.bufferName(b) }
        let resampledNote = followed.resampled == .none ? "drawn at the sample as reported"
            : "drawn at the point \(followed.resampled.name) \(formatDecimal(Double(followed.physicalTime - scan.instant) / 1e6, places: 3)) ms past the sample"
        return PipelineDiagramChart(
            framePeriodNs: SimTime(clock.periodNanos.rounded()), startNs: start, endNs: end,
            vsyncNs: (warmUpFrames...(warmUpFrames + frames)).map { clock.tick(Int64($0)) }, boxes: boxes, markers: markers,
            touchPath: path,
            title: "\(scenario): \(formatDecimal(c.displayHz.doubleValue, places: 2)) Hz, \(formatDecimal(c.scanHz.doubleValue, places: 2)) Hz scan, "
                + "D_app \(formatDecimal(Double(timing.appDuration) / 1e6, places: 3)) ms, D_sf \(formatDecimal(Double(timing.sfDuration) / 1e6, places: 3)) ms, \(timing.buffers) buffers",
            subtitle: "\(formatDecimal(framesOfLatency, places: 2)) frames, \(formatDecimal(ttp, places: 3)) ms from scan to photon; \(resampledNote)"
                + (continuous ? "; the GL thread in the RenderThread lane" : "")
                + (c.android.panelInterface == .command && c.android.idleWake > 0
                   ? "; idle wake \(formatDecimal(Double(c.android.idleWake) / 1e6, places: 3)) ms (unknown)" : ""),
            colorNames: names, colorOverrides: [uiWorkKey: ChartStyle.touchWork, waitKey: ChartStyle.waiting],
            lanes: PipelineLane.android, ticks: ticks, legendRows: 3)
    }
}
