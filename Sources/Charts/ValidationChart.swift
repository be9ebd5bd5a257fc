import SimKernel

/// Published measurements beside latsim's: one row per measurement, the
/// published value with its spread on the upper lane, the simulated
/// distribution (box from p25 to p75, whiskers from p5 to p95, a dot at the
/// compared statistic) on the lower lane, over the band a simulated figure
/// must fall in to pass (10% or 5 ms of the published value, whichever is
/// larger).
///
/// ```swift
/// let chart = ValidationChart(rows: [
///     .init(id: "walt-screen-nexus9", detail: "nexus-9, walt-screen", published: 51.4, spread: (49.0, 53.8),
///           tolerance: 5.14, simulated: 48.7, p5: 48.7, p25: 48.7, p75: 48.7, p95: 48.7, passes: true),
/// ])
/// let output = try Gnuplot.system().render(chart, directory: reports, basename: "validation")
/// ```
public struct ValidationChart: GnuplotChart {
    /// One measurement.
    public struct Row: Sendable, Equatable {
        /// The measurement's id.
        public var id: String
        /// A second, smaller label line (device and app).
        public var detail: String
        /// The published value, ms.
        public var published: Double
        /// The published spread, ms, when there is one.
        public var spread: (low: Double, high: Double)?
        /// The error allowed either side of the published value, ms.
        public var tolerance: Double
        /// The simulated figure compared, ms.
        public var simulated: Double
        /// Percentiles of the simulated distribution, ms.
        public var p5: Double, p25: Double, p75: Double, p95: Double
        /// Whether the row passes.
        public var passes: Bool
        /// Whether its table expects a miss (a known, documented miss).
        public var expectedMiss: Bool

        /// A row from its values.
        public init(id: String, detail: String, published: Double, spread: (low: Double, high: Double)?, tolerance: Double,
                    simulated: Double, p5: Double, p25: Double, p75: Double, p95: Double, passes: Bool,
                    expectedMiss: Bool = false) {
            self.id = id
            self.detail = detail
            self.published = published
            self.spread = spread
            self.tolerance = tolerance
            self.simulated = simulated
            self.p5 = p5
            self.p25 = p25
            self.p75 = p75
            self.p95 = p95
            self.passes = passes
            self.expectedMiss = expectedMiss
        }

        /// The verdict as the chart writes it.
        var verdict: String {
            switch (passes, expectedMiss) {
            case (true, false): return "pass"
            case (false, false): return "MISS"
            case (false, true): return "expected miss"
            case (true, true): return "PASSES (expected miss)"
            }
        }

        /// 0 a pass, 1 an expected miss, 2 a failed check (the label's colour).
        var verdictClass: Int { passes == !expectedMiss ? (passes ? 0 : 1) : 2 }

        public static func == (a: Row, b: Row) -> Bool {
            a.id == b.id && a.detail == b.detail && a.published == b.published && a.spread?.low == b.spread?.low
                && a.spread?.high == b.spread?.high && a.tolerance == b.tolerance && a.simulated == b.simulated
                && a.p5 == b.p5 && a.p25 == b.p25 && a.p75 == b.p75 && a.p95 == b.p95 && a.passes == b.passes
                && a.expectedMiss == b.expectedMiss
        }
    }

    /// The measurements, top to bottom.
    public var rows: [Row]
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart of `rows`, top to bottom.
    public init(rows: [Row], title: String = "Published measurements and latsim",
                subtitle: String? = "each row: the published value and its spread above, latsim's distribution below;\na row passes inside the shaded band") {
        self.rows = rows
        self.title = title
        self.subtitle = subtitle
    }

    /// A row's verdict as the chart writes it beside the row.
    func verdictText(_ r: Row) -> String {
        let sign = r.simulated >= r.published ? "+" : "-"
        let pct = abs(r.simulated - r.published) / r.published * 100
        return "\(r.verdict)  \(formatDecimal(r.simulated, places: 1)) vs \(formatDecimal(r.published, places: 1)) ms (\(sign)\(formatDecimal(pct, places: 1))%)"
    }

