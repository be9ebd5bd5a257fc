import Charts
import Experiments
import Foundation
import FramePipeline
import Measures
import Scenarios
import SimKernel
import TouchModel

extension ReportWriter {
    /// The ink paths the report compares by the pen's row: a scenario and
    /// what it sets, with a legend name.
    static let inkPaths: [(name: String, scenario: String, change: @Sendable (inout PipelineConfiguration) -> Void)] = [
        ("Android, multi-buffered", "android-ink-buffered", { _ in }),
        ("Android, front buffer composed", "android-ink-front", { $0.ink.frontBufferPlane = .composition }),
        ("Android, front buffer on an overlay", "android-ink-front", { _ in }),
        ("Pencil (iPad Pro 2017)", "pencil-ink", { _ in }),
        ("Pencil, mid-frame read", "pencil-ink-midframe", { _ in }),
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
        // where the milliseconds go, one chart per platform (the prediction's
        // run splits as the mid-frame one: prediction is not a stage)
        let bars = results.filter { $0.name != "pencil-ink-predicted" }.compactMap { r in
            r.result.measurements.budget.flatMap { StageBudgetChart.Bar(name: r.name, budget: $0) }
        }
        let android = bars.filter { $0.name.hasPrefix("android") }, ios = bars.filter { !$0.name.hasPrefix("android") }
        if !android.isEmpty {
            page.chart(try render(StageBudgetChart(bars: android, title: "Where an Android ink app's milliseconds go",
                                                   subtitle: "mean pen-to-ink at the pen's own row, split into the stages each draw or frame passed through"),
                                  "ink-budget"), alt: "stage budget of the Android ink paths")
            page.add(Self.inkBudgetReading(bars))
            page.add()
        }
        if !ios.isEmpty {
            page.chart(try render(StageBudgetChart(bars: ios, title: "Where the Pencil ink's milliseconds go",
                                                   subtitle: "mean pen-to-ink at the pen's own row on the 2017 iPad Pro, without and with the mid-frame read"),
                                  "ink-budget-pencil"), alt: "stage budget of the Pencil ink paths")
        }
        // pen-to-ink at each row of the screen, each path with the pen on a horizontal line
        var series: [InkRowChart.Series] = []
        var period = 0.0
        for path in Self.inkPaths {
            var points: [(row: Double, meanMs: Double, p5Ms: Double, p95Ms: Double)] = []
            for row in Self.inkRows {
                var c = try Scenario.named(path.scenario).configuration(assignments())
                c.duration = Nanos.perSecond
                path.change(&c)
                period = c.framePeriod.doubleValue / 1e6
                let r = try PipelineRun(configuration: c, trajectory: try Self.penAlongRow(row, c)).run()
                guard let ink = r.measurements.ink?.penToInkMs, let mean = ink.mean, let p5 = ink.percentile(5),
                      let p95 = ink.percentile(95) else { continue }
                points.append((row, mean, p5, p95))
            }
            series.append(InkRowChart.Series(name: path.name, points: points))
        }
        let chart = InkRowChart(series: series, framePeriodMs: period,
                                subtitle: "a pen drawing along one row for a second; the scan-out reaches row r at V_k + r·T; y gridded at T")
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
    static func inkRowsReading(_ series: [InkRowChart.Series]) -> String {
        func span(_ name: String) -> (min: Double, max: Double, top: Double, bottom: Double)? {
            guard let s = series.first(where: { $0.name == name }), let first = s.points.first, let last = s.points.last else { return nil }
            return (s.points.map(\.meanMs).min()!, s.points.map(\.meanMs).max()!, first.meanMs, last.meanMs)
        }
        var out: [String] = []
        if let b = span(inkPaths[0].name) {
            out.append("Through the multi-buffered pipeline the ink reaches the eye a fixed time after its latch plus the scan-out to its row: \(formatDecimal(b.top, places: 1)) ms at the top to \(formatDecimal(b.bottom, places: 1)) ms at the bottom, one period apart.")
        }
        if let f = span(inkPaths[2].name) {
            out.append("A front buffer on an overlay is raced to the row by the scan-out: its mean runs from \(formatDecimal(f.min, places: 1)) to \(formatDecimal(f.max, places: 1)) ms in a sawtooth, each draw waiting for the scan-out's next pass over its row, so where on the screen the pen is decides how much the front buffer buys; the band (5th to 95th percentile) is the spread between draws that end at different points of the refresh.")
        }
        if let c = span(inkPaths[1].name) {
            out.append("Composed by SurfaceFlinger (the fallback when the hardware composer gives the front buffer no overlay) it takes SurfaceFlinger's latency again, \(formatDecimal(c.top, places: 1)) to \(formatDecimal(c.bottom, places: 1)) ms, rising with the row as a buffered frame does.")
        }
        if let p = span(inkPaths[3].name), let m = span(inkPaths[4].name) {
            out.append("The Pencil's ink rises with the row too (\(formatDecimal(p.top, places: 1)) to \(formatDecimal(p.bottom, places: 1)) ms), and the mid-frame read moves the whole line down by a Pencil window (\(formatDecimal(m.top, places: 1)) to \(formatDecimal(m.bottom, places: 1)) ms).")
        }
        return out.joined(separator: " ")
    }
}
