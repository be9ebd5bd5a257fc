import Charts
import Experiments
import Foundation
import FramePipeline
import LatsimOutput
import Measures
import Scenarios
import SimKernel

/// The outputs of a parameter sweep (`latsim sweep`): CSV, JSON, a readable
/// table and the latency/frame-rate chart.
///
/// Every output is a pure function of the ``SweepResult``'s rows: the same
/// sweep gives the same bytes at any thread count. Wall time is never
/// written here.
public enum SweepOutput {
    /// A measured column of the CSV (and key of each JSON point): its name
    /// and how a row's value is read. The header and every row are made
    /// from the same list, so a row cannot have fewer cells than the header.
    public struct Column: Sendable {
        public var name: String
        /// What the column holds.
        public var source: Source

        /// What a column holds (a case, not a closure: a row's line reads
        /// every column, and a closure was retained and released at each).
        public enum Source: Sendable {
            /// The figure over the point's seeds, as it aggregates.
            case figure(Figure)
            /// The seeds merged into the row.
            case runs
            /// The mean of the seeds' own values of the figure.
            case seedMean(Figure)
            /// Half the width of that mean's 95% interval.
            case halfWidth95(Figure)
        }

        /// The column's value in `row`.
        public func value(_ row: SweepRow) -> Double? {
            switch source {
            case .figure(let f): return row.figures[f]
            case .runs: return Double(row.runs)
            case .seedMean(let f): return row.seeds?.statistic(f)?.mean
            case .halfWidth95(let f): return row.seeds?.statistic(f)?.halfWidth95
            }
        }
    }

    /// The measured columns, after the varied keys: each figure the sweep
    /// produces (``SweepResult/figures``: the scenario's headline, then the
    /// catalogue's order) by its sweep key (Docs/Figures.md), over the
    /// point's seeds as the figure aggregates (latency statistics of the
    /// seeds' frames pooled, per-run counts and rates the mean of the
    /// seeds); then `runs`, the seeds merged into the row. With more than
    /// one seed, two per figure: `KEYSeedMean`, the mean of the seeds' own
    /// values, and `KEYHalfWidth95`, half the width of its 95% interval
    /// (Student's t), so the interval is `KEYSeedMean ± KEYHalfWidth95`. The
    /// seed mean of a percentile is not the percentile of the pooled frames,
    /// though the two are close when the interval is narrow.
    public static func columns(_ result: SweepResult) -> [Column] {
        var out = result.figures.map { f in Column(name: f.rawValue, source: .figure(f)) }
        out.append(Column(name: "runs", source: .runs))
        if result.seeds > 1 {
            for f in result.figures {
                out.append(Column(name: f.rawValue + "SeedMean", source: .seedMean(f)))
                out.append(Column(name: f.rawValue + "HalfWidth95", source: .halfWidth95(f)))
            }
        }
        return out
    }

    /// The CSV header: the varied keys (``axisColumn(_:)``), then
    /// ``columns(_:)``.
    public static func header(_ result: SweepResult) -> [String] {
        result.axes.map(axisColumn) + columns(result).map(\.name)
    }

    /// A varied key's CSV column: a numeric axis holds numbers, its unit in
    /// the header (`gpu.render_ms`, `app.handler_frames`; `device.scanHz`
    /// for plain numbers); any other axis (names, distributions) its
    /// values' text under the key (`os.buffering`).
    public static func axisColumn(_ axis: SweepAxis) -> String {
        guard axis.isNumeric, !axis.unit.isEmpty else { return axis.path }
        return axis.path + "_" + (axis.unit == "µs" ? "us" : axis.unit)
    }

    /// The most decimals of a numeric axis's CSV cell (in the axis's unit)
    /// and of a figure's.
    static let axisPlaces = 9, figurePlaces = 6

    /// A grid point's cell of `axis` (the `axis`-th varied key): the value
    /// as a number in the axis's unit on a numeric axis, else its text.
    static func axisCells(_ row: SweepRow, _ result: SweepResult) -> [String] {
        zip(row.values, row.numbers).map { text, number in
            number.map { formatDecimal($0, places: axisPlaces) } ?? csvField(text)
        }
    }

