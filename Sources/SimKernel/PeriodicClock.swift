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

/// A walk over the ticks of a vsync source whose rate can change
/// (Docs/Model.md, "Time"; Docs/Engine.md, "A display that changes its
/// rate"): a piecewise-periodic clock of segments, each with its own rate
/// and anchor, its tick 0. Within a segment tick `j` is at
/// `anchor + floor(j * 1e9 / hz + 1/2)`, rounded from its index as every
/// periodic source's; a segment ends at a tick of its own (the boundary),
/// which is tick 0 of the next. Each tick carries an `offset` that changes
/// with the segment (a stage that runs a work duration before each vsync
/// gives its duration at each rate: its instant is the tick minus it).
///
/// With no switch the walk is a ``Ticker`` and one comparison per tick:
/// a display that never changes its rate pays nothing else.
public struct SwitchingTicker: Sendable {
    /// The current segment's ticks; ``time`` is the pending tick.
    public private(set) var ticks: Ticker
    /// The current segment's clock (its rate, and its anchor as the phase).
    public private(set) var clock: PeriodicClock
    /// The offset of the current segment's ticks.
    public private(set) var offset: SimTime
    /// A second value that changes with the segment (a stage's other
    /// duration at the rate).
    public private(set) var extra: SimTime = 0
    /// The tick before the pending one (Int64.min: none).
    public private(set) var previous: SimTime = .min
    /// The start of the next segment, a tick of this one (`.max`: none).
    public private(set) var boundary: SimTime = .max
    private var nextHz: Rational
    private var nextOffset: SimTime = 0
    private var nextExtra: SimTime = 0

    /// A walk over `clock`'s ticks from tick `k`, each with `offset`.
    public init(clock: PeriodicClock, from k: Int64 = 0, offset: SimTime = 0, extra: SimTime = 0) {
        self.clock = clock
        ticks = clock.ticks(from: k)
        self.offset = offset
        self.extra = extra
        nextHz = clock.hz
        if k > 0 { previous = clock.tick(k - 1) }
    }

    /// The pending tick.
    @inlinable public var time: SimTime { ticks.time }
    /// The pending tick's instant: the tick minus its offset.
    @inlinable public var instant: SimTime { ticks.time &- offset }
    /// The current segment's rate.
    public var hz: Rational { clock.hz }

    /// Moves to the next tick and returns it.
    @inline(__always) @discardableResult
    public mutating func advance() -> SimTime {
        previous = ticks.time
        let t = ticks.advance()
        if t < boundary { return t }
        return enterNext()
    }

    /// The pending tick is the boundary: the next segment begins there.
    @inline(never)
    private mutating func enterNext() -> SimTime {
        clock = PeriodicClock(hz: nextHz, phase: boundary)
        ticks = clock.ticks(from: 0)
        offset = nextOffset
        extra = nextExtra
        boundary = .max
        return ticks.time
    }

    /// The rate becomes `hz`, with ticks offset by `newOffset`, from
    /// `boundary` on (a tick of the current segment, or of a finer grid on
    /// a panel that can start a refresh there). Returns true when the
    /// pending instant changed (the caller reschedules its event): the
    /// walk had gone past the boundary, so its pending tick becomes the
    /// first of the new segment after the tick before it; or the boundary
    /// is the pending tick, whose offset is the new one.
    public mutating func switchRate(at boundary: SimTime, to hz: Rational, offset newOffset: SimTime = 0,
                                    extra newExtra: SimTime = 0) -> Bool {
        precondition(hz.isPositive, "a rate must be positive")
        if boundary > ticks.time {
            self.boundary = boundary
            nextHz = hz
            nextOffset = newOffset
            nextExtra = newExtra
            return false
        }
        let before = instant
        clock = PeriodicClock(hz: hz, phase: boundary)
        ticks = clock.ticks(from: 0)
        offset = newOffset
        extra = newExtra
        self.boundary = .max
        while ticks.time <= previous { ticks.advance() }
        return instant != before
    }

    /// Moves on until the pending instant is at or after `t` (the ticks
    /// before it do not happen).
    public mutating func skip(before t: SimTime) {
        while instant < t { advance() }
    }

    /// The period of the current segment, ns (not rounded).
    public var periodNanos: Double { clock.periodNanos }

    /// The first tick at or after `t` of the segment in force at the
    /// pending tick, extended (a pending boundary is not looked at).
    public func tick(atOrAfter t: SimTime) -> SimTime { clock.tick(clock.index(atOrAfter: t)) }
}
