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
        var out: [UInt8] = []
        out.reserveCapacity((widths.reduce(0, +) + 2 * widths.count + 1) * (rows.count + 2))
        func line(_ cells: [String]) {
            layout.line(cells.count, width: { Self.width(cells[$0]) }, isEmpty: { cells[$0].isEmpty },
                        text: { $1.append(contentsOf: cells[$0].utf8) }, into: &out)
        }
        line(header)
        out.append(0x0A)
        layout.rule(into: &out)
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
        func line(_ count: Int, width: (Int) -> Int, isEmpty: (Int) -> Bool, text: (Int, inout [UInt8]) -> Void, into out: inout [UInt8]) {
            var owed = 0  // spaces before the next text
            for i in 0..<min(count, widths.count) {
                if i > 0 { owed += 2 }
                let pad = max(0, widths[i] - width(i))
                if right[i] { owed += pad }
                if !isEmpty(i) {
                    Self.appendSpaces(owed, to: &out)
                    text(i, &out)
                    owed = 0
                }
                if !right[i] { owed += pad }
            }
            while out.last == 0x20 { out.removeLast() }
        }

        /// Appends `n` spaces, a run at a time (a sweep's table pads each
        /// of its 20-odd cells, a space at a time had cost a row some
        /// 2,000 instructions).
        static func appendSpaces(_ n: Int, to out: inout [UInt8]) {
            var n = n
            while n > 0 {
                let k = min(n, spaces.count)
                spaces.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<k])) }
                n -= k
            }
        }
        private static let spaces = [UInt8](repeating: 0x20, count: 64)

        /// Appends the rule under the header.
        func rule(into out: inout [UInt8]) {
            for (i, w) in widths.enumerated() {
                if i > 0 { out.append(contentsOf: [0x20, 0x20]) }
                for _ in 0..<w { out.append(UInt8(ascii: "-")) }
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
                    row.bytes.append(contentsOf: c.utf8)
                    row.endCell()
                }
            }
        }

        /// A row's cells as `Spooled/appendRow(_:)` hands them to be
        /// written: each cell's UTF-8 bytes appended to ``bytes``, then
        /// ``endCell()``.
        public struct RowCells {
            /// The bytes of the row's cells, one after another.
            public var bytes: [UInt8] = []
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
            var row = cells, grown = widths
            cells = RowCells()
            widths = []
            row.bytes.removeAll(keepingCapacity: true)
            row.ends.removeAll(keepingCapacity: true)
            write(&row)
            log.append { out in
                row.bytes.withUnsafeBytes { all in
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
            }
            widths = grown
            cells = row
        }

        /// Writes the table, a final newline included, to `sink`.
        public func write(to sink: ByteSink) throws {
            let layout = Layout(widths: widths, rightAligned: rightAligned)
            var out: [UInt8] = []
            out.reserveCapacity(widths.reduce(0, +) + 2 * widths.count + 1)
            layout.line(header.count, width: { TextTable.width(header[$0]) }, isEmpty: { header[$0].isEmpty },
                        text: { $1.append(contentsOf: header[$0].utf8) }, into: &out)
            out.append(0x0A)
            layout.rule(into: &out)
            out.append(0x0A)
            try out.withUnsafeBytes { try sink.write($0) }
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
                out.removeAll(keepingCapacity: true)
                layout.line(cells.count, width: { cells[$0].width }, isEmpty: { cells[$0].bytes.isEmpty },
                            text: { $1.append(contentsOf: cells[$0].bytes.assumingMemoryBound(to: UInt8.self)) }, into: &out)
                out.append(0x0A)
                try out.withUnsafeBytes { try sink.write($0) }
            }
        }
    }
}
