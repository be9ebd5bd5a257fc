import Foundation
import SimKernel

/// The finger's true path against the path(s) an app drew, in screen points
/// with equal scales on both axes and y growing downwards as on screen.
///
/// ```swift
/// let chart = MotionChart(
///     truePath: [(x: 100, y: 500), (x: 300, y: 420), (x: 500, y: 500)],
///     drawn: [(name: "ios8 (main touches)", path: [(x: 100, y: 500), (x: 260, y: 430)])])
/// ```
public struct MotionChart: GnuplotChart {
    /// A point on screen, in points.
    public typealias Point = (x: Double, y: Double)

    /// The finger's true path.
    public var truePath: [Point]
    /// Drawn paths, in legend order.
    public var drawn: [(name: String, path: [Point])]
    /// How long each drawn path's end trails the finger's last position
    /// (the finger at the photon time of the last frame shown, less the
    /// time of the position that frame draws), ms; nil when not known.
    public var lagMs: [Double?] = []
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart of `truePath` and the `drawn` paths.
    public init(truePath: [(x: Double, y: Double)], drawn: [(name: String, path: [(x: Double, y: Double)])],
                title: String = "Finger path vs drawn path", subtitle: String? = nil) {
        self.truePath = truePath
        self.drawn = drawn
        self.title = title
        self.subtitle = subtitle
    }

    /// Half the height of the enlarged view of the stroke's end, points: a
    /// little more than the farthest drawn end lies from the finger; nil (no
    /// inset) without a drawn path.
    var insetRadius: Double? {
        let lags = drawn.compactMap { lag($0.path) }
        guard let worst = lags.max(), worst > 0 else { return nil }
        return worst * 1.1 + 1
    }

    /// Width over height of the plot area at 1200x700 with the key below;
    /// the ranges are widened to this shape so that equal scales fill it.
    static let plotAspect = 2.15

    /// Straight-line distance from the end of `path` to the finger's last
    /// position, in points (nil when either is empty).
    public func lag(_ path: [Point]) -> Double? {
        guard let end = path.last, let finger = truePath.last else { return nil }
        return ((end.x - finger.x) * (end.x - finger.x) + (end.y - finger.y) * (end.y - finger.y)).squareRoot()
    }

