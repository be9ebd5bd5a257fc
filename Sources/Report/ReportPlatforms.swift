import Charts
import Experiments
import Foundation
import Measures
import FramePipeline
import Scenarios
import SimKernel

extension ReportWriter {
    /// The two pipelines compared.
    static let sideBySide = [("iOS 9 (ios9-low-latency)", "ios9-low-latency", "iOS 9"), ("Android (android-default)", "android-default", "Android")]

    /// "iOS and Android side by side": the same finger and the same app
    /// costs through both pipelines: a table, a latency CDF, a diagram each,
    /// and a sweep of the touch handler's time showing where each platform
    /// adds a frame.
    public func platformsSection(_ page: Page) throws -> Page {
        var page = page
        progress("iOS and Android side by side")
        page.add("## iOS and Android side by side")
        page.add()
        page.add("The same finger (the default motion, seed \(seed)) and the same app: a 4 ms touch handler and 4 ms of GPU work per frame, on a 60 Hz display with a 60 Hz touch scan. iOS 9 runs it through UIKit's coalesced delivery at the vsync and Core Animation's low-latency render server (3 ms prepare). Android runs it through InputConsumer's batching and resampling, a Choreographer frame at vsync-app, RenderThread (2 ms), the BufferQueue and SurfaceFlinger (1 ms composition), with AOSP's default work durations (Docs/Android.md).")
        page.add()
        page.add("| pipeline | touch-to-photon p50 (ms) | pipeline frames p50 | frame-to-photon p50 (ms) | fps | lognormal p50 / p99 (ms) |")
        page.add("|---|---:|---:|---:|---:|---:|")
        var cdf: [(name: String, points: [(valueMs: Double, fraction: Double)])] = []
        var stuffed = false
        var resampledMs: Double?, dispatchMs: Double?
        for (label, name, _) in Self.sideBySide {
            let fixed = try run(name, keepBudget: true)
            if fixed.configuration.platform == .android {
                // what resampling wins back: the mean of the budget's (negative) resampling stage
                if let b = fixed.measurements.budget, let bar = StageBudgetChart.Bar(name: name, budget: b) {
                    resampledMs = bar.stages.first { $0.stage == .resampling }.map { -$0.ms }
                }
                dispatchMs = Double(fixed.configuration.android.dispatchLatency) / 1e6
            }
            let spread = try run(name) {
                $0.handler = .lognormal(median: 4 * Nanos.perMillisecond, sigma: 0.5)
                $0.gpuRender = .lognormal(median: 4 * Nanos.perMillisecond, sigma: 0.4)
            }
            let m = fixed.measurements, s = spread.measurements
            func cell(_ f: Figure, _ r: RunResult) -> String { FigureTable.cell(f.value(r), f) }
            page.add("| \(label) | \(cell(.touchToPhotonP50, fixed)) | \(cell(.pipelineFramesP50, fixed)) | \(cell(.frameToPhotonP50, fixed)) | \(cell(.fps, fixed)) | \(cell(.touchToPhotonP50, spread)) / \(cell(.touchToPhotonP99, spread)) |")
            cdf.append((label, m.touchToPhotonMs.distribution().map { (valueMs: $0.value, fraction: $0.fraction) }))
            if let a = s.android, let fixedMedian = Figure.touchToPhotonP50.value(fixed), let median = Figure.touchToPhotonP50.value(spread),
               median - fixedMedian > 1000.0 / 120, (a.frameTimeline?[.bufferStuffing] ?? 0) > s.framesPresented / 2 { stuffed = true }
            cdf.append(("\(label), lognormal handler and GPU", s.touchToPhotonMs.distribution().map { (valueMs: $0.value, fraction: $0.fraction) }))
        }
        page.add()
        let chart = LatencyCDFChart(series: cdf, xLabel: "touch-to-photon latency (ms)",
                                    title: "The same touch through iOS 9 and Android",
                                    subtitle: "handler 4 ms, GPU 4 ms (fixed, and lognormal with those medians); 60 Hz display and scan",
                                    framePeriodMs: 1000.0 / 60)
        page.chart(try render(chart, "platforms-cdf"), alt: "touch-to-photon CDF, iOS 9 and Android")
        page.add("iOS 9 starts the handler at the vsync after the touch is ready and shows the frame at the next vsync: three frames. Android's vsync-app comes `D_app + D_sf` (two periods less 1 ms) before the vsync its frame targets, and InputConsumer only consumes samples at least 5 ms older than that frame time: the newest sample drawn is a frame older\(resampledMs.map { ", and resampling wins back \(formatDecimal($0, places: 1)) ms of it by extrapolating (its mean in the stage budget)" } ?? ""). Frame-to-photon is the other half of the story: `D_app + D_sf + T/2` on Android, `1.5T` on iOS."
                 + (stuffed ? " With varying durations Android's median moves a whole frame: the first frame whose work misses vsync-sf leaves an extra buffer in the BufferQueue, which is FIFO and never drains while frames keep coming (FrameTimeline's buffer stuffing); iOS latches the newest frame and is back at once." : ""))
        page.add()
        for (label, name, _) in Self.sideBySide {
            let r = try run(name, keepLog: true, duration: Nanos.perSecond)
            guard let diagram = PipelineDiagramBuilder.diagram(r, scenario: name) else { continue }
            page.add("### \(label)")
            page.add()
            page.chart(try render(diagram, "platforms-diagram-\(name)"), alt: "pipeline diagram of \(name)")
        }
        page.add("On Android the touch's scan window ends well before the frame that draws it starts: the sample reaches the app \(formatDecimal(dispatchMs ?? 0, places: 1)) ms after its window (the dispatch latency), misses the 5 ms resampling margin of the next vsync-app, and is drawn one frame later, at its extrapolated point (the red dot). SurfaceFlinger latches at vsync-sf, a period before the vsync that shows the frame.")
        page.add()
        return try platformsSweep(page)
    }

