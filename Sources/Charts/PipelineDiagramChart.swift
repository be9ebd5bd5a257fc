import FramePipeline
import SimKernel

/// A pipeline diagram in the style of the talk's slides: one lane per stage
/// (Multi-Touch, App, Core Animation, GPU, Display), time running right in
/// display frames with a dashed line at every vsync, work drawn as boxes
/// coloured by display buffer, commits as red dots, and the followed touch's
/// path drawn as arrows from its scan to its photons.
///
/// ```swift
/// let T: SimTime = 16_666_667
/// let chart = PipelineDiagramChart(
///     framePeriodNs: T, startNs: 0, endNs: 5 * T,
///     vsyncNs: (0...5).map { $0 * T },
///     boxes: [
///         DiagramBox(lane: .multiTouch, startNs: 0, endNs: T, label: "scan", highlighted: true),
///         DiagramBox(lane: .app, startNs: T, endNs: T + 9_000_000, label: "touch handler", highlighted: true),
///     ],
///     markers: [DiagramMarker(lane: .app, timeNs: T + 9_000_000)],
///     touchPath: [DiagramPathPoint(lane: .multiTouch, timeNs: T / 2), DiagramPathPoint(lane: .app, timeNs: T)],
///     title: "iOS 8 pipeline", subtitle: "ios8 — 4 frames from scan to photon")
/// ```
public struct PipelineDiagramChart: GnuplotChart {
    /// One display frame (vsync period), in ns.
    public var framePeriodNs: SimTime
    /// Left edge of the window; the x axis counts frames from here.
    public var startNs: SimTime
    /// Right edge of the window (exclusive).
    public var endNs: SimTime
    /// Vsync instants; those inside the window are drawn as dashed lines.
    public var vsyncNs: [SimTime]
    /// Work and screen-time spans.
    public var boxes: [DiagramBox]
    /// Instants such as commits.
    public var markers: [DiagramMarker]
    /// The followed touch from scan to photon, in order.
    public var touchPath: [DiagramPathPoint]
    /// The main title.
    public var title: String
    /// The line under the title (e.g. "ios8 — 4 frames from scan to photon").
    public var subtitle: String?
    /// Legend names for colour keys; missing keys are named "buffer N".
    public var colorNames: [Int: String]
    /// Colours for keys that do not take the buffer palette's.
    public var colorOverrides: [Int: UInt32]
    /// The lanes, top to bottom.
    public var lanes: [PipelineLane]
    /// Ticks across lanes (Android's vsync-app and vsync-sf).
    public var ticks: [DiagramTick]
    /// Rows of the legend under the plot.
    public var legendRows: Int
    /// The scan line and the pen's row across a lane (a front-buffered
    /// app); nil for none.
    public var scanLine: DiagramScanLine?

    /// A diagram of the window `[startNs, endNs)`.
    public init(framePeriodNs: SimTime, startNs: SimTime, endNs: SimTime, vsyncNs: [SimTime],
                boxes: [DiagramBox], markers: [DiagramMarker] = [], touchPath: [DiagramPathPoint] = [],
                title: String = "Touch-to-display pipeline", subtitle: String? = nil,
                colorNames: [Int: String] = [:], colorOverrides: [Int: UInt32] = [:],
                lanes: [PipelineLane] = PipelineLane.ios, ticks: [DiagramTick] = [], legendRows: Int = 2) {
        precondition(framePeriodNs > 0 && endNs > startNs, "a diagram needs a positive frame period and window")
        self.framePeriodNs = framePeriodNs
        self.startNs = startNs
        self.endNs = endNs
        self.vsyncNs = vsyncNs
        self.boxes = boxes
        self.markers = markers
        self.touchPath = touchPath
        self.title = title
        self.subtitle = subtitle
        self.colorNames = colorNames
        self.colorOverrides = colorOverrides
        self.lanes = lanes
        self.ticks = ticks
        self.legendRows = max(1, legendRows)
    }

    /// This diagram with the scan line drawn across `scanLine.lane`.
    public func with(scanLine: DiagramScanLine) -> PipelineDiagramChart {
        var d = self
        d.scanLine = scanLine
        return d
    }

    /// The height within a lane of `row` (0 top, 1 bottom): the scan line's
    /// and the pen row's vertical position.
    func y(_ lane: PipelineLane, row: Double) -> Double { y(lane) + 0.42 - 0.84 * row }

    /// Where a marker or a path point sits: below the lane's centre line,
    /// or at its screen row on a lane with a scan line.
    func markerY(_ lane: PipelineLane, _ row: Double?) -> Double {
        if let row, scanLine?.lane == lane { return y(lane, row: row) }
        return y(lane) - Self.pathDrop
    }

