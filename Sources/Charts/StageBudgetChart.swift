import FramePipeline
import SimKernel

/// Where the milliseconds go: one horizontal bar per scenario, its mean
/// touch-to-photon split into the stages of its platform (Docs/Budget.md),
/// each stage a segment in the stage's own colour, labelled where it is
/// wide enough. Zero is the instant of the position drawn, so every bar
/// ends at its touch-to-photon; a stage that gains time (Android's
/// resampling lead: the drawn point is newer than the sample) starts the
/// bar left of zero, at the sample, and is drawn as a hatched strip under
/// the bar from the sample to zero, with its label beside it. The strip
/// never covers a stage: the gain overlaps the scan window in time (the
/// sample's scan window runs on past the point drawn), so the scan segment
/// is drawn whole, from the sample to its window's end.
///
/// ```swift
/// let chart = StageBudgetChart(bars: [
///     .init(name: "ios9-low-latency", stages: [(.scan, 8.33), (.handler, 4), (.prepare, 3), (.gpu, 4),
///                                               (.latchWait, 5.67), (.scanOut, 8.33)]),
/// ])
/// ```
public struct StageBudgetChart: GnuplotChart {
    /// One scenario's bar.
    public struct Bar: Sendable {
        /// The scenario, on the axis.
        public var name: String
        /// Its stages in order with their mean, ms.
        public var stages: [(stage: BudgetStage, ms: Double)]

        /// A bar from its parts.
        public init(name: String, stages: [(stage: BudgetStage, ms: Double)]) {
            self.name = name
            self.stages = stages
        }

        /// The bar of a run's budget (stage means; nil when nothing was measured).
        public init?(name: String, budget: StageBudget) {
            guard budget.frames > 0 else { return nil }
            self.name = name
            stages = budget.stages.map { ($0, budget.meanMs($0) ?? 0) }
        }

        /// The sum of its stages, ms.
        public var totalMs: Double { stages.reduce(0) { $0 + $1.ms } }
    }

    /// The bars, top to bottom.
    public var bars: [Bar]
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart of `bars`.
    public init(bars: [Bar], title: String = "Where the milliseconds go",
                subtitle: String? = "mean touch-to-photon of the measured frames, split into the stages each passed through") {
        self.bars = bars
        self.title = title
        self.subtitle = subtitle
    }

    /// A bar's half height (rows are 1 apart).
    static let barHalfHeight = 0.3
    /// The gain strip's extent under its bar's centre: below the bar, above
    /// the next bar's top.
    static let gainStrip = (top: 0.33, bottom: 0.55)

