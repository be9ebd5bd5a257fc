import SimKernel
import TouchModel

/// AOSP InputConsumer's touch resampling (Docs/Android.md, "Resampling";
/// `InputConsumer::resampleTouchState`): the point a frame draws as the
/// touch's newest position, interpolated toward a sample still waiting in
/// the batch or extrapolated from the last two consumed samples.
///
/// Sample times are evdev timestamps (``Touch/ready``). A point's physical
/// time is found with the same fraction from the physical instants
/// (``Touch/time``) of the samples it came from, exactly, then rounded half
/// up to whole nanoseconds.
enum Resampler {
    /// `RESAMPLE_MIN_DELTA`: the two samples used must be at least this far apart.
    static let minimumDelta: SimTime = 2 * Nanos.perMillisecond
    /// `RESAMPLE_MAX_DELTA`: extrapolation only over samples at most this far apart.
    static let maximumDelta: SimTime = 20 * Nanos.perMillisecond
    /// `RESAMPLE_MAX_PREDICTION`: extrapolation reaches at most this far past the newest sample.
    static let maximumPrediction: SimTime = 8 * Nanos.perMillisecond

    /// A resampled point.
    struct Point: Equatable {
        /// Interpolated or extrapolated.
        var kind: ResampleOutcome
        /// Its sample time (evdev time base), rounded half up.
        var eventTime: SimTime
        /// Its position.
        var position: TouchPoint
        /// Its physical time, rounded half up.
        var physicalTime: SimTime
    }

    /// The point for `current`, the newest consumed sample, at `sampleTime`:
    /// `next` is the oldest sample left in the batch (if any), `previous` the
    /// sample of the same touch consumed before `current` (if any). Nil when
    /// no point is added.
    static func resample(current: Touch, next: Touch?, previous: Touch?, sampleTime: SimTime) -> Point? {
        if let next {
            // interpolation; closer than 2 ms: no point (AOSP returns, it
            // does not fall back to extrapolation)
            let delta = next.ready - current.ready
            guard delta >= minimumDelta else { return nil }
            let num = sampleTime - current.ready, den = delta
            return Point(kind: .interpolated, eventTime: sampleTime,
                         position: along(current.position, next.position, num, den),
                         physicalTime: physical(current.time, next.time - current.time, num, den))
        }
        guard let previous else { return nil }
        let delta = previous.ready <= current.ready ? current.ready - previous.ready : -1
        guard delta >= minimumDelta && delta <= maximumDelta else { return nil }
        // lead = min(sampleTime - cur.t, delta / 2, 8 ms), kept in halves of a ns
        let twiceLead = Swift.min(2 * (sampleTime - current.ready), delta, 2 * maximumPrediction)
        let num = twiceLead, den = 2 * delta
        let step = TouchPoint(x: current.position.x - previous.position.x, y: current.position.y - previous.position.y)
        return Point(kind: .extrapolated,
                     eventTime: current.ready + (twiceLead + 1) / 2,
                     position: TouchPoint(x: current.position.x + Double(num) / Double(den) * step.x,
                                          y: current.position.y + Double(num) / Double(den) * step.y),
                     physicalTime: physical(current.time, current.time - previous.time, num, den))
    }

    /// `a + (num / den) * (b - a)`, per axis, with the fraction as the
    /// correctly rounded double (both are exact doubles: below 2^53).
    @inline(__always)
    static func along(_ a: TouchPoint, _ b: TouchPoint, _ num: SimTime, _ den: SimTime) -> TouchPoint {
        let alpha = Double(num) / Double(den)
        return TouchPoint(x: a.x + alpha * (b.x - a.x), y: a.y + alpha * (b.y - a.y))
    }

    /// `base + (num / den) * span` (num, den, span >= 0), exactly, rounded
    /// half up to ns: in 64 bits when the product fits, else in 128.
    @inline(__always)
    static func physical(_ base: SimTime, _ span: SimTime, _ num: SimTime, _ den: SimTime) -> SimTime {
        let (product, overflow) = num.multipliedReportingOverflow(by: span)
        if !overflow && product < Int64.max / 4 && den < Int64.max / 4 {
            return base + (2 * product + den) / (2 * den)
        }
        return base + Int64(truncatingIfNeeded: roundHalfUp(Int128(num) * Int128(span), Int128(den)))
    }
}
