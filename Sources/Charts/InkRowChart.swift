import SimKernel

/// Pen-to-ink by the pen's row (Docs/Ink.md): one line per ink path, its
/// mean pen-to-ink at each row of the screen (0 at the top), over a shaded
/// band from the 5th to the 95th percentile of the draws (or frames) at
/// that row. A
/// multi-buffered path rises by one display period from the top to the
/// bottom (its frames reach a row `row × T` after their latch); a front
/// buffer on an overlay is a sawtooth, since each draw waits for the
/// scan-out's next pass over its row.
///
/// ```swift
/// let chart = InkRowChart(series: [
///     .init(name: "multi-buffered", points: [(row: 0, meanMs: 30, p5Ms: 30, p95Ms: 30), (row: 1, meanMs: 38.3, p5Ms: 38.3, p95Ms: 38.3)]),
/// ], framePeriodMs: 8.333)
/// ```
public struct InkRowChart: GnuplotChart {
    /// One path's points.
    public struct Series: Sendable {
        /// The legend name.
        public var name: String
        /// At each row: the mean, 5th and 95th percentile pen-to-ink, ms.
        public var points: [(row: Double, meanMs: Double, p5Ms: Double, p95Ms: Double)]

        /// A series from its parts.
        public init(name: String, points: [(row: Double, meanMs: Double, p5Ms: Double, p95Ms: Double)]) {
            self.name = name
            self.points = points
        }
    }

    /// The paths.
    public var series: [Series]
    /// The display period, ms: the y axis is gridded at it.
    public var framePeriodMs: Double?
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart of `series`.
    public init(series: [Series], framePeriodMs: Double? = nil, title: String = "Pen-to-ink by path and by the pen's row",
                subtitle: String? = nil) {
        self.series = series
        self.framePeriodMs = framePeriodMs
        self.title = title
        self.subtitle = subtitle
    }

    /// The gnuplot script.
    public var script: ChartScript {
        var tables: [ChartTable] = []
        for (i, s) in series.enumerated() {
            var t = ChartTable(name: "ink\(i)", columns: ["row", "mean_ms", "p5_ms", "p95_ms"])
            for p in s.points.sorted(by: { $0.row < $1.row }) {
                t.append([.number(p.row), .number(p.meanMs), .number(p.p5Ms), .number(p.p95Ms)])
            }
            tables.append(t)
        }
        let top = (series.flatMap { $0.points.map { max($0.p95Ms, $0.meanMs) } }.max() ?? 10) * 1.12
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel "the pen's row (0 the top of the screen, 1 the bottom)"
        set ylabel "pen-to-ink at the pen's row (ms)"
        set xrange [0:1]
        set yrange [0:\(GnuplotText.number(top))]
        set xtics 0,0.1,1
        set rmargin at screen 0.70
        set key at screen 0.72, graph 1 left top vertical Left reverse noopaque nobox spacing 1.35 samplen 3

        """
        if let t = framePeriodMs, t > 0 {
            setup += "set ytics \(GnuplotText.number(t))\n"
            setup += "set format y \"%.1f\"\n"
        }
        var parts: [String] = []
        for (i, s) in series.enumerated() {
            let c = GnuplotText.rgb(ChartStyle.color(i))
            parts.append("$ink\(i) using 1:3:4 with filledcurves fs transparent solid 0.15 noborder lc \(c) notitle")
            parts.append("$ink\(i) using 1:2 with linespoints lw 2.5 pt 7 ps 0.9 lc \(c) title \(GnuplotText.enhanced(s.name))")
        }
        if parts.isEmpty { parts.append("NaN notitle") }
        parts.append("keyentry with filledcurves fs transparent solid 0.15 noborder lc \(GnuplotText.rgb(ChartStyle.quiet)) title \"p5 to p95 of the draws\"")
        return ChartScript(title: title + (subtitle.map { " (\($0))" } ?? ""), tables: tables, setup: setup,
                           plot: "plot " + parts.joined(separator: ", \\\n     "))
    }
}

extension InkRowChart: RegisteredChart {
    public static let kind = "ink-rows"
    /// A multi-buffered path rising by a 120 Hz period from the top of the
    /// screen to the bottom, and a front buffer's sawtooth (the draw done
    /// at a fixed phase of the refresh, each row waiting for the scan-out's
    /// next pass).
    public static var example: InkRowChart {
        let t = 1000.0 / 120
        let rows = stride(from: 0.05, through: 0.95, by: 0.1).map { $0 }
        let buffered = rows.map { r in (row: r, meanMs: 26 + r * t, p5Ms: 24 + r * t, p95Ms: 29 + r * t) }
        let front = rows.map { r -> (row: Double, meanMs: Double, p5Ms: Double, p95Ms: Double) in
            let wait = (r * t - 0.4 * t).truncatingRemainder(dividingBy: t)
            let race = wait < 0 ? wait + t : wait
            return (row: r, meanMs: 13 + race, p5Ms: 12 + race, p95Ms: 15 + race)
        }
        return InkRowChart(series: [.init(name: "multi-buffered", points: buffered), .init(name: "front buffer, overlay", points: front)],
                           framePeriodMs: t, subtitle: "example: 120 Hz")
    }
    public static var empty: InkRowChart { InkRowChart(series: []) }
}
