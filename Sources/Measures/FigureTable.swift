import FramePipeline
import LatsimOutput
import SimKernel

/// The tables of runs' figures that `latsim run`, `run --seeds` and the
/// report show: a row per figure of the catalogue that some run produces
/// (the runs' headlines first), a column per run; '-' where a run does not
/// produce the figure or measured nothing of it.
public enum FigureTable {
    /// One run's figures: `latsim run`.
    public static func runs(_ results: [(name: String, result: RunResult, headline: Figure)]) -> TextTable {
        let figures = Figure.shown(forRuns: results.map(\.result), first: results.map(\.headline))
        var t = TextTable(header: ["figure"] + results.map(\.name), rightAligned: Set(1...max(1, results.count)))
        for f in figures {
            t.rows.append([f.column] + results.map { cell(f.value($0.result), f) })
        }
        return t
    }

    /// Every run's figures across its seeds: `run --seeds`. Each cell is
    /// the mean over the seeds ± the half-width of its 95% interval.
    public static func seeds(_ runs: [(name: String, runs: [RunResult], headline: Figure)]) -> TextTable {
        let figures = Figure.shown(for: runs.map { $0.runs[0].configuration }, first: runs.map(\.headline))
        var t = TextTable(header: ["figure"] + runs.map(\.name), rightAligned: Set(1...max(1, runs.count)))
        for f in figures {
            t.rows.append([f.column] + runs.map { r in
                f.isProduced(by: r.runs[0].configuration) ? SeedStatistic(r.runs.map(f.value)).cell(places: f.places) : "-"
            })
        }
        return t
    }

    /// The groups of figures a wide table of many runs is split into, by
    /// what produces them: each group's figures are the catalogue's of those
    /// channels.
    public static let groups: [(title: String, channels: Set<FigureChannel>)] = [
        ("latency and display", [.touch, .display]),
        ("taps", [.tap, .lift]),
        ("scrolling", [.scroll]),
        ("first touch after idle and the display's rate", [.transitions, .displayRate]),
        ("ink", [.ink, .frontBuffer]),
        ("Android BufferQueue and FrameTimeline", [.bufferQueue, .frameTimeline]),
        ("force (3D Touch)", [.force]),
        ("prediction", [.prediction]),
    ]

    /// Many runs as tables with a row per run and a column per figure, one
    /// table per group of ``groups`` that some run produces a figure of;
    /// a run appears in a group's table when it produces one of its figures.
    public static func grouped(_ results: [(name: String, result: RunResult)]) -> [(title: String, table: TextTable)] {
        groups.compactMap { g in
            let figures = Figure.allCases.filter { f in
                g.channels.contains(f.declaration.channel) && results.contains { f.isProduced(by: $0.result.configuration) }
            }
            let rows = results.filter { r in figures.contains { $0.isProduced(by: r.result.configuration) } }
            guard !figures.isEmpty, !rows.isEmpty else { return nil }
            var t = TextTable(header: ["scenario"] + figures.map(\.column), rightAligned: Set(1...figures.count))
            for r in rows { t.rows.append([r.name] + figures.map { cell($0.value(r.result), $0) }) }
            return (g.title, t)
        }
    }

    /// A figure's value as a table shows it: its precision, ``missing`` for none.
    public static func cell(_ x: Double?, _ f: Figure) -> String {
        x.map(f.text) ?? missing
    }

    /// ``cell(_:_:)``'s text appended to `out` as bytes.
    public static func appendCell(_ x: Double?, _ f: Figure, to out: inout RawBytes) {
        if let x {
            f.appendText(x, to: &out)
        } else {
            missingBytes.withUnsafeBytes { out.append($0) }
        }
    }

    /// A table cell without a value.
    public static let missing = "-"
    /// ``missing``'s bytes.
    private static let missingBytes = Array(missing.utf8)
}

extension TextTable {
    /// The table as a GitHub Markdown table (right-aligned columns marked).
    public func markdown() -> String {
        func row(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
        }
        let rule = "|" + header.indices.map { rightAligned.contains($0) ? "---:" : "---" }.joined(separator: "|") + "|"
        return ([row(header), rule] + rows.map(row)).joined(separator: "\n")
    }
}