    /// Half the height of a box, in lane units (lanes are 1 apart).
    static let halfHeight = 0.3
    /// Box labels sit this far above the lane's centre line, and markers and
    /// the touch path this far below it, so the path never covers a label.
    static let labelLift = 0.13, pathDrop = 0.12
    /// The plot area's approximate width in pixels at 1200x700, used to
    /// decide whether a box's label fits inside it.
    static let plotWidthPixels = 1000.0
    /// Approximate pixels per character of an 11-point label.
    static let pixelsPerCharacter = 7.0

    /// The lane's vertical centre: the first lane on top, the last at 0.
    func y(_ lane: PipelineLane) -> Double {
        Double(lanes.count - 1 - (lanes.firstIndex(of: lane) ?? 0))
    }

    /// `t` in display frames since `startNs`.
    func frames(_ t: SimTime) -> Double {
        Double(t - startNs) / Double(framePeriodNs)
    }

    /// The width of the window in frames.
    var windowFrames: Double { frames(endNs) }

    /// The fill colour for a colour key.
    func color(_ key: Int) -> UInt32 {
        if let c = colorOverrides[key] { return c }
        let palette = ChartStyle.buffers
        return palette[((key % palette.count) + palette.count) % palette.count]
    }

    /// The box's label if it fits inside the box, else "".
    func fittingLabel(_ box: DiagramBox) -> String {
        let widthPixels = (frames(box.endNs) - frames(box.startNs)) / windowFrames * Self.plotWidthPixels
        return Double(box.label.count) * Self.pixelsPerCharacter + 10 <= widthPixels ? box.label : ""
    }

    /// The box table (`faint` or `solid`).
    func boxTable(_ name: String, highlighted: Bool) -> ChartTable {
        var table = ChartTable(name: name, columns: ["x_mid", "y_mid", "x_lo", "x_hi", "y_lo", "y_hi", "rgb",
                                                     "color_key", "start_ns", "end_ns", "lane", "label", "label_y", "label_rgb"])
        for original in boxes where original.highlighted == highlighted {
            // Clip to the window; boxes wholly outside it are left out.
            var box = original
            box.startNs = max(box.startNs, startNs)
            box.endNs = min(box.endNs, endNs)
            guard box.endNs > box.startNs else { continue }
            let lo = frames(box.startNs), hi = frames(box.endNs), y = y(box.lane)
            table.append([.number((lo + hi) / 2), .number(y), .number(lo), .number(hi),
                          .number(y - Self.halfHeight), .number(y + Self.halfHeight),
                          .number(Double(color(box.colorKey))), .number(Double(box.colorKey)),
                          .number(Double(box.startNs)), .number(Double(box.endNs)),
                          .text(box.lane.title), .text(fittingLabel(box)), .number(y + Self.labelLift),
                          .number(Double(ChartStyle.labelInk(on: color(box.colorKey))))])
        }
        return table
    }

    /// The gnuplot script.
    public var script: ChartScript {
        let faint = boxTable("faint", highlighted: false)
        let solid = boxTable("solid", highlighted: true)
        var tables = [faint, solid]

        // Markers, grouped by label in order of first appearance.
        var markerLabels: [String] = []
        for marker in markers where !markerLabels.contains(marker.label) { markerLabels.append(marker.label) }
        for (i, label) in markerLabels.enumerated() {
            var table = ChartTable(name: "marker\(i)", columns: ["x", "y", "time_ns", "lane", "label"])
            for marker in markers where marker.label == label && marker.timeNs >= startNs && marker.timeNs <= endNs {
                table.append([.number(frames(marker.timeNs)), .number(markerY(marker.lane, marker.row)),
                              .number(Double(marker.timeNs)), .text(marker.lane.title), .text(label)])
            }
            tables.append(table)
        }

        var path = ChartTable(name: "path", columns: ["x", "y", "dx", "dy", "time_ns", "lane"])
        for (i, point) in touchPath.enumerated() {
            let next = i + 1 < touchPath.count ? touchPath[i + 1] : point
            let x = frames(point.timeNs), y = markerY(point.lane, point.row)
            path.append([.number(x), .number(y), .number(frames(next.timeNs) - x), .number(markerY(next.lane, next.row) - y),
                         .number(Double(point.timeNs)), .text(point.lane.title)])
        }
        tables.append(path)

        return ChartScript(title: title + (subtitle.map { " (\($0))" } ?? ""), tables: tables,
                           setup: setup(), plot: plotCommand(faint: faint, solid: solid, markerLabels: markerLabels))
    }

