import SimKernel

/// Reflects `p` into `[0, length]`: a triangle wave of period `2 * length`,
/// the path of a point bouncing between two walls.
@inlinable
public func bounce(_ p: Double, _ length: Double) -> Double {
    guard length > 0 else { return 0 }
    var r = p.truncatingRemainder(dividingBy: 2 * length)
    if r < 0 { r += 2 * length }
    return r <= length ? r : 2 * length - r
}

/// The slope (+1 or -1) of ``bounce(_:_:)`` at `p`: +1 on the way out from 0
/// (turning points included), -1 on the way back.
@inlinable
public func bounceSlope(_ p: Double, _ length: Double) -> Double {
    guard length > 0 else { return 0 }
    var r = p.truncatingRemainder(dividingBy: 2 * length)
    if r < 0 { r += 2 * length }
    return r <= length ? 1 : -1
}

/// A 45° line at constant speed that bounces off the screen edges; the
/// finger is always down.
///
/// This is, to the floating-point operation, the motion of the reference
/// model (`position()` and `bounce()` in peers/simpy_pipeline.py), so the two
/// simulators can be compared sample by sample: with `v = speed / √2` and
/// `s = t / 1e9`, `x = bounce(W/4 + v s, W)` and `y = bounce(H/4 + v s, H)`.
struct LineMotion: Sendable {
    let v: Double
    let width: Double
    let height: Double

    init(_ p: TrajectoryParameters) {
        v = p.speed / (2.0).squareRoot()
        width = p.widthPoints
        height = p.heightPoints
    }

    func state(at t: SimTime) -> FingerState {
        let s = Double(t) / 1e9
        let px = 0.25 * width + v * s
        let py = 0.25 * height + v * s
        return FingerState(
            position: TouchPoint(x: bounce(px, width), y: bounce(py, height)),
            velocity: TouchPoint(x: v * bounceSlope(px, width), y: v * bounceSlope(py, height)),
            isDown: true)
    }
}
