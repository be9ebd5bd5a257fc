import FramePipeline
import SimKernel

/// Where the milliseconds go: one horizontal bar per scenario, its mean
/// touch-to-photon split into the stages of its platform (Docs/Budget.md),
/// each stage a segment in the stage's own colour, labelled where it is
/// wide enough. Zero is the instant of the position drawn, so every bar
/// ends at its touch-to-photon; a stage that gains time (Android's
/// resampling lead: the drawn point is newer than the sample) is the part
/// of the bar left of zero, hatched over, with its label beside it.
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

    /// Each stage's colour: input in blues, the app in oranges, the
    /// compositor in greens, the GPU in reds, the display in purples;
    /// waits are the paler tint of their phase.
    public static func color(_ stage: BudgetStage) -> UInt32 {
        switch stage {
        case .resampling: return 0x9ED9CC
        case .scan: return 0x0B4F8A
        case .digitizer: return 0x2F7BBF
        case .dispatch: return 0x5FA2D9
        case .deliveryWait, .batchWait, .inputWait: return 0xB7D3EA
        case .handler, .uiThread: return 0xE08A1E
        case .midFrameRead: return 0xF0B45E
        case .renderWait: return 0xBFE3C8
        case .frontRender: return 0x2E9B52
        case .composeWait: return 0xB3A6CF
        case .scanRace: return 0x9E7FD0
        case .syncWait: return 0xF6D3A3
        case .renderServerWait, .dequeueWait: return 0xBFE3C8
        case .prepare, .renderThread: return 0x2E9B52
        case .gpuWait: return 0xF2B8B0
        case .gpu: return 0xC7372B
        case .latchWait: return 0xD9D2E6
        case .presentWait: return 0xB3A6CF
        case .idleWake: return 0x8C7BB8
        case .scanOut: return 0x6A51A3
        case .panel: return 0x3F2A72
        }
    }

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
        set arrow from first 0, graph 0 to first 0, graph 1 nohead front lc \(GnuplotText.rgb(0x444444)) lw 1.2
        set key outside below center horizontal maxcols 6 noopaque nobox samplen 1.5
        set lmargin 24
        set bmargin \(order.count > 12 ? 9 : 7)

        """
        var parts: [String] = []
        for stage in order where !gains.contains(stage) {
            let c = GnuplotText.rgb(Self.color(stage))
            parts.append("$\(stage.rawValue) using (($2+$3)/2):1:2:3:($1-0.34):($1+0.34) with boxxyerror fc \(c) lc rgb 'white' lw 0.5 fs solid 1.0 border title \(GnuplotText.enhanced(stage.phrase))")
            let ink = ChartStyle.labelInk(on: Self.color(stage)) == 0xFFFFFF ? "white" : "#222222"
            parts.append("$\(stage.rawValue) using (($2+$3)/2):1:4 with labels tc rgb '\(ink)' font ',10' notitle")
        }
        for stage in gains {
            // drawn over the start of the bar: the time the drawn point gains
            let c = GnuplotText.rgb(Self.color(stage))
            parts.append("$\(stage.rawValue) using (($2+$3)/2):1:2:3:($1-0.42):($1+0.42) with boxxyerror fs transparent pattern 5 border lc \(c) lw 1.5 fc rgb '#333333' title \(GnuplotText.enhanced(stage.phrase + " (gain)"))")
            parts.append("$\(stage.rawValue) using 2:1:4 with labels right offset -0.6,0 font ',10' tc rgb '#333333' notitle")
        }
        parts.append("$totals using 2:1:3 with labels left offset 0.8,0 font ',11' notitle")
        let plot = "plot " + parts.joined(separator: ", \\\n     ")
        return ChartScript(title: title, tables: tables, setup: setup, plot: plot)
    }

    /// True when white text reads better on `color`.
    static func isDark(_ color: UInt32) -> Bool {
        let r = Double((color >> 16) & 0xFF), g = Double((color >> 8) & 0xFF), b = Double(color & 0xFF)
        return 0.299 * r + 0.587 * g + 0.114 * b < 140
    }
}
