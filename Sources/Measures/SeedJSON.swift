import LatsimOutput
import SimKernel

/// Figures across seeds in the result files (Docs/Results.md).
public enum SeedJSON {
    /// `{"mean", "halfWidth95", "perSeed"}`, ms or the figure's own unit.
    public static func statistic(_ s: SeedStatistic) -> JSONValue {
        .object([("mean", .ms(s.mean)), ("halfWidth95", .ms(s.halfWidth95)), ("perSeed", .array(s.values.map { .ms($0) }))])
    }

    /// A run's `seeds`: how many, the first, and every figure across them.
    public static func seeds(first: UInt64, _ figures: [(figure: Figure, statistic: SeedStatistic)]) -> JSONValue {
        .object([
            ("count", .int(figures.first?.statistic.values.count ?? 0)),
            ("first", .int(Int(clamping: first))),
            ("figures", .object(figures.map { ($0.figure.rawValue, statistic($0.statistic)) })),
        ])
    }
}

extension SeedStatistic {
    /// A table cell: the mean ± the half-width of its 95% interval, both
    /// with `places` decimals (at least one: the mean of counts is not a
    /// count); the mean alone with one value; ``FigureTable/missing`` with none.
    public func cell(places: Int) -> String {
        guard let mean else { return FigureTable.missing }
        let places = max(places, 1)
        let h = halfWidth95.map { " ± " + formatDecimal($0, places: places, fixed: true) } ?? ""
        return formatDecimal(mean, places: places, fixed: true) + h
    }
}
