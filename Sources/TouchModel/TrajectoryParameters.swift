import SimKernel

/// What a trajectory generator needs to know about the screen and the finger.
public struct TrajectoryParameters: Sendable, Hashable {
    /// The finger's typical speed, points per second. Each synthetic kind
    /// documents how it uses it (the `line` and `circle` move at exactly this
    /// speed; `strokes` and `random` average about this speed).
    public var speed: Double
    /// Screen width, points.
    public var widthPoints: Double
    /// Screen height, points.
    public var heightPoints: Double
    /// Points per millimetre (for reports; generators work in points).
    public var pointsPerMM: Double
    /// The seed of every random choice a generator makes.
    public var seed: UInt64
    /// The finger-up gap between consecutive files of a trace directory.
    public var traceGap: SimTime
    /// Whether `strokes` lifts the finger between strokes (100–300 ms up,
    /// then a touch-down elsewhere). Off, the strokes chain into one long
    /// touch, the talk's finger "down and moving" (Docs/Model.md, "Finger motion").
    public var strokeLiftOff: Bool
    /// When `taps` touches the glass and for how long.
    public var taps: TapTiming
    /// The synthetic press that gives the finger its force (``PressProfile/none``:
    /// no press; a recorded trace keeps its own force column).
    public var press: PressProfile = .none
    /// The largest force the digitizer reports (UIKit's
    /// `maximumPossibleForce`): a recorded trace's force column may not
    /// exceed it (Docs/Force.md).
    public var maximumForce: Double = PressProfile.defaultMaximumForce

    /// Parameters with the defaults of a 768 x 1024 point iPad held by a
    /// finger moving at 600 points per second.
    public init(speed: Double = 600, widthPoints: Double = 768, heightPoints: Double = 1024,
                pointsPerMM: Double = 6.4, seed: UInt64 = 1,
                traceGap: SimTime = 200 * Nanos.perMillisecond, strokeLiftOff: Bool = false,
                taps: TapTiming = TapTiming()) {
        self.speed = speed
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.pointsPerMM = pointsPerMM
        self.seed = seed
        self.traceGap = traceGap
        self.strokeLiftOff = strokeLiftOff
        self.taps = taps
    }

    /// The shorter side of the screen, points.
    var shortSide: Double { Swift.min(widthPoints, heightPoints) }

    /// Throws when a value cannot describe a screen or a motion.
    func validate() throws(LatsimError) {
        func check(_ ok: Bool, _ what: String, _ v: Double) throws(LatsimError) {
            if !ok { throw LatsimError(problem: "\(what) is \(formatDecimal(v, places: 6))", expected: "a finite number greater than 0") }
        }
        try check(speed.isFinite && speed > 0, "the finger speed", speed)
        try check(widthPoints.isFinite && widthPoints > 0, "the screen width", widthPoints)
        try check(heightPoints.isFinite && heightPoints > 0, "the screen height", heightPoints)
        try check(pointsPerMM.isFinite && pointsPerMM > 0, "pointsPerMM", pointsPerMM)
        try taps.validate()
        try check(maximumForce.isFinite && maximumForce > 0, "the largest force", maximumForce)
        if traceGap < 0 {
            throw LatsimError(problem: "the trace gap is \(traceGap) ns", expected: "0 or more")
        }
    }
}
