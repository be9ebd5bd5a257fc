import Foundation
import SimKernel

/// Reading recorded traces from disk: the $1 gesture-log XML and CSV.
///
/// Both formats are scanned by hand, byte by byte, so that every complaint
/// can name the line it is about.
///
/// - Gesture log (Wobbrock, Wilson and Li, "$1 Unistroke Recognizer", UIST
///   2007): `<Point X="69" Y="228" T="1363112" />` elements, X and Y in
///   pixels (taken as points), T in milliseconds. Other elements and all
///   other attributes are ignored.
/// - CSV (RFC 4180): a header line `t_ms,x,y` or `t_ms,x,y,force`, then
///   one row per sample with the same number of columns. A field may be
///   quoted (`"t_ms"`, `"12.5"`; a quote inside one is written twice, and
///   a quoted field may hold commas and line breaks); a first column named
///   "" or nothing is an index and is ignored (pandas' `to_csv` writes
///   `,t_ms,x,y`, R's `write.csv` `"","t_ms","x","y"`). Lines end at LF or
///   CRLF. Blank lines and lines starting with `#` are ignored. The force column (UIKit's normalised force, 1.0
///   an average touch) must lie from 0 to the device's largest force; it
///   becomes the finger's force (Docs/Force.md).
///
/// Times must not go backwards; points sharing a timestamp are merged by
/// keeping the last one; a file needs at least two distinct timestamps.
enum TraceFile {
    /// A parsed point and the line it came from.
    struct RawPoint {
        var line: Int
        var time: SimTime
        var position: TouchPoint
        /// The force column's value (nil: the file has none).
        var force: Double? = nil
    }

    /// The largest trace file read: 256 MiB (about 15 million CSV rows).
    static let maximumBytes = 256 << 20
    /// The largest time a point may have, ms: about 31 years, so that every
    /// instant and every difference of two stays inside 64-bit nanoseconds.
    static let maximumMilliseconds = 1e12
    /// The largest coordinate, points: far beyond any screen.
    static let maximumCoordinate = 1e7

