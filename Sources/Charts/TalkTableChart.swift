/// The talk's latency figures next to the simulated ones: one group of two
/// bars per scenario (talk, simulated), each labelled with its value.
///
/// ```swift
/// let chart = TalkTableChart(rows: [
///     (scenario: "ios8", label: "iOS 8", talkFrames: 4, simulatedFrames: 4.0),
///     (scenario: "ios9-lowlatency", label: "iOS 9 low latency", talkFrames: 3, simulatedFrames: 3.02),
/// ])
/// let output = try Gnuplot.system().render(chart, directory: reports, basename: "talk-table")
/// ```
public struct TalkTableChart: GnuplotChart {
    /// One scenario's pair of figures.
    public struct Row: Sendable, Equatable {
        /// The scenario's identifier (e.g. its file name).
        public var scenario: String
        /// The label the talk gives the case (e.g. "iOS 9, 120 Hz scan").
        public var label: String
        /// The talk's figure, in display frames.
        public var talkFrames: Double
        /// The simulator's figure, in display frames.
        public var simulatedFrames: Double

        /// A row from its four values.
        public init(scenario: String, label: String, talkFrames: Double, simulatedFrames: Double) {
            self.scenario = scenario
            self.label = label
            self.talkFrames = talkFrames
            self.simulatedFrames = simulatedFrames
        }
    }

    /// The scenarios, left to right.
    public var rows: [Row]
    /// The chart title.
    public var title: String
    /// A smaller line under the title.
    public var subtitle: String?

    /// A chart of `rows`, left to right.
    public init(
        rows: [(scenario: String, label: String, talkFrames: Double, simulatedFrames: Double)],
        title: String = "Touch-to-display latency: the talk vs latsim",
        subtitle: String? = "WWDC 2015 \"Advanced Touch Input on iOS\"; bars labelled with their value in display frames"
    ) {
        self.rows = rows.map { Row(scenario: $0.scenario, label: $0.label, talkFrames: $0.talkFrames, simulatedFrames: $0.simulatedFrames) }
        self.title = title
        self.subtitle = subtitle
    }

    /// Bar centre offsets from the group centre, and the bar width.
    private static let offset = 0.19, barWidth = 0.36

    /// Whether the talk's words for a row are a quotation rather than a
    /// count (ios9-metal's "the very next frame").
    static func isQuote(_ label: String) -> Bool { label.hasPrefix("\"") }

    /// A row's tic: its label, and for a quotation the count it is plotted
    /// as, since the bar's height is not in the talk's words.
    static func tic(_ row: Row) -> String {
        isQuote(row.label) ? "\(row.label) = \(formatNumber(row.talkFrames))" : row.label
    }

    /// The foot's note when a label is a quotation: how its words became a count.
    static let quoteNote = [
        "A quoted label is the talk's words, plotted as the talk counts frames: from the start of the touch's scan window",
        "to the end of the frame on screen. The frame right after the one the GPU draws in is the third so counted.",
    ]

    /// `value` without a trailing ".0".
    static func formatNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The gnuplot script.
    public var script: ChartScript {
        var table = ChartTable(name: "talk", columns: ["index", "talk_frames", "simulated_frames", "scenario", "label"])
        for (i, row) in rows.enumerated() {
            table.append([.number(Double(i)), .number(row.talkFrames), .number(row.simulatedFrames),
                          .text(row.scenario), .text(row.label)])
        }
        let top = max(1, rows.map { max($0.talkFrames, $0.simulatedFrames) }.max() ?? 1)
        let tics = rows.enumerated().map { i, row in
            let text = row.label == row.scenario || row.label.isEmpty
                ? GnuplotText.escapeEnhanced(row.scenario)
                : GnuplotText.escapeEnhanced(Self.tic(row)) + "\\n{/*0.85 " + GnuplotText.escapeEnhanced(row.scenario) + "}"
            return "\"\(text)\" \(i)"
        }.joined(separator: ", ")
        let many = rows.count > 6
        let quoted = rows.contains { Self.isQuote($0.label) }
        var setup = ChartStyle.common(title: title, subtitle: subtitle)
        setup += """
        set ylabel "touch-to-display latency (display frames)"
        set xrange [-0.6:\(GnuplotText.number(Double(rows.count) - 0.4))]
        set yrange [0:\(GnuplotText.number((top * 1.18).rounded(.up)))]
        set ytics 1
        set mytics 2
        set grid ytics mytics noxtics
        set xtics (\(tics)) scale 0 \(many ? "rotate by -40 left" : "")
        set boxwidth \(GnuplotText.number(Self.barWidth)) absolute
        set key top right
        set bmargin \((many ? 12 : 5) + (quoted ? 3 : 0))

        """
        if quoted {
            for (k, line) in Self.quoteNote.reversed().enumerated() {
                setup += "set label \(GnuplotText.enhanced(line)) at screen 0.01, screen \(GnuplotText.number(0.02 + 0.03 * Double(k))) left font \",10\" tc \(GnuplotText.rgb(ChartStyle.quiet))\n"
            }
        }
        let talk = GnuplotText.rgb(ChartStyle.talk), simulated = GnuplotText.rgb(ChartStyle.color(0))
        let o = GnuplotText.number(Self.offset)
        let plot = """
        plot $talk using ($1-\(o)):2 with boxes fc \(talk) title "the talk", \\
             $talk using ($1+\(o)):3 with boxes fc \(simulated) title "latsim (simulated)", \\
             $talk using ($1-\(o)):2:(gprintf("%g", $2)) with labels offset 0,0.8 font ",12" notitle, \\
             $talk using ($1+\(o)):3:(sprintf("%.2f", $3)) with labels offset 0,0.8 font ",12" notitle
        """
        return ChartScript(title: title, tables: [table], setup: setup, plot: plot)
    }
}

extension TalkTableChart: RegisteredChart {
    public static let kind = "talk-table"
    /// The talk's steps, one simulated value a little off its figure.
    public static var example: TalkTableChart {
        TalkTableChart(rows: [
            (scenario: "ios8", label: "iOS 8", talkFrames: 4, simulatedFrames: 4.0),
            (scenario: "ios8_heavy_gpu", label: "iOS 8, heavy GPU", talkFrames: 5, simulatedFrames: 5.0),
            (scenario: "ios8-metal", label: "iOS 8, Metal", talkFrames: 4, simulatedFrames: 4.0),
            (scenario: "ios9-lowlatency", label: "iOS 9 low latency", talkFrames: 3, simulatedFrames: 3.0),
            (scenario: "ios9-metal-direct", label: "iOS 9, Metal direct", talkFrames: 2, simulatedFrames: 2.02),
            (scenario: "ios9-coalesced-120hz", label: "iOS 9, 120 Hz scan", talkFrames: 2.5, simulatedFrames: 2.49),
        ])
    }
    public static var empty: TalkTableChart { TalkTableChart(rows: []) }
}
