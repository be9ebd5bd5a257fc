import SimKernel

/// Google WALT's screen test (`app.updates: blink`; Docs/Devices.md, "App
/// models"), as `ScreenResponseFragment` in google/walt draws it: the app
/// changes its colour once (`doBlinkRunnable`: `setBackgroundColor`, and a
/// one-shot `postFrameCallback` that records the frame time), the first
/// time 100 ms after the test starts; when the photodiode at the screen's
/// centre sees the change, the next change is posted `app.blinkDelay`
/// later (40 + random x 20 ms); if it never sees it, a fallback posted
/// with each change, 550 + random x 100 ms, blinks again. Nothing is drawn
/// in between. Its delays come from a generator of their own, so a seed
/// gives the same blinks whatever else the run draws.
struct Blinker {
    /// The first change, after the test starts (`postDelayed(doBlinkRunnable, 100)`).
    static let first: SimTime = 100 * Nanos.perMillisecond
    /// The fallback after each change, when the photodiode sees nothing:
    /// 550 + random x 100 ms.
    static let fallback = DurationDistribution.uniform(550 * Nanos.perMillisecond, 650 * Nanos.perMillisecond)
    /// The generator's stream (independent of the run's other draws).
    static let stream: UInt64 = 0xB11C

    let delay: DurationSampler
    var rng: SeededRandom
    /// The change posted after the photodiode saw the last one (-1: none).
    private(set) var posted: SimTime = Self.first
    /// The fallback posted with the last change (-1: none, or cancelled).
    private(set) var fallbackAt: SimTime = -1
    /// A change was made and the photodiode has not seen it yet.
    private(set) var awaiting = false
    /// Changes made so far; the latest is number `count - 1`.
    private(set) var count: Int64 = 0
    /// When the latest change was made.
    private(set) var madeAt: SimTime = -1

    init(configuration c: borrowing PipelineConfiguration) {
        delay = DurationSampler(c.blinkDelay)
        rng = SeededRandom(seed: c.seed, stream: Self.stream)
    }

    /// Whether a change is due at `now`: the one posted, or the fallback
    /// (an event at an instant that is neither was superseded).
    func isDue(at now: SimTime) -> Bool { now == posted || now == fallbackAt }

    /// The change is made now; returns when its fallback is due.
    mutating func make(at now: SimTime) -> SimTime {
        count += 1
        madeAt = now
        awaiting = true
        posted = -1
        fallbackAt = now + Self.fallback.draw(&rng)
        return fallbackAt
    }

    /// The photodiode sees the latest change at `photon`: returns when the
    /// next is posted, or nil when it had seen it already.
    mutating func seen(at photon: SimTime) -> SimTime? {
        guard awaiting else { return nil }
        awaiting = false
        fallbackAt = -1
        posted = photon + delay.draw(&rng)
        return posted
    }
}
