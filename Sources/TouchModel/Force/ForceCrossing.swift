import SimKernel

/// Where the finger's true force crossed a level (Docs/Force.md, "What is
/// measured"): the instants a press's latency is counted from.
public enum ForceCrossing {
    /// Steps of the search: back in whole milliseconds to where the force
    /// was below the release level, then forward in quarter milliseconds to
    /// the first sample at or above the level, then halving to 1 ns.
    static let backStep: SimTime = Nanos.perMillisecond
    static let forwardStep: SimTime = Nanos.perMillisecond / 4

    /// The first instant at which `force` rose to `level`, after it was last
    /// below `release` (a level at or below `level`), looking back from
    /// `near`, never before `earliest`; searched forward to `latest`. Nil
    /// when the force stays below `level` up to `latest` (a noisy sample
    /// above the level while the true force never was).
    ///
    /// Linear segments of a press are crossed to the nanosecond; a crossing
    /// narrower than the quarter-millisecond step can be missed.
    public static func rise(to level: Double, from release: Double, near: SimTime, earliest: SimTime, latest: SimTime,
                            force: (SimTime) -> Double) -> SimTime? {
        // back to an instant below the release level (the press's start at worst)
        var below = near
        while below > earliest, force(below) >= release {
            below = Swift.max(earliest, below - backStep)
        }
        if force(below) >= level { return below }
        // forward to the first step at or above the level
        var lo = below, hi = below
        while true {
            guard hi < latest else { return nil }
            hi = Swift.min(latest, hi + forwardStep)
            if force(hi) >= level { break }
            lo = hi
        }
        // the crossing lies in (lo, hi]
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if force(mid) >= level { hi = mid } else { lo = mid }
        }
        return hi
    }
}
