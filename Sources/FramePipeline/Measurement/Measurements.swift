import SimKernel
import TouchModel

/// A finished run's figures (Docs/Model.md, "What is measured"): the latency
/// streams and the counts of the stages' work. Nothing here grows with the
/// simulated duration.
public struct Measurements: Sendable {
    /// Touch-to-photon of each displayed frame with new touch content, ms.
    public var touchToPhotonMs = Measurements.milliseconds()
    /// The talk's diagram convention, in display frames.
    public var pipelineFrames = Measurements.frames()
    /// Touch-to-photon minus the prediction horizon applied, ms.
    public var effectiveMs = Measurements.milliseconds()
    /// Pipeline frames minus the horizon applied, in frames.
    public var effectiveFrames = Measurements.frames()
    /// Touch-to-photon of every touch the app drew, ms.
    public var perSampleMs = Measurements.milliseconds()
    /// Photon time minus the frame's start (iOS: the delivery that ran the
    /// handler; Android: the frame time), ms: Google WALT's "screen
    /// response". iOS records frames with new touch content, Android every
    /// presented frame.
    public var frameToPhotonMs = Measurements.milliseconds()
    /// Touch-to-photon of each measured frame split into its platform's
    /// stages (Docs/Budget.md), when the run kept it
    /// (``PipelineRun/keepBudget()``).
    public var budget: StageBudget?
    /// A tapping finger (`input.trajectory: taps`): from each contact to the
    /// photon of the first frame that shows its touch-down, ms. The drag
    /// figures above stay empty in such a run: a tap has no sample instant
    /// of its own.
    public var tapToPhotonMs = Measurements.milliseconds()
    /// A tapping finger: from each contact to its touch-down being ready
    /// (`device.touchDownDelay`), ms.
    public var touchDownMs = Measurements.milliseconds()
    /// A tapping finger whose lifts the app responds to (`app.liftResponse`):
    /// from each lift to the photon of the first frame that shows its
    /// lift-off, ms.
    public var liftToPhotonMs = Measurements.milliseconds()
    /// The same: from each lift to its lift-off being ready, ms.
    public var touchUpMs = Measurements.milliseconds()
    /// The latency of each first touch after idle (a touch with no new frame
    /// shown in `measure.quietGap` before it: a tap's tap-to-photon, a drag
    /// frame's touch-to-photon), ms (Docs/Figures.md).
    public var firstTouchMs = Measurements.milliseconds()
    /// The same of every other touch: steady touches, ms.
    public var steadyTouchMs = Measurements.milliseconds()
    /// A display that changes its rate: the time at each rate, highest
    /// first, and the switches that took effect; nil otherwise.
    public var displayRate: DisplayRateFigures?

    /// Frames that became the front buffer.
    public var framesPresented = 0
    /// Vsyncs that showed the front frame again while frames were coming
    /// and the app had newer content in flight (Docs/Model.md, "Repeated
    /// frames and hitches"; an idle screen repeats nothing).
    public var repeatedFrames = 0
    /// Completed frames never shown (`os.present: latest`).
    public var droppedFrames = 0
    /// Repeated frames at which newer content was due (one display period
    /// each): on iOS a newer commit made, on Android a frame FrameTimeline
    /// expected presented by then.
    public var hitches = 0
    /// Deliveries of touches to the app.
    public var deliveries = 0
    /// Touch-handler runs.
    public var handlerRuns = 0
    /// Handler runs all of whose commits were merged away before rendering.
    public var wastedUpdates = 0
    /// Touches the digitizer made.
    public var samples = 0
    /// Prediction accuracy (fed only when the app predicts).
    public var prediction = PredictionScorer()
    /// The Android pipeline's own figures; nil on iOS.
    public var android: AndroidMeasurements? {
        get { _android?.value }
        set { _android = newValue.map(Stored.init) }
    }
    private var _android: Stored<AndroidMeasurements>?
    /// Chromium's prediction metrics, when the run kept them
    /// (``PipelineRun/keepScorecards(_:)``).
    public var chromiumScorecard: ChromiumPredictionMetrics? {
        get { _chromiumScorecard?.value }
        set { _chromiumScorecard = newValue.map(Stored.init) }
    }
    private var _chromiumScorecard: Stored<ChromiumPredictionMetrics>?
    /// Android's prediction metrics (MotionPredictor's), when the run kept them.
    public var androidScorecard: AndroidPredictionMetrics?
    /// The presses' figures, when the app uses force (Docs/Force.md); nil otherwise.
    public var force: ForceMeasurements? {
        get { _force?.value }
        set { _force = newValue.map(Stored.init) }
    }
    private var _force: Stored<ForceMeasurements>?
    /// A scrolling app's figures (`app.scrolls`, Docs/Model.md,
    /// "Scrolling"); nil otherwise.
    public var scroll: ScrollMeasurements? {
        get { _scroll?.value }
        set { _scroll = newValue.map(Stored.init) }
    }
    private var _scroll: Stored<ScrollMeasurements>?
    /// An ink app's figures (Docs/Ink.md); nil otherwise.
    public var ink: InkMeasurements? {
        get { _ink?.value }
        set { _ink = newValue.map(Stored.init) }
    }
    private var _ink: Stored<InkMeasurements>?

