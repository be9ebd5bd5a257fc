/// Simulated time: an integer count of nanoseconds.
///
/// The model never uses a floating-point clock, so two events at "the same
/// time" compare equal (Docs/Model.md, "Time").
public typealias SimTime = Int64

/// Nanoseconds per unit of time.
public enum Nanos {
    /// Nanoseconds in a second.
    public static let perSecond: Int64 = 1_000_000_000
    /// Nanoseconds in a millisecond.
    public static let perMillisecond: Int64 = 1_000_000
    /// Nanoseconds in a microsecond.
    public static let perMicrosecond: Int64 = 1_000
}

extension SimTime {
    /// This time in milliseconds.
    @inlinable public var milliseconds: Double { Double(self) / 1e6 }
    /// This time in seconds.
    @inlinable public var seconds: Double { Double(self) / 1e9 }
}

/// Rounds a non-negative ratio `numerator / denominator` to the nearest
/// integer, halves up: `floor(n/d + 1/2)`, computed exactly.
@inlinable
public func roundHalfUp(_ numerator: Int128, _ denominator: Int128) -> Int128 {
    precondition(denominator > 0)
    // the usual case fits 64 bits: avoid the slower 128-bit division
    if let n = Int64(exactly: numerator), let d = Int64(exactly: denominator),
       n >= 0, n < Int64.max / 4, d < Int64.max / 4 {
        return Int128((2 * n + d) / (2 * d))
    }
    let twice = 2 * numerator + denominator
    let d2 = 2 * denominator
    // floor division (numerator may be negative for signed durations)
    var q = twice / d2
    if twice % d2 != 0 && (twice < 0) { q -= 1 }
    return q
}

/// Rounds a floating-point value half up to an integer number of nanoseconds.
@inlinable
public func roundHalfUp(_ x: Double) -> SimTime {
    // floor(x + 0.5) without a call to floor: truncation toward zero, one
    // less for a negative number with a fraction (the same value, and the
    // same trap for a value no SimTime holds)
    let r = x + 0.5
    let t = SimTime(r)
    return Double(t) > r ? t &- 1 : t
}

/// `x.rounded()` (to the nearest integer, halves away from zero), without
/// the call to libm's `round` it compiles to on the baseline x86-64, for
/// `x` above 0 and below 2^52: adding and taking away 2^52 rounds it to
/// the nearest integer, ties to even (both steps are exact but the
/// rounding), and a tie rounded down is moved up. Zeros, negative values
/// and values from 2^52 on (NaN and infinities among them) call
/// `rounded()`.
@inlinable @inline(__always)
public func roundedHalfAway(_ x: Double) -> Double {
    if x > 0 && x < 0x1p52 {
        let r = (x + 0x1p52) - 0x1p52
        return x - r == 0.5 ? r + 1 : r
    }
    return x.rounded()
}
