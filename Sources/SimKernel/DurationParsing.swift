/// Parses the duration syntax: a decimal number and a unit (`250us`, `4ms`,
/// `1.5s`, `12ns`) or display frames (`1frame`, `0.5frames`). A bare `0`
/// is allowed. The result is rounded half up to whole nanoseconds
/// (Docs/Model.md, "Time").
public enum DurationSyntax {
    /// The units as bytes, each with its nanoseconds (nil for a frame: the
    /// display period), a unit that ends another after it ("ms" before "s").
    static let units: [(name: [UInt8], scale: Rational?)] = [
        ("frames", nil), ("frame", nil), ("ns", Rational(1)), ("us", Rational(1_000)), ("µs", Rational(1_000)),
        ("ms", Rational(1_000_000)), ("s", Rational(1_000_000_000)),
    ].map { (Array($0.utf8), $1) }

    /// What a duration looks like, for messages.
    public static let expected = "a number and a unit (ns, us, ms, s) or frames, e.g. 4ms, 250us, 1.5s, 1frame"

    /// - Parameter framePeriod: the display period in ns (for `frames`).
    /// - Throws: ``LatsimError`` (value set, no key) when `text` is not a
    ///   duration or does not fit in 64-bit nanoseconds (about 292 years).
    public static func parse(_ text: String, framePeriod: Rational) throws(LatsimError) -> SimTime {
        if let ns = plainNanoseconds(text) { return ns }
        return try parseInFull(text, framePeriod: framePeriod)
    }

    /// ``parse(_:framePeriod:)`` of any duration, through rationals.
    static func parseInFull(_ text: String, framePeriod: Rational) throws(LatsimError) -> SimTime {
        // read as bytes; text beyond ASCII may hold a Unicode space, which
        // `trimmedWhitespace` trims at its ends and the number's
        var bytes = text.utf8.allSatisfy({ $0 < 0x80 }) ? text : text.trimmedWhitespace
        let read = bytes.withUTF8 { b -> (value: Rational, scale: Rational)? in
            var hi = b.count
            while hi > 0, b[hi - 1] == 0x20 || b[hi - 1] == 0x09 { hi -= 1 }
            for (unit, scale) in units where hi >= unit.count && unit.indices.allSatisfy({ b[hi - unit.count + $0] == unit[$0] }) {
                // "ms" also ends in "s": take the longest unit whose prefix is a number
                let number = UnsafeBufferPointer(rebasing: b[0..<(hi - unit.count)])
                let value: Rational?
                if number.allSatisfy({ $0 < 0x80 }) {
                    value = Rational.decimal(number).map { n, d in Rational(n, d) }
                } else {
                    value = Rational(decimal: String(decoding: number, as: UTF8.self))
                }
                guard let value else { continue }
                return (value, scale ?? framePeriod)
            }
            return nil
        }
        if let (value, scale) = read {
            guard let ns = value.scaledRounded(by: scale) else {
                throw LatsimError(value: text, problem: "is too long to simulate (more than 292 years)", expected: "a duration of at most a few days")
            }
            return ns
        }
        if let value = Rational(decimal: text), value.numerator == 0 { return 0 }
        throw LatsimError(value: text, problem: "not a duration", expected: expected)
    }

    /// The nanoseconds of the plainest durations, digits with at most one
    /// point between them and a unit of `ns`, `us`, `ms` or `s` (`4ms`,
    /// `1.01ms`: a sweep's axis values), when they are a whole number of
    /// nanoseconds; nil for anything else, which ``parse(_:framePeriod:)``
    /// reads in full. The same value as its rational path gives, without
    /// its fractions (a sweep parses a value at each grid point).
    @inline(__always)
    static func plainNanoseconds(_ text: String) -> SimTime? {
        var text = text
        return text.withUTF8 { b -> SimTime? in
            guard b.count >= 2 && b.count <= 24 && b[b.count - 1] == UInt8(ascii: "s") else { return nil }
            var end = b.count - 1
            let scale: Int64
            switch b[end - 1] {
            case UInt8(ascii: "m"): scale = 1_000_000; end -= 1
            case UInt8(ascii: "u"): scale = 1_000; end -= 1
            case UInt8(ascii: "n"): scale = 1; end -= 1
            default: scale = 1_000_000_000
            }
            var n: Int64 = 0, digits = 0, decimals = 0, point = -1
            for i in 0..<end {
                let c = b[i]
                if c == UInt8(ascii: ".") && point < 0 && i > 0 {
                    point = i
                    continue
                }
                guard c &- UInt8(ascii: "0") < 10, digits < 17 else { return nil }
                n = n * 10 + Int64(c &- UInt8(ascii: "0"))
                digits += 1
                if point >= 0 { decimals += 1 }
            }
            // a point needs digits on both sides, as "1.5"
            guard digits > 0 && (point < 0 || decimals > 0) else { return nil }
            let (ns, overflow) = n.multipliedReportingOverflow(by: scale)
            guard !overflow else { return nil }
            var d: Int64 = 1
            for _ in 0..<decimals { d *= 10 }
            return ns % d == 0 ? ns / d : nil
        }
    }

