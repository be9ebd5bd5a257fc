import SimKernel

/// A duration parameter ready for the hot path: a fixed value is returned
/// without looking at the distribution.
struct DurationSampler {
    let distribution: DurationDistribution
    let fixed: SimTime
    let isFixed: Bool

    init(_ d: DurationDistribution) {
        distribution = d
        if case .fixed(let v) = d { fixed = v; isFixed = true } else { fixed = 0; isFixed = false }
    }

    @inline(__always)
    func draw(_ rng: inout SeededRandom) -> SimTime {
        isFixed ? fixed : distribution.draw(&rng)
    }
}
