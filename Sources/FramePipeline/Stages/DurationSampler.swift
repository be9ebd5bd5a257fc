import SimKernel

/// A duration parameter ready for the hot path: a fixed value is returned
/// without looking at the distribution.
struct DurationSampler {
    let distribution: DurationDistribution
    let fixed: SimTime
    let isFixed: Bool
    /// The frequency ramp after idle, for a work duration (nil: none),
    /// kept alive by the pipeline that owns it (no reference counting on
    /// a draw).
    var ramp: Unowned<FrequencyRamp>?

    init(_ d: DurationDistribution) {
        distribution = d
        if case .fixed(let v) = d { fixed = v; isFixed = true } else { fixed = 0; isFixed = false }
    }

    @inline(__always)
    func draw(_ rng: inout SeededRandom) -> SimTime {
        let d = isFixed ? fixed : distribution.draw(&rng)
        if _fastPath(ramp == nil) { return d }
        return ramped(d)
    }

    /// `d` as the ramp leaves it: out of line, so a draw without a ramp
    /// stays a few instructions where it is inlined.
    @inline(never)
    func ramped(_ d: SimTime) -> SimTime {
        ramp.unsafelyUnwrapped.with { $0.stretch(d) }
    }
}