    /// The gnuplot script.
    public var script: ChartScript {
        // one table per stage (a legend entry each), in the order stages
        // first appear, so the legend reads as the pipeline does
        var order: [BudgetStage] = []
        for b in bars { for s in b.stages where s.ms != 0 && !order.contains(s.stage) { order.append(s.stage) } }
        var tables: [ChartTable] = []
        var totals = ChartTable(name: "totals", columns: ["y", "x", "label"])
        var lo = 0.0, hi = 1.0
        // each bar starts at the sum of its gains, so it ends at its total
        let starts = bars.map { $0.stages.reduce(0.0) { $0 + Swift.min(0, $1.ms) } }
        for stage in order {
            var t = ChartTable(name: stage.rawValue, columns: ["y", "x0", "x1", "label"])
            for (i, b) in bars.enumerated() {
                var x = starts[i], gain = starts[i]
                for s in b.stages where s.ms != 0 {
                    let x0: Double, x1: Double
                    if s.ms < 0 { x0 = gain; x1 = gain - s.ms; gain = x1 } else { x0 = x; x1 = x + s.ms; x = x1 }
                    if s.stage == stage {
                        let wide = Swift.abs(s.ms) >= 2.4
                        t.append([.number(Double(-i)), .number(x0), .number(x1),
                                  .text(s.ms < 0 ? stage.phrase + " " + formatDecimal(s.ms, places: 1)
                                        : wide ? formatDecimal(s.ms, places: 1) : "")])
                    }
                    lo = Swift.min(lo, x0)
                    hi = Swift.max(hi, x1)
                }
            }
            tables.append(t)
        }
        for (i, b) in bars.enumerated() {
            totals.append([.number(Double(-i)), .number(b.totalMs), .text(formatDecimal(b.totalMs, places: 1) + " ms")])
        }
        tables.append(totals)
        let gains = order.filter { stage in bars.contains { $0.stages.contains { $0.stage == stage && $0.ms < 0 } } }
        let tics = bars.enumerated().map { "\(GnuplotText.enhanced($0.element.name)) \(-$0.offset)" }.joined(separator: ", ")
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set xlabel "milliseconds after the instant of the position drawn"
        set xrange [\(GnuplotText.number(lo < 0 ? lo - 17 : 0)):\(GnuplotText.number(hi * 1.12 + 2))]
        set yrange [\(GnuplotText.number(-Double(bars.count) + 0.4)):0.6]
        set ytics (\(tics)) scale 0
        set grid xtics noytics
        set arrow from first 0, graph 0 to first 0, graph 1 nohead front lc \(GnuplotText.rgb(ChartStyle.reference)) lw 1.2
        set key outside below center horizontal maxcols 6 noopaque nobox samplen 1.5
        set lmargin 24
        set bmargin \(order.count > 16 ? 11 : order.count > 12 ? 9 : 7)

        """
        var parts: [String] = []
        let h = GnuplotText.number(Self.barHalfHeight)
        let stripTop = GnuplotText.number(Self.gainStrip.top), stripBottom = GnuplotText.number(Self.gainStrip.bottom)
        for stage in order where !gains.contains(stage) {
            let c = GnuplotText.rgb(ChartStyle.stage(stage))
            parts.append("$\(stage.rawValue) using (($2+$3)/2):1:2:3:($1-\(h)):($1+\(h)) with boxxyerror fc \(c) lc \(GnuplotText.rgb(ChartStyle.white)) lw 0.5 fs solid 1.0 border title \(GnuplotText.enhanced(stage.phrase))")
            let ink = GnuplotText.rgb(ChartStyle.labelInk(on: ChartStyle.stage(stage)))
            parts.append("$\(stage.rawValue) using (($2+$3)/2):1:4 with labels tc \(ink) font ',10' notitle")
        }
        for stage in gains {
            // under the start of the bar, from the sample to zero: the time
            // the drawn point gains (the scan window above it runs on past zero)
            let c = GnuplotText.rgb(ChartStyle.stage(stage))
            parts.append("$\(stage.rawValue) using (($2+$3)/2):($1-(\(stripTop)+\(stripBottom))/2):2:3:($1-\(stripBottom)):($1-\(stripTop)) with boxxyerror fs pattern 5 border lc \(c) lw 1.2 fc \(c) title \(GnuplotText.enhanced(stage.phrase + " (gain)"))")
            parts.append("$\(stage.rawValue) using 2:($1-(\(stripTop)+\(stripBottom))/2):4 with labels right offset -0.6,0 font ',10' tc \(GnuplotText.rgb(ChartStyle.annotation)) notitle")
        }
        parts.append("$totals using 2:1:3 with labels left offset 0.8,0 font ',11' notitle")
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }
}

extension StageBudgetChart: RegisteredChart {
    public static let kind = "stage-budget"
    /// A bar of each platform with every stage it has: the iOS pipeline,
    /// and Android's on a command-mode panel (its idle wake) with the
    /// resampling lead gained before zero, and the ink apps' (a mid-frame
    /// read on iOS, a front-buffered draw on Android); every stage's colour
    /// is drawn.
    public static var example: StageBudgetChart {
        StageBudgetChart(bars: [
            Bar(name: "ios9-low-latency", stages: [(.scan, 8.33), (.digitizer, 1), (.deliveryWait, 2.2), (.handler, 4), (.renderServerWait, 1.1),
                                                   (.prepare, 3), (.gpuWait, 0.8), (.gpu, 4), (.latchWait, 5.67), (.scanOut, 8.33), (.panel, 2)]),
            Bar(name: "android-nexus5", stages: [(.resampling, -4.2), (.scan, 8.33), (.digitizer, 1), (.dispatch, 2.5), (.batchWait, 9.1),
                                                 (.uiThread, 4), (.syncWait, 1.2), (.dequeueWait, 2.6), (.renderThread, 2), (.gpuWait, 1.4),
                                                 (.gpu, 4), (.latchWait, 3.1), (.presentWait, 16.7), (.idleWake, 2.8), (.scanOut, 8.33),
                                                 (.panel, 2)]),
            Bar(name: "pencil-ink-midframe", stages: [(.scan, 2.08), (.digitizer, 0), (.deliveryWait, 0.67), (.handler, 0), (.midFrameRead, 0.5),
                                                      (.renderServerWait, 0), (.prepare, 1.5), (.gpuWait, 0), (.gpu, 2), (.latchWait, 0),
                                                      (.scanOut, 4.17), (.panel, 7)]),
            Bar(name: "android-ink-front", stages: [(.scan, 2.08), (.digitizer, 1), (.dispatch, 2), (.inputWait, 0.4), (.uiThread, 2),
                                                    (.renderWait, 0.3), (.frontRender, 1), (.gpuWait, 0.2), (.gpu, 2), (.composeWait, 0.6),
                                                    (.scanRace, 4.1), (.panel, 7)]),
        ], subtitle: "example: every stage of both platforms and of the ink apps")
    }
    public static var empty: StageBudgetChart { StageBudgetChart(bars: []) }
}
