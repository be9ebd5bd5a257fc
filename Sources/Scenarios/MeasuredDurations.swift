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
        let t = text.trimmingCharacters(in: .whitespaces)
        return t.hasPrefix("empirical(") && t.dropFirst("empirical(".count).hasPrefix("@")
    }

    /// The distribution of the durations in the named file's column.
    static func distribution(_ text: String, relativeTo base: String?, upTo maximum: SimTime,
                             framePeriod: Rational) throws(LatsimError) -> DurationDistribution {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasSuffix(")") else { throw LatsimError(value: text, problem: "not closed", expected: "empirical(@FILE:COLUMN)") }
        let inner = t.dropFirst("empirical(@".count).dropLast()
        guard let colon = inner.lastIndex(of: ":"), colon != inner.startIndex else {
            throw LatsimError(value: text, problem: "no column named", expected: "empirical(@FILE:COLUMN), e.g. empirical(@frames.csv:handler_ms)")
        }
        var path = String(inner[..<colon])
        let column = String(inner[inner.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        if !path.hasPrefix("/"), let base { path = (base as NSString).appendingPathComponent(path) }
        let values = try read(path, column: column, upTo: maximum, framePeriod: framePeriod)
        return .empirical(values)
    }

    /// A cell without surrounding spaces and double quotes (query tools
    /// such as Perfetto's quote their CSV).
    static func unquoted(_ cell: Substring) -> String {
        var t = cell.trimmingCharacters(in: .whitespaces)
        if t.count >= 2, t.hasPrefix("\""), t.hasSuffix("\"") { t = String(t.dropFirst().dropLast()) }
        return t
    }

    /// The durations of `column` in the CSV file at `path`.
    static func read(_ path: String, column: String, upTo maximum: SimTime, framePeriod: Rational) throws(LatsimError) -> [SimTime] {
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumBytes {
            throw LatsimError(file: path, problem: "the file has \(size) bytes", expected: "a file of at most 64 MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LatsimError(file: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot read this file" : "no such file",
                              expected: "a CSV file of measured durations with a header row")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw LatsimError(file: path, problem: "not UTF-8 text", expected: "a CSV file")
        }
        var lines = SimKernel.lines(of: text).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let header = lines.first else { throw LatsimError(file: path, problem: "the file is empty", expected: "a header row and values") }
        let names = header.split(separator: ",", omittingEmptySubsequences: false).map(unquoted)
        guard let index = names.firstIndex(of: column) else {
            throw LatsimError(file: path, line: 1, value: column, problem: "no such column",
                              expected: "one of " + names.map { LatsimError.shortened($0) }.joined(separator: ", "))
        }
        let unit: String
        switch column.split(separator: "_").last.map(String.init) {
        case "us": unit = "us"
        case "ns": unit = "ns"
        case "s": unit = "s"
        default: unit = "ms"
        }
        var values: [SimTime] = []
        for (i, line) in lines.enumerated().dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard index < cells.count else { continue }
            let cell = unquoted(cells[index])
            if cell.isEmpty { continue }
            let spec = NumberSyntax.double(cell) != nil ? cell + unit : cell
            let v: SimTime
            do { v = try DurationSyntax.parse(spec, framePeriod: framePeriod) } catch {
                throw LatsimError(file: path, line: i + 1, value: LatsimError.shortened(cell), problem: "not a duration",
                                  expected: "a number of \(unit) or a duration such as 4.2ms")
            }
            guard v >= 0, v <= maximum else {
                throw LatsimError(file: path, line: i + 1, value: cell, problem: "is outside the range",
                                  expected: "durations from 0 to \(ValueLimits.describe(maximum))")
            }
            values.append(v)
        }
        guard !values.isEmpty else {
            throw LatsimError(file: path, value: column, problem: "the column has no value", expected: "at least one measured duration")
        }
        return values
    }
}
