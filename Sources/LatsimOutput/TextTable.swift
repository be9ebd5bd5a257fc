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
        let layout = Layout(widths: widths, rightAligned: rightAligned)
        var out = RawBytes(capacity: (widths.reduce(0, +) + 2 * widths.count + 1) * (rows.count + 2))
        func line(_ cells: [String]) {
            layout.line(cells.count, width: { Self.width(cells[$0]) }, isEmpty: { cells[$0].isEmpty },
                        text: { i, out in
                            var c = cells[i]
                            c.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
                        }, into: &out)
        }
        line(header)
        out.append(0x0A)
        layout.rule(into: &out)
        for r in rows {
            out.append(0x0A)
            line(r)
        }
        return String(decoding: out.bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    /// A cell's width, in characters. Text of ASCII bytes other than a
    /// carriage return (which joins a following line feed into one
    /// character) has a character a byte, counted without breaking it
    /// into characters (that was most of a sweep row's table).
    static func width(_ s: String) -> Int {
        var s = s
        return s.withUTF8 { width(UnsafeRawBufferPointer($0)) }
    }

    /// ``width(_:)`` of a cell's UTF-8 bytes.
    static func width(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) ? bytes.count : String(decoding: bytes, as: UTF8.self).count
    }

    /// The columns' widths and alignment, and how a line is laid out with
    /// them: the one layout of ``render()`` and ``Spooled``.
    struct Layout {
        let widths: [Int]
        let right: [Bool]

        init(widths: [Int], rightAligned: Set<Int>) {
            self.widths = widths
            right = widths.indices.map { rightAligned.contains($0) }
        }

        /// Appends a line of `count` cells, padded to their widths, two
        /// spaces apart, without the spaces it would end in; `text(i, &out)`
        /// appends cell `i`'s bytes.
        /// Inlined, so that its three functions are too (a spooled sweep
        /// table lays out a line per grid point).
        @inline(__always)
        func line(_ count: Int, width: (Int) -> Int, isEmpty: (Int) -> Bool, text: (Int, inout RawBytes) -> Void, into out: inout RawBytes) {
            let start = out.count
            var owed = 0  // spaces before the next text
            for i in 0..<min(count, widths.count) {
                if i > 0 { owed += 2 }
                let pad = max(0, widths[i] - width(i))
                if right[i] { owed += pad }
                if !isEmpty(i) {
                    out.append(repeating: 0x20, count: owed)
                    text(i, &out)
                    owed = 0
                }
                if !right[i] { owed += pad }
            }
            out.removeTrailing(0x20, downTo: start)
        }

        /// Appends the rule under the header.
        func rule(into out: inout RawBytes) {
            for (i, w) in widths.enumerated() {
                if i > 0 { out.append(repeating: 0x20, count: 2) }
                out.append(repeating: UInt8(ascii: "-"), count: w)
            }
        }
    }

    /// A table whose rows are added one at a time and kept as bytes in a
    /// ``RecordLog``: in memory up to a bound, the rest in a temporary
    /// file. Its widths grow as rows come; ``write(to:)`` writes the same
    /// text as ``TextTable/render()`` of the same rows, in bounded memory.
    public final class Spooled {
        public let header: [String]
        public let rightAligned: Set<Int>
        private var widths: [Int]
        private let log: RecordLog
        /// The rows added.
        public var count: Int { log.count }

        /// A table with `header` and no row yet; at most `memoryLimit`
        /// bytes of rows are kept in memory.
        public init(header: [String], rightAligned: Set<Int> = [], memoryLimit: Int = 4 << 20) {
            self.header = header
            self.rightAligned = rightAligned
            widths = header.map(TextTable.width)
            log = RecordLog(memoryLimit: memoryLimit)
        }

        /// Adds a row: each cell as its width and its bytes (a
        /// little-endian `UInt32` each, then the bytes).
        public func append(_ cells: [String]) {
            appendRow { row in
                for c in cells {
                    var c = c
                    c.withUTF8 { row.bytes.append(UnsafeRawBufferPointer($0)) }
                    row.endCell()
                }
            }
        }

        /// A row's cells as `Spooled/appendRow(_:)` hands them to be
        /// written: each cell's UTF-8 bytes appended to ``bytes``, then
        /// ``endCell()``.
        public struct RowCells: ~Copyable {
            /// The bytes of the row's cells, one after another.
            public var bytes = RawBytes()
            /// Where each cell ends in ``bytes``.
            public internal(set) var ends: [Int] = []
            /// No cell yet.
            public init() {}
            /// Ends the cell whose bytes were appended since the last.
            public mutating func endCell() { ends.append(bytes.count) }
        }
        /// The last row's cells, kept for their capacity.
        private var cells = RowCells()

        /// Adds the row whose cells `write` appends, in order (no string
        /// is made for a cell, and the cells' buffers are reused row after
        /// row).
        public func appendRow(_ write: (inout RowCells) -> Void) {
            // the widths and buffers taken out of the object while the row
            // is added: a class property read and written at every cell was
            // checked for exclusive access each time
            var row = RowCells()
            swap(&row, &cells)
            var grown = widths
            widths = []
            row.bytes.removeAll()
            row.ends.removeAll(keepingCapacity: true)
            write(&row)
            let all = row.bytes.bytes
            log.append { out in
                var start = 0
                for (i, end) in row.ends.enumerated() {
                    let bytes = UnsafeRawBufferPointer(rebasing: all[start..<end])
                    let w = TextTable.width(bytes)
                    if i < grown.count, w > grown[i] { grown[i] = w }
                    var sizes = (UInt32(w).littleEndian, UInt32(bytes.count).littleEndian)
                    withUnsafeBytes(of: &sizes) { out.append($0) }
                    out.append(bytes)
                    start = end
                }
            }
            widths = grown
            swap(&row, &cells)
        }

        /// Writes the table, a final newline included, to `sink`.
        public func write(to sink: ByteSink) throws {
            let layout = Layout(widths: widths, rightAligned: rightAligned)
            var out = RawBytes(capacity: widths.reduce(0, +) + 2 * widths.count + 1)
            layout.line(header.count, width: { TextTable.width(header[$0]) }, isEmpty: { header[$0].isEmpty },
                        text: { i, out in
                            var h = header[i]
                            h.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
                        }, into: &out)
            out.append(0x0A)
            layout.rule(into: &out)
            out.append(0x0A)
            try sink.write(out.bytes)
            var cells: [(width: Int, bytes: UnsafeRawBufferPointer)] = []
            try log.forEach { record in
                cells.removeAll(keepingCapacity: true)
                var at = 0
                while at < record.count {
                    let w = Int(record.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                    let n = Int(record.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self).littleEndian)
                    cells.append((w, UnsafeRawBufferPointer(rebasing: record[(at + 8)..<(at + 8 + n)])))
                    at += 8 + n
                }
                out.removeAll()
                layout.line(cells.count, width: { cells[$0].width }, isEmpty: { cells[$0].bytes.isEmpty },
                            text: { $1.append(cells[$0].bytes) }, into: &out)
                out.append(0x0A)
                try sink.write(out.bytes)
            }
        }
    }
}