    /// The gnuplot script.
    public var script: ChartScript {
        var finger = ChartTable(name: "finger", columns: ["x_pt", "y_pt"])
        for p in truePath { finger.append([.number(p.x), .number(p.y)]) }
        var tables = [finger]
        for (i, d) in drawn.enumerated() {
            var table = ChartTable(name: "drawn\(i)", columns: ["x_pt", "y_pt"])
            for p in d.path { table.append([.number(p.x), .number(p.y)]) }
            tables.append(table)
        }
        var ends = ChartTable(name: "ends", columns: ["series", "x_pt", "y_pt", "lag_pt", "lag_ms"])
        for (i, d) in drawn.enumerated() {
            guard let end = d.path.last else { continue }
            let ms = i < lagMs.count ? lagMs[i] : nil
            ends.append([.number(Double(i)), .number(end.x), .number(end.y), .number(lag(d.path) ?? .nan), .number(ms ?? .nan)])
        }
        tables.append(ends)
        let all = truePath + drawn.flatMap(\.path)
        let xs = all.map(\.x), ys = all.map(\.y)
        var xmin = xs.min() ?? 0, xmax = xs.max() ?? 1, ymin = ys.min() ?? 0, ymax = ys.max() ?? 1
        let pad = max(max(xmax - xmin, ymax - ymin) * 0.06, 5)
        xmin -= pad; xmax += pad; ymin -= pad; ymax += pad
        // Widen the shorter side about its centre so the equal-scale plot
        // fills the image instead of floating in white space.
        let width = xmax - xmin, height = ymax - ymin
        if width < height * Self.plotAspect {
            let grow = (height * Self.plotAspect - width) / 2
            xmin -= grow; xmax += grow
        } else {
            let grow = (width / Self.plotAspect - height) / 2
            ymin -= grow; ymax += grow
        }

        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set size ratio -1
        set xlabel "x (points)"
        set ylabel "y (points, downwards as on screen)"
        set xrange [\(GnuplotText.number(xmin)):\(GnuplotText.number(xmax))]
        set yrange [\(GnuplotText.number(ymax)):\(GnuplotText.number(ymin))]
        set key at screen 0.5, screen 0.012 center bottom horizontal maxrows 2 noopaque nobox spacing 1.2 width 2
        set bmargin 8
        set border 3 lc \(GnuplotText.rgb(ChartStyle.border))

        """
        var parts = ["$finger using 1:2 with lines lw 9 lc \(GnuplotText.rgb(ChartStyle.truth)) title \"finger (true path)\""]
        // Earlier series are drawn wider so that overlapping paths stay visible.
        let widths = [4.5, 2.8, 1.8, 1.2]
        for (i, d) in drawn.enumerated() {
            let color = GnuplotText.rgb(ChartStyle.color(i))
            var name = d.name
            if let lag = lag(d.path) { name += ": drawn \(formatDecimal(lag, places: 1)) pt behind" }
            parts.append("$drawn\(i) using 1:2 with lines lw \(GnuplotText.number(widths[min(i, widths.count - 1)])) lc \(color) title \(GnuplotText.enhanced(name))")
            if d.path.last != nil {
                parts.append("$drawn\(i) using 1:2 every ::\(d.path.count - 1)::\(d.path.count - 1) with points pt 7 ps 2.2 lc \(color) notitle")
            }
        }
        if let last = truePath.last {
            parts.append("$finger using 1:2 every ::\(truePath.count - 1)::\(truePath.count - 1) with points pt 6 ps 3 lw 2.5 lc \(GnuplotText.rgb(ChartStyle.annotation)) notitle")
            setup += "set label \"finger now\" at first \(GnuplotText.number(last.x)), first \(GnuplotText.number(last.y)) offset 2,0 left tc \(GnuplotText.rgb(ChartStyle.annotation)) font \",11\"\n"
        }
        var plot = "plot " + parts.joined(separator: ", \\\n     ")
        if let last = truePath.last, let r = insetRadius {
            // an enlarged view of the stroke's end, where the drawn paths part
            let (x0, x1) = (last.x - r * 1.6, last.x + r * 1.6), (y0, y1) = (last.y - r, last.y + r)
            let box = "from first \(GnuplotText.number(x0)), first \(GnuplotText.number(y1)) to first \(GnuplotText.number(x1)), first \(GnuplotText.number(y0))"
            setup += "set object 1 rectangle \(box) fillstyle empty border lc \(GnuplotText.rgb(ChartStyle.annotation)) dt 2 lw 1 front\n"
            var inset = ["$finger using 1:2 with lines lw 5 lc \(GnuplotText.rgb(ChartStyle.truth)) notitle"]
            for (i, d) in drawn.enumerated() where !d.path.isEmpty {
                let color = GnuplotText.rgb(ChartStyle.color(i))
                inset.append("$drawn\(i) using 1:2 with linespoints lw 1.5 pt 7 ps 0.5 lc \(color) notitle")
                inset.append("$drawn\(i) using 1:2 every ::\(d.path.count - 1)::\(d.path.count - 1) with points pt 7 ps 1.3 lc \(color) notitle")
            }
            inset.append("$finger using 1:2 every ::\(truePath.count - 1)::\(truePath.count - 1) with points pt 6 ps 2 lw 2 lc \(GnuplotText.rgb(ChartStyle.annotation)) notitle")
            plot = """
            set multiplot
            \(plot)
            unset object 1
            set origin 0.6,0.2
            set size ratio -1 0.38,0.55
            set xrange [\(GnuplotText.number(x0)):\(GnuplotText.number(x1))]
            set yrange [\(GnuplotText.number(y1)):\(GnuplotText.number(y0))]
            unset xlabel
            unset ylabel
            unset key
            set title "the stroke's end, enlarged" font ",11" offset 0,-0.6
            set border 15 lc \(GnuplotText.rgb(ChartStyle.annotation)) lw 1
            set object 2 rectangle from graph 0, graph 0 to graph 1, graph 1 behind fillcolor \(GnuplotText.rgb(ChartStyle.white)) fillstyle solid 1.0 noborder
            set tics font ",9"
            plot \(inset.joined(separator: ", \\\n     "))
            unset multiplot
            unset object 2
            """
        }
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }
}

extension MotionChart: RegisteredChart {
    public static let kind = "motion"
    /// An arc, and where two pipelines draw it when the frame shows.
    public static var example: MotionChart {
        let truePath = (0...120).map { i -> (x: Double, y: Double) in
            let t = Double(i) / 120
            return (x: 100 + 560 * t, y: 520 - 260 * sin(t * .pi))
        }
        func lagged(_ lag: Int, step: Int) -> [(x: Double, y: Double)] {
            stride(from: 0, through: 120 - lag, by: step).map { truePath[$0] }
        }
        return MotionChart(truePath: truePath, drawn: [
            (name: "ios8 (4 frames behind)", path: lagged(24, step: 4)),
            (name: "ios9_coalesced (2.5 frames)", path: lagged(15, step: 2)),
        ], subtitle: "arc drawn at 1.2 points/ms; where the finger is when the frame shows")
    }
    public static var empty: MotionChart { MotionChart(truePath: [], drawn: []) }
}
