import Charts
import Experiments
import Foundation
import FramePipeline
import Scenarios
import SimKernel

extension ReportWriter {
    /// The scenarios whose budgets the report draws, top to bottom.
    static let budgetScenarios = ["ios8", "ios8-complex", "ios9-low-latency", "ios9-metal", "ios9-coalescing-120hz",
                                  "promotion-pencil", "slow-app", "android-default", "android-120hz-scan",
                                  "android-slow-app", "android-gs101-120hz"]

    /// "Where the milliseconds go": the stage budget of a selection of
    /// scenarios as one stacked bar chart, with what the largest stages say.
    public func budgetSection(_ page: Page) throws -> Page {
        var page = page
        progress("stage budgets")
        page.add("## Where the milliseconds go")
        page.add()
        page.add("Each measured frame's touch-to-photon time is split into the stages it passed through (Docs/Budget.md): the gaps between the instants of its touch, the end of its scan window, the delivery, the commit, the prepare, the GPU job, the latch and the photons. A frame's stages add up to its latency to the nanosecond; the bars are the means. `latsim run NAME --budget` prints the table, with p50 and p99 per stage.")
        page.add()
        var bars: [StageBudgetChart.Bar] = []
        var notes: [String] = []
        for name in Self.budgetScenarios {
            let r = try run(name, keepBudget: true)
            guard let b = r.measurements.budget, let bar = StageBudgetChart.Bar(name: name, budget: b) else { continue }
            bars.append(bar)
            if let top = bar.stages.max(by: { $0.ms < $1.ms }) {
                notes.append("\(name): \(top.stage.phrase) \(formatDecimal(top.ms, places: 1)) ms of \(formatDecimal(bar.totalMs, places: 1))")
            }
        }
        if bars.isEmpty {
            page.add("At this duration no scenario measured a frame with new touch content: there is no budget to draw.")
            page.add()
        } else {
            page.chart(try render(StageBudgetChart(bars: bars), "budget"), alt: "stage budget per scenario")
            page.add("The largest stage of each: \(notes.joined(separator: "; ")).")
            page.add()
            let reading = Self.budgetReading(bars)
            if !reading.isEmpty {
                page.add(reading)
                page.add()
            }
        }
        return try timelineSection(page)
    }

    /// "Latency over time": one run with transients, frame by frame.
    func timelineSection(_ page: Page) throws -> Page {
        var page = page
        progress("latency over time")
        let name = "ios9-low-latency"
        let r = try run(name, keepLog: true) {
            $0.animations = .intervals([2 * Nanos.perSecond..<(4 * Nanos.perSecond)])
            $0.liftOff = true
            $0.gpuRender = .lognormal(median: 4 * Nanos.perMillisecond, sigma: 0.4)
        }
        guard let chart = LatencyTimelineChart(r, scenario: name), !chart.points.isEmpty else { return page }
        page.add("### Latency over time")
        page.add()
        page.add("Percentiles average transients away; this is \(name) frame by frame with animations from 2 s to 4 s, strokes that lift off between 100 and 300 ms, and a lognormal GPU time (median 4 ms). `latsim diagram \(name) --timeline --set app.animations=2s..4s --set input.liftOff=true --set 'gpu.render=lognormal(4ms,0.4)'` draws it; `latsim run --frames FILE.csv` exports the same frames with their stage budgets.")
        page.add()
        page.chart(try render(chart, "timeline-\(name)"), alt: "touch-to-photon over time, \(name) with animations")
        let caption = Self.timelineCaption(chart)
        if !caption.isEmpty {
            page.add(caption)
            page.add()
        }
        return page
    }

    /// What the timeline shows, from the chart's own data: the medians
    /// inside and outside the animations (its points and shaded intervals)
    /// and the hitches, with what the frame log shows at each (no cause is
    /// stated that the log does not attribute).
    static func timelineCaption(_ chart: LatencyTimelineChart) -> String {
        var out: [String] = []
        let (during, outside) = chart.frames(inside: LatencyTimelineChart.animationLabel)
        if let d = LatencyTimelineChart.median(during), let o = LatencyTimelineChart.median(outside) {
            out.append("While the animations run the render server waits for the vsync as iOS 8's does: the median frame takes \(formatDecimal(d, places: 1)) ms against \(formatDecimal(o, places: 1)) ms outside them, \(frames((d - o) / (1000.0 / 60))) more.")
        }
        let gaps = chart.shaded.filter { $0.label == LatencyTimelineChart.gapLabel }.count
        if gaps > 0 {
            out.append("The grey gaps (\(gaps)) are lift-offs: no frame carries new touch content until the next stroke's first sample has crossed the pipeline.")
        }
        let n = chart.hitches.count
        if n == 0 {
            out.append("No frame was repeated while newer content was owed (no hitch).")
        } else {
            let parts = chart.hitchesByContext.map { "\($0.count) with \($0.context.phrase)" }
            var sentence = "The run has \(n) hitch\(n == 1 ? "" : "es") (a frame repeated while a newer one was owed; the red ticks): the frame log shows " + parts.joined(separator: ", ")
            let inGaps = chart.hitches(inside: LatencyTimelineChart.gapLabel)
            sentence += inGaps == 0 ? "; none falls in a lift-off gap." : "; \(inGaps) fall\(inGaps == 1 ? "s" : "") in a lift-off gap."
            out.append(sentence)
        }
        if chart.shaded.contains(where: { $0.label == "three display buffers" }) {
            out.append("The blue bands are the times the render server held a third display buffer, which adaptive buffering allocates when a frame misses its vsync.")
        }
        return out.joined(separator: " ")
    }

    /// What the bars show, from their numbers.
    static func budgetReading(_ bars: [StageBudgetChart.Bar]) -> String {
        func ms(_ name: String, _ stage: BudgetStage) -> Double? {
            bars.first { $0.name == name }?.stages.first { $0.stage == stage }?.ms
        }
        var out: [String] = []
        if let wait8 = ms("ios8", .renderServerWait), let wait9 = ms("ios9-low-latency", .renderServerWait) {
            out.append("iOS 8's render server waits \(formatDecimal(wait8, places: 1)) ms for its vsync wake before it prepares a commit; iOS 9's low-latency mode starts at once (\(formatDecimal(wait9, places: 1)) ms), which is the frame the talk says it saves.")
        }
        if let scan60 = ms("ios9-low-latency", .scan), let scan120 = ms("ios9-coalescing-120hz", .scan) {
            out.append("A 120 Hz scan halves the wait from the sample to the end of its window (\(formatDecimal(scan60, places: 2)) to \(formatDecimal(scan120, places: 2)) ms).")
        }
        if let lead = ms("android-default", .resampling), let batch = ms("android-default", .batchWait),
           let present = ms("android-default", .presentWait) {
            out.append("On Android the sample waits \(formatDecimal(batch, places: 1)) ms in InputConsumer's batch for a frame that consumes it, and the frame \(formatDecimal(present, places: 1)) ms between SurfaceFlinger's latch and its present; resampling wins back \(formatDecimal(-lead, places: 1)) ms by drawing an extrapolated point (the bar left of zero).")
        }
        if let scanOut = ms("ios8", .scanOut) {
            out.append("Scan-out to the middle row is half a period (\(formatDecimal(scanOut, places: 1)) ms at 60 Hz) on every platform.")
        }
        return out.joined(separator: " ")
    }
}
