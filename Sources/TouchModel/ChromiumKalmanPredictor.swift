#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SimKernel

/// Chromium's one-axis Kalman filter (ui/base/prediction/kalman_filter.cc):
/// state (position, velocity, acceleration), constant-acceleration model
/// with `dt` in milliseconds, process noise `σp · g gᵀ` with
/// `g = (dt²/2, dt, 1)` and `σp = 0.01`, measurement variance 1, `P₀ = I`;
/// the first measurement only sets the position; the covariance is updated
/// in Joseph form, `(I − K H) P (I − K H)ᵀ + K R Kᵀ`, as Chromium does.
/// Chromium computes in single precision (`gfx::Matrix3F`); this is double.
struct ChromiumKalmanFilter: Sendable {
    static let sigmaProcess = 0.01
    static let sigmaMeasurement = 1.0
    /// Updates after which the filter is "stable" (`kStableIterNum`).
    static let stableIterations = 4

    var position = 0.0, velocity = 0.0, acceleration = 0.0
    var p00 = 1.0, p01 = 0.0, p02 = 0.0, p11 = 1.0, p12 = 0.0, p22 = 1.0
    /// Updates since the last reset (`iteration_count_`).
    var iterations = 0

    var stable: Bool { iterations >= ChromiumKalmanFilter.stableIterations }

    mutating func update(_ z: Double, dt h: Double) {
        defer { iterations += 1 }
        guard iterations > 0 else {
            position = z; velocity = 0; acceleration = 0
            return
        }
        // predict: x = F x, P = F P Fᵀ + Q
        let q = 0.5 * h * h
        position += velocity * h + acceleration * q
        velocity += acceleration * h
        let s = ChromiumKalmanFilter.sigmaProcess
        let f00 = p00 + 2 * h * p01 + 2 * q * p02 + h * h * p11 + 2 * h * q * p12 + q * q * p22 + s * q * q
        let f01 = p01 + h * p11 + q * p12 + h * (p02 + h * p12 + q * p22) + s * q * h
        let f02 = p02 + h * p12 + q * p22 + s * q
        let f11 = p11 + 2 * h * p12 + h * h * p22 + s * h * h
        let f12 = p12 + h * p22 + s * h
        let f22 = p22 + s
        // correct with the position measurement, H = (1, 0, 0)
        let r = ChromiumKalmanFilter.sigmaMeasurement
        let innovation = z - position
        let k0 = f00 / (f00 + r), k1 = f01 / (f00 + r), k2 = f02 / (f00 + r)
        position += k0 * innovation
        velocity += k1 * innovation
        acceleration += k2 * innovation
        // Joseph form with A = I − K H: rows of A P, then (A P) Aᵀ + R K Kᵀ
        let b00 = (1 - k0) * f00, b01 = (1 - k0) * f01, b02 = (1 - k0) * f02
        let b10 = f01 - k1 * f00, b11 = f11 - k1 * f01, b12 = f12 - k1 * f02
        let b20 = f02 - k2 * f00, b22 = f22 - k2 * f02
        p00 = b00 * (1 - k0) + r * k0 * k0
        p01 = b01 - k1 * b00 + r * k0 * k1
        p02 = b02 - k2 * b00 + r * k0 * k2
        p11 = b11 - k1 * b10 + r * k1 * k1
        p12 = b12 - k2 * b10 + r * k1 * k2
        p22 = b22 - k2 * b20 + r * k2 * k2
    }
}

/// The turning angles of the points Chromium's Kalman predictor keeps for
/// its heuristics (the last 40 ms), in fixed storage.
///
/// Each entry is a point's time and the turn it makes with the two points
/// before it, `atan2(d₁.x, d₁.y) − atan2(d₂.x, d₂.y)` in radians for the
/// steps `d₁` into the previous point and `d₂` into this one (0 when either
/// step has zero length), Chromium's unwrapped difference. Chromium sums
/// those turns over every point with two predecessors still queued.
/// Chromium's queue has no size limit; this one holds 32 points, which
/// covers 40 ms for events at least 1.3 ms apart (about 770 Hz), and drops
/// the oldest beyond that.
struct TurnQueue: Sendable {
    static let capacity = 32
    struct Entry: Sendable {
        var time: SimTime = 0
        var turn: Double = 0
    }
    typealias Storage = (Entry, Entry, Entry, Entry, Entry, Entry, Entry, Entry,
                         Entry, Entry, Entry, Entry, Entry, Entry, Entry, Entry,
                         Entry, Entry, Entry, Entry, Entry, Entry, Entry, Entry,
                         Entry, Entry, Entry, Entry, Entry, Entry, Entry, Entry)
    private var storage: Storage = (Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry(),
                                    Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry(),
                                    Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry(),
                                    Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry(), Entry())
    private var head = 0
    /// Points queued.
    private(set) var count = 0
    /// The summed turn of the queued points, radians.
    private(set) var totalTurn = 0.0

