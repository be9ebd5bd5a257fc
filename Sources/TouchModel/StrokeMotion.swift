import SimKernel

/// Human point-to-point strokes.
///
/// Time is cut into fixed stroke periods of ``period``. Stroke k touches down
/// at `k * period` at a random point, then moves through 2 to 4 segments
/// between random targets, each a minimum-jerk movement (Flash and Hogan,
/// "The coordination of arm movements", J. Neuroscience 1985: the smooth
/// bell-shaped speed profile of unconstrained human reaching), stopping
/// briefly at each target. With ``TrajectoryParameters/strokeLiftOff`` the
/// finger then lifts off and stays up for a pause drawn uniformly in
/// 100–300 ms until the next period begins; without it (the default) the
/// last segment of stroke k ends where stroke k+1 begins, so the finger stays
/// down and keeps moving for the whole run.
///
/// Each segment's length is `speed` times its duration, so the mean speed
/// while the finger is down is `speed` (a little less when a target had to
/// be pulled back inside the screen). Everything about stroke k comes from
/// `SeededRandom(seed:stream:)` with a stream derived from k, so a state is
/// computed in O(1) from t alone.
@usableFromInline
struct StrokeMotion: Sendable {
    /// Length of one stroke period (touch-down to next touch-down).
    static let period: SimTime = 1_500 * Nanos.perMillisecond
    /// Bounds of the finger-up pause at the end of each period.
    static let pauseRange: ClosedRange<Double> = 0.100...0.300
    /// Bounds of the number of segments per stroke.
    static let segmentRange: ClosedRange<Int> = 2...4

    let p: TrajectoryParameters
    let margin: Double

    init(_ p: TrajectoryParameters) {
        self.p = p
        margin = 0.05 * p.shortSide
    }

    /// Minimum-jerk progress along a segment: s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ and its
    /// derivative with respect to τ, for τ in [0, 1].
    @inline(__always)
    @inlinable
    static func minimumJerk(_ tau: Double) -> (s: Double, ds: Double) {
        let t2 = tau * tau, t3 = t2 * tau
        let s = t3 * (10 + tau * (-15 + 6 * tau))
        let ds = t2 * (30 + tau * (-60 + 30 * tau))
        return (s, ds)
    }

    /// The stroke holding `t` and the time into it, in seconds.
    @inline(__always)
    func locate(_ t: SimTime) -> (stroke: Int64, seconds: Double) {
        let period = StrokeMotion.period
        var k = t / period
        var local = t - k * period
        if local < 0 { k -= 1; local += period }
        return (k, Double(local) * 1e-9)
    }

    func state(at t: SimTime) -> FingerState {
        let (k, u) = locate(t)
        return plan(stroke: k).state(at: u)
    }

    /// The geometry of stroke k: where each segment starts and ends, and when.
    func plan(stroke k: Int64) -> Plan {
        var rng = SeededRandom(seed: p.seed, stream: StreamTag.strokeBase &+ UInt64(bitPattern: k))
        let pr = StrokeMotion.pauseRange
        let drawnPause = pr.lowerBound + (pr.upperBound - pr.lowerBound) * rng.nextUnit()
        let pause = p.strokeLiftOff ? drawnPause : 0
        let moving = Double(StrokeMotion.period) / 1e9 - pause
        let sr = StrokeMotion.segmentRange
        let n = sr.lowerBound + Int(rng.next() % UInt64(sr.count))
        // weights of the segment durations: drawn once to normalise, then
        // replayed from a copy of the generator while walking the segments
        let weightSource = rng
        var weightSum = 0.0
        for _ in 0..<n { weightSum += 0.7 + 0.6 * rng.nextUnit() }
        var replay = weightSource
        var from = TouchPoint(x: margin + (p.widthPoints - 2 * margin) * rng.nextUnit(),
                              y: margin + (p.heightPoints - 2 * margin) * rng.nextUnit())
        if !p.strokeLiftOff { from = touchDown(stroke: k) }
        var plan = Plan(stroke: k, count: n)
        var start = 0.0
        for i in 0..<n {
            let d = moving * (0.7 + 0.6 * replay.nextUnit()) / weightSum
            var to = target(from: from, distance: p.speed * d, rng: &rng)
            if !p.strokeLiftOff && i == n - 1 { to = touchDown(stroke: k + 1) }
            plan[i] = Plan.Segment(from: from, to: to, start: start, duration: d)
            start += d
            from = to
        }
        plan.end = from
        plan.movingUntil = start
        return plan
    }

