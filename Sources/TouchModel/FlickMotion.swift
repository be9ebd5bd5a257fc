import SimKernel

/// Repeated flicks: touch-down, a fast straight throw that decelerates
/// exponentially, lift-off while still moving, and a pause.
///
/// Flick k starts at `k * period`. Its speed along a random direction is
/// `v(t) = v0 (1 − e^(−t/τr)) e^(−t/τ)`: a quick rise (τr = 15 ms) and an
/// exponential decay (τ = 100 ms), both integrable in closed form, so the
/// position is analytic. Contact lasts 120–200 ms (uniform); `v0` is chosen
/// so that the mean speed during contact is twice `speed` (a flick is a
/// throw, faster than tracing). The start point is drawn so that the whole
/// flick stays on the screen. The finger is up for the rest of the period.
struct FlickMotion: Sendable {
    /// Length of one flick period (touch-down to next touch-down).
    static let period: SimTime = 1_000 * Nanos.perMillisecond
    /// Rise time constant, seconds.
    static let rise = 0.015
    /// Decay time constant, seconds.
    static let decay = 0.100
    /// Bounds of the contact duration, seconds.
    static let contactRange: ClosedRange<Double> = 0.120...0.200
    /// Mean speed during contact, in units of the trajectory's `speed`.
    static let speedFactor = 2.0

    let p: TrajectoryParameters
    let margin: Double
    /// Combined time constant 1 / (1/τ + 1/τr).
    let fast: Double

    init(_ p: TrajectoryParameters) {
        self.p = p
        margin = 0.05 * p.shortSide
        fast = 1 / (1 / FlickMotion.decay + 1 / FlickMotion.rise)
    }

    /// Distance travelled after `t` seconds at unit `v0`.
    @inline(__always)
    func travel(_ t: Double) -> Double {
        FlickMotion.decay * (1 - exponential(-t / FlickMotion.decay)) - fast * (1 - exponential(-t / fast))
    }

    /// Speed after `t` seconds at unit `v0`.
    @inline(__always)
    func speedShape(_ t: Double) -> Double {
        exponential(-t / FlickMotion.decay) - exponential(-t / fast)
    }

    func state(at t: SimTime) -> FingerState {
        let period = FlickMotion.period
        var k = t / period
        var local = t - k * period
        if local < 0 { k -= 1; local += period }
        let u = Double(local) / 1e9
        var rng = SeededRandom(seed: p.seed, stream: StreamTag.flickBase &+ UInt64(bitPattern: k))
        let cr = FlickMotion.contactRange
        let contact = cr.lowerBound + (cr.upperBound - cr.lowerBound) * rng.nextUnit()
        let length = FlickMotion.speedFactor * p.speed * contact
        let v0 = length / travel(contact)
        let angle = 2 * Double.pi * rng.nextUnit()
        let dir = TouchPoint(x: cosine(angle), y: sine(angle))
        func startCoordinate(_ extent: Double, _ d: Double, _ r: Double) -> Double {
            let lo = margin + Swift.max(0, -length * d)
            let hi = extent - margin - Swift.max(0, length * d)
            return lo <= hi ? lo + (hi - lo) * r : extent / 2 - length * d / 2
        }
        let start = TouchPoint(x: startCoordinate(p.widthPoints, dir.x, rng.nextUnit()),
                               y: startCoordinate(p.heightPoints, dir.y, rng.nextUnit()))
        if u <= contact {
            return FingerState(position: start + dir * (v0 * travel(u)),
                               velocity: dir * (v0 * speedShape(u)), isDown: true)
        }
        return FingerState(position: start + dir * length, velocity: .zero, isDown: false)
    }
}
