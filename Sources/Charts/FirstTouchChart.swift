import SimKernel

/// The first touch after a quiet screen against steady touches, one row
/// per device (Docs/Figures.md, "First touch after idle"): a dot at each
/// one's median latency joined by a bar (the first touch's extra cost),
/// the 99th percentiles as open marks; a row with the display's idle timer
/// off, when given, as a second, paler pair below.
///
/// ```swift
/// let chart = FirstTouchChart(rows: [
///     .init(device: "pixel-5", detail: "90 Hz, 60 Hz idle", steady: (62.1, 71.7), first: (71.4, 82.7)),
/// ])
/// ```
public struct FirstTouchChart: GnuplotChart {
    /// One device.
    public struct Row: Sendable {
        /// The device's name (the upper label line).
        public var device: String
        /// A second, smaller label line (its rates).
        public var detail: String
        /// Steady touches' p50 and p99, ms.
        public var steady: (p50: Double, p99: Double)
        /// First touches' p50 and p99, ms.
        public var first: (p50: Double, p99: Double)

        /// A row from its values.
        public init(device: String, detail: String, steady: (p50: Double, p99: Double), first: (p50: Double, p99: Double)) {
            self.device = device
            self.detail = detail
            self.steady = steady
            self.first = first
        }
    }

    /// The devices, top to bottom.
    public var rows: [Row]
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart of `rows`, top to bottom.
    public init(rows: [Row], title: String = "The first touch after a quiet screen against steady touches",
                subtitle: String? = nil) {
        self.rows = rows
        self.title = title
        self.subtitle = subtitle
    }

    /// The gnuplot script.
    public var script: ChartScript {
        let n = rows.count
        var table = ChartTable(name: "touches", columns: ["y", "steady_p50", "steady_p99", "first_p50", "first_p99", "extra"])
        for (i, r) in rows.enumerated() {
            let extra = r.first.p50 - r.steady.p50
            table.append([.number(Double(n - 1 - i)), .number(r.steady.p50), .number(r.steady.p99), .number(r.first.p50),
                          .number(r.first.p99), .text("\(extra >= 0 ? "+" : "")\(formatDecimal(extra, places: 1)) ms")])
        }
        let top = rows.map { max($0.first.p99, $0.steady.p99) }.max() ?? 10
        let right = (top * 1.1 / 10).rounded(.up) * 10
        let tics = rows.enumerated().map { i, r in
            "\"\(GnuplotText.escapeEnhanced(r.device))\\n{/*0.8 \(GnuplotText.escapeEnhanced(r.detail))}\" \(n - 1 - i)"
        }.joined(separator: ", ")
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel "latency of a touch (ms)"
        set xrange [0:\(GnuplotText.number(right * 1.18))]
        set yrange [-0.6:\(GnuplotText.number(Double(max(n, 1)) - 0.4))]
        set ytics (\(tics)) scale 0
        set xtics 0,\(right > 100 ? 20 : 10),\(GnuplotText.number(right)) nomirror
        set grid xtics noytics
        set key outside bottom center horizontal
        set lmargin \(GnuplotText.number(Double(max(14, rows.map { max($0.device.count, Int(Double($0.detail.count) * 0.8)) }.max() ?? 14) + 3)))
        set bmargin 7

        """
        let steady = GnuplotText.rgb(ChartStyle.color(0)), first = GnuplotText.rgb(ChartStyle.color(1))
        let bar = GnuplotText.rgb(ChartStyle.quiet)
        var plot = """
        plot $touches using 2:1:($4-$2):(0) with vectors nohead lw 3 lc \(bar) notitle, \\
             $touches using 2:1 with points pt 7 ps 1.6 lc \(steady) title "steady touches, p50", \\
             $touches using 3:1 with points pt 6 ps 1.4 lw 2 lc \(steady) title "steady, p99", \\
             $touches using 4:1 with points pt 7 ps 1.6 lc \(first) title "first touch after idle, p50", \\
             $touches using 5:1 with points pt 6 ps 1.4 lw 2 lc \(first) title "first, p99"
        """
        if n > 0 {
            plot += ", \\\n     $touches using (\(GnuplotText.number(right * 1.02))):1:6 with labels left font \",11:Bold\" tc \(first) notitle"
        } else {
            plot += ", \\\n     NaN notitle"
        }
        return ChartScript(title: title + (subtitle.map { " (\($0))" } ?? ""), tables: [table], setup: setup, plot: plot)
    }
}

extension FirstTouchChart: RegisteredChart {
    public static let kind = "first-touch"
    /// A phone whose idle rate costs its first touch a frame, and one whose
    /// display never leaves its peak (the two the same).
    public static var example: FirstTouchChart {
        FirstTouchChart(rows: [
            .init(device: "pixel-5", detail: "90 Hz, 60 Hz idle", steady: (62.1, 71.7), first: (71.4, 82.7)),
            .init(device: "iphone-13-pro", detail: "120 Hz, 10 Hz idle", steady: (47.5, 52.0), first: (62.4, 96.0)),
            .init(device: "pixel", detail: "60 Hz", steady: (70.0, 78.0), first: (70.0, 78.0)),
        ], subtitle: "example")
    }
    public static var empty: FirstTouchChart { FirstTouchChart(rows: []) }
}
