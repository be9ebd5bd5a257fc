import FramePipeline
import SimKernel

/// Latency over time: the touch-to-photon of every frame with new touch
/// content as it reached the screen, so that transients show (animations
/// switching low latency off, lift-offs, triple buffering, a slow frame),
/// where a percentile averages them away. Repeated frames that owed newer
/// content (hitches) and dropped frames are ticks along the bottom;
/// intervals of interest are shaded behind.
///
/// ```swift
/// let chart = LatencyTimelineChart(
///     points: [(seconds: 0.05, ms: 33.3), (seconds: 0.07, ms: 33.3)],
///     shaded: [.init(from: 2, to: 4, label: "animations", color: ChartStyle.animation)],
///     framePeriodMs: 1000.0 / 60)
/// ```
public struct LatencyTimelineChart: GnuplotChart {
    /// A shaded interval behind the points.
    public struct Interval: Sendable, Equatable {
        /// Its start and end, s.
        public var from, to: Double
        /// The legend entry (intervals with the same label share it).
        public var label: String
        /// Its fill colour.
        public var color: UInt32

        /// An interval from its parts.
        public init(from: Double, to: Double, label: String, color: UInt32) {
            self.from = from
            self.to = to
            self.label = label
            self.color = color
        }
    }

    /// `(time of the vsync, s; touch-to-photon, ms)` of each measured frame.
    public var points: [(seconds: Double, ms: Double)]
    /// Vsyncs that repeated a frame while newer content was owed, s.
    public var hitches: [Double]
    /// What the frame log shows at each hitch's vsync (``HitchContext``),
    /// in ``hitches`` order; empty when unknown.
    public var hitchContexts: [HitchContext] = []
    /// Vsyncs at which frames were dropped, s.
    public var drops: [Double]
    /// Intervals shaded behind the points.
    public var shaded: [Interval]
    /// Horizontal guides every display period, when set.
    public var framePeriodMs: Double?
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart from its parts.
    public init(points: [(seconds: Double, ms: Double)], hitches: [Double] = [], drops: [Double] = [],
                shaded: [Interval] = [], framePeriodMs: Double? = nil,
                title: String = "Touch-to-photon latency over time", subtitle: String? = nil) {
        self.points = points
        self.hitches = hitches
        self.drops = drops
        self.shaded = shaded
        self.framePeriodMs = framePeriodMs
        self.title = title
        self.subtitle = subtitle
    }

    /// What the frame log shows at a hitch's vsync: the work the owed
    /// frame was still waiting for. A fact of the log, not a guess: the
    /// report states a cause of hitches only from these.
    public enum HitchContext: String, Sendable, CaseIterable {
        /// A GPU job was running across the latch.
        case gpuRendering = "gpu-rendering"
        /// The render server was preparing a frame across the latch.
        case preparing = "preparing"
        /// Neither: no frame in flight at the latch (the owed commit had not
        /// reached the render server).
        case noFrameInFlight = "no-frame-in-flight"
        /// Not known (a platform whose log is not read here).
        case unknown = "unknown"

        /// The context in words, for a caption.
        public var phrase: String {
            switch self {
            case .gpuRendering: return "the GPU still rendering at the latch"
            case .preparing: return "the render server still preparing at the latch"
            case .noFrameInFlight: return "no frame in flight at the latch"
            case .unknown: return "nothing the log attributes"
            }
        }
    }

    /// The measured frames with `during` true inside a shaded interval
    /// labelled `label` (e.g. the animations), and false outside them.
    public func frames(inside label: String) -> (during: [Double], outside: [Double]) {
        let intervals = shaded.filter { $0.label == label }
        var during: [Double] = [], outside: [Double] = []
        for p in points {
            if intervals.contains(where: { p.seconds >= $0.from && p.seconds < $0.to }) { during.append(p.ms) } else { outside.append(p.ms) }
        }
        return (during, outside)
    }

    /// The nearest-rank median (the lower middle value), nil when empty.
    public static func median(_ xs: [Double]) -> Double? { xs.isEmpty ? nil : xs.sorted()[(xs.count - 1) / 2] }

    /// The hitches counted by what the log shows at each.
    public var hitchesByContext: [(context: HitchContext, count: Int)] {
        HitchContext.allCases.map { c in (c, hitchContexts.filter { $0 == c }.count) }.filter { $0.count > 0 }
    }

    /// The hitches inside an interval labelled `label` (a gap with no new touch content, say).
    public func hitches(inside label: String) -> Int {
        let intervals = shaded.filter { $0.label == label }
        return hitches.filter { t in intervals.contains { t >= $0.from && t <= $0.to } }.count
    }

    /// The label of the gaps with no new touch content.
    public static let gapLabel = "no new touch content"
    /// The label of animation intervals.
    public static let animationLabel = "animations (low latency off)"

