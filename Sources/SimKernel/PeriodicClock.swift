/// A periodic source: tick `k` is at `phase + floor(k * 1e9 / hz + 1/2)`.
///
/// Rounding each tick from `k` (instead of adding a rounded period) keeps a
/// 60 Hz display from drifting: after a million frames it is still exact.
public struct PeriodicClock: Sendable, Hashable {
    /// Ticks per second.
    public let hz: Rational
    /// Time of tick 0.
    public let phase: SimTime

    /// A clock ticking `hz` times a second from `phase`.
    public init(hz: Rational, phase: SimTime = 0) {
        precondition(hz.isPositive, "a periodic clock needs a positive rate")
        self.hz = hz
        self.phase = phase
    }

    /// The exact period in nanoseconds, as a rational.
    public var period: Rational { Rational(Nanos.perSecond * hz.denominator, hz.numerator) }

    /// The period in nanoseconds as a floating-point value (exact for display).
    public var periodNanos: Double { Double(Nanos.perSecond) * Double(hz.denominator) / Double(hz.numerator) }

    /// The instant of tick `k`.
    @inlinable
    public func tick(_ k: Int64) -> SimTime {
        phase + Int64(roundHalfUp(Int128(k) * Int128(Nanos.perSecond) * Int128(hz.denominator),
                                  Int128(hz.numerator)))
    }

    /// The index of the last tick at or before `t` (the interval holding `t`).
    public func index(atOrBefore t: SimTime) -> Int64 {
        var k = Int64((Int128(t - phase) * Int128(hz.numerator)) / (Int128(Nanos.perSecond) * Int128(hz.denominator)))
        while tick(k + 1) <= t { k += 1 }
        while tick(k) > t { k -= 1 }
        return k
    }

    /// The index of the first tick at or after `t`.
    public func index(atOrAfter t: SimTime) -> Int64 {
        let k = index(atOrBefore: t)
        return tick(k) == t ? k : k + 1
    }

    /// An iterator over the ticks from `k`, without a division per tick.
    public func ticks(from k: Int64 = 0) -> Ticker { Ticker(clock: self, from: k) }
}

/// Walks the ticks of a ``PeriodicClock`` one by one with exact integer
/// arithmetic (a Bresenham-style remainder), so the hot loop never divides.
public struct Ticker: Sendable {
    /// Index of the current tick.
    public var index: Int64
    /// Instant of the current tick.
    public var time: SimTime
    // time = phase + (a div twoP), a = 2*k*1e9*q + p; kept as quotient + remainder
    @usableFromInline var remainder: Int64
    @usableFromInline let stepQuotient: Int64
    @usableFromInline let stepRemainder: Int64
    @usableFromInline let twoP: Int64

    /// A walk over `clock`'s ticks starting at tick `k`.
    public init(clock: PeriodicClock, from k: Int64) {
        let p = Int128(clock.hz.numerator), q = Int128(clock.hz.denominator)
        let a = 2 * Int128(k) * Int128(Nanos.perSecond) * q + p
        let twoP = 2 * p
        var quo = a / twoP, rem = a % twoP
        if rem < 0 { rem += twoP; quo -= 1 }
        let step = 2 * Int128(Nanos.perSecond) * q
        index = k
        time = clock.phase + Int64(quo)
        remainder = Int64(rem)
        stepQuotient = Int64(step / twoP)
        stepRemainder = Int64(step % twoP)
        self.twoP = Int64(twoP)
    }

    /// Moves to the next tick and returns its instant.
    @inlinable @discardableResult
    public mutating func advance() -> SimTime {
        index &+= 1
        time &+= stepQuotient
        remainder &+= stepRemainder
        if remainder >= twoP { remainder &-= twoP; time &+= 1 }
        return time
    }
}
