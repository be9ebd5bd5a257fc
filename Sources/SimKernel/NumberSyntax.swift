/// The one way latsim reads a number written by a user: plain decimal
/// notation with an optional sign, fraction and exponent (`60`, `-2.5`,
/// `1e3`, `.5`). Hexadecimal (`0x10`), `inf`, `nan`, underscores and
/// surrounding junk are refused everywhere alike.
public enum NumberSyntax {
    /// True when `text` (already trimmed) is plain decimal notation.
    public static func isDecimal(_ text: Substring) -> Bool {
        var digits = 0
        var i = text.startIndex
        if i < text.endIndex, text[i] == "+" || text[i] == "-" { i = text.index(after: i) }
        while i < text.endIndex, text[i].isASCIIDigit { digits += 1; i = text.index(after: i) }
        if i < text.endIndex, text[i] == "." {
            i = text.index(after: i)
            while i < text.endIndex, text[i].isASCIIDigit { digits += 1; i = text.index(after: i) }
        }
        guard digits > 0 else { return false }
        if i < text.endIndex, text[i] == "e" || text[i] == "E" {
            i = text.index(after: i)
            if i < text.endIndex, text[i] == "+" || text[i] == "-" { i = text.index(after: i) }
            var exponentDigits = 0
            while i < text.endIndex, text[i].isASCIIDigit { exponentDigits += 1; i = text.index(after: i) }
            guard exponentDigits > 0 else { return false }
        }
        return i == text.endIndex
    }

    /// A finite number in decimal notation, or nil.
    public static func double(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { double($0, from: 0, to: $0.count) }
    }

    /// ``double(_:)`` the long way: any whitespace trimmed, then the syntax
    /// checked and the text converted.
    private static func converted(_ text: String) -> Double? {
        let t = text.trimmedWhitespace
        guard isDecimal(Substring(t)), let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// The number in `bytes[start..<end]` (UTF-8), as ``double(_:)``, without
    /// building a string for the common case: plain ASCII with at most 15
    /// significant digits and a power of ten within ±22 is exact in binary
    /// floating point on both sides of one multiplication or division, so
    /// that one correctly rounded operation gives the same double as a full
    /// decimal conversion (Clinger, "How to Read Floating Point Numbers
    /// Accurately", PLDI 1990). Anything else (more digits, a larger
    /// exponent, non-ASCII bytes to trim) goes through ``double(_:)``.
    public static func double(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var s = start, e = end
        while s < e, bytes[s] == 0x20 || bytes[s] == 0x09 { s += 1 }
        while e > s, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 { e -= 1 }
        func slow() -> Double? { converted(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) }
        var i = s
        var negative = false
        if i < e, bytes[i] == 0x2B || bytes[i] == 0x2D { negative = bytes[i] == 0x2D; i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, significant = 0, scale = 0
        @inline(__always) func digit(_ c: UInt8, fraction: Bool) {
            digits += 1
            if significant > 0 || c != 0x30 { significant += 1 }
            if significant <= 19 { mantissa = mantissa &* 10 &+ UInt64(c &- 0x30) }
            if fraction { scale -= 1 }
        }
        while i < e, bytes[i] >= 0x30, bytes[i] <= 0x39 { digit(bytes[i], fraction: false); i += 1 }
        if i < e, bytes[i] == 0x2E {
            i += 1
            while i < e, bytes[i] >= 0x30, bytes[i] <= 0x39 { digit(bytes[i], fraction: true); i += 1 }
        }
        if i < e, bytes[i] >= 0x80 { return slow() }
        guard digits > 0 else { return trailingNonASCII(bytes, i, end) ? slow() : nil }
        if i < e, bytes[i] == 0x65 || bytes[i] == 0x45 {
            i += 1
            var exponentNegative = false
            if i < e, bytes[i] == 0x2B || bytes[i] == 0x2D { exponentNegative = bytes[i] == 0x2D; i += 1 }
            var exponent = 0, exponentDigits = 0
            while i < e, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                exponentDigits += 1
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[i] &- 0x30) }
                i += 1
            }
            guard exponentDigits > 0 else { return trailingNonASCII(bytes, i, end) ? slow() : nil }
            scale += exponentNegative ? -exponent : exponent
        }
        guard i == e else { return trailingNonASCII(bytes, i, end) ? slow() : nil }
        guard significant <= 15, mantissa <= 1 << 53, scale >= -22, scale <= 22 else { return slow() }
        let m = Double(mantissa)
        let v = scale >= 0 ? m * powersOfTen[scale] : m / powersOfTen[-scale]
        return negative ? -v : v
    }

    /// Whether a byte from `i` to `end` is outside ASCII (a Unicode space
    /// that the string path trims, or text it refuses with the same words).
    private static func trailingNonASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Bool {
        var k = i
        while k < end { if bytes[k] >= 0x80 { return true }; k += 1 }
        return false
    }

    /// 10^0 ... 10^22, each exact in a double.
    private static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { r, _ in r * 10 } }

    /// A percentage as a user writes it, wherever latsim asks for one:
    /// plain decimal notation with or without a trailing `%` (`5`, `5%`,
    /// `0.5 %`), in percent; nil for anything else (`0x10`, `nan`, `5%%`).
    public static func percent(_ text: String) -> Double? {
        var t = text.trimmedWhitespace
        if t.hasSuffix("%") { t = String(t.dropLast()).trimmedWhitespace }
        return double(t)
    }

    /// A whole number in decimal notation (no fraction, no exponent) within
    /// Int, or nil.
    public static func integer(_ text: String) -> Int? {
        let t = text.trimmedWhitespace
        guard t.allSatisfy({ $0.isASCIIDigit || $0 == "-" || $0 == "+" }) else { return nil }
        return Int(t)
    }

    /// An unsigned whole number in decimal notation within UInt64, or nil.
    public static func unsigned(_ text: String) -> UInt64? {
        let t = text.trimmedWhitespace
        guard !t.isEmpty, t.allSatisfy({ $0.isASCIIDigit || $0 == "+" }) else { return nil }
        return UInt64(t)
    }
}

import Foundation

/// The lines of a text: ended by LF or by CR LF (Windows, spreadsheets),
/// without their line ends. (Swift reads CR LF as one character, so a split
/// at "\n" alone would leave CR LF lines joined.)
public func lines(of text: String) -> [Substring] {
    text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
}