    /// Formats nanoseconds compactly (`4ms`, `16.666667ms`, `1.5s`).
    public static func format(_ ns: SimTime) -> String {
        if ns == 0 { return "0ms" }
        if ns % Nanos.perSecond == 0 { return "\(ns / Nanos.perSecond)s" }
        if ns % Nanos.perMillisecond == 0 { return "\(ns / Nanos.perMillisecond)ms" }
        if ns % Nanos.perMicrosecond == 0 && Swift.abs(ns) < Nanos.perMillisecond { return "\(ns / Nanos.perMicrosecond)us" }
        if Swift.abs(ns) < Nanos.perMicrosecond { return "\(ns)ns" }
        return "\(formatDecimal(Double(ns) / 1e6, places: 6))ms"
    }
}

/// Formats a number with at most `places` decimals, no trailing zeros, POSIX
/// style (`.` as decimal point, no grouping). With `fixed`, exactly
/// `places` decimals are written (trailing zeros kept), as tables align them.
///
/// Every finite number gives its digits, however large: where `x * 10^places`
/// would pass 2^53 (no longer exact, and past about 1.8e302 infinite),
/// printf rounds the number itself, so no step overflows. `places` is
/// taken from 0 to 17 (a double holds 17 significant digits). A non-finite
/// number gives `nan`, `inf` or `-inf`, which JSON writers never call this
/// for (``finiteDecimal(_:places:)``).
public func formatDecimal(_ x: Double, places: Int, fixed: Bool = false) -> String {
    withDecimal(x, places: places, fixed: fixed) { String(decoding: $0, as: UTF8.self) }
}

/// Hands ``formatDecimal(_:places:fixed:)``'s digits of `x` to `body` as
/// UTF-8 bytes, without making a string (LatsimOutput's `RawBytes`
/// appends them: a sweep's CSV and table rows).
public func withDecimalDigits(_ x: Double, places: Int, fixed: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    withDecimal(x, places: places, fixed: fixed, body)
}

/// Calls `body` with ``formatDecimal(_:places:fixed:)``'s digits of `x`
/// as UTF-8 bytes.
@inline(__always)
private func withDecimal<R>(_ x: Double, places: Int, fixed: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    func text(_ s: String) -> R {
        var s = s
        return s.withUTF8(body)
    }
    if x.isNaN { return text("nan") }
    if x.isInfinite { return text(x > 0 ? "inf" : "-inf") }
    let places = Swift.min(Swift.max(places, 0), 17)
    if Swift.abs(x) < 1e15, Double(Int64(x)) == x {
        // a whole number (counts, and many a sweep's figures): its digits,
        // as the steps below would give them, without scaling or rounding
        // (never "-0": Int64(-0.0) is 0 and not negative)
        let n = Int64(x)
        return pointed(n.magnitude, places: 0, negative: n < 0, pad: fixed ? places : 0, body)
    }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    if Swift.abs(x) * scale >= 9_007_199_254_740_992 { // 2^53: x * scale would not be exact
        // printf rounds the exact binary value to `places` decimals itself
        let s = Swift.abs(x) >= 4_503_599_627_370_496 && Swift.abs(x) < 9e18 ? String(Int64(x)) : String(format: "%.\(places)f", x)
        return text(trimmed(s, places: places, fixed: fixed))
    }
    let m = (x * scale).rounded()
    let r = m / scale
    if r == r.rounded() && Swift.abs(r) < 1e15 {
        // an integer (never "-0": Int64(-0.0) is 0 and not negative)
        return pointed(UInt64(Swift.abs(Int64(r))), places: 0, negative: r < 0, pad: fixed ? places : 0, body)
    }
    if Swift.abs(m) < 4_503_599_627_370_496 { // 2^52
        // r is within half an ulp of m / 10^places, and below 2^52 that
        // is less than half a unit of the last decimal: printf would
        // write m's digits with the point `places` from the right (r is
        // not whole, so a decimal is not zero and the text is never "-0")
        return pointed(UInt64(Swift.abs(m)), places: places, negative: m < 0, pad: fixed ? places : 0, body)
    }
    return text(trimmed(String(format: "%.\(places)f", r), places: places, fixed: fixed))
}