    /// The gnuplot script.
    public var script: ChartScript {
        let n = rows.count
        var table = ChartTable(name: "validation", columns: [
            "y", "published", "spread_low", "spread_high", "band_low", "band_high", "simulated",
            "p5", "p25", "p75", "p95", "verdict", "verdict_class",
        ])
        for (i, r) in rows.enumerated() {
            let y = Double(n - 1 - i)
            let verdict = verdictText(r)
            table.append([.number(y), .number(r.published), .number(r.spread?.low ?? r.published),
                          .number(r.spread?.high ?? r.published), .number(r.published - r.tolerance),
                          .number(r.published + r.tolerance), .number(r.simulated), .number(r.p5), .number(r.p25),
                          .number(r.p75), .number(r.p95), .text(verdict), .number(Double(r.verdictClass))])
        }
        let top = rows.map { max($0.published + $0.tolerance, $0.p95, $0.spread?.high ?? 0) }.max() ?? 1
        let right = (top * 1.08 / 10).rounded(.up) * 10
        let tics = rows.enumerated().map { i, r in
            "\"\(GnuplotText.escapeEnhanced(r.id))\\n{/*0.8 \(GnuplotText.escapeEnhanced(r.detail))}\" \(n - 1 - i)"
        }.joined(separator: ", ")
        // the verdicts in the right margin, beside the axis, never over it
        let verdicts = rows.map(verdictText)
        let verdictWidth = verdicts.map(\.count).max() ?? 0
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel "latency (ms)"
        set xrange [0:\(GnuplotText.number(right))]
        set yrange [-0.6:\(GnuplotText.number(Double(n) - 0.4))]
        set ytics (\(tics)) scale 0
        set xtics 0,\(right > 100 ? 20 : 10),\(GnuplotText.number(right)) nomirror
        set mxtics 2
        set grid xtics noytics
        set key at screen 0.5, screen 0.012 center bottom horizontal maxcols 2
        set lmargin \(GnuplotText.number(Double(max(14, rows.map { max($0.id.count, Int(Double($0.detail.count) * 0.8)) }.max() ?? 14) + 3)))
        set bmargin 11
        set rmargin \(verdictWidth + 3)
        set style fill solid 1.0 noborder
        set errorbars small

        """
        let band = GnuplotText.rgb(ChartStyle.passBand), pub = GnuplotText.rgb(ChartStyle.color(1)), sim = GnuplotText.rgb(ChartStyle.color(0))
        let inks = [GnuplotText.rgb(ChartStyle.color(2)), GnuplotText.rgb(ChartStyle.quiet), GnuplotText.rgb(ChartStyle.color(1))]
        for (i, r) in rows.enumerated() {
            setup += "set label \"\(GnuplotText.escapeEnhanced(verdicts[i]))\" at graph 1, first \(n - 1 - i) offset 2,0 left font \",11:Bold\" tc \(inks[r.verdictClass]) front\n"
        }
        let plot = """
        plot $validation using (($5+$6)/2):1:(($6-$5)/2):(0.42) with boxxyerror fc \(band) title "within 10% or 5 ms", \\
             $validation using 2:($1+0.18):3:4 with xerrorbars lc \(pub) lw 2 pt 13 ps 1.6 title "published value (spread)", \\
             $validation using 7:($1-0.16):8:11 with xerrorbars lc \(sim) lw 1.5 pt -1 notitle, \\
             $validation using (($9+$10)/2):($1-0.16):(($10-$9)/2):(0.09) with boxxyerror fc \(sim) title "latsim: p25-p75, whiskers p5-p95", \\
             $validation using 7:($1-0.16) with points pt 7 ps 1.3 lc \(GnuplotText.rgb(ChartStyle.white)) notitle, \\
             $validation using 7:($1-0.16) with points pt 6 ps 1.3 lw 2 lc \(sim) title "latsim: the figure compared"
        """
        return ChartScript(title: title, tables: [table], setup: setup, plot: plot)
    }
}

extension ValidationChart: RegisteredChart {
    public static let kind = "validation"
    /// A row that passes, one that misses, and a miss the table expects.
    public static var example: ValidationChart {
        ValidationChart(rows: [
            .init(id: "walt-screen-nexus9", detail: "nexus-9, walt-screen", published: 51.4, spread: (49.0, 53.8),
                  tolerance: 5.14, simulated: 48.7, p5: 48.7, p25: 48.7, p75: 48.7, p95: 48.7, passes: true),
            .init(id: "agawi-glkit-iphone5", detail: "iphone-5, agawi-glkit", published: 55, spread: nil,
                  tolerance: 5.5, simulated: 73.2, p5: 66.5, p25: 70.1, p75: 76.4, p95: 81.9, passes: false),
            .init(id: "pen-ipad-pro", detail: "ipad-pro-2017, pencil-drawing", published: 20, spread: (18, 22),
                  tolerance: 5, simulated: 29.2, p5: 27.1, p25: 28.3, p75: 30.1, p95: 31.4, passes: false, expectedMiss: true),
        ])
    }
    public static var empty: ValidationChart { ValidationChart(rows: []) }
}
