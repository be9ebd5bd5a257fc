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
        let t = text.trimmingCharacters(in: .whitespaces)
        guard isDecimal(Substring(t)), let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// A percentage as a user writes it, wherever latsim asks for one:
    /// plain decimal notation with or without a trailing `%` (`5`, `5%`,
    /// `0.5 %`), in percent; nil for anything else (`0x10`, `nan`, `5%%`).
    public static func percent(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") { t = String(t.dropLast()).trimmingCharacters(in: .whitespaces) }
        return double(t)
    }

    /// A whole number in decimal notation (no fraction, no exponent) within
    /// Int, or nil.
    public static func integer(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.allSatisfy({ $0.isASCIIDigit || $0 == "-" || $0 == "+" }) else { return nil }
        return Int(t)
    }

    /// An unsigned whole number in decimal notation within UInt64, or nil.
    public static func unsigned(_ text: String) -> UInt64? {
        let t = text.trimmingCharacters(in: .whitespaces)
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
