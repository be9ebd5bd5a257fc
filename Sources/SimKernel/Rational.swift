/// An exact non-negative rational number, used for rates (Hz) and for the
/// decimal values written in scenarios (`0.5frames`, `1.5s`), so that
/// instants derived from them round exactly as Docs/Model.md, "Time" asks.
public struct Rational: Hashable, Sendable, CustomStringConvertible {
    /// The numerator, in lowest terms (carries the sign).
    public let numerator: Int64
    /// The denominator, in lowest terms, above 0.
    public let denominator: Int64

    /// `numerator / denominator`, reduced.
    public init(_ numerator: Int64, _ denominator: Int64 = 1) {
        precondition(denominator != 0, "zero denominator")
        var n = numerator, d = denominator
        if d < 0 { n = -n; d = -d }
        let g = Rational.gcd(Swift.abs(n), d)
        self.numerator = g > 1 ? n / g : n
        self.denominator = g > 1 ? d / g : d
    }

    /// Parses a decimal literal such as `60`, `59.94`, `0.5`, `-2`, `1e3`.
    /// Returns nil when the text is not a plain decimal number.
    public init?(decimal text: String) {
        // an end beyond ASCII may be a Unicode space, which `trimmedWhitespace` trims
        var text = text.utf8.allSatisfy({ $0 < 0x80 }) ? text : text.trimmedWhitespace
        guard let (n, d) = text.withUTF8(Rational.decimal) else { return nil }
        self.init(n, d)
    }

    /// The numerator and denominator of a decimal literal's bytes, or nil
    /// (any byte beyond ASCII): spaces and tabs around it; a sign; digits with at most one point
    /// (18 digits at most, one at least); then an exponent (`e` or `E`, an
    /// optional sign, digits) below 18 in size. Read byte by byte (through
    /// `Character`s it cost thousands of instructions a number).
    static func decimal(_ b: UnsafeBufferPointer<UInt8>) -> (Int64, Int64)? {
        let zero = UInt8(ascii: "0"), plus = UInt8(ascii: "+"), minus = UInt8(ascii: "-")
        var lo = 0, hi = b.count
        while lo < hi, b[lo] == 0x20 || b[lo] == 0x09 { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
        var exponent = 0
        if let e = (lo..<hi).first(where: { b[$0] == UInt8(ascii: "e") || b[$0] == UInt8(ascii: "E") }) {
            var i = e + 1, negative = false
            if i < hi && (b[i] == plus || b[i] == minus) { negative = b[i] == minus; i += 1 }
            guard i < hi else { return nil }
            while i < hi {
                guard b[i] &- zero < 10 else { return nil }
                exponent = exponent * 10 + Int(b[i] &- zero)
                guard exponent < 18 else { return nil }
                i += 1
            }
            if negative { exponent = -exponent }
            hi = e
        }
        var negative = false
        if lo < hi && (b[lo] == plus || b[lo] == minus) { negative = b[lo] == minus; lo += 1 }
        var n: Int64 = 0, digits = 0, decimals = 0, point = false
        for i in lo..<Swift.max(lo, hi) {
            if b[i] == UInt8(ascii: ".") {
                guard !point else { return nil }
                point = true
                continue
            }
            guard b[i] &- zero < 10 else { return nil }
            digits += 1
            guard digits <= 18 else { return nil }
            if point { decimals += 1 }
            n = n * 10 + Int64(b[i] &- zero)
        }
        guard digits > 0 else { return nil }
        var d: Int64 = 1
        for _ in 0..<decimals { d *= 10 }
        if exponent > 0 {
            for _ in 0..<exponent {
                let (m, o) = n.multipliedReportingOverflow(by: 10)
                if o { return nil }
                n = m
            }
        } else if exponent < 0 {
            for _ in 0..<(-exponent) {
                let (m, o) = d.multipliedReportingOverflow(by: 10)
                if o { return nil }
                d = m
            }
        }
        return (negative ? -n : n, d)
    }

    /// The nearest double.
    public var doubleValue: Double { Double(numerator) / Double(denominator) }
    /// True above 0.
    public var isPositive: Bool { numerator > 0 }
    /// True below 0.
    public var isNegative: Bool { numerator < 0 }

    /// `self * scale`, rounded half up to an integer; nil when the result
    /// does not fit in 64 bits.
    public func scaledRounded(by scale: Rational) -> Int64? {
        Int64(exactly: roundHalfUp(Int128(numerator) * Int128(scale.numerator),
                                   Int128(denominator) * Int128(scale.denominator)))
    }

    /// The integer, or the decimal value.
    public var description: String {
        denominator == 1 ? "\(numerator)" : "\(doubleValue)"
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var a = a, b = b
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}

extension Character {
    @usableFromInline var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}
