import SimKernel

/// When the finger of `input.trajectory: taps` touches the glass: contact
/// `i` comes in slot `i`, which starts at ``firstContact`` + `i` × interval,
/// up to `jitter` after the slot's start, and the finger rests for `hold`.
/// In bursts (`burst` above 1) slot `i` is tap `i % burst` of burst
/// `i / burst`: bursts start `burstInterval` apart, their taps `interval`
/// apart (a user who taps a few times, then leaves the screen alone).
public struct TapTiming: Sendable, Hashable {
    /// From one slot's start to the next (`input.tapInterval`).
    public var interval: SimTime
    /// How long the finger rests on the glass (`input.tapHold`).
    public var hold: SimTime
    /// A contact comes up to this long after its slot's start, uniformly
    /// (`input.tapJitter`; 0: exactly at it).
    public var jitter: SimTime
    /// Taps per burst (`input.tapBurst`; 1: no bursts).
    public var burst: Int64 = 1
    /// From one burst's first slot to the next's (`input.tapBurstInterval`).
    public var burstInterval: SimTime = 3 * Nanos.perSecond

    /// The first slot starts here: 100 ms, so every pipeline is running.
    public static let firstContact: SimTime = 100 * Nanos.perMillisecond

    /// Timing from its parts; the defaults are a tap every 500 ms held for
    /// 100 ms, each exactly at its slot.
    public init(interval: SimTime = 500 * Nanos.perMillisecond, hold: SimTime = 100 * Nanos.perMillisecond,
                jitter: SimTime = 0) {
        self.interval = interval
        self.hold = hold
        self.jitter = jitter
    }

    /// The finger must lift before the next slot can begin: `hold + jitter < interval`;
    /// a burst's taps fit before the next burst: `(burst - 1) x interval +
    /// hold + jitter < burstInterval`.
    func validate() throws(LatsimError) {
        guard interval > 0, hold > 0, jitter >= 0, hold < interval, jitter < interval - hold else {
            throw LatsimError(problem: "a tap held \(DurationSyntax.format(hold)) with \(DurationSyntax.format(jitter)) of jitter does not fit a \(DurationSyntax.format(interval)) interval",
                              expected: "input.tapHold above 0 and input.tapHold + input.tapJitter below input.tapInterval")
        }
        guard burst >= 1, burst == 1 || (burst - 1) * interval + hold + jitter < burstInterval else {
            throw LatsimError(key: "input.tapBurstInterval", problem: "\(burst) taps \(DurationSyntax.format(interval)) apart, each held \(DurationSyntax.format(hold)) with \(DurationSyntax.format(jitter)) of jitter, do not fit a \(DurationSyntax.format(burstInterval)) burst interval",
                              expected: "(input.tapBurst - 1) x input.tapInterval + input.tapHold + input.tapJitter below input.tapBurstInterval")
        }
    }

    /// The start of slot `i`.
    @inlinable
    public func slot(_ i: Int64) -> SimTime {
        if burst == 1 { return Self.firstContact + i * interval }
        return Self.firstContact + (i / burst) * burstInterval + (i % burst) * interval
    }

    /// The slot holding `t` (at or after ``firstContact``): the last that
    /// starts at or before it.
    @inlinable
    public func slot(containing t: SimTime) -> Int64 {
        let d = t - Self.firstContact
        if burst == 1 { return d / interval }
        let b = d / burstInterval
        return b * burst + Swift.min(burst - 1, (d - b * burstInterval) / interval)
    }
}

/// A finger that taps without moving, at the middle of the screen (where
/// WALT's and Agawi's light sensors sat): down at each contact of
/// ``TapTiming`` for its hold, up in between. Contact `i` is a pure
/// function of `(seed, i)`, so a state costs O(1) and no memory.
struct TapMotion: Sendable {
    let timing: TapTiming
    let seed: UInt64
    let position: TouchPoint

    init(_ p: TrajectoryParameters) {
        timing = p.taps
        seed = p.seed
        position = TouchPoint(x: p.widthPoints / 2, y: p.heightPoints / 2)
    }

    /// The instant of contact `i` (i >= 0).
    func contact(_ i: Int64) -> SimTime {
        let slot = timing.slot(i)
        guard timing.jitter > 0 else { return slot }
        var rng = SeededRandom(seed: seed, stream: StreamTag.tapBase &+ UInt64(bitPattern: i))
        return slot + roundHalfUp(Double(timing.jitter) * rng.nextUnit())
    }

    func state(at t: SimTime) -> FingerState {
        let still = TouchPoint.zero
        guard t >= TapTiming.firstContact else { return FingerState(position: position, velocity: still, isDown: false) }
        // contact i lies in [slot i, slot i + jitter]; it lifts before slot i + 1
        let i = timing.slot(containing: t)
        let c = contact(i)
        return FingerState(position: position, velocity: still, isDown: t >= c && t < c + timing.hold)
    }
}
