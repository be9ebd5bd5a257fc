/// Latency and frame rate as one parameter varies: p50 and p99 latency on
/// the left axis, frame rate on the right, one colour per series (a second
/// swept dimension, or a scenario), with optional vertical annotations.
///
/// ```swift
/// let chart = SweepChart(
///     series: [(name: "adaptive", points: [
///         (x: 4, p50Ms: 50, p99Ms: 58, fps: 60),
///         (x: 12, p50Ms: 55, p99Ms: 70, fps: 60),
///         (x: 20, p50Ms: 70, p99Ms: 83, fps: 58),
///     ])],
///     xLabel: "GPU render time (ms)",
///     annotations: [.init(x: 11.1, label: "adaptive buffering goes triple")])
/// ```
public struct SweepChart: GnuplotChart {
    /// One measured point of a sweep.
    public struct Point: Sendable, Equatable {
        /// The parameter's value.
        public var x: Double
        /// Median latency (ms).
        public var p50Ms: Double
        /// 99th percentile latency (ms).
        public var p99Ms: Double
        /// Frames presented per second, if measured.
        public var fps: Double?
        /// Half-widths of the 95% intervals of `p50Ms`, `p99Ms` and `fps`,
        /// when the point is a mean over seeds: drawn as bands around the
        /// latency lines and error bars on the frame rate.
        public var p50HalfWidth: Double?, p99HalfWidth: Double?, fpsHalfWidth: Double?
        /// The smallest and largest of the seeds' own values of `p50Ms` and
        /// `p99Ms`, when known: a band is drawn only where the seeds' mean
        /// can lie (Student's interval, symmetric about the mean, can reach
        /// past every seed's value, and a p99 band below the p50 line).
        public var p50SeedRange: ClosedRange<Double>?, p99SeedRange: ClosedRange<Double>?

        /// A point from its values.
        public init(x: Double, p50Ms: Double, p99Ms: Double, fps: Double? = nil,
                    p50HalfWidth: Double? = nil, p99HalfWidth: Double? = nil, fpsHalfWidth: Double? = nil) {
            self.x = x
            self.p50Ms = p50Ms
            self.p99Ms = p99Ms
            self.fps = fps
            self.p50HalfWidth = p50HalfWidth
            self.p99HalfWidth = p99HalfWidth
            self.fpsHalfWidth = fpsHalfWidth
        }

        /// True when the point carries an interval.
        var hasInterval: Bool { p50HalfWidth != nil || p99HalfWidth != nil || fpsHalfWidth != nil }

        /// The p50 band as drawn: the 95% interval within the seeds' range.
        var p50Band: (low: Double, high: Double) {
            Self.band(p50Ms, p50HalfWidth, p50SeedRange, floor: 0)
        }

        /// The p99 band as drawn: the 95% interval within the seeds' range,
        /// never below the p50 line (no seed's p99 is below its p50).
        var p99Band: (low: Double, high: Double) {
            Self.band(p99Ms, p99HalfWidth, p99SeedRange, floor: p50Ms)
        }

        static func band(_ mean: Double, _ halfWidth: Double?, _ range: ClosedRange<Double>?, floor: Double) -> (low: Double, high: Double) {
            guard let h = halfWidth else { return (.nan, .nan) }
            var low = mean - h, high = mean + h
            if let range { low = max(low, range.lowerBound); high = min(high, range.upperBound) }
            return (max(low, min(floor, mean)), high)
        }
    }

    /// One line family (same colour).
    public struct Series: Sendable, Equatable {
        /// The legend name.
        public var name: String
        /// The points, in any order (drawn sorted by x).
        public var points: [Point]

        /// A series from its name and points.
        public init(name: String, points: [Point]) {
            self.name = name
            self.points = points
        }
    }

    /// A vertical dashed line with a label, marking a notable parameter value.
    public struct Annotation: Sendable, Equatable {
        /// Where the line is drawn, in the parameter's units.
        public var x: Double
        /// The text beside the line.
        public var label: String

        /// An annotation at `x`.
        public init(x: Double, label: String) {
            self.x = x
            self.label = label
        }
    }

    /// The series.
    /// A note on one point of a latency curve: its text at `textX`,
    /// `textY` (below and right of there, or left when `rightAligned`; a
    /// newline starts another line), with an arrow from there to the
    /// point (`x`, `y` on the latency axis).
    public struct Note: Sendable, Equatable {
        public var x: Double, y: Double
        public var textX: Double, textY: Double
        public var text: String
        public var rightAligned: Bool

        public init(x: Double, y: Double, textX: Double, textY: Double, text: String, rightAligned: Bool = false) {
            self.x = x
            self.y = y
            self.textX = textX
            self.textY = textY
            self.text = text
            self.rightAligned = rightAligned
        }
    }

