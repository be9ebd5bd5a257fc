import SimKernel

/// Reads a ``Trajectory`` mostly forward in time, remembering what it can
/// reuse: the current stroke's geometry for `strokes`, which otherwise is
/// rebuilt from its random numbers at every call. Its answers are exactly
/// ``Trajectory/state(at:)``'s; only the cost differs.
public struct TrajectoryCursor: Sendable {
    /// The motion read.
    public let trajectory: Trajectory
    let strokes: StrokeMotion?
    /// The stroke plan last used (stroke `Int64.min` before the first call).
    var plan = StrokeMotion.Plan(stroke: .min, count: 0)
    /// The instants the cached plan covers, [start, end).
    var planStart: SimTime = 0
    var planEnd: SimTime = 0

    /// A cursor at the start of `trajectory`.
    public init(_ trajectory: Trajectory) {
        self.trajectory = trajectory
        if case .strokes(let m) = trajectory.motion { strokes = m } else { strokes = nil }
    }

    /// The true finger state at `t`.
    @inline(__always)
    public mutating func state(at t: SimTime) -> FingerState {
        guard let m = strokes else { return trajectory.state(at: t) }
        if t < planStart || t >= planEnd || plan.stroke == .min {
            let (k, _) = m.locate(t)
            plan = m.plan(stroke: k)
            planStart = k * StrokeMotion.period
            planEnd = planStart + StrokeMotion.period
        }
        return trajectory.pressed(plan.state(at: Double(t - planStart) * 1e-9), at: t)
    }
}
