import SimKernel

/// One press over time: the finger's true force, the force each delivery
/// handed the app, the thresholds, and for each recognised stage where the
/// true force crossed its threshold, when the recogniser decided, when the
/// haptic tap was felt and when the first frame showing it reached the eye.
/// Animations (low latency off) are shaded.
///
/// ```swift
/// let chart = ForceChart(
///     trueForce: [(ms: 0, force: 0), (ms: 150, force: 3.5)],
///     delivered: [(ms: 16.7, force: 0.4), (ms: 33.3, force: 0.8)],
///     thresholds: [.init(name: "peek", force: 3, release: 2.5)],
///     stages: [.init(name: "peek", threshold: 3, crossingMs: 128.6, decisionMs: 200, hapticMs: 210, photonMs: 241.7)],
///     animations: [(fromMs: 204, toMs: 454)])
/// ```
public struct ForceChart: GnuplotChart {
    /// A threshold drawn across the chart, with the level its arming is undone below.
    public struct Threshold: Sendable, Equatable {
        /// The stage's name (`peek`).
        public var name: String
        /// The threshold's force.
        public var force: Double
        /// Its release level (threshold − hysteresis).
        public var release: Double
        /// A threshold line.
        public init(name: String, force: Double, release: Double) {
            self.name = name
            self.force = force
            self.release = release
        }
    }

    /// A recognised stage's instants, ms on the chart's time axis.
    public struct Stage: Sendable, Equatable {
        /// The stage's name (`peek`).
        public var name: String
        /// Its threshold's force: the marks are drawn at this height.
        public var threshold: Double
        /// The true force crossed the threshold (nil: it never did).
        public var crossingMs: Double?
        /// The recogniser decided (the delivery that recognised it).
        public var decisionMs: Double
        /// The haptic tap was felt.
        public var hapticMs: Double
        /// The first frame showing the stage reached the eye (nil: not within the run).
        public var photonMs: Double?
        /// A stage's marks.
        public init(name: String, threshold: Double, crossingMs: Double?, decisionMs: Double, hapticMs: Double, photonMs: Double?) {
            self.name = name
            self.threshold = threshold
            self.crossingMs = crossingMs
            self.decisionMs = decisionMs
            self.hapticMs = hapticMs
            self.photonMs = photonMs
        }
    }

    /// The true force, sampled finely.
    public var trueForce: [(ms: Double, force: Double)]
    /// The force the app holds from each delivery on (a step per delivery).
    public var delivered: [(ms: Double, force: Double)]
    /// The thresholds.
    public var thresholds: [Threshold]
    /// The recognised stages.
    public var stages: [Stage]
    /// Animation intervals (low latency off), ms.
    public var animations: [(fromMs: Double, toMs: Double)]
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart of one press.
    public init(trueForce: [(ms: Double, force: Double)], delivered: [(ms: Double, force: Double)], thresholds: [Threshold],
                stages: [Stage], animations: [(fromMs: Double, toMs: Double)],
                title: String = "One press: force, recognition, haptics and photons", subtitle: String? = nil) {
        self.trueForce = trueForce
        self.delivered = delivered
        self.thresholds = thresholds
        self.stages = stages
        self.animations = animations
        self.title = title
        self.subtitle = subtitle
    }

    /// Mark colours: crossing, decision, haptic, photon.
    static let markColors = ChartStyle.pressMarks
    static let markNames = ["true force crosses the threshold", "recognised", "haptic tap felt", "first frame seen (photon)"]
    static let markPoints = [6, 9, 7, 5]

