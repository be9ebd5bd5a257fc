import Foundation
import SimKernel

/// One cell of a chart's data table: a number or a short text.
public enum ChartValue: Sendable, Equatable {
    /// A number, written with a `.` decimal point and no grouping; a
    /// non-finite value is written as `NaN`, which gnuplot skips.
    case number(Double)
    /// A text cell, written in double quotes (gnuplot's data-file quoting).
    case text(String)

    /// The cell as it appears in a datablock and in the `.dat` file.
    var rendered: String {
        switch self {
        case .number(let x):
            return x.isFinite ? formatDecimal(x, places: 6) : "NaN"
        case .text(let s):
            let flat = s.replacingOccurrences(of: "\"", with: "'")
                .replacingOccurrences(of: "\n", with: " ")
            return "\"\(flat)\""
        }
    }
}

extension ChartValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// A number cell from a literal.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A number cell from an integer literal.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A text cell from a literal.
    public init(stringLiteral value: String) { self = .text(value) }
}

/// A named table of a chart's data.
///
/// It is written twice: into the `.gp` script as a gnuplot datablock
/// (`$name << EOD` ... `EOD`, gnuplot's "inline data and datablocks"), and
/// into the `.dat` file as plain whitespace-separated columns under a `#`
/// header, tables separated by two blank lines so that gnuplot's `index`
/// selects them.
public struct ChartTable: Sendable, Equatable {
    /// The datablock name without the `$`: letters, digits and `_`.
    public var name: String
    /// Column names, written in the `#` header line.
    public var columns: [String]
    /// The rows; each should have `columns.count` cells.
    public var rows: [[ChartValue]]

    /// A table named `name` (referred to as `$name` in the script).
    public init(name: String, columns: [String], rows: [[ChartValue]] = []) {
        precondition(!name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") },
                     "datablock names are ASCII letters, digits and _")
        self.name = name
        self.columns = columns
        self.rows = rows
    }

    /// Appends one row.
    public mutating func append(_ row: [ChartValue]) { rows.append(row) }

    /// The rows as text, one line per row, `\n`-terminated.
    var body: String {
        var out = ""
        for row in rows {
            out += row.map(\.rendered).joined(separator: " ")
            out += "\n"
        }
        return out
    }

    /// The `#` header naming the table and its columns.
    var header: String {
        "# table \(name)\n# " + columns.map { $0.replacingOccurrences(of: " ", with: "_") }.joined(separator: " ") + "\n"
    }
}

/// A chart as gnuplot input: its data tables, the `set` commands that style
/// it, and one `plot` command.
///
/// The driver (``Gnuplot``) puts the terminal and output lines between
/// `setup` and `plot` and repeats `plot` once per output format, so a chart
/// never sets a terminal itself. `setup` and `plot` refer to tables as
/// `$name`.
public struct ChartScript: Sendable, Equatable {
    /// A one-line description written at the top of the `.gp` file.
    public var title: String
    /// Inline data, in the order written.
    public var tables: [ChartTable]
    /// gnuplot commands that style the chart (`set ...`, `unset ...`).
    public var setup: String
    /// The single `plot` command that draws the chart.
    public var plot: String

    /// A chart script from its parts.
    public init(title: String, tables: [ChartTable], setup: String, plot: String) {
        self.title = title
        self.tables = tables
        self.setup = setup
        self.plot = plot
    }

    /// The `.dat` file's text: every table with its `#` header, separated by
    /// two blank lines (gnuplot's `index` separator).
    public var dataText: String {
        var out = "# \(GnuplotText.comment(title)): data\n"
        for (i, table) in tables.enumerated() {
            if i > 0 { out += "\n\n" }
            out += table.header
            out += table.body
        }
        return out
    }
}

/// An image format gnuplot is asked to produce.
public enum ChartFormat: String, Sendable, CaseIterable, Hashable {
    /// A 1200x700 PNG (cairo terminal, or the libgd one where cairo is missing).
    case png
    /// A 1200x700 SVG with a white background.
    case svg

    /// The file name extension.
    public var fileExtension: String { rawValue }

    /// The `set terminal` line(s) for this format.
    var terminalCommands: String {
        switch self {
        case .png:
            return """
            if (strstrt(GPVAL_TERMINALS, " pngcairo ") > 0) {
                set terminal pngcairo size 1200,700 enhanced font 'sans,12'
            } else {
                set terminal png size 1200,700 enhanced font 'sans,12'
            }
            """
        case .svg:
            return "set terminal svg size 1200,700 dynamic enhanced font 'sans,12' background rgb 'white'"
        }
    }
}

/// What rendering a chart produced.
public struct ChartOutput: Sendable, Equatable {
    /// The self-contained gnuplot script (`basename.gp`).
    public var script: URL
    /// The chart's data as plain columns (`basename.dat`).
    public var data: URL
    /// The images written, one per requested format; empty when not rendered.
    public var images: [URL]
    /// Whether gnuplot ran and produced every image.
    public var rendered: Bool
    /// A one-line note for the user when nothing was rendered (gnuplot missing).
    public var hint: String?
    /// Anything gnuplot printed on standard error while succeeding (warnings).
    public var warnings: String

    /// An output from its parts.
    public init(script: URL, data: URL, images: [URL], rendered: Bool, hint: String?, warnings: String) {
        self.script = script
        self.data = data
        self.images = images
        self.rendered = rendered
        self.hint = hint
        self.warnings = warnings
    }
}

extension ChartScript: GnuplotChart {
    /// A script is its own chart.
    public var script: ChartScript { self }
}
