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
    /// Written as bytes into one buffer: a sweep's table of thousands of
    /// rows costs its characters, not a string per cell and its padding.
    public func render() -> String {
        var widths = header.map(Self.width)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], Self.width(c)) } }
        let right = widths.indices.map { rightAligned.contains($0) }
        var out: [UInt8] = []
        out.reserveCapacity((widths.reduce(0, +) + 2 * widths.count + 1) * (rows.count + 2))
        // a line's cells, padded to their widths, two spaces apart, without
        // the spaces it would end in
        func line(_ cells: [String]) {
            var owed = 0  // spaces before the next text
            for (i, c) in cells.enumerated() where i < widths.count {
                if i > 0 { owed += 2 }
                let pad = max(0, widths[i] - Self.width(c))
                if right[i] { owed += pad }
                if !c.isEmpty {
                    for _ in 0..<owed { out.append(0x20) }
                    out.append(contentsOf: c.utf8)
                    owed = 0
                }
                if !right[i] { owed += pad }
            }
            while out.last == 0x20 { out.removeLast() }
        }
        line(header)
        out.append(0x0A)
        for (i, w) in widths.enumerated() {
            if i > 0 { out.append(contentsOf: [0x20, 0x20]) }
            for _ in 0..<w { out.append(UInt8(ascii: "-")) }
        }
        for r in rows {
            out.append(0x0A)
            line(r)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A cell's width, in characters. Text of ASCII bytes other than a
    /// carriage return (which joins a following line feed into one
    /// character) has a character a byte, counted without breaking it
    /// into characters (that was most of a sweep row's table).
    static func width(_ s: String) -> Int {
        let u = s.utf8
        return u.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) ? u.count : s.count
    }
}
