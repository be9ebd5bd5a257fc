import Experiments
import FramePipeline
import Scenarios
import Foundation
import SimKernel
import TouchModel

extension ReportWriter {
    /// The ink paths the report compares by the pen's row: a scenario and
    /// what it sets, with a legend name.
    static let inkPaths: [(name: String, scenario: String, change: @Sendable (inout PipelineConfiguration) -> Void)] = [
        ("Android, multi-buffered", "android-ink-buffered", { _ in }),
        ("Android, front buffer on a composed plane", "android-ink-front", { $0.ink.frontBufferPlane = .composition }),
        ("Android, front buffer on an overlay", "android-ink-front", { _ in }),
        ("Pencil, iPad Pro 2017", "pencil-ink", { _ in }),
        ("Pencil, with the mid-frame read", "pencil-ink-midframe", { _ in }),
    ]

    /// The pen's rows the report runs each path at (a fraction of the
    /// screen's height, 0 at the top).
    static let inkRows: [Double] = (0...20).map { Double($0) / 20 }

    /// A pen drawing left to right along row `row` (a fraction of the
    /// screen's height) for a second, at 300 points per second.
    static func penAlongRow(_ row: Double, _ c: PipelineConfiguration) throws -> Trajectory {
        let y = row * c.heightPoints
        let samples = (0...100).map { TouchSample(time: SimTime($0) * 10 * Nanos.perMillisecond, position: TouchPoint(x: 100 + 3 * Double($0), y: y)) }
        return try Trajectory.trace(name: "row \(formatDecimal(row, places: 2))", strokes: [samples])
    }

    /// "Ink": the ink paths side by side (Docs/Ink.md): their figures, where
    /// their milliseconds go, and pen-to-ink at each row of the screen.
    func inkSection(_ page: Page) throws -> Page {
        var page = page
        progress("ink")
        page.add("## Ink: strokes drawn ahead of the pipeline")
        page.add()
        page.add("An ink app's wet stroke measured at the pen's own row (Docs/Ink.md): on an Android stylus tablet (the Xiaomi Pad 5 preset: 120 Hz, 240 Hz touch sampling) the same app drawing through the multi-buffered pipeline and into a front buffer (androidx.graphics.lowlatency), stylus input unbuffered in both; on the 2017 iPad Pro the Pencil ink app without and with iPadOS 13's mid-frame read and prediction. Pen-to-ink is from the pen's true position to the photons of the ink at its row; the ink's error is how far the drawn end of the stroke is from the pen at those photons; a torn frame is a front-buffer draw the scan-out passed while the GPU drew it; the dry commit is the pen-up's stroke through SurfaceFlinger.")
        page.add()
        var results: [(name: String, result: RunResult)] = []
        for name in BuiltinScenarios.inkNames {
            results.append((name, try run(name, keepBudget: true)))
        }
        results.append(("android-ink-front, composed", try run("android-ink-front", keepBudget: true) { $0.ink.frontBufferPlane = .composition }))
        for (title, table) in FigureTable.grouped(results) where title == "ink" || title == "latency and display" {
            page.add("**\(title.prefix(1).uppercased() + title.dropFirst())**")
            page.add()
            page.add(table.markdown())
            page.add()
        }
        let bars = results.compactMap { r in r.result.measurements.budget.flatMap { StageBudgetChart.Bar(name: r.name, budget: $0) } }
        if !bars.isEmpty {
            page.chart(try render(StageBudgetChart(bars: bars, title: "Where an ink app's milliseconds go",
                                                   subtitle: "mean pen-to-ink at the pen's own row, split into the stages each draw or frame passed through"),
                                  "ink-budget"), alt: "stage budget of the ink paths")
            page.add(Self.inkBudgetReading(bars))
            page.add()
        }
        // pen-to-ink at each row of the screen, each path with the pen on a horizontal line
        var series: [SweepChart.Series] = []
        for path in Self.inkPaths {
            var points: [SweepChart.Point] = []
            for row in Self.inkRows {
                var c = try Scenario.named(path.scenario).configuration(assignments())
                c.duration = Nanos.perSecond
                path.change(&c)
                let r = try PipelineRun(configuration: c, trajectory: try Self.penAlongRow(row, c)).run()
                guard let ink = r.measurements.ink?.penToInkMs, let p50 = ink.percentile(50), let p99 = ink.percentile(99) else { continue }
                points.append(SweepChart.Point(x: row, p50Ms: p50, p99Ms: p99))
            }
            series.append(SweepChart.Series(name: path.name, points: points))
        }
        let chart = SweepChart(series: series, xLabel: "the pen's row (fraction of the screen's height, 0 at the top)",
                               latencyLabel: "pen-to-ink at the pen's row (ms)",
                               title: "Pen-to-ink by path and by the pen's row",
                               subtitle: "a pen drawing along one row for a second; the scan-out reaches row r at V_k + r·T")
        page.chart(try render(chart, "ink-rows"), alt: "pen-to-ink by path and by the pen's row")
        page.add(Self.inkRowsReading(series))
        page.add()
        progress("diagram android-ink-front")
        let front = try run("android-ink-front", keepLog: true, duration: Nanos.perSecond)
        if let diagram = AndroidDiagramBuilder.diagram(front, scenario: "android-ink-front") {
            page.chart(try render(diagram, "diagram-android-ink-front"), alt: "pipeline diagram of the front-buffered ink app")
            page.add("The front-buffered app frame by frame (`latsim diagram android-ink-front`): the blue diagonals in the Display lane are the scan line, the row being scanned out, from the top at each vsync to the bottom at the next; the dotted line is the followed draw's pen row. A wet segment reaches the eye where the scan line next crosses the pen's row after the GPU has written it.")
            page.add()
        }
        return page
    }

