import SimKernel
import Testing

/// Decimal literals and durations are read byte by byte. The definitions
/// they replace read `Character`s; those are kept here, and both must take
/// and refuse the same texts with the same values.
@Suite struct DecimalBytesTests {
    /// `Rational(decimal:)` as it was defined over characters.
    static func plainDecimal(_ text: String) -> Rational? {
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
              intPart.allSatisfy({ $0.isASCII && $0.isNumber }), fracPart.allSatisfy({ $0.isASCII && $0.isNumber }),
              intPart.count + fracPart.count <= 18 else { return nil }
        guard var n = Int64(String(intPart.isEmpty ? "0" : intPart) + String(fracPart)) else { return nil }
        var d: Int64 = 1
        for _ in 0..<fracPart.count { d *= 10 }
        for _ in 0..<Swift.max(exponent, 0) {
            let (m, o) = n.multipliedReportingOverflow(by: 10)
            if o { return nil }
            n = m
        }
        for _ in 0..<Swift.max(-exponent, 0) {
            let (m, o) = d.multipliedReportingOverflow(by: 10)
            if o { return nil }
            d = m
        }
        return Rational(negative ? -n : n, d)
    }

    /// Texts made of what a number holds (digits, points, signs, exponents,
    /// blanks), a few other bytes and a multi-byte character, and texts a
    /// user writes.
    static func texts() -> [String] {
        var texts = ["0", "60", "59.94", "0.5", ".5", "5.", ".", "-2", "+3", "1e3", "1E-3", "2.5e+2", "1e17", "1e18", "1e-17",
                     "-1e-18", "e5", "1e", "1e+", "+", "-", "", " ", " 4 ", "\t7\t", "1.2.3", "--1", "+-1", "1 2",
                     "123456789012345678", "1234567890123456789", "0.000000000000000001", "00000000000000000012",
                     "9e17", "9.9e16", "1e0000000000000000000005", "1e99999999999999999999", "٣", "1٣", "4\u{301}",
                     "1_000", "0x10", "inf", "nan", "1,5", "4\u{A0}", "\u{A0}4", "\u{2003}1.5\u{3000}", "1\u{A0}5"]
        // a no-break space and an em space: Unicode spaces, trimmed at the ends as spaces are
        let alphabet: [String] = ["0", "1", "5", "9", ".", "e", "E", "+", "-", " ", "\t", "x", "µ", "0", "3", "7", "\u{A0}", "\u{2003}"]
        var rng = SeededRandom(seed: 17, stream: 4)
        for _ in 0..<30_000 {
            let length = Int(rng.next() % 12)
            texts.append((0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined())
        }
        return texts
    }

    @Test func decimalsReadAsTheCharacterDefinitionReadsThem() {
        for text in Self.texts() {
            #expect(Rational(decimal: text) == Self.plainDecimal(text), "\(text.debugDescription)")
        }
    }

    /// `DurationSyntax.parse` as it was defined over characters.
    static func plainDuration(_ text: String, framePeriod: Rational) -> SimTime? {
        let t = text.trimmedWhitespace
        let units: [(String, Rational)] = [("frames", framePeriod), ("frame", framePeriod), ("ns", Rational(1)), ("us", Rational(1_000)),
                                           ("µs", Rational(1_000)), ("ms", Rational(1_000_000)), ("s", Rational(1_000_000_000))]
        for (unit, scale) in units where t.hasSuffix(unit) {
            guard let value = plainDecimal(String(t.dropLast(unit.count)).trimmedWhitespace) else { continue }
            return value.scaledRounded(by: scale)
        }
        if let value = plainDecimal(t), value.numerator == 0 { return 0 }
        return nil
    }

    @Test func durationsReadAsTheCharacterDefinitionReadsThem() {
        let period = Rational(1_000_000_000, 120)
        let units = ["ns", "us", "µs", "ms", "s", "frame", "frames", " ms", "ms ", "m", "sec", "", "\u{A0}ms", "ms\u{2003}"]
        var rng = SeededRandom(seed: 19, stream: 5)
        var texts = ["4ms", "250us", "1.5s", "12ns", "1frame", "0.5frames", "0", " 0 ", "0ms", "4 ms", "-4ms", "1e3ms",
                     "300000000000s", "1e17s", "µs", "ms", "s", "frames", "4msms", "4 m s", "4\u{A0}ms", "\u{A0}4ms\u{A0}", "4m\u{A0}s"]
        let numbers = Self.texts()
        for _ in 0..<20_000 {
            texts.append(numbers[Int(rng.next() % UInt64(numbers.count))] + units[Int(rng.next() % UInt64(units.count))])
        }
        for text in texts {
            let read = try? DurationSyntax.parse(text, framePeriod: period)
            #expect(read == Self.plainDuration(text, framePeriod: period), "\(text.debugDescription)")
        }
    }
}