    /// Loads one `.xml` or `.csv` file as a stroke; a CSV force column may
    /// not exceed `maximumForce`.
    static func load(_ path: String, maximumForce: Double = PressProfile.defaultMaximumForce) throws(LatsimError) -> TraceStroke {
        let ext = fileExtension(path)
        guard ext == "xml" || ext == "csv" else {
            throw LatsimError(file: path, problem: "unknown trace format '.\(ext)'", expected: "a .xml gesture log or a .csv file")
        }
        let bytes = try InputFiles.bytes(path, expected: "a .\(ext) trace", maximumBytes: maximumBytes)
        let utf16 = bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF))
        guard !utf16, !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else {
            throw LatsimError(file: path, problem: "not UTF-8 text\(utf16 ? " (it is UTF-16)" : "")", expected: "a trace saved as UTF-8")
        }
        return ext == "xml" ? try parseGestureLog(bytes, file: path) : try parseCSV(bytes, file: path, maximumForce: maximumForce)
    }

    /// The extension of the last path component, lowercased (`""` for none),
    /// as `NSString.pathExtension` gives it.
    static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// Checks a point's numbers against the limits that keep the model's
    /// arithmetic exact.
    static func checked(_ t: Double, _ x: Double, _ y: Double, file: String, line: Int) throws(LatsimError) -> RawPoint {
        guard Swift.abs(t) <= maximumMilliseconds else {
            throw LatsimError(file: file, line: line, problem: "the time \(LatsimError.shortened(String(t))) ms is out of range",
                              expected: "times within ±\(formatDecimal(maximumMilliseconds, places: 0)) ms")
        }
        guard Swift.abs(x) <= maximumCoordinate, Swift.abs(y) <= maximumCoordinate else {
            throw LatsimError(file: file, line: line, problem: "the point (\(LatsimError.shortened(String(x))), \(LatsimError.shortened(String(y)))) is out of range",
                              expected: "coordinates within ±\(formatDecimal(maximumCoordinate, places: 0)) points")
        }
        return RawPoint(line: line, time: roundHalfUp(t * 1e6), position: TouchPoint(x: x, y: y))
    }

    // MARK: gesture log

    static func parseGestureLog(_ bytes: [UInt8], file: String) throws(LatsimError) -> TraceStroke {
        try bytes.withUnsafeBufferPointer { (b) throws(LatsimError) -> TraceStroke in try parseGestureLog(b, file: file) }
    }

    /// A tag's attribute as byte ranges of the file: its name and its value.
    private struct Attribute {
        var name: Range<Int>
        var value: Range<Int>
    }

    private static func parseGestureLog(_ b: UnsafeBufferPointer<UInt8>, file: String) throws(LatsimError) -> TraceStroke {
        var points: [RawPoint] = []
        var i = 0, line = 1
        let n = b.count
        func fail(_ at: Int, _ message: String) -> LatsimError {
            let parts = message.components(separatedBy: " — expected ")
            return LatsimError(file: file, line: at, problem: parts[0], expected: parts.count > 1 ? parts[1] : nil)
        }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        func equals(_ r: Range<Int>, _ word: StaticString) -> Bool {
            guard r.count == word.utf8CodeUnitCount else { return false }
            let w = word.utf8Start
            for k in 0..<r.count where b[r.lowerBound + k] != w[k] { return false }
            return true
        }
        /// Advances `i` past `terminator`, counting lines; false when absent.
        func skip(past terminator: StaticString) -> Bool {
            let t = terminator.utf8Start, m = terminator.utf8CodeUnitCount
            while i < n {
                if b[i] == 0x0A { line += 1 }
                if b[i] == t[0], i + m <= n {
                    var k = 1
                    while k < m, b[i + k] == t[k] { k += 1 }
                    if k == m { i += m; return true }
                }
                i += 1
            }
            return false
        }
        var attributes: [Attribute] = []
        while i < n {
            if b[i] == 0x0A { line += 1; i += 1; continue }
            guard b[i] == UInt8(ascii: "<") else { i += 1; continue }
            let tagLine = line
            if i + 3 < n, b[i + 1] == UInt8(ascii: "!"), b[i + 2] == UInt8(ascii: "-"), b[i + 3] == UInt8(ascii: "-") {
                i += 4
                guard skip(past: "-->") else { throw fail(tagLine, "a comment is never closed — expected '-->'") }
                continue
            }
            if i + 1 < n, b[i + 1] == UInt8(ascii: "?") || b[i + 1] == UInt8(ascii: "!") || b[i + 1] == UInt8(ascii: "/") {
                i += 1
                guard skip(past: ">") else { throw fail(tagLine, "a tag is never closed — expected '>'") }
                continue
            }
            i += 1
            let nameStart = i
            while i < n, isNameByte(b[i]) { i += 1 }
            let name = nameStart..<i
            attributes.removeAll(keepingCapacity: true)
            attributeLoop: while true {
                while i < n, isSpace(b[i]) { if b[i] == 0x0A { line += 1 }; i += 1 }
                guard i < n else { throw fail(tagLine, "the <\(text(name))> tag is never closed — expected '>' or '/>'") }
                if b[i] == UInt8(ascii: ">") { i += 1; break attributeLoop }
                if b[i] == UInt8(ascii: "/"), i + 1 < n, b[i + 1] == UInt8(ascii: ">") { i += 2; break attributeLoop }
                let attrStart = i
                while i < n, isNameByte(b[i]) { i += 1 }
                let attr = attrStart..<i
                while i < n, isSpace(b[i]) { if b[i] == 0x0A { line += 1 }; i += 1 }
                guard !attr.isEmpty, i < n, b[i] == UInt8(ascii: "=") else {
                    throw fail(line, "malformed attribute in <\(text(name))> — expected name=\"value\"")
                }
                i += 1
                while i < n, isSpace(b[i]) { if b[i] == 0x0A { line += 1 }; i += 1 }
                guard i < n, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") else {
                    throw fail(line, "the value of \(text(attr)) in <\(text(name))> is not quoted — expected \(text(attr))=\"value\"")
                }
                let quote = b[i]
                i += 1
                let valueStart = i
                while i < n, b[i] != quote { if b[i] == 0x0A { line += 1 }; i += 1 }
                guard i < n else { throw fail(tagLine, "the value of \(text(attr)) in <\(text(name))> is never closed — expected a closing quote") }
                attributes.append(Attribute(name: attr, value: valueStart..<i))
                i += 1
            }
            guard equals(name, "Point") else { continue }
            func number(_ key: StaticString, _ unit: String) throws(LatsimError) -> Double {
                guard let value = attributes.first(where: { equals($0.name, key) })?.value else {
                    throw fail(tagLine, "<Point> has no \(key) attribute — expected X, Y (pixels) and T (milliseconds)")
                }
                guard let v = NumberSyntax.double(b, from: value.lowerBound, to: value.upperBound) else {
                    throw fail(tagLine, "\(key)=\"\(LatsimError.shortened(text(value)))\" is not a number — expected \(unit)")
                }
                return v
            }
            let x = try number("X", "a decimal number of pixels")
            let y = try number("Y", "a decimal number of pixels")
            let t = try number("T", "a decimal number of milliseconds")
            points.append(try checked(t, x, y, file: file, line: tagLine))
        }
        let lastLine = n > 0 && b[n - 1] == 0x0A ? line - 1 : line
        return try stroke(points, file: file, endLine: lastLine, what: "<Point> elements")
    }

    // MARK: CSV

    /// The header a CSV trace needs, in words, for messages.
    static let csvHeaders = "'t_ms,x,y' or 't_ms,x,y,force' (names quoted or not), optionally after an unnamed index column as pandas' to_csv and R's write.csv write"

    static func parseCSV(_ b: [UInt8], file: String, maximumForce: Double = PressProfile.defaultMaximumForce) throws(LatsimError) -> TraceStroke {
        var points: [RawPoint] = []
        var reader = CSVRecords(b, file: file)
        // the header's columns (0 until it is read) and whether the first is an index
        var columns = 0, indexed = false
        while let record = try reader.next() {
            let fields = record.fields
            if columns == 0 {
                var names = fields.map { $0.text.trimmedWhitespace.lowercased() }
                // pandas' to_csv writes its index first, unnamed (`,t_ms,...`);
                // R's write.csv its row names, named "" (`"","t_ms",...`)
                if names.count > 1, names[0].isEmpty {
                    indexed = true
                    names.removeFirst()
                }
                guard names == ["t_ms", "x", "y"] || names == ["t_ms", "x", "y", "force"] else {
                    throw LatsimError(file: file, line: record.line, problem: "the header is '\(LatsimError.shortened(reader.text(record.span)))'", expected: csvHeaders)
                }
                columns = fields.count
                continue
            }
            guard fields.count == columns else {
                let at = fields.count > columns ? reader.column(fields[columns].start, lineStart: fields[columns].lineStart)
                                                : reader.column(fields[fields.count - 1].end, lineStart: fields[fields.count - 1].lineStart)
                throw LatsimError(file: file, line: record.line, column: at,
                                  problem: "the row '\(LatsimError.shortened(reader.text(record.span)))' has \(fields.count) column\(fields.count == 1 ? "" : "s")",
                                  expected: "\(columns), as in the header")
            }
            let names = (indexed ? [""] : []) + ["t_ms", "x", "y", "force"]
            var values: [Double] = []
            for (k, f) in fields.enumerated() where !(indexed && k == 0) {
                guard let v = parseNumber(f.text) else {
                    throw LatsimError(file: file, line: f.line, column: reader.column(f.start, lineStart: f.lineStart),
                                      problem: "\(names[k]) '\(LatsimError.shortened(f.text))' is not a number", expected: "a decimal number")
                }
                values.append(v)
            }
            var point = try checked(values[0], values[1], values[2], file: file, line: record.line)
            if values.count == 4 {
                let f = values[3], field = fields[fields.count - 1]
                guard f >= 0, f <= maximumForce else {
                    throw LatsimError(file: file, line: field.line, column: reader.column(field.start, lineStart: field.lineStart),
                                      key: "force", value: field.text, problem: "is outside the range",
                                      expected: "a force from 0 to the device's largest force \(formatDecimal(maximumForce, places: 6)) (device.maximumForce; 1.0 is an average touch)")
                }
                point.force = f
            }
            points.append(point)
        }
        guard columns > 0 else {
            throw LatsimError(file: file, line: Swift.max(1, reader.lastLine), problem: "the file has no header", expected: csvHeaders + " on the first line")
        }
        return try stroke(points, file: file, endLine: reader.lastLine, what: "rows")
    }

    // MARK: shared checks

    /// Checks the order of the points and builds the stroke.
    static func stroke(_ points: [RawPoint], file: String, endLine: Int, what: String) throws(LatsimError) -> TraceStroke {
        var distinct = 0
        for (k, p) in points.enumerated() {
            if k == 0 { distinct = 1; continue }
            let previous = points[k - 1]
            if p.time < previous.time {
                throw LatsimError(file: file, line: p.line, problem: "time goes backwards (\(formatDecimal(p.time.milliseconds, places: 6)) ms after \(formatDecimal(previous.time.milliseconds, places: 6)) ms on line \(previous.line))", expected: "times in increasing order")
            }
            if p.time > previous.time { distinct += 1 }
        }
        guard distinct >= 2 else {
            throw LatsimError(file: file, line: points.last?.line ?? endLine, problem: "the stroke is empty: \(points.count) \(what) with \(distinct) distinct timestamp\(distinct == 1 ? "" : "s")", expected: "at least 2 distinct timestamps")
        }
        let forces = points.first?.force == nil ? nil : points.map { $0.force ?? 0 }
        return try TraceStroke(source: file, samples: points.map { TouchSample(time: $0.time, position: $0.position) }, forces: forces)
    }

    /// A finite decimal number (`12`, `-3.5`, `1e3`); nil otherwise.
    static func parseNumber(_ text: String) -> Double? { NumberSyntax.double(text) }
}

