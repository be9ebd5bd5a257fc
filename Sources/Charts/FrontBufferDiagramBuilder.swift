import FramePipeline
import Scenarios
import SimKernel

/// The pipeline diagram of a front-buffered Android app (Docs/Ink.md):
/// lanes Input, UI thread, Front buffer (the renderer's thread), GPU,
/// SurfaceFlinger and Display, with the scan line drawn across the display
/// lane and the followed draw's pen row, so the draw's photons are where
/// the scan line next crosses the pen's row after the GPU has written the
/// segment. Torn draws and the draws' photons are marked; a dry commit's
/// frame shows on the SurfaceFlinger and Display lanes as on Android.
enum FrontBufferDiagramBuilder {
    static func diagram(_ result: RunResult, scenario: String, frames: Int, warmUpFrames: Int) -> PipelineDiagramChart? {
        guard let log = result.frameLog, let a = log.android, frames > 0 else { return nil }
        let c = result.configuration
        let clock = c.vsyncClock
        let start = clock.tick(Int64(warmUpFrames)), end = clock.tick(Int64(warmUpFrames + frames))
        var scans: [Int64: FrameLog.Scan] = [:]
        for s in log.scans { scans[s.index] = s }
        // follow the first draw in the window whose sample was scanned in it and whose photons are in it
        guard let followed = a.frontDraws.first(where: { f in
            guard let s = scans[f.newestScan] else { return false }
            return s.windowStart >= start && f.pass < end
        }), let scan = scans[followed.newestScan] else { return nil }
        func overlaps(_ lo: SimTime, _ hi: SimTime) -> Bool { hi > start && lo < end }
        let uiKey = AndroidDiagramBuilder.uiWorkKey, waitKey = AndroidDiagramBuilder.waitKey
        let wetKey = 102, tornKey = 103
        var boxes: [DiagramBox] = []
        for s in log.scans where overlaps(s.windowStart, s.windowEnd) {
            boxes.append(DiagramBox(lane: .input, startNs: s.windowStart, endNs: s.windowEnd, label: "scan", colorKey: uiKey,
                                    highlighted: s.index == scan.index))
        }
        for w in a.uiWork where overlaps(w.start, w.end) {
            boxes.append(DiagramBox(lane: .uiThread, startNs: w.start, endNs: max(w.end, w.start + 1), label: "onTouchEvent",
                                    colorKey: uiKey, highlighted: w.newestScan == followed.newestScan))
        }
        for f in a.frontDraws where overlaps(f.renderStart, f.gpuEnd) {
            let isFollowed = f.draw == followed.draw
            boxes.append(DiagramBox(lane: .frontRenderer, startNs: f.renderStart, endNs: max(f.submitted, f.renderStart + 1),
                                    label: "wet \(f.draw)", colorKey: wetKey, highlighted: isFollowed))
            boxes.append(DiagramBox(lane: .gpu, startNs: f.gpuStart, endNs: max(f.gpuEnd, f.gpuStart + 1), label: "wet \(f.draw)",
                                    colorKey: f.torn ? tornKey : wetKey, highlighted: isFollowed))
        }
        for w in a.renderWork where overlaps(w.requested, w.queued) {
            boxes.append(DiagramBox(lane: .frontRenderer, startNs: w.start, endNs: max(w.queued, w.start + 1), label: "dry",
                                    colorKey: Int(w.buffer)))
        }
        for g in a.gpuJobs where overlaps(g.start, g.end) {
            boxes.append(DiagramBox(lane: .gpu, startNs: g.start, endNs: max(g.end, g.start + 1), label: "dry",
                                    colorKey: Int(g.buffer)))
        }
        for l in a.latches where overlaps(l.time, l.compositionEnd) {
            boxes.append(DiagramBox(lane: .surfaceFlinger, startNs: l.time, endNs: max(l.compositionEnd, l.time + 1),
                                    label: "compose", colorKey: Int(l.buffer)))
        }
        let shown = a.presents.filter { !$0.repeated }
        for (i, p) in shown.enumerated() {
            let until = i + 1 < shown.count ? shown[i + 1].time : c.duration
            guard overlaps(p.time, until) else { continue }
            boxes.append(DiagramBox(lane: .display, startNs: p.time, endNs: until, label: "dry " + DiagramBox.bufferName(Int(p.buffer)), colorKey: Int(p.buffer)))
        }
        var markers: [DiagramMarker] = []
        for f in a.frontDraws where f.pass >= start && f.pass <= end {
            markers.append(DiagramMarker(lane: .display, timeNs: f.pass, label: "ink reaches the eye", row: f.penY / c.heightPoints))
        }
        let ticks = a.sfTicks.map { DiagramTick(lane: .surfaceFlinger, timeNs: $0, label: "vsync-sf", color: AndroidDiagramBuilder.vsyncSfColor) }
        var path = [DiagramPathPoint(lane: .input, timeNs: scan.instant)]
        if let arrival = a.arrivals.first(where: { $0.scan == scan.index }) {
            path.append(DiagramPathPoint(lane: .input, timeNs: arrival.arrival))
        }
        if let w = a.uiWork.first(where: { $0.newestScan == followed.newestScan }) {
            path.append(DiagramPathPoint(lane: .uiThread, timeNs: w.start))
            path.append(DiagramPathPoint(lane: .uiThread, timeNs: w.end))
        }
        path.append(DiagramPathPoint(lane: .frontRenderer, timeNs: followed.renderStart))
        path.append(DiagramPathPoint(lane: .frontRenderer, timeNs: followed.submitted))
        path.append(DiagramPathPoint(lane: .gpu, timeNs: followed.gpuStart))
        path.append(DiagramPathPoint(lane: .gpu, timeNs: followed.gpuEnd))
        let penRow = followed.penY / c.heightPoints
        path.append(DiagramPathPoint(lane: .display, timeNs: followed.pass, row: penRow))
        let toPhoton = Double(followed.pass + c.panelResponse - scan.instant) / 1e6
        let timing = c.androidTiming
        var names: [Int: String] = [uiKey: "touch and UI work", waitKey: "waiting", wetKey: "wet segment",
                                    tornKey: "wet segment, torn"]
        for b in 0..<timing.buffers { names[b] = "dry frame, " + DiagramBox.bufferName(b) }
        let plane = c.ink.frontBufferPlane == .overlay ? "overlay plane" : "composed by SurfaceFlinger"
        let diagram = PipelineDiagramChart(
            framePeriodNs: SimTime(clock.periodNanos.rounded()), startNs: start, endNs: end,
            vsyncNs: (warmUpFrames...(warmUpFrames + frames)).map { clock.tick(Int64($0)) }, boxes: boxes, markers: markers,
            touchPath: path,
            title: "\(scenario): front-buffered ink, \(formatDecimal(c.displayHz.doubleValue, places: 2)) Hz, "
                + "\(formatDecimal(c.scanHz.doubleValue, places: 2)) Hz scan, front buffer on an \(plane)",
            subtitle: "the pen at row \(formatDecimal(penRow, places: 2)): \(formatDecimal(toPhoton, places: 3)) ms from scan to ink"
                + (followed.composed ? ", shown through SurfaceFlinger" : ", where the scan line next crosses the pen's row"),
            colorNames: names, colorOverrides: [uiKey: ChartStyle.touchWork, waitKey: ChartStyle.waiting, wetKey: ChartStyle.wetInk,
                             tornKey: ChartStyle.tornInk],
            lanes: PipelineLane.androidFrontBuffered, ticks: ticks, legendRows: 3)
        return diagram.with(scanLine: DiagramScanLine(lane: .display, penRow: penRow))
    }
}
