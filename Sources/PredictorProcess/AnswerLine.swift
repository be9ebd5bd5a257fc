/// One line a predictor wrote, read as a JSON object whose members latsim
/// looks at are plain values (nested objects and arrays are accepted and
/// ignored). Strict JSON otherwise: a problem is reported with the column.
struct AnswerLine {
    /// A member's value.
    enum Value: Equatable {
        case string(String)
        /// A number, and its integer value when it is written as one.
        case number(Double, integer: Int64?)
        case bool(Bool)
        case null
        /// An object or an array.
        case nested
    }

    /// The members, by key (a repeated key keeps its last value).
    private(set) var members: [String: Value] = [:]

    /// Parses `bytes` (one line, without its newline); throws a description
    /// of the first problem.
    init(_ bytes: ArraySlice<UInt8>) throws(AnswerLineError) {
        var p = Parser(bytes: bytes)
        p.skipSpace()
        guard p.peek == UInt8(ascii: "{") else { throw p.error("it does not start with '{'") }
        members = try p.object()
        p.skipSpace()
        if p.index < p.bytes.endIndex { throw p.error("text after the object") }
    }

    subscript(key: String) -> Value? { members[key] }
}

/// What is wrong with a line, and where.
struct AnswerLineError: Error {
    var problem: String
    var column: Int
}

private struct Parser {
    let bytes: ArraySlice<UInt8>
    var index: Int
    var depth = 0

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var peek: UInt8? { index < bytes.endIndex ? bytes[index] : nil }

    func error(_ problem: String) -> AnswerLineError {
        AnswerLineError(problem: problem, column: index - bytes.startIndex + 1)
    }

    mutating func skipSpace() {
        while let c = peek, c == 0x20 || c == 0x09 || c == 0x0D { index += 1 }
    }

    mutating func expect(_ c: UInt8, _ what: String) throws(AnswerLineError) {
        skipSpace()
        guard peek == c else { throw error("expected \(what)") }
        index += 1
    }

    mutating func object() throws(AnswerLineError) -> [String: AnswerLine.Value] {
        depth += 1
        if depth > 64 { throw error("nested too deeply") }
        defer { depth -= 1 }
        try expect(UInt8(ascii: "{"), "'{'")
        var out: [String: AnswerLine.Value] = [:]
        skipSpace()
        if peek == UInt8(ascii: "}") { index += 1; return out }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let key = try string()
            try expect(UInt8(ascii: ":"), "':' after a key")
            out[key] = try value()
            skipSpace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return out
        }
    }

    mutating func array() throws(AnswerLineError) {
        depth += 1
        if depth > 64 { throw error("nested too deeply") }
        defer { depth -= 1 }
        try expect(UInt8(ascii: "["), "'['")
        skipSpace()
        if peek == UInt8(ascii: "]") { index += 1; return }
        while true {
            _ = try value()
            skipSpace()
            if peek == UInt8(ascii: ",") { index += 1; continue }
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return
        }
    }

    mutating func value() throws(AnswerLineError) -> AnswerLine.Value {
        skipSpace()
        guard let c = peek else { throw error("a value is missing") }
        switch c {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): _ = try object(); return .nested
        case UInt8(ascii: "["): try array(); return .nested
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("not a JSON value")
        }
    }

    mutating func literal(_ word: String) throws(AnswerLineError) {
        for u in word.utf8 {
            guard peek == u else { throw error("not a JSON value (\(word)?)") }
            index += 1
        }
    }

    mutating func digits() -> Int {
        var n = 0
        while let c = peek, c >= 0x30 && c <= 0x39 { index += 1; n += 1 }
        return n
    }

    mutating func number() throws(AnswerLineError) -> AnswerLine.Value {
        let start = index
        var integer = true
        if peek == UInt8(ascii: "-") { index += 1 }
        if peek == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("a malformed number")
        }
        if peek == UInt8(ascii: ".") {
            index += 1
            integer = false
            if digits() == 0 { throw error("a malformed number (digits after '.')") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            index += 1
            integer = false
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { throw error("a malformed number (digits after 'e')") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let x = Double(text) else { throw error("a malformed number") }
        return .number(x, integer: integer ? Int64(text) : nil)
    }

    mutating func string() throws(AnswerLineError) -> String {
        index += 1 // the opening quote
        var scalars = String.UnicodeScalarView()
        var run = index
        func flush(_ p: Parser, _ to: Int, into s: inout String.UnicodeScalarView) {
            s.append(contentsOf: String(decoding: p.bytes[run..<to], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard let c = peek else { throw error("a string is not closed") }
            if c == UInt8(ascii: "\"") {
                flush(self, index, into: &scalars)
                index += 1
                return String(scalars)
            }
            if c < 0x20 { throw error("a control character in a string") }
            if c != UInt8(ascii: "\\") { index += 1; continue }
            flush(self, index, into: &scalars)
            index += 1
            guard let e = peek else { throw error("a string is not closed") }
            index += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if code >= 0xD800 && code < 0xDC00 {
                    guard peek == UInt8(ascii: "\\") else { throw error("a lone surrogate in a string") }
                    index += 1
                    guard peek == UInt8(ascii: "u") else { throw error("a lone surrogate in a string") }
                    index += 1
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw error("a lone surrogate in a string") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(code) else { throw error("a lone surrogate in a string") }
                scalars.append(u)
            default:
                throw error("an unknown escape in a string")
            }
            run = index
        }
    }

    mutating func hex4() throws(AnswerLineError) -> UInt32 {
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let c = peek else { throw error("a short \\u escape") }
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw error("a malformed \\u escape")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }
}