    /// One stroke's segments (at most four, stored inline: no allocation).
    @usableFromInline
    struct Plan: Sendable {
        @usableFromInline
        struct Segment: Sendable {
            @usableFromInline var from = TouchPoint.zero, to = TouchPoint.zero
            @usableFromInline var start = 0.0, duration = 0.0
            @usableFromInline var end = 0.0, inverseDuration = 0.0
            init() {}
            init(from: TouchPoint, to: TouchPoint, start: Double, duration: Double) {
                self.from = from
                self.to = to
                self.start = start
                self.duration = duration
                end = start + duration
                inverseDuration = 1 / duration
            }
        }
        let stroke: Int64
        @usableFromInline let count: Int
        @usableFromInline var segments: (Segment, Segment, Segment, Segment) = (Segment(), Segment(), Segment(), Segment())
        @usableFromInline var end = TouchPoint.zero
        @usableFromInline var movingUntil = 0.0

        init(stroke: Int64, count: Int) {
            precondition(count <= 4)
            self.stroke = stroke
            self.count = count
        }

        subscript(i: Int) -> Segment {
            get {
                switch i { case 0: return segments.0; case 1: return segments.1; case 2: return segments.2; default: return segments.3 }
            }
            set {
                switch i { case 0: segments.0 = newValue; case 1: segments.1 = newValue; case 2: segments.2 = newValue; default: segments.3 = newValue }
            }
        }

        /// The state `u` seconds into the stroke (inlined, also into other
        /// modules: a call would copy the plan).
        @inlinable @inline(__always)
        func state(at u: Double) -> FingerState {
            guard u < movingUntil else { return FingerState(position: end, velocity: .zero, isDown: false) }
            if u < segments.0.end || count == 1 { return Plan.state(segments.0, u) }
            if u < segments.1.end || count == 2 { return Plan.state(segments.1, u) }
            if u < segments.2.end || count == 3 { return Plan.state(segments.2, u) }
            return Plan.state(segments.3, u)
        }

        @inlinable @inline(__always)
        static func state(_ s: Segment, _ u: Double) -> FingerState {
            let (m, dm) = StrokeMotion.minimumJerk(Swift.min(1, (u - s.start) * s.inverseDuration))
            let delta = s.to - s.from
            return FingerState(position: s.from + delta * m, velocity: delta * (dm * s.inverseDuration), isDown: true)
        }
    }

    /// Where stroke k starts when strokes chain without lift-off: a point
    /// drawn from its own stream, so stroke k-1 can end there.
    func touchDown(stroke k: Int64) -> TouchPoint {
        var r = SeededRandom(seed: p.seed, stream: StreamTag.strokeBase &+ 0x5EED_0000_0000 &+ UInt64(bitPattern: k))
        return TouchPoint(x: margin + (p.widthPoints - 2 * margin) * r.nextUnit(),
                          y: margin + (p.heightPoints - 2 * margin) * r.nextUnit())
    }

    /// A target `distance` away from `from` in a random direction that stays
    /// inside the screen margins; after 8 unlucky directions, the last one
    /// is clamped to the margins.
    func target(from: TouchPoint, distance: Double, rng: inout SeededRandom) -> TouchPoint {
        var candidate = from
        for _ in 0..<8 {
            let a = 2 * Double.pi * rng.nextUnit()
            candidate = from + TouchPoint(x: cosine(a), y: sine(a)) * distance
            if inside(candidate) { return candidate }
        }
        return TouchPoint(x: Swift.min(Swift.max(candidate.x, margin), p.widthPoints - margin),
                          y: Swift.min(Swift.max(candidate.y, margin), p.heightPoints - margin))
    }

    func inside(_ q: TouchPoint) -> Bool {
        q.x >= margin && q.x <= p.widthPoints - margin && q.y >= margin && q.y <= p.heightPoints - margin
    }
}