    /// Axes, lanes, vsync lines.
    func setup() -> String {
        var s = ChartStyle.common(title: title, subtitle: subtitle)
        let top = Double(lanes.count - 1) + 0.6, bottom = -0.6
        let width = windowFrames
        s += """
        unset grid
        set border 1 lc \(GnuplotText.rgb(ChartStyle.border))
        set xrange [0:\(GnuplotText.number(width))]
        set yrange [\(GnuplotText.number(bottom)):\(GnuplotText.number(top))]
        set ytics (\(lanes.map { "\(GnuplotText.enhanced($0.title)) \(GnuplotText.number(y($0)))" }.joined(separator: ", "))) scale 0 font ",13"
        set xtics 0,1 scale 0.8
        set xlabel "time (display frames; dashed lines are vsyncs)"
        set lmargin 17
        set rmargin 4
        set key at screen 0.5, screen 0.012 center bottom horizontal maxrows \(legendRows) samplen 2 width 1 noopaque nobox
        set bmargin \(5 + 2 * legendRows)

        """
        // Lane backgrounds: alternate light bands.
        for (i, lane) in lanes.enumerated() where i % 2 == 0 {
            let y = y(lane)
            s += "set object rect from graph 0, first \(GnuplotText.number(y - 0.5)) to graph 1, first \(GnuplotText.number(y + 0.5)) "
                + "behind fc \(GnuplotText.rgb(ChartStyle.followedBand)) fs solid 1.0 noborder\n"
        }
        for t in vsyncNs where t >= startNs && t <= endNs {
            let x = GnuplotText.number(frames(t))
            s += "set arrow from first \(x), graph 0 to first \(x), graph 1 nohead back lc \(GnuplotText.rgb(ChartStyle.guide)) lw 1.2 dt (6,4)\n"
        }
        if let line = scanLine {
            // the scan-out: from the lane's top at each vsync to its bottom at the next
            let vsyncs = vsyncNs.sorted()
            for (a, b) in zip(vsyncs, vsyncs.dropFirst()) where b > startNs && a < endNs {
                s += "set arrow from first \(GnuplotText.number(frames(a))), first \(GnuplotText.number(y(line.lane, row: 0))) "
                    + "to first \(GnuplotText.number(frames(b))), first \(GnuplotText.number(y(line.lane, row: 1))) "
                    + "nohead front lc \(GnuplotText.rgb(ChartStyle.scanLine)) lw 1.5\n"
            }
            if let pen = line.penRow {
                let y = GnuplotText.number(y(line.lane, row: pen))
                s += "set arrow from graph 0, first \(y) to graph 1, first \(y) nohead front lc \(GnuplotText.rgb(ChartStyle.wetInk)) lw 1.5 dt (2,3)\n"
            }
        }
        for t in ticks where t.timeNs >= startNs && t.timeNs <= endNs {
            let x = GnuplotText.number(frames(t.timeNs)), y = y(t.lane)
            s += "set arrow from first \(x), first \(GnuplotText.number(y - 0.45)) to first \(x), first \(GnuplotText.number(y + 0.45)) "
                + "nohead front lc \(GnuplotText.rgb(t.color)) lw 2.5\n"
        }
        return s
    }

    /// The plot command: faint boxes, solid boxes, labels, markers, path,
    /// and legend entries for the colour keys.
    func plotCommand(faint: ChartTable, solid: ChartTable, markerLabels: [String]) -> String {
        var parts: [String] = []
        let box = "using 1:2:3:4:5:6:7 with boxxyerror"
        if !faint.rows.isEmpty {
            parts.append("$faint \(box) fs transparent solid 0.30 noborder fc rgb variable notitle")
            parts.append("$faint \(box) fs empty lc rgb variable lw 1 notitle")
            parts.append("$faint using 1:13:12 with labels noenhanced font \",11\" tc \(GnuplotText.rgb(ChartStyle.annotation)) notitle")
        }
        if !solid.rows.isEmpty {
            parts.append("$solid \(box) fs solid 1.0 noborder fc rgb variable notitle")
            parts.append("$solid \(box) fs empty lc \(GnuplotText.rgb(ChartStyle.ink)) lw 2.5 notitle")
            // white on the dark fills, dark ink on the light ones (orange): readable on every buffer's colour
            parts.append("$solid using 1:13:12:14 with labels noenhanced font \",11:Bold\" tc rgb variable notitle")
        }
        let keys = Set(boxes.map(\.colorKey)).sorted()
        for key in keys {
            let name = colorNames[key] ?? DiagramBox.bufferName(key)
            parts.append("keyentry with boxes fs solid 1.0 fc \(GnuplotText.rgb(color(key))) title \(GnuplotText.enhanced(name))")
        }
        var tickLabels: [(String, UInt32)] = []
        for t in ticks where !tickLabels.contains(where: { $0.0 == t.label }) { tickLabels.append((t.label, t.color)) }
        for (label, c) in tickLabels {
            parts.append("keyentry with lines lc \(GnuplotText.rgb(c)) lw 2.5 title \(GnuplotText.enhanced(label))")
        }
        if boxes.contains(where: \.highlighted) && boxes.contains(where: { !$0.highlighted }) {
            parts.append("keyentry with boxes fs empty lc \(GnuplotText.rgb(ChartStyle.ink)) lw 2.5 title \"followed touch's work\"")
        }
        let markerColors = ChartStyle.marks
        for (i, label) in markerLabels.enumerated() {
            let color = GnuplotText.rgb(markerColors[i % markerColors.count])
            parts.append("$marker\(i) using 1:2 with points pt 7 ps 1.7 lc \(color) title \(GnuplotText.enhanced(label))")
        }
        if let line = scanLine {
            parts.append("keyentry with lines lc \(GnuplotText.rgb(ChartStyle.scanLine)) lw 1.5 title \"scan line\"")
            if line.penRow != nil {
                parts.append("keyentry with lines lc \(GnuplotText.rgb(ChartStyle.wetInk)) lw 1.5 dt (2,3) title \"the pen's row\"")
            }
        }
        if touchPath.count >= 2 {
            parts.append("$path using 1:2:3:4 every ::0::\(touchPath.count - 2) with vectors head filled size first 0.06,25 "
                + "lw 2.5 lc \(GnuplotText.rgb(ChartStyle.ink)) title \"touch: scan → photon\"")
            parts.append("$path using 1:2 with points pt 7 ps 0.9 lc \(GnuplotText.rgb(ChartStyle.ink)) notitle")
        }
        if parts.isEmpty { parts.append("NaN notitle") }
        return "plot " + parts.joined(separator: ", \\\n     ")
    }
}

