import SimKernel

/// What the digitizer adds to the true position: Gaussian noise and
/// quantisation to the sensor's grid.
public struct DigitizerNoise: Sendable, Hashable, Codable {
    /// Standard deviation of the noise on each axis, points (0 = none).
    public var sigma: Double
    /// Grid step, points: reported coordinates are rounded to multiples of
    /// it (0 = no rounding).
    public var quantum: Double

    /// Noise of `sigma` points per axis, then rounding to `quantum` points.
    public init(sigma: Double = 0, quantum: Double = 0) {
        self.sigma = sigma
        self.quantum = quantum
    }

    /// A perfect digitizer: positions pass unchanged, no random number is drawn.
    public static let none = DigitizerNoise()

    /// True when ``apply(_:rng:)`` returns its input unchanged.
    public var isNone: Bool { sigma == 0 && quantum == 0 }

    /// The reported position for the true position `p`. Draws two Gaussian
    /// deviates from `rng` when `sigma > 0` (x first), none otherwise.
    @inlinable
    public func apply(_ p: TouchPoint, rng: inout SeededRandom) -> TouchPoint {
        var q = p
        if sigma > 0 {
            q.x += sigma * rng.nextGaussian()
            q.y += sigma * rng.nextGaussian()
        }
        if quantum > 0 {
            q.x = (q.x / quantum).rounded(.toNearestOrAwayFromZero) * quantum
            q.y = (q.y / quantum).rounded(.toNearestOrAwayFromZero) * quantum
        }
        return q
    }
}
