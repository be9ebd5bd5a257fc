import SimKernel
import TouchModel

/// One touch as the digitizer reports it: one scan window's sample of the
/// finger (Docs/Model.md, "Digitizer"). It is the one sample type of the
/// pipeline: the main touch, the coalesced touches and what a frame shows
/// are all touches.
public struct Touch: Sendable, Hashable {
    /// The scan window it was sampled in (window 0 starts at the scan phase).
    public var scan: Int64
    /// The instant the finger's position was taken (its true time).
    public var time: SimTime
    /// The start of its scan window (the talk's diagrams count from here).
    public var windowStart: SimTime
    /// When the digitizer reported it.
    public var ready: SimTime
    /// The reported position, points (with digitizer noise, if any).
    public var position: TouchPoint
    /// The reported force (with the digitizer's force noise, if any),
    /// normalised as `UITouch.force`: 1.0 an average touch (Docs/Force.md).
    public var force: Double
    // the flags come last: a touch is then 59 bytes, and a value holding
    // one can put a flag of its own in the 5 bytes its stride leaves
    // (``Commit`` fits in 128 bytes, copied without a call)
    /// True for the first touch of a stroke (touch-down).
    public var began: Bool
    /// True for a tap's lift-off, when the app responds to it
    /// (`app.liftResponse`); its time is the lift's instant.
    public var lifted: Bool
    /// True for a touch a scan window made, ready the digitizer's delay
    /// after the window's end (not a touch-down or lift-off timed by a
    /// distribution, not a tap's): the stage budget reads the window's end
    /// from it.
    public var scanned: Bool

    /// A touch from its parts.
    public init(scan: Int64, time: SimTime, windowStart: SimTime, ready: SimTime, position: TouchPoint, began: Bool,
                lifted: Bool = false, force: Double = 0, scanned: Bool = false) {
        self.scan = scan
        self.time = time
        self.windowStart = windowStart
        self.ready = ready
        self.position = position
        self.began = began
        self.lifted = lifted
        self.force = force
        self.scanned = scanned
    }

    /// A placeholder before any touch exists (scan -1).
    static let none = Touch(scan: -1, time: 0, windowStart: 0, ready: 0, position: .zero, began: false)

    /// As a predictor sees it: time and position.
    var sample: TouchSample { TouchSample(time: time, position: position) }
}
