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

    /// A heat map of `cells`.
    public init(cells: [Cell], xLabel: String, yLabel: String, xTics: [(Double, String)]? = nil, yTics: [(Double, String)]? = nil,
                title: String, subtitle: String? = nil) {
        self.cells = cells
        self.xLabel = xLabel
        self.yLabel = yLabel
        self.xTics = xTics
        self.yTics = yTics
        self.title = title
        self.subtitle = subtitle
    }

    /// The gnuplot script.
    public var script: ChartScript {
        var table = ChartTable(name: "grid", columns: ["x", "y", "p50_ms", "fps"])
        // rows grouped by x with a blank line between groups: gnuplot's grid form
        var body: [[ChartValue]] = []
        let xs = Array(Set(cells.map(\.x))).sorted()
        for (i, x) in xs.enumerated() {
            for c in cells.filter({ $0.x == x }).sorted(by: { $0.y < $1.y }) {
                body.append([.number(c.x), .number(c.y), .number(c.p50Ms ?? .nan), .number(c.fps)])
            }
            if i + 1 < xs.count { body.append([]) }
        }
        table.rows = body
        let readable = cells.count <= 120
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        unset title
        set view map
        set key off
        set grid front lc rgb "#00FFFFFF"

        """
        func tics(_ t: [(Double, String)]?, _ axis: String) -> String {
            guard let t else { return "" }
            return "set \(axis)tics (" + t.map { "\(GnuplotText.plain($0.1)) \(GnuplotText.number($0.0))" }.joined(separator: ", ") + ") rotate by 30 right\n"
        }
        setup += tics(xTics, "x") + tics(yTics, "y")
        setup += "set xlabel \(GnuplotText.enhanced(xLabel))\nset ylabel \(GnuplotText.enhanced(yLabel))\n"
        // the cells fill the plot: the range ends half a step past the outer values
        func range(_ values: [Double]) -> String {
            let v = Array(Set(values)).sorted()
            guard let lo = v.first, let hi = v.last else { return "[*:*]" }
            let step = zip(v, v.dropFirst()).map { $1 - $0 }.min() ?? 1
            return "[\(GnuplotText.number(lo - step / 2)):\(GnuplotText.number(hi + step / 2))]"
        }
        setup += "set xrange \(range(cells.map(\.x)))\nset yrange \(range(cells.map(\.y)))\n"
        setup += "set cbtics scale 0.5\nset colorbox user size 0.015,0.6\n"
        let labels = readable ? ", $grid using 1:2:(sprintf(\"%.0f\",$3)) with labels font \",8\" tc \"#FFFFFF\" notitle" : ""
        let fpsLabels = readable ? ", $grid using 1:2:(sprintf(\"%.0f\",$4)) with labels font \",8\" tc \"#FFFFFF\" notitle" : ""
        let heading = ChartStyle.heading(title: title, subtitle: subtitle)
        let plot = """
        set multiplot layout 1,2 title "\(heading)" margins 0.08,0.9,0.2,0.82 spacing 0.16,0
        set title "median touch-to-photon (ms)" offset 0,-0.5
        set colorbox user origin 0.465,0.2
        set palette defined (0 '#440154', 0.25 '#3B528B', 0.5 '#21918C', 0.75 '#5EC962', 1 '#FDE725')
        plot $grid using 1:2:3 with image notitle\(labels)
        set title "frames per second" offset 0,-0.5
        unset ylabel
        set colorbox user origin 0.915,0.2
        set palette defined (0 '#FDE725', 0.25 '#5EC962', 0.5 '#21918C', 0.75 '#3B528B', 1 '#440154')
        plot $grid using 1:2:4 with image notitle\(fpsLabels)
        unset multiplot
        """
        return ChartScript(title: title, tables: [table], setup: setup, plot: plot)
    }
}
