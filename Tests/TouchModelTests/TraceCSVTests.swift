import Foundation
import SimKernel
import Testing
@testable import TouchModel

/// CSV traces as spreadsheets, pandas and R write them (RFC 4180 quoting,
/// an index column), and bad CSV named by file, line and column.
@Suite struct TraceCSVTests {
    static let directory = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/csv").path

    /// Every fixture holds the same stroke (Tests/Fixtures/csv/README.md):
    /// 0, 8, 16, 24 ms; x 10, 12.5, 15, 17.5; y 20.
    @Test(arguments: ["plain.csv", "pandas-to-csv.csv", "r-write-csv.csv", "quote-all-crlf.csv", "r-row-names-escaped.csv"])
    func eachFormReadsAsTheSameStroke(name: String) throws {
        let stroke = try TraceFile.load(Self.directory + "/" + name)
        #expect(stroke.times == [0, 8, 16, 24].map { $0 * Nanos.perMillisecond }, "\(name)")
        #expect(stroke.positions == [10, 12.5, 15, 17.5].map { TouchPoint(x: $0, y: 20) }, "\(name)")
        // only the fully quoted one has a force column: 0.5 to 1.25
        #expect(stroke.forces == (name == "quote-all-crlf.csv" ? [0.5, 0.75, 1, 1.25] : nil), "\(name)")
    }

    /// A record spanning lines (a row name with a line break in quotes)
    /// moves the lines of the records after it: a bad number in the fourth
    /// record is on line 5.
    @Test func linesCountBreaksInsideQuotes() throws {
        let dir = try Fixtures.temporaryDirectory("csv-lines")
        let path = dir + "/r.csv"
        try Fixtures.write("\"\",\"t_ms\",\"x\",\"y\"\n\"1\",0,10,20\n\"a\nb\",8,12.5,20\n\"3\",16,NA,20\n", to: path)
        do {
            _ = try TraceFile.load(path)
            Issue.record("NA was read as a number")
        } catch {
            #expect(error.file == path && error.line == 5 && error.column == 8, "\(error)")
            #expect(error.description.hasPrefix("\(path):5:8: x 'NA' is not a number; expected a decimal number"), "\(error)")
        }
    }

    /// Bad CSV: one paragraph with the file, the line and the column (1-based,
    /// in characters) of what is wrong.
    static let bad: [(text: String, line: Int, column: Int?, words: String)] = [
        // the quote opened at column 5 of line 2 never closes
        ("t_ms,x,y\n0,1,\"2\n8,1,2\n", 2, 5, "a quoted field is never closed"),
        // `"1"x`: the x at column 6 follows the closing quote
        ("t_ms,x,y\n0,\"1\"x,2\n", 2, 6, "text after the closing quote"),
        // `1"2"`: a quote at column 4 inside an unquoted field
        ("t_ms,x,y\n0,1\"2\",3\n8,1,2\n", 2, 4, "a quote inside a field"),
        // the quoted "oops" starts at column 3 of line 3
        ("\"t_ms\",\"x\",\"y\"\n0,1,2\n8,\"oops\",3\n", 3, 3, "x 'oops' is not a number"),
        // an index column in the header, a row of 3 columns: the row ends after column 5
        (",t_ms,x,y\n0,0,1,2\n1,8,1\n", 3, 6, "has 3 columns"),
        // one column too many: the extra one starts at column 7
        ("t_ms,x,y\n0,1,2,3\n", 2, 7, "has 4 columns"),
        // the force "2.5" (quoted, at column 13) beyond the largest force
        ("\"t_ms\",\"x\",\"y\",\"force\"\n\"0\",\"1\",\"2\",\"2.5\"\n", 2, 13, "force = '2.5'"),
        // a header the reader does not know; a named index is not an index
        ("\"time\",\"x\",\"y\"\n0,1,2\n", 1, nil, "the header is '\"time\",\"x\",\"y\"'"),
        ("idx,t_ms,x,y\n0,0,1,2\n", 1, nil, "unnamed index column"),
    ]

    @Test(arguments: bad.indices)
    func badCSVNamesFileLineAndColumn(index: Int) throws {
        let c = Self.bad[index]
        let dir = try Fixtures.temporaryDirectory("csv-bad-\(index)")
        let path = dir + "/bad.csv"
        try Fixtures.write(c.text, to: path)
        do {
            _ = try TraceFile.load(path, maximumForce: 2)
            Issue.record("accepted: \(c.text)")
        } catch {
            #expect(error.kind == .badInput && error.file == path && error.line == c.line && error.column == c.column, "\(error)")
            let place = "\(path):\(c.line)" + (c.column.map { ":\($0)" } ?? "") + ": "
            #expect(error.description.hasPrefix(place) && error.description.contains(c.words), "\(error)")
            #expect(error.description.contains("; expected ") && !error.description.contains("\n"), "\(error)")
        }
    }
}