@inline(__always) private func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
@inline(__always) private func isNameByte(_ c: UInt8) -> Bool {
    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
        || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ":") || c == UInt8(ascii: ".") || c >= 0x80
}

/// The records of a CSV text (RFC 4180), one at a time: fields split at
/// commas; a field in double quotes may hold commas, line breaks and quotes
/// (written twice); spaces around a field are dropped; a record ends at LF
/// (a CR before it is dropped). Blank lines and lines starting with `#`
/// between records are skipped; a UTF-8 byte order mark is skipped.
struct CSVRecords {
    /// One field: its text (unquoted), the line it starts on, and where it
    /// starts and ends (byte offsets, with the offset of its line's start)
    /// for the column a message names.
    struct Field {
        var text: String
        var line: Int
        var start: Int
        var end: Int
        var lineStart: Int
    }

    let b: [UInt8]
    let file: String
    var i = 0
    var line = 1
    var lineStart = 0
    /// The last line read (for messages about the end of the file).
    var lastLine: Int { i > 0 && i <= b.count && b[i - 1] == 0x0A ? line - 1 : line }

    init(_ bytes: [UInt8], file: String) {
        b = bytes
        self.file = file
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { i = 3; lineStart = 3 }
    }

    /// The 1-based column, in characters, of byte `offset` on the line
    /// starting at `lineStart`.
    func column(_ offset: Int, lineStart: Int) -> Int {
        var c = 1
        var k = lineStart
        while k < offset && k < b.count {
            if b[k] & 0xC0 != 0x80 { c += 1 }
            k += 1
        }
        return c
    }