    /// The gnuplot script.
    public var script: ChartScript {
        var latency = ChartTable(name: "latency", columns: ["seconds", "ms"])
        // the line breaks across a gap with no new touch content: nothing was measured there
        let gaps = shaded.filter { $0.label == Self.gapLabel }
        var previous: Double?
        for p in points {
            if let last = previous, gaps.contains(where: { $0.from >= last && $0.to <= p.seconds }) { latency.rows.append([]) }
            latency.append([.number(p.seconds), .number(p.ms)])
            previous = p.seconds
        }
        var hitch = ChartTable(name: "hitches", columns: ["seconds", "context"])
        for (i, t) in hitches.enumerated() {
            hitch.append([.number(t), .text(i < hitchContexts.count ? hitchContexts[i].rawValue : HitchContext.unknown.rawValue)])
        }
        var intervals = ChartTable(name: "intervals", columns: ["from_s", "to_s", "label"])
        for s in shaded { intervals.append([.number(s.from), .number(s.to), .text(s.label)]) }
        var drop = ChartTable(name: "drops", columns: ["seconds"])
        for t in drops { drop.append([.number(t)]) }
        let values = points.map(\.ms)
        let top = ((values.max() ?? 1) * 1.15).rounded(.up) + 1
        let bottom = Swift.max(0, ((values.min() ?? 0) * 0.8).rounded(.down) - 1)
        let span = top - bottom
        let end = Swift.max(points.last?.seconds ?? 1, hitches.last ?? 0, drops.last ?? 0, shaded.map(\.to).max() ?? 0)
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel "time in the run (s)"
        set ylabel "touch-to-photon latency (ms)"
        set xrange [0:\(GnuplotText.number(end))]
        set yrange [\(GnuplotText.number(bottom - span * 0.085)):\(GnuplotText.number(top))]
        set grid xtics ytics
        set key at screen 0.5, screen 0.012 center bottom vertical noopaque nobox samplen 2 spacing 1.1

        """
        setup += ChartStyle.periodLines(every: framePeriodMs, from: bottom, to: top, .horizontal, width: 1) { "\($0)T" }
        var tables = [latency, hitch, drop, intervals]
        var parts: [String] = []
        var labels: [String] = []
        // gaps over the other intervals: a lift-off inside an animation still shows
        let layered = shaded.filter { $0.label != Self.gapLabel } + shaded.filter { $0.label == Self.gapLabel }
        for (i, s) in layered.enumerated() {
            // a rectangle each, behind everything; one legend entry per label
            setup += "set object \(i + 1) rect from first \(GnuplotText.number(s.from)), graph 0 to first \(GnuplotText.number(s.to)), graph 1 back fc \(GnuplotText.rgb(s.color)) fs solid 0.55 noborder\n"
            if !labels.contains(s.label) {
                labels.append(s.label)
                parts.append("NaN with boxes fc \(GnuplotText.rgb(s.color)) fs solid 0.55 noborder title \(GnuplotText.enhanced(s.label))")
            }
        }
        // hitches and drops in lanes of their own along the bottom, each a
        // short upright tick: marks at the same vsync never cover each other
        let lane = span * 0.035
        let hitchLane = GnuplotText.number(bottom - span * 0.075), dropLane = GnuplotText.number(bottom - span * 0.035)
        parts.insert("$latency using 1:2 with steps lw 1.6 lc \(GnuplotText.rgb(ChartStyle.color(0))) title \"touch-to-photon, each frame with new touch content\"", at: 0)
        if !hitches.isEmpty {
            parts.append("$hitches using 1:(\(hitchLane)):(0):(\(GnuplotText.number(lane * 0.8))) with vectors nohead lw 2 lc \(GnuplotText.rgb(ChartStyle.hitch)) title \"hitch: a frame repeated while a newer one was owed (lower ticks)\"")
        }
        if !drops.isEmpty {
            parts.append("$drops using 1:(\(dropLane)):(0):(\(GnuplotText.number(lane * 0.8))) with vectors nohead lw 2 lc \(GnuplotText.rgb(ChartStyle.drop)) title \"frame dropped (upper ticks)\"")
        }
        if points.isEmpty { tables.removeAll(); parts = ["NaN notitle"] }
        // the legend in its own band at the foot, below the axis label
        let entries = parts.filter { !$0.hasSuffix("notitle") }.count
        setup += "set bmargin \(Self.bottomMargin(entries: entries))\n"
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }

    /// The bottom margin, in lines, that holds the x tics, the x label and
    /// below them, apart, a legend of `entries` entries in one column (its
    /// longest entries are too wide for two), each 1.3 lines high.
    static func bottomMargin(entries: Int) -> Int {
        4 + Int((Double(entries) * 1.3).rounded(.up))
    }

    /// The chart of a run kept with its frame log: its measured frames,
    /// hitches and drops, with its animation intervals (iOS), the time it
    /// spent with three display buffers (iOS) and the gaps with no new
    /// touch content (a lifted finger, or an idle app) shaded.
    public init?(_ r: RunResult, scenario: String) {
        guard let log = r.frameLog else { return nil }
        let c = r.configuration
        let period = Double(c.framePeriod.doubleValue) / 1e6
        var pts: [(seconds: Double, ms: Double)] = [], hitches: [Double] = [], drops: [Double] = []
        var shaded: [Interval] = []
        var lastNew: Double?
        for f in log.frames {
            let t = Double(f.vsync) / 1e9
            if let ttp = f.touchToPhoton {
                if let last = lastNew, t - last > 3 * period / 1e3 {
                    shaded.append(.init(from: last, to: t, label: Self.gapLabel, color: ChartStyle.gap))
                }
                lastNew = t
                pts.append((t, Double(ttp) / 1e6))
            }
            if f.hitch { hitches.append(t) }
            if f.dropped > 0 { drops.append(t) }
        }
        // what the log shows at each hitch's vsync (iOS: GPU jobs and prepares in flight)
        var contexts: [HitchContext] = []
        for f in log.frames where f.hitch {
            guard c.platform == .ios else { contexts.append(.unknown); continue }
            let v = f.vsync
            func across<T>(_ xs: [T], _ start: (T) -> SimTime, _ end: (T) -> SimTime) -> Bool {
                // jobs are logged in start order: look back from the first one starting at or after v
                var lo = 0, hi = xs.count
                while lo < hi { let mid = (lo + hi) / 2; if start(xs[mid]) < v { lo = mid + 1 } else { hi = mid } }
                var i = lo - 1
                while i >= 0, v - start(xs[i]) <= Nanos.perSecond {
                    if end(xs[i]) > v { return true }
                    i -= 1
                }
                return false
            }
            if across(log.gpuJobs, { $0.start }, { $0.end }) { contexts.append(.gpuRendering) }
            else if across(log.prepares, { $0.start }, { $0.end }) { contexts.append(.preparing) }
            else { contexts.append(.noFrameInFlight) }
        }
        if c.platform == .ios {
            if case .intervals(let rs) = c.animations {
                for r in rs { shaded.append(.init(from: Double(r.lowerBound) / 1e9, to: Double(r.upperBound) / 1e9,
                                                  label: Self.animationLabel, color: ChartStyle.animation)) }
            } else if c.animations == .always, c.renderServer == .lowLatency {
                shaded.append(.init(from: 0, to: r.simulatedSeconds, label: Self.animationLabel, color: ChartStyle.animation))
            }
            var tripleSince: Double?
            for b in log.bufferSamples {
                let t = Double(b.time) / 1e9
                if b.allocated >= 3, tripleSince == nil { tripleSince = t }
                if b.allocated < 3, let s = tripleSince {
                    shaded.append(.init(from: s, to: t, label: "three display buffers", color: ChartStyle.triple))
                    tripleSince = nil
                }
            }
            if let s = tripleSince { shaded.append(.init(from: s, to: r.simulatedSeconds, label: "three display buffers", color: ChartStyle.triple)) }
        }
        self.init(points: pts, hitches: hitches, drops: drops, shaded: shaded,
                  title: "Touch-to-photon latency over time: \(scenario)",
                  subtitle: "every frame with new touch content, at the vsync that showed it")
        hitchContexts = contexts
    }
}

extension LatencyTimelineChart: RegisteredChart {
    public static let kind = "latency-timeline"
    /// Two seconds at 60 Hz: three frames of latency, a frame more during
    /// an animation, a gap where the finger lifted, a hitch and a drop.
    public static var example: LatencyTimelineChart {
        var points: [(seconds: Double, ms: Double)] = []
        for k in 3..<120 where !(70..<80).contains(k) {
            let t = Double(k) / 60
            points.append((t, (t >= 0.5 && t < 0.9 ? 66.7 : 50) + Double(k % 3)))
        }
        var chart = LatencyTimelineChart(
            points: points, hitches: [0.55, 1.6], drops: [1.2],
            shaded: [.init(from: 0.5, to: 0.9, label: animationLabel, color: ChartStyle.animation),
                     .init(from: 70.0 / 60, to: 80.0 / 60, label: gapLabel, color: ChartStyle.gap)],
            framePeriodMs: 1000.0 / 60, subtitle: "example")
        chart.hitchContexts = [.gpuRendering, .noFrameInFlight]
        return chart
    }
    public static var empty: LatencyTimelineChart { LatencyTimelineChart(points: []) }
}
