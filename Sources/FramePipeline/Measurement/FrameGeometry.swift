import SimKernel

/// The formulas that turn a latch into latency (Docs/Model.md, "What is
/// measured"): the photon instant and the talk's pipeline-frames count.
/// The measurement, the pipeline diagrams and the analytic bound all use
/// these, so each is written once.
public struct FrameGeometry: Sendable {
    /// Display refresh rate, Hz.
    public let displayHz: Double
    /// The display period, ns (not rounded).
    public let framePeriodNanos: Double
    /// Scan-out time of the measured row after the latch, ns; nil when the
    /// row is the touch's own (`measure.row: touch`).
    public let rowOffset: SimTime?
    let heightPoints: Double
    /// Added to every photon time (`device.panelResponse`).
    public let panelResponse: SimTime

    /// The geometry of a configuration.
    public init(_ c: PipelineConfiguration) {
        displayHz = c.displayHz.doubleValue
        framePeriodNanos = c.vsyncClock.periodNanos
        switch c.row {
        case .fraction(let f): rowOffset = f.scaledRounded(by: c.framePeriod) ?? 0
        case .touch: rowOffset = nil
        }
        heightPoints = c.heightPoints
        panelResponse = c.panelResponse
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
