import Foundation
import SimKernel

/// Durations measured on a device, read from a CSV file for an `empirical`
/// distribution: `empirical(@frames.csv:handler_ms)` on the command line,
/// `{empirical: {file: frames.csv, column: handler_ms}}` in a scenario file.
///
/// The file has a header row naming its columns; the column's cells are
/// durations: a number in the unit its name ends with (`_ms`, `_us`, `_ns`,
/// `_s`; milliseconds otherwise) or a duration with its own unit (`4.2ms`).
/// Empty cells are skipped. A relative path is read from the scenario file's
/// folder, or the working folder for a value given on the command line.
/// Docs/MeasuredDurations.md shows how to export frame times from Perfetto
/// and Instruments.
enum MeasuredDurations {
    /// The largest file read: 64 MiB.
    static let maximumBytes = 64 << 20

    /// True when `text` is the file form `empirical(@FILE:COLUMN)`.
    static func isFileForm(_ text: String) -> Bool {
        // shorter than `empirical(@` it cannot be one (trimming only
        // shortens it): a plain duration costs no trimming
        guard text.utf8.count >= 11 else { return false }
        let t = text.trimmedWhitespace
        return t.hasPrefix("empirical(") && t.dropFirst("empirical(".count).hasPrefix("@")
    }

    /// The distribution of the durations in the named file's column.
    static func distribution(_ text: String, relativeTo base: String?, upTo maximum: SimTime,
                             framePeriod: Rational) throws(LatsimError) -> DurationDistribution {
        let t = text.trimmedWhitespace
        guard t.hasSuffix(")") else { throw LatsimError(value: text, problem: "not closed", expected: "empirical(@FILE:COLUMN)") }
        let inner = t.dropFirst("empirical(@".count).dropLast()
        guard let colon = inner.lastIndex(of: ":"), colon != inner.startIndex else {
            throw LatsimError(value: text, problem: "no column named", expected: "empirical(@FILE:COLUMN), e.g. empirical(@frames.csv:handler_ms)")
        }
        var path = String(inner[..<colon])
        let column = String(inner[inner.index(after: colon)...]).trimmedWhitespace
        if !path.hasPrefix("/"), let base { path = (base as NSString).appendingPathComponent(path) }
        let values = try read(path, column: column, upTo: maximum, framePeriod: framePeriod)
        return .empirical(values)
    }

    /// A cell without surrounding spaces and double quotes (query tools
    /// such as Perfetto's quote their CSV).
    static func unquoted(_ cell: Substring) -> String {
        var t = cell.trimmedWhitespace
        if t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") { t = String(t.dropFirst().dropLast()) }
        return t
    }

    /// The durations of `column` in the CSV file at `path`.
    ///
    /// The file is read as bytes in one pass ([CSVRecords]): quoted cells
    /// (RFC 4180: `"a, b"`, `""` for a quote, line breaks inside) are one
    /// cell, so a Perfetto column such as `"Buffer Stuffing, App Deadline
    /// Missed"` shifts nothing; only the named column's cells become
    /// numbers, a plain decimal without building a string.
    static func read(_ path: String, column: String, upTo maximum: SimTime, framePeriod: Rational) throws(LatsimError) -> [SimTime] {
        let data = try InputFiles.read(path, expected: "a CSV file of measured durations with a header row", maximumBytes: maximumBytes)
        let result = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<[SimTime], LatsimError> in
            Result { () throws(LatsimError) -> [SimTime] in
                try read(raw.bindMemory(to: UInt8.self), path: path, column: column, upTo: maximum, framePeriod: framePeriod)
            }
        }
        return try result.get()
    }

    static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, column: String, upTo maximum: SimTime,
                     framePeriod: Rational) throws(LatsimError) -> [SimTime] {
        if bytes.contains(0) { throw LatsimError(file: path, problem: "not UTF-8 text (it holds NUL bytes; UTF-16?)", expected: "a CSV file") }
        var records = CSVRecords(bytes)
        guard let header = records.next(wanting: nil) else {
            throw LatsimError(file: path, problem: "the file is empty", expected: "a header row and values")
        }
        let names = header.cells.map { $0.text.trimmedWhitespace }
        guard let index = names.firstIndex(of: column) else {
            var listed = names.prefix(20).map { LatsimError.shortened($0) }.joined(separator: ", ")
            if names.count > 20 { listed += " and \(names.count - 20) more" }
            throw LatsimError(file: path, line: 1, value: column, problem: "no such column", expected: "one of " + listed)
        }
        let unit: String, scale: Int64
        switch column.split(separator: "_").last.map(String.init) {
        case "us": unit = "us"; scale = 1_000
        case "ns": unit = "ns"; scale = 1
        case "s": unit = "s"; scale = 1_000_000_000
        default: unit = "ms"; scale = 1_000_000
        }
        var values: [SimTime] = []
        values.reserveCapacity(Swift.min(bytes.count / 8, 1 << 20))
        while let record = records.next(wanting: index) {
            guard let cell = record.wanted else { continue }
            let v: SimTime
            let fast: SimTime?
            switch cell {
            case .slice(let s): fast = plainDecimal(s, scale: scale)
            case .copy(let c): fast = plainDecimal(c, scale: scale)
            }
            if let fast {
                v = fast
            } else {
                let text = cell.text.trimmedWhitespace
                if text.isEmpty { continue }
                let spec = NumberSyntax.double(text) != nil ? text + unit : text
                do { v = try DurationSyntax.parse(spec, framePeriod: framePeriod) } catch {
                    throw LatsimError(file: path, line: record.line, value: LatsimError.shortened(text), problem: "not a duration",
                                      expected: "a number of \(unit) or a duration such as 4.2ms")
                }
            }
            guard v >= 0, v <= maximum else {
                throw LatsimError(file: path, line: record.line, value: cell.text, problem: "is outside the range",
                                  expected: "durations from 0 to \(ValueLimits.describe(maximum))")
            }
            values.append(v)
        }
        guard !values.isEmpty else {
            throw LatsimError(file: path, value: column, problem: "the column has no value", expected: "at least one measured duration")
        }
        return values
    }

    /// A cell holding only digits with at most one `.` (at most 18 digits,
    /// spaces around allowed), in nanoseconds at `scale` ns per unit,
    /// rounded half up exactly as ``DurationSyntax/parse(_:framePeriod:)``
    /// rounds it; nil for anything else (the general path decides).
    static func plainDecimal<C: RandomAccessCollection>(_ cell: C, scale: Int64) -> SimTime? where C.Element == UInt8, C.Index == Int {
        var i = cell.startIndex, end = cell.endIndex
        while i < end, cell[i] == 0x20 || cell[i] == 0x09 { i += 1 }
        while end > i, cell[end - 1] == 0x20 || cell[end - 1] == 0x09 { end -= 1 }
        var mantissa: Int64 = 0, digits = 0, fraction = 0, seenPoint = false
        while i < end {
            let b = cell[i]
            if b >= 0x30 && b <= 0x39 {
                digits += 1
                if digits > 18 { return nil }
                mantissa = mantissa * 10 + Int64(b - 0x30)
                if seenPoint { fraction += 1 }
            } else if b == 0x2E && !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        var divisor: Int128 = 1
        for _ in 0..<fraction { divisor *= 10 }
        let scaled = Int128(mantissa) * Int128(scale)
        let rounded = (2 * scaled + divisor) / (2 * divisor)
        return Int64(exactly: rounded)
    }
}