    /// The handler sweep on both platforms, with the handler times at which
    /// each adds a frame marked.
    func platformsSweep(_ page: Page) throws -> Page {
        var page = page
        let axis = try SweepAxis(parsing: "app.handler=1ms...24ms:1ms")
        var series: [(name: String, points: [(x: Double, p50Ms: Double, p99Ms: Double, fps: Double?)])] = []
        var annotations: [SweepChart.Annotation] = []
        var onsets: [String] = []
        for (label, name, short) in Self.sideBySide {
            progress("sweep \(name) app.handler")
            let result = try Sweep.run(scenario: try Scenario.named(name), assignments: assignments(), axes: [axis])
            var points: [(x: Double, p50Ms: Double, p99Ms: Double, fps: Double?)] = []
            for row in result.rows {
                guard let x = row.numbers.first ?? nil, let p50 = row.figures[.touchToPhotonP50],
                      let p99 = row.figures[.touchToPhotonP99] else { continue }
                points.append((x, p50, p99, row.figures[.fps]))
            }
            points.sort { $0.x < $1.x }
            series.append((short, points))
            // a step of half a frame or more in the median is a frame added
            let frame = result.rows.first?.framePeriodMs ?? 1000.0 / 60
            let steps = zip(points, points.dropFirst()).filter { $1.p50Ms - $0.p50Ms >= frame / 2 }.map { $1.x }
            if let first = steps.first {
                annotations.append(.init(x: first - 0.5, label: short.split(separator: " ").first.map(String.init) ?? short))
                onsets.append("\(label) at a handler of \(formatDecimal(first, places: 0)) ms")
            }
        }
        var chart = SweepChart(series: series, xLabel: "touch handler time (ms)",
                               title: "Where each platform adds a frame",
                               subtitle: "app.handler swept, GPU 4 ms, \(duration) per point; the dashed lines mark where each adds a frame",
                               annotations: annotations)
        // a median that falls as the handler grows: past a period, frames
        // decided late interpolate toward a sample already batched
        // (Docs/Android.md, "A handler longer than a period")
        var dips: [String] = []
        for (s, (label, _, _)) in zip(series, Self.sideBySide) {
            guard let dip = zip(s.points, s.points.dropFirst()).first(where: { $1.p50Ms < $0.p50Ms - 0.5 })?.1 else { continue }
            // the note below the curves, right of the dip: clear of both platforms' lines
            chart.notes.append(.init(x: dip.x, y: dip.p50Ms, textX: dip.x + 0.3, textY: 0.57 * dip.p50Ms,
                                     text: "p50 dips: frames started late\nresample nearer the finger"))
            let back = s.points.first { $0.x > dip.x && $0.p50Ms >= dip.p50Ms + 0.5 }
            dips.append("\(label)'s median falls to \(formatDecimal(dip.p50Ms, places: 1)) ms at a handler of \(formatDecimal(dip.x, places: 0)) ms"
                + (back.map { " and rises again from \(formatDecimal($0.x, places: 0)) ms" } ?? ""))
        }
        page.add("### Handler time: where each platform adds a frame")
        page.add()
        page.chart(try render(chart, "platforms-sweep-handler"), alt: "touch-to-photon vs handler time, iOS and Android")
        page.add("The first frame each adds: \(onsets.joined(separator: "; ")). iOS misses its vsync once handler, prepare and GPU (3 + 4 ms) no longer fit in a period; Android once handler, RenderThread and GPU (2 + 4 ms) no longer fit before vsync-sf, `D_app` after vsync-app. Past a period the UI thread is still busy at the next vsync-app: Choreographer's skipped-frame correction runs frames back to back, the frame rate falls, and FrameTimeline classes the late frames as buffer stuffing or missed app deadlines.")
        page.add()
        if !dips.isEmpty {
            page.add("\(dips.joined(separator: "; ")). Past a period the latencies are a mixture, not one value: a frame decided late (the UI thread was still busy at its vsync-app) finds the next sample already batched and interpolates toward it, so its point is nearer the finger than an on-time frame's, which extrapolates at most 8 ms; frames that slip a further vsync are a frame later than those. While the late frames are more than half, the median is theirs; as the handler grows the slipped frames take over and the median rises (Docs/Android.md, \"A handler longer than a period\").")
            page.add()
        }
        return page
    }
}
