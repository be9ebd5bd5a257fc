@testable import Charts
import Foundation
import Testing

/// What a reader needs of a chart, checked in its script and data: no
/// series hidden under another, bands only where the data can lie, rates on
/// a log axis, labels that contrast with what they are printed on.
@Suite struct ChartReadabilityTests {
    /// Coinciding CDF steps: every series is drawn narrower than the one
    /// before it, so a later one shows inside an earlier one it covers.
    @Test func cdfLinesNarrowOneByOne() {
        for n in 2...7 {
            let widths = (0..<n).map { LatencyCDFChart.lineWidth($0, of: n) }
            #expect(zip(widths, widths.dropFirst()).allSatisfy { $0 - $1 >= 1 - 1e-9 }, "\(n): \(widths)")
            #expect(widths.last! >= 2.5)
        }
        let same = [(valueMs: 29.2, fraction: 1.0)]
        let script = LatencyCDFChart(series: [(name: "a", points: same), (name: "b", points: same)]).script.plot
        #expect(script.contains("lw 7.5") && script.contains("lw 2.5"), "\(script)")
    }

    /// A seed band stays within the seeds' values and never below the p50
    /// line, whatever Student's interval says.
    @Test func seedBandsStayWhereTheMeanCanBe() {
        var p = SweepChart.Point(x: 5, p50Ms: 29.2, p99Ms: 31.2, fps: 60, p50HalfWidth: 0, p99HalfWidth: 4.9, fpsHalfWidth: 0.1)
        p.p99SeedRange = 29.2...45.8
        #expect(p.p99Band.low == 29.2 && abs(p.p99Band.high - 36.1) < 1e-9)
        p.p99SeedRange = nil
        #expect(p.p99Band.low == 29.2, "floored at the p50 line")
        let table = SweepChart(series: [.init(name: "s", points: [p])], xLabel: "x").script.tables[0]
        #expect(table.columns.suffix(4) == ["p50_band_low", "p50_band_high", "p99_band_low", "p99_band_high"])
    }

    /// 60/120/240 Hz: a log axis, each cell reaching half way (geometrically)
    /// to its neighbours, tics at the swept values.
    @Test func ratesOnALogAxis() {
        let cells = [60.0, 120, 240].flatMap { x in [2.0, 4].map { SweepHeatMapChart.Cell(x: x, y: $0, p50Ms: 30 + x / 10, fps: 60) } }
        let chart = SweepHeatMapChart(cells: cells, xLabel: "scan rate (Hz)", yLabel: "handler (ms)", title: "t", xLog: true)
        let s = chart.script
        #expect(s.setup.contains("set logscale x 2") && s.setup.contains("set xtics (\"60\" 60, \"120\" 120, \"240\" 240)"), "\(s.setup)")
        let edges = SweepHeatMapChart.edges([60, 120, 240], log: true)
        #expect(abs(edges[120]!.low - (60.0 * 120).squareRoot()) < 1e-9 && abs(edges[120]!.high - (120.0 * 240).squareRoot()) < 1e-9)
        #expect(abs(edges[60]!.low * edges[60]!.high - 60 * 60) < 1e-6, "the outer cell as wide, on the log axis, as inwards")
        // an uneven linear grid: each cell whole, none over another
        let linear = SweepHeatMapChart.edges([60, 90, 120, 240], log: false)
        #expect(linear[90]!.high == linear[120]!.low && linear[120]!.high == 180)
    }

    /// Labels: dark ink on yellow, orange and olive, white on the dark
    /// fills; the heat map's label colours follow its palette.
    @Test func labelsContrastWithTheirFill() {
        #expect(ChartStyle.labelInk(on: 0xFDE725) == ChartStyle.ink) // viridis yellow
        #expect(ChartStyle.labelInk(on: ChartStyle.buffers[2]) == ChartStyle.ink) // the third buffer's orange
        #expect(ChartStyle.labelInk(on: ChartStyle.touchWork) == ChartStyle.ink) // touch handling olive
        #expect(ChartStyle.labelInk(on: 0x440154) == ChartStyle.white) // viridis purple
        #expect(ChartStyle.labelInk(on: ChartStyle.stage(.resampling)) == ChartStyle.white) // indigo
        #expect(SweepHeatMapChart.labelColor(1) == ChartStyle.ink && SweepHeatMapChart.labelColor(0) == ChartStyle.white)
    }

    /// A one-row validation chart writes its one verdict, as a label in the
    /// margin, and no labels clause (gnuplot 5.4 crashed on one whose every
    /// point was filtered out).
    @Test func aOneRowValidationChartHasOnlyItsOwnVerdict() {
        let row = ValidationChart.Row(id: "ours", detail: "tablet, walt-screen", published: 50, spread: nil, tolerance: 5,
                                      simulated: 48.7, p5: 48.7, p25: 48.7, p75: 48.7, p95: 48.7, passes: true)
        let script = ValidationChart(rows: [row]).script
        #expect(!script.plot.contains("with labels"), "\(script.plot)")
        let verdicts = script.setup.components(separatedBy: "\n").filter { $0.hasPrefix("set label") && $0.contains("at graph 1,") }
        #expect(verdicts.count == 1 && verdicts[0].contains("pass  48.7 vs 50 ms (-2.6%)"), "\(verdicts)")
    }

    /// Timeline hitches and drops in lanes of their own, as upright ticks.
    @Test func timelineMarksDoNotOverlap() {
        let chart = LatencyTimelineChart(points: [(seconds: 0.1, ms: 33.3), (seconds: 0.2, ms: 33.3)], hitches: [0.15], drops: [0.15])
        let plot = chart.script.plot
        let lanes = plot.components(separatedBy: "\n").filter { $0.contains("with vectors") }
        #expect(lanes.count == 2, "\(plot)")
        let ys = lanes.compactMap { $0.split(separator: ":").dropFirst().first.map(String.init) }
        #expect(Set(ys).count == 2, "\(ys)")
    }
}
