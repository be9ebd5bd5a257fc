/// A chart type latsim draws: its name and two instances the tests draw
/// (``ChartRegistry``), so that every type is rendered and checked.
public protocol RegisteredChart: GnuplotChart {
    /// The chart's name, as the tests' files are named.
    static var kind: String { get }
    /// A chart with data shaped like a real run's.
    static var example: Self { get }
    /// The chart with no data at all (a run too short to measure anything):
    /// it must still render.
    static var empty: Self { get }
}

/// Every chart type, declared once. A new chart is its own file (the type,
/// its ``RegisteredChart`` example and empty chart) and a line here; the
/// tests render every registered chart, with and without data, to PNG and
/// SVG, re-run its script alone, and check its colours come from
/// ``ChartStyle`` (Docs/Architecture.md, "Adding a chart").
public enum ChartRegistry {
    /// The chart types.
    public static let charts: [any RegisteredChart.Type] = [
        TalkTableChart.self,
        PipelineDiagramChart.self,
        LatencyCDFChart.self,
        LatencyTimelineChart.self,
        StageBudgetChart.self,
        SweepChart.self,
        SweepHeatMapChart.self,
        MotionChart.self,
        HorizonErrorChart.self,
        ForceChart.self,
        ValidationChart.self,
        InkRowChart.self,
        FirstTouchChart.self,
    ]

    /// Every chart's example, by kind.
    public static var examples: [(kind: String, chart: any GnuplotChart)] { charts.map { ($0.kind, $0.example) } }

    /// Every chart with no data, by kind.
    public static var empties: [(kind: String, chart: any GnuplotChart)] { charts.map { ($0.kind, $0.empty) } }
}