    public var series: [Series]
    /// The parameter's name with its unit, e.g. "GPU render time (ms)".
    public var xLabel: String
    /// The left axis label.
    public var latencyLabel: String
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?
    /// Vertical markers.
    public var annotations: [Annotation]
    /// Notes pinned to a point of the latency axis.
    public var notes: [Note] = []
    /// The legend's words for the bands and error bars, when points carry
    /// intervals.
    public var intervalLabel = "95% interval"

    /// A chart of `series` against the swept parameter.
    public init(series: [(name: String, points: [(x: Double, p50Ms: Double, p99Ms: Double, fps: Double?)])],
                xLabel: String,
                latencyLabel: String = "touch-to-photon latency (ms)",
                title: String = "Latency and frame rate across a sweep",
                subtitle: String? = nil,
                annotations: [Annotation] = []) {
        self.init(series: series.map { s in
                      Series(name: s.name, points: s.points.map { Point(x: $0.x, p50Ms: $0.p50Ms, p99Ms: $0.p99Ms, fps: $0.fps) })
                  },
                  xLabel: xLabel, latencyLabel: latencyLabel, title: title, subtitle: subtitle, annotations: annotations)
    }

    /// A chart of `series` (whose points may carry intervals) against the
    /// swept parameter.
    public init(series: [Series],
                xLabel: String,
                latencyLabel: String = "touch-to-photon latency (ms)",
                title: String = "Latency and frame rate across a sweep",
                subtitle: String? = nil,
                annotations: [Annotation] = []) {
        self.series = series
        self.xLabel = xLabel
        self.latencyLabel = latencyLabel
        self.title = title
        self.subtitle = subtitle
        self.annotations = annotations
    }

    /// The gnuplot script.
    /// For each annotation line at `xs`, whether its label goes on the
    /// line's left (right-aligned): when the next line to its right is
    /// nearer than a tenth of the span, so two labels never run together.
    static func labelSides(_ xs: [Double], span: Double) -> [Bool] {
        xs.map { x in xs.contains { $0 > x && $0 - x < Swift.max(span, 1) / 10 } }
    }