    mutating func removeAll() { head = 0; count = 0; totalTurn = 0 }

    /// Queues a point, drops those more than `window` before it, and sums
    /// the turns of the points whose two predecessors remain.
    mutating func append(time: SimTime, turn: Double, window: SimTime) {
        let capacity = TurnQueue.capacity
        let oldHead = head, oldCount = count
        var newHead = oldHead, newCount = oldCount
        var sum = 0.0
        withUnsafeMutableBytes(of: &storage) { raw in
            let entries = raw.bindMemory(to: Entry.self)
            if newCount == capacity { newHead = (newHead + 1) % capacity; newCount -= 1 }
            entries[(newHead + newCount) % capacity] = Entry(time: time, turn: turn)
            newCount += 1
            while time - entries[newHead].time > window { newHead = (newHead + 1) % capacity; newCount -= 1 }
            if newCount > 2 { for i in 2..<newCount { sum += entries[(newHead + i) % capacity].turn } }
        }
        head = newHead
        count = newCount
        totalTurn = sum
    }
}

/// Chromium's `KalmanPredictor` (ui/base/prediction/kalman_predictor.cc).
///
/// - Update: an event more than 20 ms after the newest resets everything;
///   otherwise the gap in ms feeds a time filter (a ``ChromiumKalmanFilter``
///   updated with the gap at `dt = 0`, in effect the running mean of the
///   gaps since the reset), whose output is the `dt` of the x and y filters.
///   Points older than 40 ms before the newest leave the queue.
/// - Prediction, once both axis filters are stable (4 updates), from the
///   newest raw point: `p + v Δ + 0.5 a Δ²` with `Δ` in ms, Chromium's
///   influences 1 and 0.5; with `directionCutOff`, nil when
///   `v · (v + a Δ) ≤ 0`; with `heuristics`, the acceleration term only when
///   the queued points turn by more than 15° in total.
/// - `TimeInterval`: the filtered gap, at least 2.5 ms; 8 ms before any gap.
struct ChromiumKalmanState: Sendable {
    /// `kMaxTimeInQueue`.
    static let maxTimeInQueue: SimTime = 40 * Nanos.perMillisecond

    var x = ChromiumKalmanFilter(), y = ChromiumKalmanFilter()
    var timeFilter = ChromiumKalmanFilter()
    var turns = TurnQueue()
    /// The newest point and the one before (valid per `points`).
    var newest = TouchSample(time: 0, position: .zero)
    var previous = TouchSample(time: 0, position: .zero)
    /// Points since the last reset (only 0, 1 and "2 or more" matter).
    var points = 0

    mutating func reset() {
        x = ChromiumKalmanFilter(); y = ChromiumKalmanFilter(); timeFilter = ChromiumKalmanFilter()
        turns.removeAll()
        points = 0
    }

    mutating func update(_ sample: TouchSample) {
        if points > 0 {
            let gap = sample.time - newest.time
            if gap > ChromiumPrediction.maxTimeDelta { reset() } else { timeFilter.update(Double(gap) / 1e6, dt: 0) }
        }
        let dt = timeFilter.position
        var turn = 0.0
        if points >= 2 {
            let d1 = newest.position - previous.position, d2 = sample.position - newest.position
            if d1.length != 0 && d2.length != 0 { turn = atan2(d1.x, d1.y) - atan2(d2.x, d2.y) }
        }
        turns.append(time: sample.time, turn: turn, window: ChromiumKalmanState.maxTimeInQueue)
        x.update(sample.position.x, dt: dt)
        y.update(sample.position.y, dt: dt)
        previous = newest
        newest = sample
        points += 1
    }

    func predict(_ options: ChromiumKalmanOptions, target: SimTime) -> TouchPoint? {
        guard x.stable && y.stable else { return nil }
        let dt = Double(target - newest.time) / 1e6
        let v = TouchPoint(x: x.velocity, y: y.velocity)
        let a = TouchPoint(x: x.acceleration, y: y.acceleration)
        if options.contains(.directionCutOff) && v.dot(v + a * dt) <= 0 { return nil }
        var p = newest.position + v * dt
        if !options.contains(.heuristics) || Swift.abs(turns.totalTurn) * 180 / Double.pi > 15 {
            p += a * (0.5 * dt * dt)
        }
        return p
    }

    /// `TimeInterval()`, ns.
    var timeInterval: SimTime {
        guard timeFilter.position != 0 else { return ChromiumPrediction.defaultTimeInterval }
        return max(ChromiumPrediction.minTimeInterval, roundHalfUp(timeFilter.position * 1e6))
    }
}