    @inline(__always) func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    /// The text of a record (for messages): the bytes it spans, without a
    /// CR before its LF and without surrounding whitespace.
    func text(_ span: Range<Int>) -> String {
        var text = String(decoding: b[span], as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return text.trimmedWhitespace
    }

    /// The next record: its fields, its first line and the bytes it spans
    /// (``text(_:)`` gives its text for messages); nil at the end.
    mutating func next() throws(LatsimError) -> (fields: [Field], line: Int, span: Range<Int>)? {
        let n = b.count
        // blank and comment lines between records
        while i < n {
            var k = i
            while k < n, isBlank(b[k]) || b[k] == 0x0D { k += 1 }
            guard k == n || b[k] == 0x0A || b[k] == UInt8(ascii: "#") else { break }
            while k < n, b[k] != 0x0A { k += 1 }
            i = Swift.min(k + 1, n)
            if k < n { line += 1; lineStart = i }
        }
        guard i < n else { return nil }
        let recordLine = line, recordStart = i
        var fields: [Field] = []
        while true {
            while i < n, isBlank(b[i]) { i += 1 }
            let start = i, fieldLine = line, fieldLineStart = lineStart
            if i < n, b[i] == 0x22 {
                i += 1
                var bytes: [UInt8] = []
                var closed = false
                while i < n {
                    let c = b[i]
                    if c == 0x22 {
                        if i + 1 < n, b[i + 1] == 0x22 { bytes.append(0x22); i += 2; continue }
                        i += 1
                        closed = true
                        break
                    }
                    if c == 0x0A { line += 1; lineStart = i + 1 }
                    bytes.append(c)
                    i += 1
                }
                guard closed else {
                    throw LatsimError(file: file, line: fieldLine, column: column(start, lineStart: fieldLineStart),
                                      problem: "a quoted field is never closed",
                                      expected: "a closing \" (a quote inside a quoted field is written twice: \"\")")
                }
                let end = i
                while i < n, isBlank(b[i]) || (b[i] == 0x0D && (i + 1 == n || b[i + 1] == 0x0A)) { i += 1 }
                fields.append(Field(text: String(decoding: bytes, as: UTF8.self), line: fieldLine, start: start, end: end, lineStart: fieldLineStart))
                if i < n, b[i] == 0x2C { i += 1; continue }
                if i < n, b[i] != 0x0A {
                    throw LatsimError(file: file, line: line, column: column(i, lineStart: lineStart),
                                      problem: "text after the closing quote of a field",
                                      expected: "a comma or the end of the line after a quoted field (a quote inside one is written twice: \"\")")
                }
            } else {
                while i < n, b[i] != 0x2C, b[i] != 0x0A { i += 1 }
                var end = i
                if end > start, b[end - 1] == 0x0D { end -= 1 }
                if let q = b[start..<end].firstIndex(of: 0x22) {
                    throw LatsimError(file: file, line: line, column: column(q, lineStart: lineStart),
                                      problem: "a quote inside a field that does not start with one",
                                      expected: "the whole field in quotes, with each quote inside written twice (\"a\"\"b\")")
                }
                var s = start, e = end
                while s < e, isBlank(b[s]) { s += 1 }
                while e > s, isBlank(b[e - 1]) { e -= 1 }
                let text = s < e && (b[s] >= 0x80 || b[e - 1] >= 0x80)
                    ? String(decoding: b[s..<e], as: UTF8.self).trimmedWhitespace
                    : String(decoding: b[s..<e], as: UTF8.self)
                fields.append(Field(text: text, line: fieldLine, start: start, end: end, lineStart: fieldLineStart))
                if i < n, b[i] == 0x2C { i += 1; continue }
            }
            // the end of the record: LF or the end of the text
            let recordEnd = i
            if i < n { i += 1; line += 1; lineStart = i }
            return (fields, recordLine, recordStart..<recordEnd)
        }
    }
}
