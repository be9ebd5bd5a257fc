import Testing
@testable import LatsimOutput

/// A text table renders as its definition says: cells padded to their
/// column's width (numbers on the right), two spaces apart, a rule of
/// dashes, no trailing spaces on a line of cells. The reference below is
/// that definition written plainly, a string per cell.
struct TextTableTests {
    static func reference(_ t: TextTable) -> String {
        var widths = t.header.map(\.count)
        for r in t.rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, c) in cells.enumerated() where i < widths.count {
                let pad = String(repeating: " ", count: max(0, widths[i] - c.count))
                parts.append(t.rightAligned.contains(i) ? pad + c : c + pad)
            }
            var s = parts.joined(separator: "  ")
            while s.hasSuffix(" ") { s.removeLast() }
            return s
        }
        return ([line(t.header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")] + t.rows.map(line))
            .joined(separator: "\n")
    }

    @Test func aSmallTableReadsAsWritten() {
        let t = TextTable(header: ["gpu.render", "p50 ms", "note"], rows: [["1ms", "33.3", "ok"], ["10ms", "41.67", ""]],
                          rightAligned: [1])
        #expect(t.render() == """
            gpu.render  p50 ms  note
            ----------  ------  ----
            1ms           33.3  ok
            10ms         41.67
            """)
    }

    /// A random table of up to four columns and `maxRows` rows, whose cells
    /// join up to two pieces of text (a row may have fewer or more cells
    /// than the header).
    static func randomTable(maxRows: Int, using rng: inout some RandomNumberGenerator) -> TextTable {
        // (a carriage return and line feed are one character: widths are counted in characters)
        let pieces = ["", " ", "a", "bb ", "ccc", "é", "1.5", "  x", "中文", "e\u{301}", "\r\n", "\r", "\n", "\t"]
        let columns = Int.random(in: 0...4, using: &rng)
        func row() -> [String] {
            (0..<Int.random(in: 0...(columns + 1), using: &rng)).map { _ in
                (0..<Int.random(in: 0...2, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            }
        }
        return TextTable(header: (0..<columns).map { _ in row().joined() }, rows: (0..<Int.random(in: 0...maxRows, using: &rng)).map { _ in row() },
                         rightAligned: Set((0..<columns).filter { _ in Bool.random(using: &rng) }))
    }

    @Test func everyTableRendersAsTheReference() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let t = Self.randomTable(maxRows: 4, using: &rng)
            #expect(t.render() == Self.reference(t), "\(t)")
        }
    }

    /// A spooled table (rows added one at a time, kept as bytes, spilled
    /// to a file past its memory bound) writes the text of the whole
    /// table, and a final line end.
    @Test func aSpooledTableWritesWhatTheWholeTableRenders() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let t = Self.randomTable(maxRows: 40, using: &rng)
            // every tenth table kept in 64 bytes: its rows go to the file
            let spooled = TextTable.Spooled(header: t.header, rightAligned: t.rightAligned, memoryLimit: round % 10 == 0 ? 64 : 1 << 20)
            for r in t.rows { spooled.append(r) }
            #expect(spooled.count == t.rows.count)
            let sink = ByteSink.memory()
            try spooled.write(to: sink)
            #expect(String(decoding: sink.bytes, as: UTF8.self) == t.render() + "\n", "\(t)")
        }
    }

    /// An object whose last field is an array written element by element
    /// is the text of the whole object, at any indent, with no element too.
    @Test func aStreamedArrayFieldIsTheWholeObjectsText() throws {
        let fields: [(String, JSONValue)] = [("a", .int(1)), ("b", .object([("c", .array([.string("x"), .null])), ("d", .number(1.5, places: 6))]))]
        let elements: [JSONValue] = [.object([("k", .string("q\"uote")), ("n", .array([]))]), .int(2), .array([.bool(true)])]
        for indent in [0, 2, 4] {
            for n in 0...elements.count {
                for head in [fields, []] {
                    let sink = ByteSink.memory()
                    var array = try JSONValue.StreamedArrayField(fields: head, key: "points", indent: indent, to: sink)
                    for e in elements.prefix(n) { try array.append(e, to: sink) }
                    try array.finish(to: sink)
                    #expect(array.count == n)
                    let whole = JSONValue.object(head + [("points", .array(Array(elements.prefix(n))))]).text(indent: indent)
                    #expect(String(decoding: sink.bytes, as: UTF8.self) == whole)
                }
            }
        }
    }
}
