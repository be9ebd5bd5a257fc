import SimKernel

/// One recorded stroke: strictly increasing times from 0 and the finger's
/// positions then, in points.
struct TraceStroke: Sendable {
    var times: [SimTime]
    var positions: [TouchPoint]
    /// The recorded force at each point; nil when the file had no force column.
    var forces: [Double]?

    /// Builds a stroke from time-ordered samples. Samples sharing a
    /// timestamp are merged by keeping the last one (a later report at the
    /// same clock reading supersedes the earlier); the stroke is re-based to
    /// start at 0. Throws when times go backwards or fewer than two distinct
    /// times remain. `forces`, when given, holds one force per sample,
    /// merged the same way.
    init(source: String, samples: [TouchSample], forces givenForces: [Double]? = nil) throws(LatsimError) {
        var times: [SimTime] = []
        var positions: [TouchPoint] = []
        var forces: [Double] = []
        times.reserveCapacity(samples.count)
        positions.reserveCapacity(samples.count)
        for (i, s) in samples.enumerated() {
            guard s.position.x.isFinite, s.position.y.isFinite else {
                throw LatsimError(file: source, problem: "sample \(i + 1) has a non-finite position \(s.position)", expected: "finite coordinates")
            }
            if let last = times.last {
                if s.time < last {
                    throw LatsimError(file: source, problem: "sample \(i + 1) goes back in time (\(s.time) ns after \(last) ns)", expected: "times in increasing order")
                }
                if s.time == last {
                    positions[positions.count - 1] = s.position
                    if let givenForces { forces[forces.count - 1] = givenForces[i] }
                    continue
                }
            }
            times.append(s.time)
            positions.append(s.position)
            if let givenForces { forces.append(givenForces[i]) }
        }
        guard times.count >= 2 else {
            throw LatsimError(file: source, problem: "the stroke has \(times.count) distinct timestamp\(times.count == 1 ? "" : "s")", expected: "at least 2")
        }
        let t0 = times[0]
        self.times = times.map { $0 - t0 }
        self.positions = positions
        self.forces = givenForces == nil ? nil : forces
    }

    /// The stroke's length in time.
    var duration: SimTime { times[times.count - 1] }
}

/// Recorded strokes played one after another, with the finger up for `gap`
/// between them. The trace starts at t = 0 with the first stroke's first
/// point; the finger is up before it and after the last point.
///
/// Between two recorded points the position is interpolated linearly and
/// the velocity is that segment's slope (piecewise constant). Linear
/// interpolation never invents motion the recording does not contain; the
/// cost is a velocity that jumps at each recorded point, which is what a
/// predictor fed the raw points would see anyway.
///
/// A stroke's recorded force is interpolated the same way; a stroke without
/// a force column presses with force 0.
struct RecordedTrace: Sendable {
    let times: [SimTime]
    let positions: [TouchPoint]
    /// The force at each point; nil when no stroke recorded force.
    let forces: [Double]?
    /// True at the last point of each stroke.
    let isStrokeEnd: [Bool]
    let strokeCount: Int

    init(strokes: [TraceStroke], gap: SimTime) {
        var times: [SimTime] = [], positions: [TouchPoint] = [], ends: [Bool] = []
        var forces: [Double] = []
        let anyForce = strokes.contains { $0.forces != nil }
        var offset: SimTime = 0
        for (k, stroke) in strokes.enumerated() {
            if k > 0 { offset = times[times.count - 1] + gap }
            for i in stroke.times.indices {
                // a zero gap would repeat a time: keep the new stroke a
                // nanosecond later so that times stay strictly increasing
                let t = stroke.times[i] + offset + (k > 0 && gap == 0 ? 1 : 0)
                times.append(t)
                positions.append(stroke.positions[i])
                if anyForce { forces.append(stroke.forces?[i] ?? 0) }
                ends.append(i == stroke.times.count - 1)
            }
        }
        self.times = times
        self.positions = positions
        self.isStrokeEnd = ends
        self.forces = anyForce ? forces : nil
        self.strokeCount = strokes.count
    }

    /// From the first point to the last.
    var duration: SimTime { times[times.count - 1] }

    /// The longest a trace played as one motion may be: about 116 days, as
    /// long as the longest run.
    static let maximumLength: SimTime = 10_000_000 * Nanos.perSecond

    /// Throws when `strokes` played one after another, `gap` apart, would
    /// last longer than ``maximumLength``.
    static func checkLength(_ strokes: [TraceStroke], gap: SimTime, name: String) throws(LatsimError) {
        var total = 0.0
        for s in strokes { total += Double(s.duration) + Double(gap) }
        guard total <= Double(maximumLength) else {
            throw LatsimError(file: name, problem: "the trace lasts about \(formatDecimal(total / 1e9 / 86_400, places: 0)) days",
                              expected: "recorded strokes lasting at most 116 days in all")
        }
    }

    /// The index of the last point at or before `t` (`t` within the trace).
    func index(atOrBefore t: SimTime) -> Int {
        var lo = 0, hi = times.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if times[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    func state(at t: SimTime) -> FingerState {
        let last = times.count - 1
        if t < times[0] { return FingerState(position: positions[0], velocity: .zero, isDown: false) }
        if t > times[last] { return FingerState(position: positions[last], velocity: .zero, isDown: false) }
        let i = index(atOrBefore: t)
        if i == last || isStrokeEnd[i] {
            if t == times[i] {
                // the stroke's last point: still down, moving as it arrived
                let v = slope(i - 1)
                return FingerState(position: positions[i], velocity: v, isDown: true, force: forces?[i] ?? 0)
            }
            return FingerState(position: positions[i], velocity: .zero, isDown: false)
        }
        let v = slope(i)
        let dt = Double(t - times[i]) / 1e9
        var force = 0.0
        if let forces {
            force = forces[i] + (forces[i + 1] - forces[i]) * (Double(t - times[i]) / Double(times[i + 1] - times[i]))
        }
        return FingerState(position: positions[i] + v * dt, velocity: v, isDown: true, force: force)
    }

    /// Velocity of the segment from point `i` to point `i + 1`, points/s.
    @inline(__always)
    func slope(_ i: Int) -> TouchPoint {
        (positions[i + 1] - positions[i]) / (Double(times[i + 1] - times[i]) / 1e9)
    }
}