/// printf's digits `s` without trailing zeros after the point, "-0" as "0",
/// and with `fixed` padded back to `places` decimals.
private func trimmed(_ s: String, places: Int, fixed: Bool) -> String {
    var s = s
    // (a byte search: `contains(".")` on a String went through Foundation's
    // substring search, a tenth of a sweep's instructions)
    let point = UInt8(ascii: ".")
    if s.utf8.contains(point) {
        while s.utf8.last == UInt8(ascii: "0") { s.removeLast() }
        if s.utf8.last == point { s.removeLast() }
    }
    if s == "-0" { s = "0" }
    if fixed && places > 0 {
        if !s.utf8.contains(point) { s += "." }
        let decimals = s.count - 1 - s.distance(from: s.startIndex, to: s.firstIndex(of: ".")!)
        s += String(repeating: "0", count: Swift.max(0, places - decimals))
    }
    return s
}

/// `m / 10^places` as `%.{places}f` writes it (sign, integer digits,
/// point, `places` decimals), without trailing zeros after the point but
/// keeping at least `pad` decimals (a point and `pad` zeros after an
/// integer), handed to `body` as bytes: trimming a string a character at a
/// time had cost most of a sweep row's formatting.
@inline(__always)
private func pointed<R>(_ m: UInt64, places: Int, negative: Bool, pad: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    // the text (at most a sign, 20 digits, a point and 17 decimals) is
    // written from the start; m's digits wait at the end, most significant first
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { b in
        let zero = UInt8(ascii: "0")
        var n = m, k = 0
        repeat {
            k += 1
            b[64 - k] = zero + UInt8(n % 10)
            n /= 10
        } while n > 0
        let digits = 64 - k
        var len = 0
        if negative { b[0] = UInt8(ascii: "-"); len = 1 }
        let integer = k - places
        if integer <= 0 {
            b[len] = zero
            len += 1
        } else {
            for i in 0..<integer { b[len + i] = b[digits + i] }
            len += integer
        }
        if places > 0 || pad > 0 {
            let point = len
            b[len] = UInt8(ascii: ".")
            len += 1
            if places > 0 {
                for _ in 0..<Swift.max(0, places - k) { b[len] = zero; len += 1 }
                for i in Swift.max(0, integer)..<k { b[len] = b[digits + i]; len += 1 }
            }
            while len - point - 1 > pad && b[len - 1] == zero { len -= 1 }
            while len - point - 1 < pad { b[len] = zero; len += 1 }
            if len == point + 1 { len = point }
        }
        return body(UnsafeBufferPointer(rebasing: b[0..<len]))
    }
}

/// The decimal text of `m` / 10^`places`, `-` first when `negative`: an
/// exact decimal held as an integer (a sweep axis's values), its digits as
/// ``formatDecimal(_:places:fixed:)`` writes them (no trailing zeros after
/// the point, no point with nothing after it). `places` is 0 to 40.
public func formatDecimal(mantissa m: UInt64, places: Int, negative: Bool) -> String {
    precondition(places >= 0 && places <= 40, "at most 40 places")
    return pointed(m, places: places, negative: negative && m != 0, pad: 0) { String(decoding: $0, as: UTF8.self) }
}

/// A number for a JSON document: its digits as ``formatDecimal(_:places:fixed:)``
/// writes them, or `null` when it is not finite (JSON has no infinity).
public func finiteDecimal(_ x: Double, places: Int) -> String {
    x.isFinite ? formatDecimal(x, places: places) : "null"
}

import Foundation
