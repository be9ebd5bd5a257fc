import SimKernel

/// The formulas that turn a latch into latency (Docs/Model.md, "What is
/// measured"): the photon instant and the talk's pipeline-frames count.
/// The measurement, the pipeline diagrams and the analytic bound all use
/// these, so each is written once.
public struct FrameGeometry: Sendable {
    /// Display refresh rate, Hz (on a display that changes its rate, the
    /// rate of the refresh being measured: ``setRate(_:)``).
    public private(set) var displayHz: Double
    /// The display period, ns (not rounded).
    public private(set) var framePeriodNanos: Double
    /// Scan-out time of the measured row after the latch, ns; nil when the
    /// row is the touch's own (`measure.row: touch`).
    public private(set) var rowOffset: SimTime?
    let row: MeasureRow
    let heightPoints: Double
    /// Added to every photon time (`device.panelResponse`).
    public let panelResponse: SimTime

    /// The geometry of a configuration.
    public init(_ c: borrowing PipelineConfiguration) {
        displayHz = c.displayHz.doubleValue
        framePeriodNanos = c.vsyncClock.periodNanos
        row = c.row
        switch c.row {
        case .fraction(let f): rowOffset = f.scaledRounded(by: c.framePeriod) ?? 0
        case .touch: rowOffset = nil
        }
        heightPoints = c.heightPoints
        panelResponse = c.panelResponse
    }

    /// The display refreshes at `hz` from now on (a display that changes
    /// its rate): the scan-out down to a row takes that rate's period.
    public mutating func setRate(_ hz: Rational) {
        displayHz = hz.doubleValue
        framePeriodNanos = PeriodicClock(hz: hz).periodNanos
        if case .fraction(let f) = row {
            rowOffset = f.scaledRounded(by: Rational(Nanos.perSecond * hz.denominator, hz.numerator)) ?? 0
        }
    }

    /// The photon instant of content at screen row `y` (points) in a frame
    /// latched at `latch`: the latch, the scan-out down to the row, and the
    /// panel's response.
    @inline(__always)
    public func photonTime(latch: SimTime, y: Double) -> SimTime {
        let row = rowOffset ?? roundHalfUp(y / heightPoints * framePeriodNanos)
        return latch + row + panelResponse
    }

    /// The talk's diagram convention: display frames from the start of the
    /// touch's scan window to the end of the frame latched at `latch`,
    /// `(latch + T - windowStart) / T`. Kept to 1e-6 frames: instants are
    /// whole nanoseconds, so a count carries up to 1e-7 of rounding, and
    /// equal frames must compare equal.
    @inline(__always)
    public func pipelineFrames(latch: SimTime, windowStart: SimTime) -> Double {
        roundedHalfAway((Double(latch - windowStart) * displayHz / 1e9 + 1.0) * 1e6) / 1e6
    }

    /// `frames` minus a duration in display frames, kept to 1e-6 frames.
    @inline(__always)
    public func frames(_ frames: Double, minus duration: SimTime) -> Double {
        roundedHalfAway((frames - Double(duration) * displayHz / 1e9) * 1e6) / 1e6
    }
}

/// `Double(n) / 1e6`, milliseconds from nanoseconds, remembering the last
/// four answers: a stream's latencies come round in short cycles, and a
/// division costs more than the four comparisons that mostly find it.
/// Its answers are exactly the division's.
struct MillisecondsMemo {
    private var nanos: (Int64, Int64, Int64, Int64)
    private var millis: (Double, Double, Double, Double)
    private var next = 0

    init() {
        // every slot starts with a true answer (for a value no latency takes)
        nanos = (.min, .min, .min, .min)
        let m = Double(Int64.min) / 1e6
        millis = (m, m, m, m)
    }

    /// `Double(n) / 1e6`.
    @inline(__always)
    mutating func of(_ n: Int64) -> Double {
        if n == nanos.0 { return millis.0 }
        if n == nanos.1 { return millis.1 }
        if n == nanos.2 { return millis.2 }
        if n == nanos.3 { return millis.3 }
        return remember(n)
    }

    private mutating func remember(_ n: Int64) -> Double {
        let m = Double(n) / 1e6
        switch next {
        case 0: nanos.0 = n; millis.0 = m
        case 1: nanos.1 = n; millis.1 = m
        case 2: nanos.2 = n; millis.2 = m
        default: nanos.3 = n; millis.3 = m
        }
        next = (next + 1) & 3
        return m
    }
}