/// The records of a CSV text read from its bytes (RFC 4180): cells split
/// at commas outside double quotes, records at LF or CR LF outside them; a
/// quoted cell's quotes are dropped and `""` inside it is one quote. Only
/// the wanted cell of a record is kept (a header keeps them all), so a
/// large file costs no string per cell.
struct CSVRecords {
    /// A cell: a stretch of the file, or the unquoted copy of a quoted cell.
    enum Cell {
        case slice(Slice<UnsafeBufferPointer<UInt8>>)
        case copy([UInt8])

        var text: String {
            switch self {
            case .slice(let s): return String(decoding: s, as: UTF8.self)
            case .copy(let c): return String(decoding: c, as: UTF8.self)
            }
        }
    }

    /// One record: the number of its first line, and the wanted cell if the
    /// record has that many cells (or every cell, for the header).
    struct Record {
        var line: Int
        var wanted: Cell?
        var cells: [Cell] = []
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var line = 1

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// True at a record's end: LF, or CR LF (a lone CR is part of a cell).
    private func isRecordEnd(_ j: Int) -> Bool {
        bytes[j] == 0x0A || (bytes[j] == 0x0D && j + 1 < bytes.count && bytes[j + 1] == 0x0A)
    }

    /// The next record, skipping empty lines; `wanting` is the index of the
    /// cell to keep, nil to keep every cell. nil at the end.
    mutating func next(wanting: Int?) -> Record? {
        while position < bytes.count {
            var record = Record(line: line, wanted: nil)
            var cellIndex = 0
            var empty = true
            while true {
                var j = position
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                let cell: Cell
                if j < bytes.count, bytes[j] == 0x22 { // a quoted cell
                    var copy: [UInt8] = []
                    j += 1
                    while j < bytes.count {
                        let b = bytes[j]
                        if b == 0x22 {
                            if j + 1 < bytes.count, bytes[j + 1] == 0x22 { copy.append(0x22); j += 2; continue }
                            j += 1
                            break
                        }
                        if b == 0x0A { line += 1 }
                        copy.append(b)
                        j += 1
                    }
                    // what follows the closing quote, up to the separator, is kept as written
                    while j < bytes.count, bytes[j] != 0x2C, !isRecordEnd(j) { copy.append(bytes[j]); j += 1 }
                    cell = .copy(copy)
                    empty = false
                } else {
                    j = position
                    while j < bytes.count, bytes[j] != 0x2C, !isRecordEnd(j) { j += 1 }
                    if j > position { empty = false }
                    cell = .slice(bytes[position..<j])
                }
                position = j
                if wanting == nil { record.cells.append(cell) } else if wanting == cellIndex { record.wanted = cell }
                cellIndex += 1
                if position >= bytes.count { break }
                if bytes[position] == 0x2C { position += 1; empty = false; continue }
                position += bytes[position] == 0x0D ? 2 : 1
                line += 1
                break
            }
            if !empty { return record }
            record = Record(line: line, wanted: nil)
        }
        return nil
    }
}