    public var script: ChartScript {
        let points = series.flatMap(\.points)
        let intervals = points.contains(where: \.hasInterval)
        var tables: [ChartTable] = []
        for (i, s) in series.enumerated() {
            var table = ChartTable(name: "sweep\(i)", columns: ["x", "p50_ms", "p99_ms", "fps"]
                + (intervals ? ["p50_hw95", "p99_hw95", "fps_hw95", "p50_band_low", "p50_band_high", "p99_band_low", "p99_band_high"] : []))
            for p in s.points.sorted(by: { $0.x < $1.x }) {
                var row: [ChartValue] = [.number(p.x), .number(p.p50Ms), .number(p.p99Ms), .number(p.fps ?? .nan)]
                if intervals {
                    row += [.number(p.p50HalfWidth ?? .nan), .number(p.p99HalfWidth ?? .nan), .number(p.fpsHalfWidth ?? .nan)]
                    row += [.number(p.p50Band.low), .number(p.p50Band.high), .number(p.p99Band.low), .number(p.p99Band.high)]
                }
                table.append(row)
            }
            tables.append(table)
        }
        let xs = points.map(\.x) + annotations.map(\.x)
        let xmin = xs.min() ?? 0, xmax = xs.max() ?? 1
        let xpad = max((xmax - xmin) * 0.04, 0.5)
        let fpsValues = points.compactMap(\.fps)
        let hasFPS = !fpsValues.isEmpty
        // latency in the lower two thirds, frame rate near the top: their
        // highest points never land on each other
        let latencyTop = (points.map { max($0.p50Ms + ($0.p50HalfWidth ?? 0), $0.p99Ms + ($0.p99HalfWidth ?? 0)) }.max() ?? 1) * (hasFPS ? 1.5 : 1.25)

        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel \(GnuplotText.enhanced(xLabel))
        set ylabel \(GnuplotText.enhanced(latencyLabel))
        set xrange [\(GnuplotText.number(xmin - xpad)):\(GnuplotText.number(xmax + xpad))]
        set yrange [0:\(GnuplotText.number(latencyTop))]
        set rmargin at screen 0.75
        set key at screen 0.825, graph 1 left top vertical Left reverse noopaque nobox spacing 1.35 samplen 3


        """
        if hasFPS {
            let fpsTop = (points.compactMap { p in p.fps.map { $0 + (p.fpsHalfWidth ?? 0) } }.max() ?? 60) * 1.08
            setup += """
            set y2label "frame rate (fps, dotted lines)"
            set y2range [0:\(GnuplotText.number(fpsTop))]
            set y2tics nomirror out scale 0.6
            set border 11 lc \(GnuplotText.rgb(ChartStyle.border))

            """
        }
        let sides = Self.labelSides(annotations.map(\.x), span: xmax - xmin)
        for (a, left) in zip(annotations, sides) {
            let x = GnuplotText.number(a.x)
            setup += "set arrow from first \(x), graph 0 to first \(x), graph 1 nohead back lc \(GnuplotText.rgb(ChartStyle.reference)) lw 1.5 dt (8,5)\n"
            setup += "set label \(GnuplotText.enhanced(a.label)) at first \(x), graph 0.97 offset \(left ? "-0.6,0 right" : "0.6,0 left") front tc \(GnuplotText.rgb(ChartStyle.annotation)) font \",11\"\n"
        }
        for n in notes {
            setup += "set arrow from first \(GnuplotText.number(n.textX)), first \(GnuplotText.number(n.textY)) to first \(GnuplotText.number(n.x)), first \(GnuplotText.number(n.y)) head size screen 0.008,25 front lc \(GnuplotText.rgb(ChartStyle.annotation)) lw 1\n"
            setup += "set label \(GnuplotText.enhanced(n.text)) at first \(GnuplotText.number(n.textX)), first \(GnuplotText.number(n.textY)) offset \(n.rightAligned ? "-0.4,-1 right" : "0.4,-1 left") front tc \(GnuplotText.rgb(ChartStyle.annotation)) font \",10\"\n"
        }

        var parts: [String] = []
        // the legend's style entries in the colour they explain: the
        // series' own when there is one; a neutral ink over several
        let ink = GnuplotText.rgb(series.count == 1 ? ChartStyle.color(0) : ChartStyle.annotation)
        parts.append("keyentry with linespoints lw 2.5 pt 7 ps 1.1 lc \(ink) title \"p50 latency\"")
        parts.append("keyentry with linespoints lw 2 dt (10,6) pt 8 ps 1.8 lc \(ink) title \"p99 latency\"")
        if hasFPS {
            parts.append("keyentry with linespoints lw 1.5 dt (2,4) pt 5 ps 0.9 lc \(ink) title \"fps (right axis)\"")
        }
        if intervals {
            parts.append("keyentry with filledcurves fs transparent solid 0.22 noborder fc \(ink) title \(GnuplotText.enhanced(intervalLabel))")
        }
        // one series needs no colour legend (the subtitle names the scenario)
        let named = series.count > 1
        if named { parts.append("keyentry with lines lc rgb \"white\" title \" \"") }
        for (i, s) in series.enumerated() {
            let c = GnuplotText.rgb(ChartStyle.color(i))
            if named { parts.append("keyentry with lines lw 6 lc \(c) title \(GnuplotText.enhanced(s.name))") }
            if intervals {
                // behind the lines: a band for each latency, bars on the frame rate
                parts.append("$sweep\(i) using 1:8:9 with filledcurves fs transparent solid 0.22 noborder fc \(c) notitle")
                parts.append("$sweep\(i) using 1:10:11 with filledcurves fs transparent solid 0.12 noborder fc \(c) notitle")
                if hasFPS { parts.append("$sweep\(i) using 1:4:7 axes x1y2 with yerrorbars lw 1.2 pt 5 ps 0.6 lc \(c) notitle") }
            }
            parts.append("$sweep\(i) using 1:2 with linespoints lw 2.5 pt 7 ps 1.1 lc \(c) notitle")
            parts.append("$sweep\(i) using 1:3 with linespoints lw 2 dt (10,6) pt 8 ps 1.8 lc \(c) notitle")
            if hasFPS {
                parts.append("$sweep\(i) using 1:4 axes x1y2 with linespoints lw 1.5 dt (2,4) pt 5 ps 0.9 lc \(c) notitle")
            }
        }
        if series.isEmpty { parts = ["NaN notitle"] }
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }
}

extension SweepChart: RegisteredChart {
    public static let kind = "sweep"
    /// GPU time swept for two handler times: a frame added where adaptive
    /// buffering goes triple, the frame rate falling past a frame of GPU.
    public static var example: SweepChart {
        func series(_ name: String, extra: Double) -> (name: String, points: [(x: Double, p50Ms: Double, p99Ms: Double, fps: Double?)]) {
            let xs: [Double] = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]
            return (name: name, points: xs.map { x in
                let triple = x > 12 - extra
                let p50 = 58 + (triple ? 16.7 : 0) + x * 0.2
                let fps = x > 16.6 + extra * 2 ? 60 * 16.6 / (x + 1) : 60
                return (x: x, p50Ms: p50, p99Ms: p50 + 8 + x * 0.3, fps: fps)
            })
        }
        return SweepChart(series: [series("app 4 ms", extra: 0), series("app 10 ms", extra: 3)],
                          xLabel: "GPU render time (ms)",
                          title: "Latency and frame rate vs GPU load",
                          subtitle: "ios8 scenario, adaptive buffering; second dimension: app handler time",
                          annotations: [.init(x: 12, label: "adaptive buffering goes triple")])
    }
    public static var empty: SweepChart { SweepChart(series: [Series](), xLabel: "x (ms)") }
}
