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

    @Test func everyTableRendersAsTheReference() {
        var rng = SystemRandomNumberGenerator()
        // (a carriage return and line feed are one character: widths are counted in characters)
        let pieces = ["", " ", "a", "bb ", "ccc", "é", "1.5", "  x", "中文", "e\u{301}", "\r\n", "\r", "\n", "\t"]
        for _ in 0..<500 {
            let columns = Int.random(in: 0...4, using: &rng)
            func row() -> [String] {
                (0..<Int.random(in: 0...(columns + 1), using: &rng)).map { _ in
                    (0..<Int.random(in: 0...2, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
                }
            }
            let t = TextTable(header: (0..<columns).map { _ in row().joined() }, rows: (0..<Int.random(in: 0...4, using: &rng)).map { _ in row() },
                              rightAligned: Set((0..<columns).filter { _ in Bool.random(using: &rng) }))
            #expect(t.render() == Self.reference(t), "\(t)")
        }
    }
}
