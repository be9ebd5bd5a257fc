import SimKernel

/// When the finger of `input.trajectory: taps` touches the glass: contact
/// `i` comes in slot `i`, which starts at ``firstContact`` + `i` × interval,
/// up to `jitter` after the slot's start, and the finger rests for `hold`.
public struct TapTiming: Sendable, Hashable {
    /// From one slot's start to the next (`input.tapInterval`).
    public var interval: SimTime
    /// How long the finger rests on the glass (`input.tapHold`).
    public var hold: SimTime
    /// A contact comes up to this long after its slot's start, uniformly
    /// (`input.tapJitter`; 0: exactly at it).
    public var jitter: SimTime

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

    /// The finger must lift before the next slot can begin: `hold + jitter < interval`.
    func validate() throws(LatsimError) {
        guard interval > 0, hold > 0, jitter >= 0, hold < interval, jitter < interval - hold else {
            throw LatsimError(problem: "a tap held \(DurationSyntax.format(hold)) with \(DurationSyntax.format(jitter)) of jitter does not fit a \(DurationSyntax.format(interval)) interval",
                              expected: "input.tapHold above 0 and input.tapHold + input.tapJitter below input.tapInterval")
        }
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
        let slot = TapTiming.firstContact + i * timing.interval
        guard timing.jitter > 0 else { return slot }
        var rng = SeededRandom(seed: seed, stream: StreamTag.tapBase &+ UInt64(bitPattern: i))
        return slot + roundHalfUp(Double(timing.jitter) * rng.nextUnit())
    }

    func state(at t: SimTime) -> FingerState {
        let still = TouchPoint.zero
        guard t >= TapTiming.firstContact else { return FingerState(position: position, velocity: still, isDown: false) }
        // contact i lies in [slot i, slot i + jitter]; it lifts before slot i + 1
        let i = (t - TapTiming.firstContact) / timing.interval
        let c = contact(i)
        return FingerState(position: position, velocity: still, isDown: t >= c && t < c + timing.hold)
    }
}
