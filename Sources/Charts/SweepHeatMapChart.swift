/// A two-key sweep as two heat maps side by side: the median touch-to-photon
/// latency and the frame rate over the grid, one cell per grid point, the
/// value printed in each cell when the grid is small enough to read it. No
/// point is hidden behind another, whatever the number of values; in both
/// panels brighter is worse (more latency, fewer frames).
public struct SweepHeatMapChart: GnuplotChart {
    /// One cell: its position on the two axes and its values.
    public struct Cell: Sendable, Equatable {
        /// Position on the first axis (its number, or its index for names).
        public var x: Double
        /// Position on the second axis.
        public var y: Double
        /// Median latency, ms (nil when nothing was measured).
        public var p50Ms: Double?
        /// Frames presented per second.
        public var fps: Double

        /// A cell from its values.
        public init(x: Double, y: Double, p50Ms: Double?, fps: Double) {
            self.x = x
            self.y = y
            self.p50Ms = p50Ms
            self.fps = fps
        }
    }

    /// The cells, one per grid point.
    public var cells: [Cell]
    /// The first axis' label.
    public var xLabel: String
    /// The second axis' label.
    public var yLabel: String
    /// Tic labels for a non-numeric axis (`(position, text)`).
    public var xTics: [(Double, String)]?
    /// Tic labels for a non-numeric second axis.
    public var yTics: [(Double, String)]?
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?
    /// Whether each axis is logarithmic (a rate such as 60/120/240 Hz, where
    /// each doubling is the same step).
    public var xLog = false, yLog = false

    /// A heat map of `cells`.
    public init(cells: [Cell], xLabel: String, yLabel: String, xTics: [(Double, String)]? = nil, yTics: [(Double, String)]? = nil,
                title: String, subtitle: String? = nil, xLog: Bool = false, yLog: Bool = false) {
        self.cells = cells
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.xTics = xTics
        self.yTics = yTics
        self.title = title
        self.subtitle = subtitle
        self.xLog = xLog && cells.allSatisfy { $0.x > 0 }
        self.yLog = yLog && cells.allSatisfy { $0.y > 0 }
    }

    /// The edges of the cells along one axis: each value's cell reaches
    /// half way (geometrically on a log axis) to its neighbours, the outer
    /// ones as far out as inwards, so an uneven grid (60, 90, 120, 240 Hz)
    /// draws each cell whole and none over another.
    static func edges(_ values: [Double], log: Bool) -> [Double: (low: Double, high: Double)] {
        let v = Array(Set(values)).sorted()
        guard v.count > 1 else {
            return Dictionary(uniqueKeysWithValues: v.map { ($0, log ? ($0 / 1.5, $0 * 1.5) : ($0 - 0.5, $0 + 0.5)) })
        }
        func mid(_ a: Double, _ b: Double) -> Double { log ? (a * b).squareRoot() : (a + b) / 2 }
        func mirror(_ edge: Double, about x: Double) -> Double { log ? x * x / edge : 2 * x - edge }
        var out: [Double: (low: Double, high: Double)] = [:]
        for (i, x) in v.enumerated() {
            let high = i + 1 < v.count ? mid(x, v[i + 1]) : mirror(mid(v[i - 1], x), about: x)
            let low = i > 0 ? mid(v[i - 1], x) : mirror(mid(x, v[i + 1]), about: x)
            out[x] = (low, high)
        }
        return out
    }

    /// The colours of the two panels, low to high value (viridis; the frame
    /// rate's reversed, so that brighter is worse in both).
    static let palette = ChartStyle.sequential

    /// The colour of a label on a cell at `fraction` (0...1) of the palette
    /// from its dark end: white or dark ink, whichever contrasts more with
    /// the cell (``ChartStyle/labelInk(on:)``): dark on green to yellow.
    static func labelColor(_ fraction: Double) -> UInt32 {
        // the palette's colour at `fraction`, interpolated as gnuplot does
        let stops = palette.map { UInt32($0.dropFirst(), radix: 16) ?? 0 }
        let f = Swift.min(Swift.max(fraction, 0), 1) * Double(stops.count - 1)
        let i = Swift.min(Int(f), stops.count - 2), t = f - Double(i)
        func mix(_ shift: UInt32) -> UInt32 {
            let a = Double((stops[i] >> shift) & 0xFF), b = Double((stops[i + 1] >> shift) & 0xFF)
            return UInt32((a + (b - a) * t).rounded()) << shift
        }
        return ChartStyle.labelInk(on: mix(16) | mix(8) | mix(0))
    }

    /// The gnuplot script.
    public var script: ChartScript {
        var table = ChartTable(name: "grid", columns: ["x", "y", "x_low", "x_high", "y_low", "y_high", "p50_ms", "fps",
                                                       "p50_label_rgb", "fps_label_rgb"])
        let xEdges = Self.edges(cells.map(\.x), log: xLog), yEdges = Self.edges(cells.map(\.y), log: yLog)
        let latencies = cells.compactMap(\.p50Ms), rates = cells.map(\.fps)
        let latencyRange = (latencies.min() ?? 0, latencies.max() ?? 1), rateRange = (rates.min() ?? 0, rates.max() ?? 1)
        func fraction(_ v: Double, _ r: (Double, Double)) -> Double { r.1 > r.0 ? (v - r.0) / (r.1 - r.0) : 0.5 }
        for c in cells.sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) {
            let xe = xEdges[c.x] ?? (c.x, c.x), ye = yEdges[c.y] ?? (c.y, c.y)
            // the latency palette runs dark (low) to bright (high); the frame rate's bright (low) to dark (high)
            let p50Label = c.p50Ms.map { Self.labelColor(fraction($0, latencyRange)) } ?? ChartStyle.ink
            let fpsLabel = Self.labelColor(1 - fraction(c.fps, rateRange))
            table.append([.number(c.x), .number(c.y), .number(xe.low), .number(xe.high), .number(ye.low), .number(ye.high),
                          .number(c.p50Ms ?? .nan), .number(c.fps), .number(Double(p50Label)), .number(Double(fpsLabel))])
        }
        let readable = cells.count <= 120
        let font = cells.count <= 60 ? 10 : 8
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        unset title
        set key off
        set grid front lc rgb "\(ChartStyle.invisible)"

