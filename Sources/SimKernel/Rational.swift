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
        var s = Substring(text.trimmedWhitespace)
        var exponent = 0
        if let e = s.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let ex = Int(s[s.index(after: e)...]), Swift.abs(ex) < 18 else { return nil }
            exponent = ex
            s = s[..<e]
        }
        var negative = false
        if s.first == "-" || s.first == "+" { negative = s.first == "-"; s = s.dropFirst() }
        guard !s.isEmpty else { return nil }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let intPart = parts[0], fracPart = parts.count == 2 ? parts[1] : ""
        guard !(intPart.isEmpty && fracPart.isEmpty),
              intPart.allSatisfy(\.isASCIIDigit), fracPart.allSatisfy(\.isASCIIDigit),
              intPart.count + fracPart.count <= 18 else { return nil }
        guard var n = Int64(String(intPart.isEmpty ? "0" : intPart) + String(fracPart)) else { return nil }
        var d: Int64 = 1
        for _ in 0..<fracPart.count { d *= 10 }
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
        self.init(negative ? -n : n, d)
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