    /// The CSV text: a header row and one row per grid point, POSIX
    /// decimals (at most six places for figures), empty cells for values
    /// not measured, fields holding commas or quotes quoted as RFC 4180
    /// says. Every cell of a numeric axis parses as a number.
    public static func csv(_ result: SweepResult) -> String {
        let columns = columns(result)
        var out = RawBytes()
        var header = csvHeader(result)
        header.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
        for row in result.rows { appendCSVLine(row, result, columns, to: &out) }
        return String(decoding: out.bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    /// The CSV's header line, its line end included.
    public static func csvHeader(_ result: SweepResult) -> String {
        header(result).map(csvField).joined(separator: ",") + "\n"
    }

    /// Appends a grid point's CSV line, its line end included, to `out`;
    /// `columns` are ``columns(_:)``.
    public static func appendCSVLine(_ row: SweepRow, _ result: SweepResult, _ columns: [Column], to out: inout RawBytes) {
        // appended cell by cell as bytes: no array of cells, no joined row
        // (the numbers' digits written straight into the line)
        for (i, (text, number)) in zip(row.values, row.numbers).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if let number {
                out.appendDecimal(number, places: axisPlaces)
            } else {
                var field = csvField(text)
                field.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
            }
        }
        for (i, c) in columns.enumerated() {
            if i > 0 || !row.values.isEmpty { out.append(UInt8(ascii: ",")) }
            if let x = c.value(row) { out.appendDecimal(x, places: figurePlaces) }
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The long (tidy) CSV header: the varied keys as ``header(_:)`` names
    /// them, then `figure`, `value`, `unit`, `runs`, `ci95Low`, `ci95High`.
    public static func longHeader(_ result: SweepResult) -> [String] {
        result.axes.map(axisColumn) + ["figure", "value", "unit", "runs", "ci95Low", "ci95High"]
    }

    /// The sweep as a long (tidy) table, for ggplot, seaborn or Vega-Lite:
    /// one row per grid point and figure the sweep shows
    /// (``SweepResult/figures``), so points x figures rows: the point's
    /// varied values (as in ``csv(_:)``), the figure's catalogue name, its
    /// value over the point's seeds (empty when not measured), its unit
    /// (the catalogue's, ``FigureUnit``), the runs merged, and with more than one
    /// seed the 95% interval of the seeds' mean (Student's t), else empty.
    public static func longCSV(_ result: SweepResult) -> String {
        var out = longCSVHeader(result)
        for row in result.rows { out += longCSVLines(row, result) }
        return out
    }

    /// The long CSV's header line, its line end included.
    public static func longCSVHeader(_ result: SweepResult) -> String {
        longHeader(result).map(csvField).joined(separator: ",") + "\n"
    }

    /// A grid point's lines of the long CSV, one per figure, line ends included.
    public static func longCSVLines(_ row: SweepRow, _ result: SweepResult) -> String {
        var out = ""
        let axes = axisCells(row, result).joined(separator: ",")
        for f in result.figures {
            var cells = [axes, f.rawValue, row.figures[f].map { formatDecimal($0, places: figurePlaces) } ?? "", csvField(f.unit.rawValue), String(row.runs)]
            if let s = row.seeds?.statistic(f), let mean = s.mean, let half = s.halfWidth95 {
                cells += [formatDecimal(mean - half, places: figurePlaces), formatDecimal(mean + half, places: figurePlaces)]
            } else {
                cells += ["", ""]
            }
            out += cells.joined(separator: ",") + "\n"
        }
        return out
    }

    public static func csvField(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The sweep's result (Docs/Results.md): the header, `sweep` (the
    /// scenario, the varied keys and their values, seeds per point), the
    /// scenario's `settings` before the varied keys, and `points`, one
    /// object per grid point with the CSV's keys: the varied keys' values as
    /// strings (`"gpu.render": "9ms"`), the measured values as numbers (null
    /// when not measured), `runs` as an integer; with more than one seed,
    /// `seeds` as a run's (`count`, `first`, and each figure's `mean`,
    /// `halfWidth95` and `perSeed`).
    public static func json(_ result: SweepResult) -> JSONValue {
        .object(jsonHead(result) + [("points", points(result))])
    }

    /// The fields of ``json(_:)`` before `points`, its last: the header,
    /// `sweep` and `settings`.
    public static func jsonHead(_ result: SweepResult) -> [(String, JSONValue)] {
        ResultHeader.fields("sweep", command: result.command, [
            ("sweep", .object([
                ("scenario", .string(result.scenario)),
                ("axes", .array(result.axes.map { a in .object([("key", .string(a.path)), ("values", .array(a.values.map { .string($0) }))]) })),
                ("seeds", .int(result.seeds)),
            ])),
            ("settings", ResultHeader.settings(result.settings)),
        ])
    }

    /// The grid points as a JSON array (``json(_:)``'s `points`).
    public static func points(_ result: SweepResult) -> JSONValue {
        .array(result.rows.map { point($0, result) })
    }

    /// A grid point's object in ``points(_:)``.
    public static func point(_ row: SweepRow, _ result: SweepResult) -> JSONValue {
        var fields: [(String, JSONValue)] = zip(result.axes, row.values).map { ($0.path, .string($1)) }
        for f in result.figures { fields.append((f.rawValue, .ms(row.figures[f]))) }
        fields.append(("runs", .int(row.runs)))
        if let seeds = row.seeds { fields.append(("seeds", SeedJSON.seeds(first: seeds.first, seeds.statistics))) }
        return .object(fields)
    }

    /// A readable table, one line per grid point: the varied values, then
    /// every figure the sweep produces (``SweepResult/figures``) by its
    /// column name and precision, as `run` shows them. With more than one
    /// seed each measured cell is instead the mean of the seeds' own values
    /// ± the half-width of its 95% interval, as `run --seeds` prints it.
    public static func table(_ result: SweepResult) -> String {
        TextTable(header: tableHeader(result), rows: result.rows.map { tableCells($0, result) },
                  rightAligned: tableRightAligned(result)).render()
    }

    /// The table's column names: the varied keys, then the figures' columns.
    public static func tableHeader(_ result: SweepResult) -> [String] {
        result.axes.map(\.path) + result.figures.map(\.column)
    }

    /// The table's columns aligned right: numbers, including numeric
    /// varied values.
    public static func tableRightAligned(_ result: SweepResult) -> Set<Int> {
        var right = Set(result.axes.count..<(result.axes.count + result.figures.count))
        for (i, axis) in result.axes.enumerated() where axis.isNumeric { right.insert(i) }
        return right
    }

    /// A grid point's cells of ``table(_:)``.
    public static func tableCells(_ row: SweepRow, _ result: SweepResult) -> [String] {
        var cells = TextTable.Spooled.RowCells()
        appendTableCells(row, result, to: &cells)
        let all = cells.bytes.bytes
        var start = 0
        return cells.ends.map { end in
            defer { start = end }
            return String(decoding: UnsafeRawBufferPointer(rebasing: all[start..<end]), as: UTF8.self)
        }
    }

    /// Appends a grid point's cells of ``table(_:)`` to `cells`, in order,
    /// as bytes (the varied values, then each figure's).
    public static func appendTableCells(_ row: SweepRow, _ result: SweepResult, to cells: inout TextTable.Spooled.RowCells) {
        for v in row.values {
            var v = v
            v.withUTF8 { cells.bytes.append(UnsafeRawBufferPointer($0)) }
            cells.endCell()
        }
        for f in result.figures {
            if result.seeds > 1 {
                var text = row.seeds?.statistic(f)?.cell(places: f.places) ?? FigureTable.missing
                text.withUTF8 { cells.bytes.append(UnsafeRawBufferPointer($0)) }
            } else {
                FigureTable.appendCell(row.figures[f], f, to: &cells.bytes)
            }
            cells.endCell()
        }
    }

    /// One line saying what was swept: scenario, grid, seeds and simulated time.
    /// `first` is the first row, when `result` holds none (its rows were
    /// written as they came).
    public static func heading(_ result: SweepResult, first: SweepRow? = nil) -> String {
        let grid = result.axes.map { "\($0.path) (\($0.count) value\($0.count == 1 ? "" : "s"))" }.joined(separator: " x ")
        let seconds = (first ?? result.rows.first).map { formatDecimal($0.simulatedSeconds, places: 3) } ?? "0"
        let seeds = result.seeds == 1 ? "1 seed"
            : "\(result.seeds) seeds (each cell the mean of the seeds' values ± the half-width of its 95% interval, Student's t)"
        return "\(result.scenario): \(grid); \(seeds), \(seconds) s simulated per run; \(result.runs) runs"
    }

    // MARK: chart

    /// The most series a chart draws; a second axis with more values is
    /// thinned to this many, evenly spaced, first and last included (the
    /// CSV and JSON keep every value).
    public static let maximumSeries = 6

    /// The axis label of a varied key: what it is, its path, and its unit;
    /// for a non-numeric axis, which position stands for which value.
    public static func label(of axis: SweepAxis) -> String {
        let d = ConfigurationKey.byPath[axis.path]
        let name = d.map { "\($0.phrase), \(axis.path)" } ?? axis.path
        guard axis.isNumeric else {
            let legend = axis.values.enumerated().map { "\($0.offset + 1) = \($0.element)" }.joined(separator: ", ")
            return "\(name): \(legend)"
        }
        let unit = axis.unit.isEmpty ? (d?.plainUnit ?? "") : axis.unit
        return unit.isEmpty ? name : "\(name) (\(unit))"
    }

    /// Where a row sits on the chart's x axis: its first value as a number,
    /// or its position (1, 2, ...) on a non-numeric axis.
    static func x(_ row: SweepRow, _ result: SweepResult) -> Double {
        row.numbers[0] ?? Double(result.grid.indices(of: row.index)[0] + 1)
    }

    /// What a one-key sweep shows, said from its rows: where the median
    /// pipeline frames step, where adaptive buffering goes triple, and where
    /// the frame rate falls by more than a tenth.
    public static func narrative(_ result: SweepResult) -> String {
        let rows = result.rows
        guard result.axes.count == 1, rows.contains(where: { $0.figures[.pipelineFramesP50] != nil }) else {
            return "At this duration the sweep measured no frame."
        }
        let key = result.axes[0].path
        var sentences: [String] = []
        var steps: [String] = []
        for (a, b) in zip(rows, rows.dropFirst()) {
            guard let fa = a.figures[.pipelineFramesP50], let fb = b.figures[.pipelineFramesP50], fa != fb else { continue }
            steps.append("from \(formatDecimal(fa, places: 2)) to \(formatDecimal(fb, places: 2)) frames at \(b.values[0])")
        }
        if let first = rows.first?.figures[.pipelineFramesP50] {
            sentences.append(steps.isEmpty
                ? "Here the median stays at \(formatDecimal(first, places: 2)) frames over the whole range of \(key)."
                : "Here the median starts at \(formatDecimal(first, places: 2)) frames and steps " + steps.prefix(4).joined(separator: ", ") + ".")
        }
        if let triple = adaptiveGoesTriple(rows) { sentences.append("Adaptive buffering goes triple at \(triple.values[0]).") }
        for (a, b) in zip(rows, rows.dropFirst()) {
            guard let fa = a.figures[.fps], let fb = b.figures[.fps], fb < 0.9 * fa else { continue }
            sentences.append("The frame rate falls from \(formatDecimal(fa, places: 0)) to \(formatDecimal(fb, places: 0)) fps at \(b.values[0]).")
            break
        }
        return sentences.joined(separator: " ")
    }

    /// The first grid point, along the first axis, at which adaptive
    /// buffering holds three buffers more than half of the time, having held
    /// them at most half of the time at the point before; nil when that
    /// never happens (or the buffering is not adaptive). `rows` are one
    /// series, in first-axis order.
    public static func adaptiveGoesTriple(_ rows: [SweepRow]) -> SweepRow? {
        for (previous, row) in zip(rows, rows.dropFirst())
        where row.buffering == .adaptive && previous.buffering == .adaptive
            && previous.figures[.triplePercent] ?? 0 <= 50 && row.figures[.triplePercent] ?? 0 > 50 {
            return row
        }
        return nil
    }

    /// A value of an axis as a legend reads it: `handler 11ms`, `scan 120Hz`.
    public static func shortLabel(_ axis: SweepAxis, value index: Int) -> String {
        let key = ConfigurationKey.byPath[axis.path]
        let name = key?.shortName ?? String(axis.path.split(separator: ".").last ?? Substring(axis.path))
        var value = axis.value(at: index)
        if axis.isNumeric, axis.unit.isEmpty, let unit = key?.plainUnit { value += unit }
        return "\(name) \(value)"
    }

    /// The series of a sweep: with one axis, one series named after the
    /// scenario; with two, one per value of the second axis (thinned to
    /// ``maximumSeries``), named by ``shortLabel(_:value:)``. Rows are in
    /// first-axis order.
    public static func series(_ result: SweepResult) -> [(name: String, rows: [SweepRow])] {
        guard result.axes.count == 2 else { return [(result.scenario, result.rows)] }
        let n = result.axes[1].count
        var chosen = Array(0..<n)
        if n > maximumSeries {
            chosen = (0..<maximumSeries).map { ($0 * (n - 1) + (maximumSeries - 1) / 2) / (maximumSeries - 1) }
        }
        return chosen.map { j in
            let rows = result.rows.filter { result.grid.indices(of: $0.index)[1] == j }
            return (shortLabel(result.axes[1], value: j), rows)
        }
    }

    /// The left axis label: touch-to-photon in ms, with the length of a
    /// display frame when every point has the same one.
    static func latencyLabel(_ result: SweepResult) -> String {
        let periods = Set(result.rows.map { formatDecimal($0.framePeriodMs, places: 1) })
        guard periods.count == 1, let period = periods.first else { return "touch-to-photon latency (ms)" }
        return "touch-to-photon latency (ms; one frame = \(period) ms)"
    }

    /// The chart of a sweep: p50 and p99 touch-to-photon latency and the
    /// frame rate against the first varied key, one series per value of the
    /// second, with a marker where adaptive buffering goes triple.
    public static func chart(_ result: SweepResult) -> ChartScript {
        result.axes.count == 2 ? heatMap(result).script : lineChart(result).script
    }

    /// A two-key sweep as heat maps of median latency and frame rate.
    public static func heatMap(_ result: SweepResult) -> SweepHeatMapChart {
        func position(_ axis: Int, _ row: SweepRow) -> Double {
            row.numbers[axis] ?? Double(result.grid.indices(of: row.index)[axis] + 1)
        }
        func tics(_ axis: Int) -> [(Double, String)]? {
            !result.axes[axis].isNumeric ? result.axes[axis].values.enumerated().map { (Double($0.offset + 1), $0.element) } : nil
        }
        let cells = result.rows.map {
            SweepHeatMapChart.Cell(x: position(0, $0), y: position(1, $0), p50Ms: $0.figures[.touchToPhotonP50], fps: $0.figures[.fps] ?? 0)
        }
        let names = result.axes.map { ConfigurationKey.byPath[$0.path]?.phrase ?? $0.path }
        var subtitle = result.scenario + ", "
        subtitle += result.seeds == 1 ? "1 run per point" : "\(result.seeds) runs (seeds) merged per point"
        if let seconds = result.rows.first?.simulatedSeconds { subtitle += " of \(formatDecimal(seconds, places: 3)) s" }
        subtitle += "; brighter is worse"
        return SweepHeatMapChart(cells: cells, xLabel: label(of: result.axes[0]), yLabel: label(of: result.axes[1]),
                                 xTics: tics(0), yTics: tics(1),
                                 title: "Latency and frame rate over \(names[0]) and \(names[1])", subtitle: subtitle,
                                 xLog: isRate(result.axes[0]), yLog: isRate(result.axes[1]))
    }

    /// True for an axis of rates (`device.scanHz=60,120,240`): drawn on a log
    /// axis, where each doubling of the rate is the same step.
    public static func isRate(_ axis: SweepAxis) -> Bool {
        guard let numbers = axis.numbers, numbers.allSatisfy({ $0 > 0 }) else { return false }
        let unit = axis.unit.isEmpty ? (ConfigurationKey.byPath[axis.path]?.plainUnit ?? "") : axis.unit
        return unit == "Hz"
    }

    /// A one-key sweep: p50 and p99 latency and the frame rate along the key.
    public static func lineChart(_ result: SweepResult) -> SweepChart {
        let axis = result.axes[0]
        let groups = series(result)
        var chartSeries: [SweepChart.Series] = []
        var onsets: [(x: Double, series: String)] = []
        for g in groups {
            var points: [SweepChart.Point] = []
            for row in g.rows {
                if let seeds = row.seeds {
                    // the seeds' mean with its interval
                    guard let p50 = seeds.statistic(.touchToPhotonP50), let p99 = seeds.statistic(.touchToPhotonP99),
                          let p50Mean = p50.mean, let p99Mean = p99.mean else { continue }
                    let fps = seeds.statistic(.fps)
                    var point = SweepChart.Point(x: x(row, result), p50Ms: p50Mean, p99Ms: p99Mean, fps: fps?.mean,
                                                 p50HalfWidth: p50.halfWidth95, p99HalfWidth: p99.halfWidth95, fpsHalfWidth: fps?.halfWidth95)
                    func range(_ s: SeedStatistic) -> ClosedRange<Double>? {
                        let v = s.values.compactMap { $0 }
                        guard let lo = v.min(), let hi = v.max() else { return nil }
                        return lo...hi
                    }
                    point.p50SeedRange = range(p50)
                    point.p99SeedRange = range(p99)
                    points.append(point)
                    continue
                }
                guard let p50 = row.figures[.touchToPhotonP50], let p99 = row.figures[.touchToPhotonP99] else { continue }
                points.append(SweepChart.Point(x: x(row, result), p50Ms: p50, p99Ms: p99, fps: row.figures[.fps]))
            }
            chartSeries.append(SweepChart.Series(name: g.name, points: points))
            if let row = adaptiveGoesTriple(g.rows) { onsets.append((x(row, result), g.name)) }
        }
        var annotations: [SweepChart.Annotation] = []
        let distinct = onsets.reduce(into: [Double]()) { if !$0.contains($1.x) { $0.append($1.x) } }
        if groups.count == 1 || distinct.count == 1 {
            if let x = distinct.first { annotations.append(.init(x: x, label: "adaptive buffering goes triple")) }
        } else {
            // one marker per distinct place, naming the series that go triple there
            for x in distinct.prefix(3) {
                let names = onsets.filter { $0.x == x }.map(\.series)
                annotations.append(.init(x: x, label: "triple: " + names.joined(separator: ", ")))
            }
        }

        let phrase = ConfigurationKey.byPath[axis.path]?.phrase ?? axis.path
        var subtitle = result.scenario + ", "
        subtitle += result.seeds == 1 ? "1 run" : "\(result.seeds) runs (seeds)"
        if let seconds = result.rows.first?.simulatedSeconds {
            subtitle += " of \(formatDecimal(seconds, places: 3)) s"
        }
        subtitle += result.seeds == 1 ? " per point" : " per point: their means, with 95% intervals (bands within the seeds' values)"
        if result.axes.count == 2 && result.axes[1].count > maximumSeries {
            let name = ConfigurationKey.byPath[result.axes[1].path]?.shortName ?? result.axes[1].path
            subtitle += "; \(maximumSeries) of \(result.axes[1].count) \(name) values shown"
        }
        if chartSeries.allSatisfy({ $0.points.allSatisfy { $0.p50Ms == $0.p99Ms } }) {
            subtitle += "; p99 = p50 everywhere (the lines overlap)"
        }
        var chart = SweepChart(series: chartSeries,
                               xLabel: label(of: axis),
                               latencyLabel: latencyLabel(result),
                               title: "Touch-to-photon latency and frame rate vs \(phrase)",
                               subtitle: subtitle,
                               annotations: annotations)
        chart.intervalLabel = "95% interval"
        return chart
    }
}
