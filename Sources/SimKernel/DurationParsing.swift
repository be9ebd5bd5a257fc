/// Parses the duration syntax: a decimal number and a unit (`250us`, `4ms`,
/// `1.5s`, `12ns`) or display frames (`1frame`, `0.5frames`). A bare `0`
/// is allowed. The result is rounded half up to whole nanoseconds
/// (Docs/Model.md, "Time").
public enum DurationSyntax {
    static let units: [(String, Rational)] = [
        ("frames", Rational(0)), ("frame", Rational(0)),
        ("ns", Rational(1)), ("us", Rational(1_000)), ("µs", Rational(1_000)),
        ("ms", Rational(1_000_000)), ("s", Rational(1_000_000_000)),
    ]

    /// What a duration looks like, for messages.
    public static let expected = "a number and a unit (ns, us, ms, s) or frames, e.g. 4ms, 250us, 1.5s, 1frame"

    /// - Parameter framePeriod: the display period in ns (for `frames`).
    /// - Throws: ``LatsimError`` (value set, no key) when `text` is not a
    ///   duration or does not fit in 64-bit nanoseconds (about 292 years).
    public static func parse(_ text: String, framePeriod: Rational) throws(LatsimError) -> SimTime {
        let t = text.trimmedWhitespace
        for (unit, scale) in units where t.hasSuffix(unit) {
            let number = String(t.dropLast(unit.count)).trimmedWhitespace
            // "ms" also ends in "s": take the longest unit whose prefix is a number
            guard let value = Rational(decimal: number) else { continue }
            let s = unit.hasPrefix("frame") ? framePeriod : scale
            guard let ns = value.scaledRounded(by: s) else {
                throw LatsimError(value: text, problem: "is too long to simulate (more than 292 years)", expected: "a duration of at most a few days")
            }
            return ns
        }
        if let value = Rational(decimal: t), value.numerator == 0 { return 0 }
        throw LatsimError(value: text, problem: "not a duration", expected: expected)
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
    if x.isNaN { return "nan" }
    if x.isInfinite { return x > 0 ? "inf" : "-inf" }
    let places = Swift.min(Swift.max(places, 0), 17)
    var s: String
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    if Swift.abs(x) * scale >= 9_007_199_254_740_992 { // 2^53: x * scale would not be exact
        // printf rounds the exact binary value to `places` decimals itself
        s = Swift.abs(x) >= 4_503_599_627_370_496 && Swift.abs(x) < 9e18 ? String(Int64(x)) : String(format: "%.\(places)f", x)
    } else {
        let m = (x * scale).rounded()
        let r = m / scale
        if r == r.rounded() && Swift.abs(r) < 1e15 {
            s = String(Int64(r))
        } else if Swift.abs(m) < 4_503_599_627_370_496 { // 2^52
            // r is within half an ulp of m / 10^places, and below 2^52 that
            // is less than half a unit of the last decimal: printf would
            // write m's digits with the point `places` from the right
            s = pointed(UInt64(Swift.abs(m)), places: places, negative: m < 0)
        } else {
            s = String(format: "%.\(places)f", r)
        }
    }
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

/// The digits of `m / 10^places` (sign, integer digits, point, exactly
/// `places` decimals), as `%.{places}f` writes them.
private func pointed(_ m: UInt64, places: Int, negative: Bool) -> String {
    var digits = String(m)
    if places > 0 {
        if digits.utf8.count <= places {
            digits = String(repeating: "0", count: places - digits.utf8.count + 1) + digits
        }
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -places))
    }
    return negative ? "-" + digits : digits
}

/// A number for a JSON document: its digits as ``formatDecimal(_:places:fixed:)``
/// writes them, or `null` when it is not finite (JSON has no infinity).
public func finiteDecimal(_ x: Double, places: Int) -> String {
    x.isFinite ? formatDecimal(x, places: places) : "null"
}

import Foundation
