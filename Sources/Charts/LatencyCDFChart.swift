import SimKernel
/// Cumulative distributions of a latency, several series on one chart, drawn
/// as step lines, with the median and the 99th percentile marked.
///
/// ```swift
/// let chart = LatencyCDFChart(series: [
///     (name: "ios8", points: [(valueMs: 58.1, fraction: 0.25), (valueMs: 66.7, fraction: 1)]),
///     (name: "ios9", points: [(valueMs: 41.6, fraction: 0.5), (valueMs: 50.0, fraction: 1)]),
/// ], framePeriodMs: 1000.0 / 60)
/// ```
public struct LatencyCDFChart: GnuplotChart {
    /// One distribution.
    public struct Series: Sendable, Equatable {
        /// The legend name (e.g. the scenario).
        public var name: String
        /// `(value, fraction of samples <= value)`, ascending in value.
        public var points: [(valueMs: Double, fraction: Double)]

        /// A series from its name and points.
        public init(name: String, points: [(valueMs: Double, fraction: Double)]) {
            self.name = name
            self.points = points
        }

        /// Series compare by name and every point.
        public static func == (a: Series, b: Series) -> Bool {
            a.name == b.name && a.points.count == b.points.count
                && zip(a.points, b.points).allSatisfy { $0.valueMs == $1.valueMs && $0.fraction == $1.fraction }
        }
    }

    /// The distributions, in legend order.
    public var series: [Series]
    /// The x axis label, with its unit.
    public var xLabel: String
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?
    /// When set, faint vertical lines mark whole display periods of latency
    /// (T, 2T, ...), so that milliseconds can be read as periods. They are
    /// periods, not the talk's pipeline frames, which count from the start of
    /// the touch's scan window: a series' own pipeline frames belong in its
    /// name (e.g. `ios8: p50 50 ms, 4 pipeline frames`).
    public var framePeriodMs: Double?

    /// A chart of `series`.
    public init(series: [(name: String, points: [(valueMs: Double, fraction: Double)])],
                xLabel: String = "touch-to-photon latency (ms)",
                title: String = "Touch-to-photon latency distribution",
                subtitle: String? = nil,
                framePeriodMs: Double? = nil) {
        self.series = series.map { Series(name: $0.name, points: $0.points) }
        self.xLabel = xLabel
        self.title = title
        self.subtitle = subtitle
        self.framePeriodMs = framePeriodMs
    }

    /// The `q`-th percentile (0...100) of series `index` as the chart draws
    /// it: the smallest value whose cumulative fraction reaches q/100 (the
    /// nearest rank); nil for an empty series.
    public func percentile(_ q: Double, series index: Int) -> Double? {
        series[index].points.sorted { $0.valueMs < $1.valueMs }.first { $0.fraction >= q / 100 - 1e-12 }?.valueMs
    }

    /// The line width of series `index` of `count`: from 7.5 for the first
    /// down to 2.5 for the last (thinner, a dashed step along an axis is
    /// lost), each at least 1 narrower than the one before.
    static func lineWidth(_ index: Int, of count: Int) -> Double {
        guard count > 1 else { return 2.5 }
        let step = max(1, 5 / Double(count - 1))
        return max(2.5, 2.5 + step * Double(count - 1 - index))
    }

    /// The dash pattern of series `index`: the first solid, each later one
    /// dashed, with gaps that grow with its place.
    static func dash(_ index: Int) -> String {
        index == 0 ? "dt solid" : "dt (\(6 + 2 * (index % 4)),\(3 + index % 3))"
    }

    /// The gnuplot script.
    public var script: ChartScript {
        var tables: [ChartTable] = []
        for (i, s) in series.enumerated() {
            var table = ChartTable(name: "cdf\(i)", columns: ["latency_ms", "fraction"])
            let sorted = s.points.sorted { $0.valueMs < $1.valueMs }
            // Start the step at zero so the curve rises from the axis.
            if let first = sorted.first { table.append([.number(first.valueMs), 0]) }
            for p in sorted { table.append([.number(p.valueMs), .number(p.fraction)]) }
            tables.append(table)
        }
        let values = series.flatMap { $0.points.map(\.valueMs) }
        let lo = values.min() ?? 0, hi = values.max() ?? 1
        let pad = max((hi - lo) * 0.05, 0.5)
        let xmin = max(0, lo - pad), xmax = hi + pad

        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel \(GnuplotText.enhanced(xLabel))
        set ylabel "fraction of frames at or below"
        set xrange [\(GnuplotText.number(xmin)):\(GnuplotText.number(xmax))]
        set yrange [-0.04:1.04]
        set ytics 0,0.1,1
        set key outside below center horizontal maxcols 2 noopaque nobox
        set arrow from graph 0, first 0.5 to graph 1, first 0.5 nohead back lc \(GnuplotText.rgb(ChartStyle.guide)) dt (8,6) lw 1.3
        set arrow from graph 0, first 0.99 to graph 1, first 0.99 nohead back lc \(GnuplotText.rgb(ChartStyle.guide)) dt (8,6) lw 1.3
        set label "median" at graph 0.01, first 0.5 offset 0,0.6 tc \(GnuplotText.rgb(ChartStyle.quiet)) font ",10"
        set label "p99" at graph 0.01, first 0.99 offset 0,-0.8 tc \(GnuplotText.rgb(ChartStyle.quiet)) font ",10"

        """
        setup += ChartStyle.periodLines(every: framePeriodMs, from: xmin, to: xmax, .vertical, width: 1.5) {
            $0 == 1 ? "T" : "\($0)T"
        }
        var parts: [String] = []
        // Steps often coincide (two scenarios with the same latency, a fixed
        // and a varying run with the same median): earlier series are drawn
        // wider and solid, each later one narrower and dashed, so the one
        // it covers shows beside it and through its gaps. The y range runs
        // a little past 0 and 1, so a step along either lies off the axes.
        for (i, s) in series.enumerated() {
            parts.append("$cdf\(i) using 1:2 with steps lw \(GnuplotText.number(Self.lineWidth(i, of: series.count))) \(Self.dash(i)) lc \(GnuplotText.rgb(ChartStyle.color(i))) title \(GnuplotText.enhanced(s.name))")
        }
        if parts.isEmpty { parts.append("NaN notitle") }
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }
}

extension LatencyCDFChart: RegisteredChart {
    public static let kind = "latency-cdf"
    /// Three scenarios' 400 frames each, a frame and a bit apart.
    public static var example: LatencyCDFChart {
        var rng = SeededRandom(seed: 1)
        func cdf(base: Double) -> [(valueMs: Double, fraction: Double)] {
            let values = (0..<400).map { _ in base + 17 * (rng.nextUnit() + rng.nextUnit() + rng.nextUnit()) / 3 }.sorted()
            return values.enumerated().map { (valueMs: $1, fraction: Double($0 + 1) / Double(values.count)) }
        }
        return LatencyCDFChart(series: [
            (name: "ios8", points: cdf(base: 58)),
            (name: "ios9_lowlatency", points: cdf(base: 41)),
            (name: "ios9 + prediction", points: cdf(base: 25)),
        ], subtitle: "60 Hz display, 400 frames per scenario", framePeriodMs: 1000.0 / 60)
    }
    public static var empty: LatencyCDFChart { LatencyCDFChart(series: []) }
}
