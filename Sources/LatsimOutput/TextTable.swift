/// A plain-text table with aligned columns, for the command line's output:
/// a header, a rule, one line per row; cells separated by two spaces,
/// numbers right-aligned, no trailing spaces.
public struct TextTable: Sendable {
    /// The column names.
    public var header: [String]
    /// The rows, each a cell per column.
    public var rows: [[String]]
    /// Columns aligned right (numbers).
    public var rightAligned: Set<Int>

    /// A table with `header` and no row yet.
    public init(header: [String], rows: [[String]] = [], rightAligned: Set<Int> = []) {
        self.header = header
        self.rows = rows
        self.rightAligned = rightAligned
    }

    /// The table as text, lines joined by newlines (no final newline).
    public func render() -> String {
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, c) in cells.enumerated() where i < widths.count {
                let pad = String(repeating: " ", count: max(0, widths[i] - c.count))
                parts.append(rightAligned.contains(i) ? pad + c : c + pad)
            }
            var s = parts.joined(separator: "  ")
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
        var out = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        out += rows.map(line)
        return out.joined(separator: "\n")
    }
}