    /// What the ink budgets show, from the bars.
    static func inkBudgetReading(_ bars: [StageBudgetChart.Bar]) -> String {
        guard let buffered = bars.first(where: { $0.name == "android-ink-buffered" }),
              let front = bars.first(where: { $0.name == "android-ink-front" }) else { return "" }
        func ms(_ b: StageBudgetChart.Bar, _ s: BudgetStage) -> Double { b.stages.first { $0.stage == s }?.ms ?? 0 }
        let saved = buffered.totalMs - front.totalMs
        let waits = ms(buffered, .batchWait) + ms(buffered, .latchWait) + ms(buffered, .presentWait) + ms(buffered, .scanOut)
        let race = ms(front, .scanRace) + ms(front, .composeWait)
        var out = "The front buffer saves \(formatDecimal(saved, places: 1)) ms of the multi-buffered app's \(formatDecimal(buffered.totalMs, places: 1)): its frames wait \(formatDecimal(waits, places: 1)) ms for the Choreographer, SurfaceFlinger's latch, the present and the scan-out to the row, where a front-buffer draw waits \(formatDecimal(race, places: 1)) ms for the scan line (and, for a stroke's first draws, SurfaceFlinger)."
        if let plain = bars.first(where: { $0.name == "pencil-ink" }), let mid = bars.first(where: { $0.name == "pencil-ink-midframe" }) {
            out += " On the iPad the mid-frame read saves \(formatDecimal(plain.totalMs - mid.totalMs, places: 2)) ms: the frame draws the Pencil sample of the window that ended mid-frame, half a 120 Hz frame newer (Apple's claim for the technique is \"4 ms\")."
        }
        return out
    }

    /// What the rows chart shows, from its series.
    static func inkRowsReading(_ series: [SweepChart.Series]) -> String {
        func span(_ name: String) -> (min: Double, max: Double)? {
            guard let s = series.first(where: { $0.name == name }), !s.points.isEmpty else { return nil }
            return (s.points.map(\.p50Ms).min()!, s.points.map(\.p50Ms).max()!)
        }
        var out: [String] = []
        if let b = span("Android, multi-buffered") {
            out.append("Through the buffered pipeline the ink reaches the eye a whole frame after it is latched plus the scan-out to its row: \(formatDecimal(b.min, places: 1)) ms at the top to \(formatDecimal(b.max, places: 1)) ms at the bottom, one period apart.")
        }
        if let f = span("Android, front buffer on an overlay") {
            out.append("A front buffer on an overlay is raced to the row by the scan-out: from \(formatDecimal(f.min, places: 1)) ms for rows the scan-out reaches just after the draw ends to \(formatDecimal(f.max, places: 1)) ms for rows it has just passed, which wait a whole refresh; where on the screen the pen is decides how much the front buffer buys.")
        }
        if let c = span("Android, front buffer on a composed plane") {
            out.append("Composed by SurfaceFlinger (the fallback when the hardware composer gives the front buffer no overlay) it takes SurfaceFlinger's latency again: \(formatDecimal(c.min, places: 1)) to \(formatDecimal(c.max, places: 1)) ms.")
        }
        return out.joined(separator: " ")
    }
}
