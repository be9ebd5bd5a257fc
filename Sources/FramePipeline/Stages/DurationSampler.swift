import SimKernel

/// A duration parameter ready for the hot path: a fixed value is returned
/// without looking at the distribution.
struct DurationSampler {
    let distribution: DurationDistribution
    let fixed: SimTime
    let isFixed: Bool
    /// The frequency ramp after idle, for a work duration (nil: none).
    var ramp: FrequencyRamp?

    init(_ d: DurationDistribution) {
        distribution = d
        if case .fixed(let v) = d { fixed = v; isFixed = true } else { fixed = 0; isFixed = false }
    }

    @inline(__always)
    func draw(_ rng: inout SeededRandom) -> SimTime {
        let d = isFixed ? fixed : distribution.draw(&rng)
        guard let ramp else { return d }
        return ramp.stretch(d)
    }
}
