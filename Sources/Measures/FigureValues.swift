import FramePipeline
import SimKernel

/// Every figure of the catalogue for one run, or for several runs (a sweep
/// point's seeds) aggregated as each figure declares: the value of a run
/// in the schema's terms. Nil where the runs do not produce a figure, or
/// measured nothing of it. Written as an object of the figures with a
/// value, by name (a part file written before a figure was declared reads
/// back without it).
public struct FigureValues: Sendable, Equatable, Codable {
    /// The values in ``Figure/allCases`` order, ``missing`` where there is
    /// none: eight bytes a figure where an optional takes sixteen (a sweep
    /// holds a row's figures until its end).
    private var stored: [Double]

    /// What stands for "no value": a signalling NaN with a payload, which
    /// no arithmetic makes (a NaN a figure computes is a quiet NaN, and
    /// stays a value).
    static let missing = Double(bitPattern: 0x7FF4_C0DE_0000_0001)

    static func isMissing(_ x: Double) -> Bool { x.bitPattern == missing.bitPattern }

    /// The values in ``Figure/allCases`` order.
    public var values: [Double?] { stored.map { Self.isMissing($0) ? nil : $0 } }

    /// Values in ``Figure/allCases`` order.
    init(values: [Double?]) {
        stored = values.map { $0 ?? Self.missing }
    }

    /// The figures of run `r`.
    public init(_ r: RunResult) {
        self.init(values: Figure.allCases.map { $0.value(r) })
    }

    /// The figures of several runs of `configuration` (a sweep point's
    /// seeds, in seed order), each as it aggregates (``FigureAggregation``):
    /// a statistic of a stream over the runs' frames pooled (histograms
    /// merged in the order given), a per-run value's mean over the runs that
    /// measured it. `runs` holds each run's own figures and measurements.
    public init(pooling runs: [(figures: FigureValues, measurements: Measurements)], configuration: PipelineConfiguration) {
        self.init(values: Figure.allCases.map { f -> Double? in
            guard f.isProduced(by: configuration) else { return nil }
            switch f.declaration.value {
            case .pooled(let statistic, let stream):
                return statistic.pooled(runs.compactMap { $0.measurements.read(stream) { copy $0 } })
            case .runMean:
                let xs = runs.compactMap { $0.figures[f] }
                guard !xs.isEmpty else { return nil }
                var sum = CompensatedSum()
                for x in xs { sum.add(x) }
                return sum.value / Double(xs.count)
            }
        })
    }

    /// ``init(pooling:configuration:)`` of one run, read in place: a
    /// sweep point of one seed. A statistic of one stream is that stream's
    /// own and a mean of one value that value, so the values are those of
    /// pooling the run alone, without computing its figures twice or
    /// copying its measurements.
    public init(single r: RunResult, configuration: PipelineConfiguration) {
        self.init(single: r, production: Figure.Production(configuration))
    }

    /// ``init(single:configuration:)`` with the figures `production` says
    /// the run's configuration produces.
    public init(single r: RunResult, production: Figure.Production) {
        self.init(single: r, produced: Figure.Produced(production))
    }

    /// ``init(single:configuration:)`` with the figures the run's
    /// configuration produces, found before (a sweep finds them once for
    /// each production among its points).
    public init(single r: RunResult, produced: Figure.Produced) {
        // the measurements read where the result keeps them: bound to a
        // local, they were copied once (and handing `r.measurements` to
        // each figure's reader had copied them every time)
        stored = r.withMeasurements { measurements in
            var values = [Double](repeating: Self.missing, count: Figure.allCases.count)
            for (index, value) in produced.figures {
                switch value {
                case .pooled(let statistic, let stream):
                    if let x = measurements.read(stream, { statistic.of($0) }) ?? nil { values[index] = x }
                case .runMean(let read):
                    // the mean of one value, as pooling takes it (the run
                    // produces the figure: `produced` says so)
                    guard let x = read(r) else { continue }
                    var sum = CompensatedSum()
                    sum.add(x)
                    values[index] = sum.value / 1
                }
            }
            return values
        }
    }

    /// The values of `figures` (`values[i]` is `figures[i]`'s), nil for
    /// every other figure: a sweep part's row read back.
    public init(_ figures: [Figure], values: [Double?]) {
        var all = [Double](repeating: Self.missing, count: Figure.allCases.count)
        for (f, v) in zip(figures, values) { all[f.index] = v ?? Self.missing }
        stored = all
    }

    /// The value of figure `f`.
    public subscript(f: Figure) -> Double? {
        f.index < stored.count && !Self.isMissing(stored[f.index]) ? stored[f.index] : nil
    }

    /// Equal as the optional values are: both missing, or equal numbers.
    public static func == (a: FigureValues, b: FigureValues) -> Bool {
        a.stored.count == b.stored.count
            && zip(a.stored, b.stored).allSatisfy { x, y in isMissing(x) ? isMissing(y) : (!isMissing(y) && x == y) }
    }

    struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads the object written by ``encode(to:)``; a name that is no
    /// figure's is refused.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Name.self)
        stored = [Double](repeating: Self.missing, count: Figure.allCases.count)
        for key in c.allKeys {
            guard let f = Figure(rawValue: key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "no figure is named \(key.stringValue)")
            }
            stored[f.index] = try c.decode(Double.self, forKey: key)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Name.self)
        for f in Figure.allCases { if let v = self[f] { try c.encode(v, forKey: Name(stringValue: f.rawValue)) } }
    }
}