    /// The gnuplot script.
    public var script: ChartScript {
        var truth = ChartTable(name: "truth", columns: ["t_ms", "force"])
        for p in trueForce { truth.append([.number(p.ms), .number(p.force)]) }
        var steps = ChartTable(name: "delivered", columns: ["t_ms", "force"])
        for p in delivered { steps.append([.number(p.ms), .number(p.force)]) }
        var marks: [ChartTable] = []
        for (k, _) in Self.markNames.enumerated() {
            var table = ChartTable(name: "mark\(k)", columns: ["t_ms", "force", "stage"])
            for s in stages {
                let t: Double? = [s.crossingMs, s.decisionMs, s.hapticMs, s.photonMs][k]
                if let t { table.append([.number(t), .number(s.threshold), .text(s.name)]) }
            }
            marks.append(table)
        }
        let times = trueForce.map(\.ms) + delivered.map(\.ms)
        let xmin = times.min() ?? 0, xmax = times.max() ?? 1
        let top = Swift.max(trueForce.map(\.force).max() ?? 1, thresholds.map(\.force).max() ?? 1)
        let ymax = top * 1.3

        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel "time from the press's start (ms)"
        set ylabel "force (1.0 = an average touch)"
        set xrange [\(GnuplotText.number(xmin)):\(GnuplotText.number(xmax))]
        set yrange [0:\(GnuplotText.number(ymax))]
        set key at screen 0.5, screen 0.012 center bottom horizontal maxrows 2 noopaque nobox spacing 1.2 width 1
        set bmargin 8
        set rmargin 14

        """
        var object = 1
        for a in animations {
            setup += "set object \(object) rectangle from first \(GnuplotText.number(a.fromMs)), graph 0 to first \(GnuplotText.number(a.toMs)), graph 1 back fillcolor \(GnuplotText.rgb(ChartStyle.animation)) fillstyle solid 0.6 noborder\n"
            object += 1
        }
        if let first = animations.first {
            setup += "set label \(GnuplotText.enhanced("animation: low latency off")) at first \(GnuplotText.number(first.fromMs)), graph 0.97 offset 0.5,0 left tc \(GnuplotText.rgb(ChartStyle.annotation)) font \",10\"\n"
        }
        for t in thresholds {
            let y = GnuplotText.number(t.force), r = GnuplotText.number(t.release)
            setup += "set arrow from graph 0, first \(y) to graph 1, first \(y) nohead back lc \(GnuplotText.rgb(ChartStyle.guide)) lw 1.5 dt 2\n"
            setup += "set label \(GnuplotText.enhanced("\(t.name) \(GnuplotText.number(t.force))")) at graph 1, first \(y) offset 1,0 left tc \(GnuplotText.rgb(ChartStyle.reference)) font \",11\"\n"
            setup += "set arrow from graph 0, first \(r) to graph 1, first \(r) nohead back lc \(GnuplotText.rgb(ChartStyle.truth)) lw 1 dt 3\n"
            setup += "set label \(GnuplotText.enhanced("release \(GnuplotText.number(t.release))")) at graph 1, first \(r) offset 1,0 left tc \(GnuplotText.rgb(ChartStyle.quiet)) font \",9\"\n"
        }
        for s in stages {
            // from the crossing to the photon, the stage's latency as a bracket
            // just under its threshold, its figures below it (under a
            // threshold the press has already risen past: free space)
            guard let c = s.crossingMs, let p = s.photonMs else { continue }
            let y = s.threshold - top * 0.04
            setup += "set arrow from first \(GnuplotText.number(c)), first \(GnuplotText.number(y)) to first \(GnuplotText.number(p)), first \(GnuplotText.number(y)) heads size screen 0.006,90 lc \(GnuplotText.rgb(ChartStyle.reference)) lw 1.2\n"
            let text = "\(s.name): decided +\(Self.ms(s.decisionMs - c)) ms\ntap felt +\(Self.ms(s.hapticMs - c)) ms, seen +\(Self.ms(p - c)) ms"
            setup += "set label \(GnuplotText.enhanced(text)) at first \(GnuplotText.number(c)), first \(GnuplotText.number(y)) offset 0,-1.1 left tc \(GnuplotText.rgb(ChartStyle.ink)) font \",11\"\n"
        }
        var parts = [
            "$truth using 1:2 with lines lw 5 lc \(GnuplotText.rgb(ChartStyle.truth)) title \"true force\"",
            "$delivered using 1:2 with steps lw 2 lc \(GnuplotText.rgb(ChartStyle.drop)) title \"force the app holds (from each delivery)\"",
        ]
        for (k, name) in Self.markNames.enumerated() where !marks[k].rows.isEmpty {
            parts.append("$mark\(k) using 1:2 with points pt \(Self.markPoints[k]) ps 1.7 lw 2 lc \(GnuplotText.rgb(Self.markColors[k])) title \(GnuplotText.enhanced(name))")
        }
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: [truth, steps] + marks, setup: setup, plot: plot)
    }

    /// A duration in ms with one decimal.
    static func ms(_ x: Double) -> String { formatDecimal(x, places: 1) }
}

extension ForceChart: RegisteredChart {
    public static let kind = "force"
    /// A press that peeks and pops, delivered at 60 Hz, animating after the peek.
    public static var example: ForceChart {
        let trueForce = (0...60).map { i -> (ms: Double, force: Double) in
            let ms = Double(i) * 10
            return (ms, Swift.min(6, 6 * ms * ms / 360_000))
        }
        let delivered = stride(from: 16.7, through: 600, by: 16.7).map { ms -> (ms: Double, force: Double) in
            (ms, Swift.min(6, 6 * (ms - 8) * (ms - 8) / 360_000))
        }
        return ForceChart(trueForce: trueForce, delivered: delivered,
                          thresholds: [.init(name: "peek", force: 3, release: 2.5), .init(name: "pop", force: 5, release: 4.5)],
                          stages: [.init(name: "peek", threshold: 3, crossingMs: 424, decisionMs: 467, hapticMs: 477, photonMs: 508),
                                   .init(name: "pop", threshold: 5, crossingMs: 548, decisionMs: 584, hapticMs: 594, photonMs: nil)],
                          animations: [(fromMs: 467, toMs: 600)], subtitle: "example")
    }
    public static var empty: ForceChart { ForceChart(trueForce: [], delivered: [], thresholds: [], stages: [], animations: []) }
}
