import SimKernel

/// Reads a ``Trajectory`` mostly forward in time, remembering what it can
/// reuse: the current stroke's geometry for `strokes`, which otherwise is
/// rebuilt from its random numbers at every call. Its answers are exactly
/// ``Trajectory/state(at:)``'s; only the cost differs.
public struct TrajectoryCursor: Sendable {
    /// The motion read.
    public let trajectory: Trajectory
    @usableFromInline let strokes: StrokeMotion?
    @usableFromInline let hasStrokes: Bool
    /// The stroke plan last used (stroke `Int64.min` before the first call).
    @usableFromInline var plan = StrokeMotion.Plan(stroke: .min, count: 0)
    /// The instants the cached plan covers, [start, end) (empty before the
    /// first call).
    @usableFromInline var planStart: SimTime = 0
    @usableFromInline var planEnd: SimTime = 0
    /// Whether a press gives the finger force (read once: the press is a
    /// large value, not to be copied per call).
    @usableFromInline let pressing: Bool

    /// A cursor at the start of `trajectory`. Inlined, so that it is made
    /// in its place in the stage that keeps it (called, it was made aside
    /// and copied in: some 300 bytes, ten times a run).
    @inlinable @inline(__always)
    public init(_ trajectory: Trajectory) {
        self.trajectory = trajectory
        pressing = Self.presses(trajectory)
        strokes = Self.strokes(of: trajectory)
        hasStrokes = strokes != nil
    }

    @usableFromInline static func presses(_ t: Trajectory) -> Bool { !t.press.isNone }

    @usableFromInline static func strokes(of t: Trajectory) -> StrokeMotion? {
        if case .strokes(let m) = t.motion { return m }
        return nil
    }

    /// The true finger state at `t`. Inlined into the caller where the
    /// cached stroke covers `t` (the common case: a scan or a photon a few
    /// milliseconds after the last); everything else is a call.
    @inlinable @inline(__always)
    public mutating func state(at t: SimTime) -> FingerState {
        if hasStrokes && !pressing && t >= planStart && t < planEnd {
            // read in place: calling through the stored plan would copy it
            let u = Double(t - planStart) * 1e-9
            return withUnsafePointer(to: &plan) { $0.pointee.state(at: u) }
        }
        return anyState(at: t)
    }

    /// ``state(at:)`` in every case.
    @usableFromInline
    mutating func anyState(at t: SimTime) -> FingerState {
        // `strokes` is read only to plan a new stroke: binding the optional
        // on every call would copy the whole motion
        guard hasStrokes else { return trajectory.state(at: t) }
        if t < planStart || t >= planEnd || plan.stroke == .min {
            let (k, _) = strokes!.locate(t)
            plan = strokes!.plan(stroke: k)
            planStart = k * StrokeMotion.period
            planEnd = planStart + StrokeMotion.period
        }
        // read in place: calling through the stored plan would copy it
        let u = Double(t - planStart) * 1e-9
        let s = withUnsafePointer(to: &plan) { $0.pointee.state(at: u) }
        return pressing ? trajectory.pressed(s, at: t) : s
    }
}
