import SimKernel
import TouchModel

/// The ink figures of a run (Docs/Ink.md, "What is measured"): pen-to-ink
/// at the pen's own row, the on-screen error of the ink's end, the front
/// buffer's torn draws and its dry commits. Nil in a run whose app is not
/// an ink app.
public struct InkMeasurements: Sendable {
    /// Pen-to-ink: from the true instant of the newest pen position a frame
    /// (or a front-buffer draw) shows to the photons of that position at
    /// its own row, ms.
    public var penToInkMs = Measurements.milliseconds()
    /// The on-screen error of the ink: at those photons, the distance from
    /// the drawn end of the stroke (the predicted position with prediction
    /// on) to the pen, points. The prediction scorecard's photon-time
    /// error, taken at the ink's own photons.
    public var errorPoints = StreamingStats(resolution: 1e3, highestValue: 100_000)
    /// The same, for its root mean square.
    public var errorMoments = RunningMoments()
    /// Front-buffered rendering: the draws into the front buffer (the wet
    /// stroke); 0 otherwise.
    public var wetDraws = 0
    /// Draws the scan-out passed at the pen's row while they were being
    /// drawn (a torn frame each); overlay plane only.
    public var tornDraws = 0
    /// Draws shown through SurfaceFlinger: every draw on a composed front
    /// buffer, and on an overlay the draws made while the layer was not
    /// yet shown (a stroke's first, after a dry commit hid the layer).
    public var composedDraws = 0
    /// Dry commits: from the pen's lift to the photons of the dry stroke
    /// (the multi-buffered layer's frame) at the pen's last row, ms.
    public var dryCommitMs = Measurements.milliseconds()
    /// iOS with a mid-frame read (`app.midFrameLead`): the reads that took
    /// touches, and the touches they took.
    public var lateReads = 0
    public var lateReadTouches = 0
    /// Simulated seconds, for the rates.
    public var seconds = 0.0
    /// Whether the app drew into a front buffer, and on which plane.
    public var frontBuffered = false
    public var plane = FrontBufferPlane.overlay

    /// No figure yet.
    public init() {}

    /// Torn draws per simulated second.
    public var tornPerSecond: Double { seconds > 0 ? Double(tornDraws) / seconds : 0 }

    mutating func settle() {
        penToInkMs.settle()
        errorPoints.settle()
        dryCommitMs.settle()
    }
}

/// Records the ink figures as frames (or front-buffer draws) are shown
/// (``InkMeasurements``). Owned by ``Measurement``; nothing grows with the
/// run.
struct InkTracker {
    var figures = InkMeasurements()
    /// The display period, ns (unrounded), and the screen's height: a row's
    /// scan-out offset is `roundHalfUp(y / height * T)`, as
    /// ``FrameGeometry/photonTime(latch:y:)`` makes it.
    let framePeriodNanos: Double
    let heightPoints: Double
    let panelResponse: SimTime

    init(_ c: borrowing PipelineConfiguration) {
        framePeriodNanos = c.vsyncClock.periodNanos
        heightPoints = c.heightPoints
        panelResponse = c.panelResponse
        figures.frontBuffered = c.frontBuffered
        figures.plane = c.ink.frontBufferPlane
        figures.seconds = Double(c.duration) / 1e9
    }

    /// The scan-out offset of row `y` (points) after a vsync, ns.
    @inline(__always)
    func rowOffset(_ y: Double) -> SimTime { roundHalfUp(y / heightPoints * framePeriodNanos) }

    /// The photons of content at row `y` on a frame that goes on screen at
    /// the vsync `vsync`: the scan-out reaching the row, then the panel.
    @inline(__always)
    func photon(vsync: SimTime, y: Double) -> SimTime { vsync + rowOffset(y) + panelResponse }

    /// A frame (or a draw) shows the pen position `newest` at `photon`, its
    /// stroke's end drawn at `drawn`; `truth` is the pen at that instant.
    mutating func shown(newest: Touch, photon: SimTime, drawn: TouchPoint, truth: TouchPoint) {
        figures.penToInkMs.record(Double(photon - newest.time) / 1e6)
        let d = drawn.distance(to: truth)
        figures.errorPoints.record(d)
        figures.errorMoments.record(d)
    }

    /// A dry commit: the pen lifted at `lift`, the dry stroke's photons at
    /// its last row came at `photon`.
    mutating func dryCommitted(lift: SimTime, photon: SimTime) {
        figures.dryCommitMs.record(Double(photon - lift) / 1e6)
    }
}
