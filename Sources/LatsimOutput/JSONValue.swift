import SimKernel

/// A JSON value with ordered object keys, written deterministically: the
/// same value gives the same bytes on every run (POSIX numbers, no
/// locale, keys in the order given).
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number written with at most `places` decimals.
    case number(Double, places: Int)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// A number with 6 decimals (ms and frames), or null when absent.
    public static func ms(_ x: Double?) -> JSONValue { x.map { .number($0, places: 6) } ?? .null }

    /// Two values are equal when they print the same text.
    public static func == (a: JSONValue, b: JSONValue) -> Bool { a.text() == b.text() }

    /// The JSON text; `indent` spaces per level (0 = one line).
    public func text(indent: Int = 2) -> String {
        var out = ""
        write(into: &out, indent: indent, level: 0)
        return out
    }

    func write(into out: inout String, indent: Int, level: Int) {
        let nl = indent > 0 ? "\n" : ""
        var pad: String { String(repeating: " ", count: indent * (level + 1)) }
        var closePad: String { String(repeating: " ", count: indent * level) }
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let x, let places): out += x.isFinite ? formatDecimal(x, places: places) : "null"
        case .string(let s): JSONValue.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            let pad = pad
            for (i, v) in items.enumerated() {
                out += pad
                v.write(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < items.count ? "," : "") + nl
            }
            out += closePad + "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{" + nl
            let pad = pad
            for (i, (k, v)) in fields.enumerated() {
                out += pad
                JSONValue.quote(k, into: &out)
                out += indent > 0 ? ": " : ":"
                v.write(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < fields.count ? "," : "") + nl
            }
            out += closePad + "}"
        }
    }

    /// Appends `s` as a JSON string literal: quotes, backslashes and
    /// control characters escaped.
    package static func quote(_ s: String, into out: inout String) {
        out += "\""
        // most strings need no escape: appended whole
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}

import Foundation

extension JSONValue {
    /// Writes an object whose last field is an array, the array element by
    /// element: the text of `.object(fields + [(key, .array(elements))])`
    /// as ``text(indent:)`` writes it, without holding the elements.
    public struct StreamedArrayField {
        private let indent: Int
        /// The elements written.
        public private(set) var count = 0

        /// Writes the object's opening, its `fields` and `key`.
        public init(fields: [(String, JSONValue)], key: String, indent: Int = 2, to sink: ByteSink) throws {
            self.indent = indent
            let nl = indent > 0 ? "\n" : ""
            let pad = String(repeating: " ", count: indent)
            var out = "{" + nl
            for (k, v) in fields {
                out += pad
                JSONValue.quote(k, into: &out)
                out += indent > 0 ? ": " : ":"
                v.write(into: &out, indent: indent, level: 1)
                out += "," + nl
            }
            out += pad
            JSONValue.quote(key, into: &out)
            out += indent > 0 ? ": " : ":"
            try sink.write(out)
        }

        /// Writes the array's next element.
        public mutating func append(_ element: JSONValue, to sink: ByteSink) throws {
            let nl = indent > 0 ? "\n" : ""
            var out = count == 0 ? "[" + nl : "," + nl
            out += String(repeating: " ", count: indent * 2)
            element.write(into: &out, indent: indent, level: 2)
            count += 1
            try sink.write(out)
        }

        /// Closes the array and the object.
        public func finish(to sink: ByteSink) throws {
            let nl = indent > 0 ? "\n" : ""
            try sink.write((count == 0 ? "[]" : nl + String(repeating: " ", count: indent) + "]") + nl + "}")
        }
    }
}
