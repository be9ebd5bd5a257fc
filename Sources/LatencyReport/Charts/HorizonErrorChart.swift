/// Prediction error against prediction horizon, one line per predictor.
///
/// ```swift
/// let chart = HorizonErrorChart(series: [
///     (predictor: "linear", points: [(horizonMs: 8, errorPx: 1.2), (horizonMs: 16, errorPx: 3.9)]),
///     (predictor: "kalman", points: [(horizonMs: 8, errorPx: 1.0), (horizonMs: 16, errorPx: 3.1)]),
/// ])
/// ```
public struct HorizonErrorChart: GnuplotChart {
    /// The predictors, each with its (horizon, error) points.
    public var series: [(predictor: String, points: [(horizonMs: Double, errorPx: Double)])]
    /// The y axis label, with its unit (e.g. "RMS error (px)").
    public var yLabel: String
    /// The x axis label.
    public var xLabel: String
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?
    /// When set, faint vertical lines mark whole display frames.
    public var framePeriodMs: Double?

    /// A chart of `series`.
    public init(series: [(predictor: String, points: [(horizonMs: Double, errorPx: Double)])],
                yLabel: String = "prediction error (px)",
                xLabel: String = "prediction horizon (ms)",
                title: String = "Touch prediction error vs horizon",
                subtitle: String? = nil,
                framePeriodMs: Double? = nil) {
        self.series = series
        self.yLabel = yLabel
        self.xLabel = xLabel
        self.title = title
        self.subtitle = subtitle
        self.framePeriodMs = framePeriodMs
    }

    /// The gnuplot script.
    public var script: ChartScript {
        var tables: [ChartTable] = []
        for (i, s) in series.enumerated() {
            var table = ChartTable(name: "err\(i)", columns: ["horizon_ms", "error_px"])
            for p in s.points.sorted(by: { $0.horizonMs < $1.horizonMs }) {
                table.append([.number(p.horizonMs), .number(p.errorPx)])
            }
            tables.append(table)
        }
        let points = series.flatMap(\.points)
        let xmax = (points.map(\.horizonMs).max() ?? 1) * 1.05
        let ymax = (points.map(\.errorPx).max() ?? 1) * 1.15
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel \(GnuplotText.enhanced(xLabel))
        set ylabel \(GnuplotText.enhanced(yLabel))
        set xrange [0:\(GnuplotText.number(xmax))]
        set yrange [0:\(GnuplotText.number(ymax))]
        set key bottom left

        """
        if let period = framePeriodMs, period > 0 {
            var k = 1.0
            while k * period <= xmax {
                let x = GnuplotText.number(k * period)
                setup += "set arrow from first \(x), graph 0 to first \(x), graph 1 nohead back lc \(GnuplotText.rgb(0xB9C4D0)) lw 1.5\n"
                setup += "set label \"\(Int(k)) frame\(k == 1 ? "" : "s")\" at first \(x), graph 1 offset 0.4,-1 left tc \(GnuplotText.rgb(0x6B7B8C)) font \",10\"\n"
                k += 1
            }
        }
        let pointTypes = [7, 5, 9, 11, 13, 15]
        var parts: [String] = []
        for (i, s) in series.enumerated() {
            parts.append("$err\(i) using 1:2 with linespoints lw 2.5 pt \(pointTypes[i % pointTypes.count]) ps 1.2 "
                + "lc \(GnuplotText.rgb(ChartStyle.color(i))) title \(GnuplotText.enhanced(s.predictor))")
        }
        if parts.isEmpty { parts.append("NaN notitle") }
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }
}
