import SimKernel

/// Repeated scroll gestures (`input.trajectory: drags`): a touch-down, then
/// a straight drag up the screen at exactly `speed`, then a lift.
///
/// The contacts are those of the tapping finger (``TapTiming``: contact `i`
/// in slot `i`, `input.tapInterval` apart, up to `input.tapJitter` after
/// the slot's start); the finger stays down for `input.tapHold`, moving
/// from the middle of the screen's width, three quarters of its height,
/// toward the top at constant speed from the contact on (bouncing off the
/// top edge if the drag is longer than the screen). A constant speed makes
/// the instant a drag passes a touch slop `s` exact: `s / speed` after the
/// touch-down's position was taken (Docs/Model.md, "Scrolling"). Contact
/// `i` is a pure function of `(seed, i)`: a state costs O(1) and no memory.
struct DragMotion: Sendable {
    let taps: TapMotion
    let v: Double
    let x: Double
    let startY: Double
    let height: Double

    init(_ p: TrajectoryParameters) {
        taps = TapMotion(p)
        v = p.speed
        x = p.widthPoints / 2
        startY = 0.75 * p.heightPoints
        height = p.heightPoints
    }

    /// The contact of the gesture the finger is in (or last was in) at
    /// `t`; nil before the first.
    func contact(atOrBefore t: SimTime) -> SimTime? {
        guard t >= TapTiming.firstContact else { return nil }
        let i = taps.timing.slot(containing: t)
        let c = taps.contact(i)
        if t >= c { return c }
        return i > 0 ? taps.contact(i - 1) : nil
    }

    func state(at t: SimTime) -> FingerState {
        guard let c = contact(atOrBefore: t) else {
            return FingerState(position: TouchPoint(x: x, y: startY), velocity: .zero, isDown: false)
        }
        let held = t - c
        let down = held < taps.timing.hold
        let p = startY - v * Double(down ? held : taps.timing.hold) / 1e9
        let y = bounce(p, height)
        return FingerState(position: TouchPoint(x: x, y: y),
                           velocity: down ? TouchPoint(x: 0, y: -v * bounceSlope(p, height)) : .zero, isDown: down)
    }
}
