import SimKernel

/// The digitizer's force sensing (Docs/Force.md, "The digitizer"): the
/// finger's true force at the sample instant, plus Gaussian noise, snapped
/// to the sensor's steps and kept within 0 and the largest force.
struct ForceSensor: Sendable {
    /// The stream of the force noise's generator (the position noise has 1).
    static let stream: UInt64 = 0xF02C_E000_0000_0001

    let sigma: Double
    let quantum: Double
    let maximum: Double

    init(_ s: ForceSettings) {
        sigma = s.noise
        quantum = s.quantum
        maximum = s.maximumForce
    }

    /// True when a sample reports the true force unchanged (no noise, no
    /// steps): no random number is drawn.
    var isExact: Bool { sigma == 0 && quantum == 0 }

    /// The reported force for the true force `f`. Draws one Gaussian
    /// deviate from `rng` when `sigma > 0`.
    func apply(_ f: Double, rng: inout SeededRandom) -> Double {
        var v = f
        if sigma > 0 { v += sigma * rng.nextGaussian() }
        if quantum > 0 { v = (v / quantum).rounded(.toNearestOrAwayFromZero) * quantum }
        return Swift.min(maximum, Swift.max(0, v))
    }
}
