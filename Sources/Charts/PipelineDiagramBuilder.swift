import FramePipeline
import Measures
import Scenarios
import SimKernel

/// Builds the talk's pipeline diagram from a run's frame log: rows
/// Multi-Touch, App, Core Animation, GPU and Display, one column per
/// display frame, boxes coloured by display buffer, commits as dots, and
/// one touch followed from its scan to its photon.
public enum PipelineDiagramBuilder {
    /// Colour keys for work that holds no display buffer.
    static let touchWorkKey = 4
    static let metalWorkKey = 3

    /// A diagram of `frames` display frames of `result` (which must have
    /// kept its frame log), starting after `warmUpFrames` so the pipeline is
    /// in its steady state. Returns nil when no touch was shown in the window.
    /// An Android run gets Android's lanes (``AndroidDiagramBuilder``).
    public static func diagram(_ result: RunResult, scenario: String, frames: Int = 8, warmUpFrames: Int = 12) -> PipelineDiagramChart? {
        if result.configuration.platform == .android {
            return AndroidDiagramBuilder.diagram(result, scenario: scenario, frames: frames, warmUpFrames: warmUpFrames)
        }
        guard let log = result.frameLog, frames > 0 else { return nil }
        let index = FrameLogIndex(log)
        let clock = result.configuration.vsyncClock
        let start = clock.tick(Int64(warmUpFrames))
        let end = clock.tick(Int64(warmUpFrames + frames))
        let period = SimTime(clock.periodNanos.rounded())
        // follow the first touch scanned in the window that is shown in it
        guard let followed = log.latches.first(where: { l in
            guard l.measured, l.time < end, let s = index.scanBySample[l.mainTouch] else { return false }
            return s.windowStart >= start
        }), let journey = index.journey(of: followed) else { return nil }

        var boxes: [DiagramBox] = []
        func overlaps(_ a: SimTime, _ b: SimTime) -> Bool { b > start && a < end }
        for s in log.scans where overlaps(s.windowStart, s.windowEnd) {
            boxes.append(DiagramBox(lane: .multiTouch, startNs: s.windowStart, endNs: s.windowEnd, label: "scan",
                                    colorKey: touchWorkKey, highlighted: s.index == journey.scan.index))
        }
        for h in log.handlers where overlaps(h.start, max(h.end, h.start + 1)) {
            boxes.append(DiagramBox(lane: .app, startNs: h.start, endNs: max(h.end, h.start + 1), label: "handler",
                                    colorKey: touchWorkKey, highlighted: h.mainTouch == journey.scan.index))
        }
        for p in log.prepares where overlaps(p.start, p.end) {
            boxes.append(DiagramBox(lane: .coreAnimation, startNs: p.start, endNs: p.end, label: "prepare",
                                    colorKey: Int(p.buffer), highlighted: p.frame == followed.frame))
        }
        for g in log.gpuJobs where overlaps(g.start, g.end) {
            let key = g.buffer >= 0 ? Int(g.buffer) : metalWorkKey
            boxes.append(DiagramBox(lane: .gpu, startNs: g.start, endNs: g.end, label: g.metal ? "Metal" : "render",
                                    colorKey: key, highlighted: g.frame == followed.frame))
        }
        for (l, until) in index.shownFrames(until: result.configuration.duration) where overlaps(l.time, until) {
            boxes.append(DiagramBox(lane: .display, startNs: l.time, endNs: until, label: DiagramBox.bufferName(Int(max(0, l.buffer))),
                                    colorKey: Int(max(0, l.buffer)), highlighted: l.frame == followed.frame))
        }
        let markers = log.commits.filter { $0.time >= start && $0.time < end }
            .map { DiagramMarker(lane: .app, timeNs: $0.time, label: "commit (CATransaction)") }

        var path = [DiagramPathPoint(lane: .multiTouch, timeNs: journey.scan.instant)]
        if let h = journey.handler { path.append(DiagramPathPoint(lane: .app, timeNs: h.start)) }
        if let c = journey.commit { path.append(DiagramPathPoint(lane: .app, timeNs: c.time)) }
        if let p = journey.prepare { path.append(DiagramPathPoint(lane: .coreAnimation, timeNs: p.start)) }
        if let g = journey.gpu { path.append(DiagramPathPoint(lane: .gpu, timeNs: g.end)) }
        path.append(DiagramPathPoint(lane: .display, timeNs: followed.time))

        let framesOfLatency = Double(followed.time - journey.scan.windowStart) / clock.periodNanos + 1
        let c = result.configuration
        let triple = (Figure.framesPresented.value(result) ?? 0) > 0 && (Figure.triplePercent.value(result) ?? 0) > 50
        let buffering = triple ? "triple buffered" : "double buffered"
        var vsyncs: [SimTime] = []
        for k in warmUpFrames...(warmUpFrames + frames) { vsyncs.append(clock.tick(Int64(k))) }
        return PipelineDiagramChart(
            framePeriodNs: period, startNs: start, endNs: end, vsyncNs: vsyncs, boxes: boxes, markers: markers, touchPath: path,
            title: "\(scenario): touch to display",
            subtitle: "\(formatDecimal(framesOfLatency, places: 2)) frames from scan to photon; \(formatDecimal(c.displayHz.doubleValue, places: 2)) Hz display, \(formatDecimal(c.scanHz.doubleValue, places: 2)) Hz scan, \(c.renderServer.rawValue) render server, \(buffering)",
            colorNames: [touchWorkKey: "touch handling", metalWorkKey: "Metal work (no buffer)", 0: DiagramBox.bufferName(0), 1: DiagramBox.bufferName(1), 2: DiagramBox.bufferName(2) + " (third)"],
            colorOverrides: [touchWorkKey: ChartStyle.touchWork])
    }
}