    /// No figure yet.
    public init() {}

    /// A figure only some runs have, kept out of line: a run's figures are
    /// copied as a whole (into its result, into a sweep's point), and these
    /// few KB, nil in most runs, were most of what every copy moved.
    final class Stored<Value: Sendable>: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// `body` of the scroll figures where they are kept; nil without them.
    func readScroll<R>(_ body: (borrowing ScrollMeasurements) -> R) -> R? { _scroll.map { body($0.value) } }
    /// `body` of the ink figures where they are kept; nil without them.
    func readInk<R>(_ body: (borrowing InkMeasurements) -> R) -> R? { _ink.map { body($0.value) } }
    /// `body` of the force figures where they are kept; nil without them.
    func readForce<R>(_ body: (borrowing ForceMeasurements) -> R) -> R? { _force.map { body($0.value) } }

    /// Adds values still pending in the streams (see ``StreamingStats``).
    mutating func settle() {
        touchToPhotonMs.settle()
        pipelineFrames.settle()
        effectiveMs.settle()
        effectiveFrames.settle()
        perSampleMs.settle()
        frameToPhotonMs.settle()
        tapToPhotonMs.settle()
        touchDownMs.settle()
        liftToPhotonMs.settle()
        touchUpMs.settle()
        firstTouchMs.settle()
        steadyTouchMs.settle()
        scroll?.settle()
    }

    /// Milliseconds at 1 µs resolution (HdrHistogram keeps three significant
    /// digits above that; mean, min and max are exact).
    static func milliseconds() -> StreamingStats { StreamingStats(resolution: 1e3, highestValue: 100_000) }
    /// Display frames at 1e-5 frame resolution.
    static func frames() -> StreamingStats { StreamingStats(resolution: 1e5, highestValue: 10_000) }
}

/// What a display that changes its rate did (Docs/Figures.md): the time
/// it spent at each rate and how often it switched.
public struct DisplayRateFigures: Sendable {
    /// The time at each rate, highest first, ns.
    public var residency: [(hz: Double, nanos: SimTime)]
    /// Switches that took effect.
    public var switches: Int
    /// The display's peak rate.
    public var peakHz: Double

    /// The share of the run at the peak rate, %.
    public var peakPercent: Double {
        let total = residency.reduce(0) { $0 + $1.nanos }
        guard total > 0 else { return 0 }
        return Double(residency.first { $0.hz == peakHz }?.nanos ?? 0) / Double(total) * 100
    }

    /// The time-weighted mean rate, Hz.
    public var meanHz: Double {
        let total = residency.reduce(0) { $0 + $1.nanos }
        guard total > 0 else { return peakHz }
        return residency.reduce(0.0) { $0 + $1.hz * Double($1.nanos) } / Double(total)
    }
}

/// Checks of the model's invariants (Docs/Model.md, "Invariants"), counted
/// during the run so tests can assert them on any configuration.
public struct InvariantChecks: Sendable {
    /// Latches whose commit was older than the previous latch's.
    public var latchesOutOfCommitOrder = 0
    /// Deliveries whose first touch was not the one after the last delivered.
    public var samplesOutOfOrder = 0
    /// Touches lost (made but neither delivered nor still waiting at the end).
    public var samplesLost = 0
    /// The most buffers held at once.
    public var maxBuffersHeld = 0
    /// The most buffers allocated at once.
    public var maxBuffersAllocated = 0
    /// The buffering policy's maximum.
    public var policyMaximum = 0
    /// Buffers taken while another frame held them, or given back while free.
    public var bufferConflicts = 0
    /// Android: GPU jobs started before their buffer's release fence signalled.
    public var gpuJobsBeforeFence = 0
    /// Android: on-demand frames presented before their expected present.
    public var presentsBeforeExpected = 0
    /// Measured frames whose stage budget did not add up to their
    /// touch-to-photon to the nanosecond.
    public var budgetMismatches = 0

    /// No check failed yet.
    public init() {}

    /// True when no invariant was broken.
    public var holds: Bool {
        latchesOutOfCommitOrder == 0 && samplesOutOfOrder == 0 && samplesLost == 0
            && maxBuffersHeld <= policyMaximum && maxBuffersAllocated <= policyMaximum && bufferConflicts == 0
            && gpuJobsBeforeFence == 0 && presentsBeforeExpected == 0 && budgetMismatches == 0
    }
}