extension PipelineDiagramChart: RegisteredChart {
    public static let kind = "pipeline-diagram"
    /// The talk's iOS 8 pipeline, double buffered: four frames from scan to photon.
    public static var example: PipelineDiagramChart {
        talkPipeline(gpuMs: 7, buffers: 2, latchDelayFrames: 3, subtitle: "ios8 — 4 frames from scan to photon (double buffering)")
    }
    public static var empty: PipelineDiagramChart { PipelineDiagramChart(framePeriodNs: 10, startNs: 0, endNs: 30, vsyncNs: [], boxes: []) }

    /// The talk's iOS 8 pipeline at 60 Hz: each touch is scanned in frame
    /// k, handled by the app in frame k+1 (commit 9 ms in), prepared by
    /// Core Animation (4 ms) and rendered by the GPU (`gpuMs`) in frame
    /// k+2, and on screen `latchDelayFrames` frames after its scan, in one
    /// of `buffers` buffers; the touch of frame 1 is followed.
    public static func talkPipeline(gpuMs: Int64, buffers: Int, latchDelayFrames: Int64, subtitle: String) -> PipelineDiagramChart {
        let T: SimTime = 16_666_667, ms: SimTime = 1_000_000
        let followed: Int64 = 1
        var boxes: [DiagramBox] = []
        var markers: [DiagramMarker] = []
        var path: [DiagramPathPoint] = []
        for k in Int64(-4)...6 {
            let hl = k == followed
            let color = Int(((k % Int64(buffers)) + Int64(buffers)) % Int64(buffers))
            let scan = k * T
            let app = (k + 1) * T, commit = app + 9 * ms
            let prepare = (k + 2) * T, gpu = prepare + 4 * ms, gpuEnd = gpu + gpuMs * ms
            let latch = (k + latchDelayFrames) * T
            boxes.append(DiagramBox(lane: .multiTouch, startNs: scan, endNs: scan + T, label: "scan", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .app, startNs: app, endNs: commit, label: "handler", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .coreAnimation, startNs: prepare, endNs: gpu, label: "prepare", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .gpu, startNs: gpu, endNs: gpuEnd, label: "render", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .display, startNs: latch, endNs: latch + T, label: DiagramBox.bufferName(color), colorKey: color, highlighted: hl))
            markers.append(DiagramMarker(lane: .app, timeNs: commit, label: "commit (CATransaction)"))
            if hl {
                path = [
                    DiagramPathPoint(lane: .multiTouch, timeNs: scan + T / 2),
                    DiagramPathPoint(lane: .app, timeNs: app),
                    DiagramPathPoint(lane: .app, timeNs: commit),
                    DiagramPathPoint(lane: .coreAnimation, timeNs: prepare),
                    DiagramPathPoint(lane: .gpu, timeNs: gpu),
                    DiagramPathPoint(lane: .gpu, timeNs: gpuEnd),
                    DiagramPathPoint(lane: .display, timeNs: latch),
                    DiagramPathPoint(lane: .display, timeNs: latch + T / 2),
                ]
            }
        }
        return PipelineDiagramChart(
            framePeriodNs: T, startNs: 0, endNs: 7 * T, vsyncNs: (0...7).map { $0 * T },
            boxes: boxes, markers: markers, touchPath: path,
            title: "Touch-to-display pipeline", subtitle: subtitle)
    }
}