        """
        func tics(_ t: [(Double, String)]?, _ axis: String, values: [Double], log: Bool) -> String {
            if let t {
                return "set \(axis)tics (" + t.map { "\(GnuplotText.plain($0.1)) \(GnuplotText.number($0.0))" }.joined(separator: ", ") + ") rotate by 30 right\n"
            }
            guard log else { return "" }
            // a log axis is labelled at the swept values themselves
            let v = Array(Set(values)).sorted()
            return "set logscale \(axis) 2\nset \(axis)tics (" + v.map { "\"\(GnuplotText.number($0))\" \(GnuplotText.number($0))" }.joined(separator: ", ") + ")\nset m\(axis)tics 1\n"
        }
        setup += tics(xTics, "x", values: cells.map(\.x), log: xLog) + tics(yTics, "y", values: cells.map(\.y), log: yLog)
        setup += "set xlabel \(GnuplotText.enhanced(xLabel))\nset ylabel \(GnuplotText.enhanced(yLabel))\n"
        // the cells fill the plot: the range ends at the outer cells' edges
        // (a unit range without cells: gnuplot cannot autoscale nothing)
        func range(_ edges: [Double: (low: Double, high: Double)]) -> String {
            guard let lo = edges.values.map(\.low).min(), let hi = edges.values.map(\.high).max() else { return "[0:1]" }
            return "[\(GnuplotText.number(lo)):\(GnuplotText.number(hi))]"
        }
        setup += "set xrange \(range(xEdges))\nset yrange \(range(yEdges))\n"
        setup += "set cbtics scale 0.5\nset colorbox user size 0.015,0.6\n"
        let labels = readable ? ", $grid using 1:2:(sprintf(\"%.0f\",$7)):9 with labels font \",\(font)\" tc rgb variable notitle" : ""
        let fpsLabels = readable ? ", $grid using 1:2:(sprintf(\"%.0f\",$8)):10 with labels font \",\(font)\" tc rgb variable notitle" : ""
        func cb(_ r: (Double, Double)) -> String {
            let (lo, hi) = r.1 > r.0 ? r : (r.0 - 0.5, r.0 + 0.5)
            return "set cbrange [\(GnuplotText.number(lo)):\(GnuplotText.number(hi))]"
        }
        let colours = Self.palette.enumerated().map { "\(GnuplotText.number(Double($0.offset) / Double(Self.palette.count - 1))) '\($0.element)'" }
        let reversed = Self.palette.reversed().enumerated().map { "\(GnuplotText.number(Double($0.offset) / Double(Self.palette.count - 1))) '\($0.element)'" }
        let heading = ChartStyle.heading(title: title, subtitle: subtitle)
        let plot = """
        set multiplot layout 1,2 title "\(heading)" margins 0.08,0.9,0.2,0.82 spacing 0.16,0
        set title "median touch-to-photon (ms)" offset 0,-0.5
        set colorbox user origin 0.465,0.2
        set palette defined (\(colours.joined(separator: ", ")))
        \(cb(latencyRange))
        plot $grid using 1:2:3:4:5:6:7 with boxxyerror fs solid 1.0 noborder fc palette notitle\(labels)
        set title "frames per second" offset 0,-0.5
        unset ylabel
        set colorbox user origin 0.915,0.2
        set palette defined (\(reversed.joined(separator: ", ")))
        \(cb(rateRange))
        plot $grid using 1:2:3:4:5:6:8 with boxxyerror fs solid 1.0 noborder fc palette notitle\(fpsLabels)
        unset multiplot
        """
        return ChartScript(title: title, tables: [table], setup: setup, plot: plot)
    }
}

extension SweepHeatMapChart: RegisteredChart {
    public static let kind = "sweep-heat-map"
    /// A two-key sweep: a step where handler plus GPU pass a frame; a
    /// non-numeric second axis with named tics.
    public static var example: SweepHeatMapChart {
        var cells: [Cell] = []
        for gpu in stride(from: 2.0, through: 16, by: 2) {
            for k in 0..<3 {
                let late = gpu + 7 > 16.7
                cells.append(.init(x: gpu, y: Double(k + 1), p50Ms: late ? 66.7 : 50, fps: late && k == 0 ? 30 : 60))
            }
        }
        return SweepHeatMapChart(cells: cells, xLabel: "GPU time (ms)", yLabel: "os.buffering",
                                 yTics: [(1, "double"), (2, "triple"), (3, "adaptive")], title: "GPU x buffering", subtitle: "example")
    }
    public static var empty: SweepHeatMapChart { SweepHeatMapChart(cells: [], xLabel: "x", yLabel: "y", title: "empty") }
}
