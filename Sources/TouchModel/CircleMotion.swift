import Foundation
import SimKernel

/// Constant speed around a circle centred on the screen, radius 0.3 of the
/// shorter side, counter-clockwise on screen; the starting angle is drawn
/// from the seed. The finger is always down.
struct CircleMotion: Sendable {
    let center: TouchPoint
    let radius: Double
    /// Angular speed, radians per second.
    let omega: Double
    /// Period of one turn, seconds (angles are reduced modulo it so that
    /// precision does not decay over long runs).
    let period: Double
    let phase: Double

    init(_ p: TrajectoryParameters) {
        center = TouchPoint(x: p.widthPoints / 2, y: p.heightPoints / 2)
        radius = 0.3 * p.shortSide
        omega = p.speed / radius
        period = 2 * Double.pi / omega
        var rng = SeededRandom(seed: p.seed, stream: StreamTag.circle)
        phase = 2 * Double.pi * rng.nextUnit()
    }

    func state(at t: SimTime) -> FingerState {
        var s = Double(t) / 1e9
        s = s.truncatingRemainder(dividingBy: period)
        let a = phase + omega * s
        let c = cos(a), sn = sin(a)
        // y grows downwards: (cos a, -sin a) runs counter-clockwise as seen
        return FingerState(
            position: TouchPoint(x: center.x + radius * c, y: center.y - radius * sn),
            velocity: TouchPoint(x: -radius * omega * sn, y: -radius * omega * c),
            isDown: true)
    }
}
