import SimKernel

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
    /// When set, the touch-to-photon latency of the frames scored, ms,
    /// marked as a dashed line: the horizon that would put a perfect
    /// prediction where the finger is at the photons.
    public var photonLatencyMs: Double?

    /// Each predictor's least error and the horizon where it falls, in
    /// series order (the chart's own points).
    public var minima: [(predictor: String, horizonMs: Double, errorPx: Double)] {
        series.compactMap { s in
            s.points.min { ($0.errorPx, $0.horizonMs) < ($1.errorPx, $1.horizonMs) }.map { (s.predictor, $0.horizonMs, $0.errorPx) }
        }
    }

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
        var marks = ChartTable(name: "latency", columns: ["touch_to_photon_ms"])
        if let l = photonLatencyMs { marks.append([.number(l)]); tables.append(marks) }
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
        setup += ChartStyle.periodLines(every: framePeriodMs, from: 0, to: xmax, .vertical, width: 1.5) {
            "\($0) frame\($0 == 1 ? "" : "s")"
        }
        if let l = photonLatencyMs, l <= xmax {
            let x = GnuplotText.number(l)
            setup += "set arrow from first \(x), graph 0 to first \(x), graph 1 nohead back lc \(GnuplotText.rgb(ChartStyle.reference)) lw 1.2 dt (6,4)\n"
            setup += "set label \"touch-to-photon \(formatDecimal(l, places: 1)) ms\" at first \(x), graph 0.93 offset 0.4,0 left tc \(GnuplotText.rgb(ChartStyle.annotation)) font \",10\"\n"
        }
        let pointTypes = [7, 5, 9, 11, 13, 15]
        var parts: [String] = []
        // predictors that agree draw the same line: earlier ones wider and
        // with larger marks, so each later one shows inside the one it covers
        for (i, s) in series.enumerated() {
            let width = 1.5 + (LatencyCDFChart.lineWidth(i, of: series.count) - 1.5) * 0.6
            parts.append("$err\(i) using 1:2 with linespoints lw \(GnuplotText.number(width)) pt \(pointTypes[i % pointTypes.count]) ps \(GnuplotText.number(0.9 + width * 0.2)) "
                + "lc \(GnuplotText.rgb(ChartStyle.color(i))) title \(GnuplotText.enhanced(s.predictor))")
        }
        if parts.isEmpty { parts.append("NaN notitle") }
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }
}

extension HorizonErrorChart: RegisteredChart {
    public static let kind = "horizon-error"
    /// Three predictors' error growing with the horizon.
    public static var example: HorizonErrorChart {
        let hs: [Double] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40]
        return HorizonErrorChart(series: [
            (predictor: "none (hold last)", points: hs.map { (horizonMs: $0, errorPx: 0.9 * $0) }),
            (predictor: "linear_2pt", points: hs.map { (horizonMs: $0, errorPx: 0.6 + 0.012 * $0 * $0) }),
            (predictor: "kalman", points: hs.map { (horizonMs: $0, errorPx: 0.8 + 0.008 * $0 * $0) }),
        ], yLabel: "RMS position error (px)", subtitle: "finger on a circle, 120 Hz scan", framePeriodMs: 1000.0 / 60)
    }
    public static var empty: HorizonErrorChart { HorizonErrorChart(series: []) }
}
