import Experiments
import LatsimOutput

/// A sweep's outputs written as its rows come, in grid order
/// (``PreparedSweep/run(jobs:progress:each:)``): the CSV, the long CSV and
/// the JSON go to their sinks row by row, the table is spooled
/// (``TextTable/Spooled``, bounded memory) for standard output at the end.
/// The bytes are those ``SweepOutput``'s functions make of the whole
/// result; only the chart, which draws every point, keeps the rows.
///
/// Rows are added one at a time (from any thread, never two at once).
public final class SweepStream: @unchecked Sendable {
    /// The sweep's result without rows (its figures, axes, settings and
    /// command as the outputs show them).
    public let head: SweepResult
    private let columns: [SweepOutput.Column]
    private let csv: ByteSink?
    private let csvLong: ByteSink?
    private let json: ByteSink?
    private var points: JSONValue.StreamedArrayField?
    /// A CSV line's bytes, made again for each row.
    private var line = RawBytes()
    /// The table's rows, when it is printed.
    public let table: TextTable.Spooled?
    /// The first row (the table's heading names its simulated time).
    public private(set) var first: SweepRow?
    /// The rows, when kept (for the chart).
    public private(set) var rows: [SweepRow] = []
    private let keepsRows: Bool

    /// Writes the outputs' headers. `table` spools the table's rows;
    /// `keepRows` keeps the rows themselves (``rows``).
    public init(head: SweepResult, csv: ByteSink?, csvLong: ByteSink?, json: ByteSink?, table: Bool, keepRows: Bool) throws {
        self.head = head
        columns = SweepOutput.columns(head)
        self.csv = csv
        self.csvLong = csvLong
        self.json = json
        self.table = table ? TextTable.Spooled(header: SweepOutput.tableHeader(head), rightAligned: SweepOutput.tableRightAligned(head)) : nil
        keepsRows = keepRows
        try csv?.write(SweepOutput.csvHeader(head))
        try csvLong?.write(SweepOutput.longCSVHeader(head))
        if let json { points = try JSONValue.StreamedArrayField(fields: SweepOutput.jsonHead(head), key: "points", to: json) }
    }

    /// Writes the next row (in grid order) to every output.
    public func add(_ row: SweepRow) throws {
        if first == nil { first = row }
        if let csv {
            line.removeAll()
            SweepOutput.appendCSVLine(row, head, columns, to: &line)
            try csv.write(line.bytes)
        }
        try csvLong?.write(SweepOutput.longCSVLines(row, head))
        if let json { try points!.append(SweepOutput.point(row, head), to: json) }
        table?.appendRow { SweepOutput.appendTableCells(row, head, to: &$0) }
        if keepsRows { rows.append(row) }
    }

    /// Ends the outputs (the JSON's closing and final line end).
    public func finish() throws {
        if let json {
            try points!.finish(to: json)
            try json.write("\n")
        }
    }

    /// `result` with the rows kept (none unless `keepRows`).
    public func withRows(_ result: SweepResult) -> SweepResult {
        var r = result
        r.rows = rows
        return r
    }
}
