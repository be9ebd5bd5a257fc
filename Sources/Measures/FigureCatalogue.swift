import FramePipeline
import SimKernel
import TouchModel

/// Every figure a run produces, declared once, in the order every output
/// shows them (Docs/Figures.md is this list printed).
///
/// A new figure is one declaration here: a statistic of a stream the run's
/// ``Measurements`` already hold, named by ``Measurements/Stream``
/// (`value: .pooled(.p50, of: .touchToPhotonMs)`),
/// or one number per run (`value: .runMean { ... }`). Every output shows it
/// from then on: `run`, `run --seeds`, `compare` (and `--fail-if-worse`),
/// `sweep` (table, CSV, JSON, part files), the summary JSON's `figures`, the
/// report's scenario tables and `latsim figures`; regenerate Docs/Figures.md
/// with `latsim figures --markdown`. A figure of something the pipeline does
/// not measure yet needs its measurement too: a stream or count in
/// ``Measurements`` (FramePipeline), recorded by ``Measurement``, and, to list
/// it in the summary JSON's `latency`, `display` or `work`, a
/// ``MeasureCatalogue`` row (Docs/Architecture.md, "Adding a figure").
public enum FigureCatalogue {
    /// The declarations, in the catalogue's order.
    public static let declarations: [FigureDeclaration] = touch + tap + transitions + scroll + ink + display + displayRate + android
        + force + prediction

    /// Names figures had before 0.11.0, each with its name now. Every name
    /// says what is measured and which statistic, never the unit (the unit
    /// is the declaration's, and each output states it), so the twelve
    /// names that ended in their unit were renamed; the old names are
    /// still read wherever a figure is named, and never written.
    public static let formerNames: [String: String] = [
        "effectiveP50Ms": "effectiveP50", "appDurationMs": "appDuration", "sfDurationMs": "sfDuration",
        "peekDecidedMs": "peekDecidedP50", "peekHapticMs": "peekHapticP50", "peekPhotonMs": "peekPhotonP50",
        "popDecidedMs": "popDecidedP50", "popHapticMs": "popHapticP50", "popPhotonMs": "popPhotonP50",
        "touchToPhotonAnimatingMs": "touchToPhotonAnimatingP50", "touchToPhotonOtherwiseMs": "touchToPhotonOtherwiseP50",
        "hitchMsPerS": "hitchTimeRatio",
    ]

    /// Where each name is in ``declarations``.
    static let index: [String: Int] = Dictionary(uniqueKeysWithValues: declarations.enumerated().map { ($1.name, $0) })

    typealias D = FigureDeclaration

    /// A finger that draws: touch-to-photon of each frame with new touch
    /// content, the talk's pipeline frames, prediction's effective figures,
    /// every drawn sample's latency; and WALT's frame-to-photon.
    static let touch: [D] = [
        D(name: "touchToPhotonP50", column: "t2p p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .touch, places: 3, inFrames: true, value: .pooled(.p50, of: .touchToPhotonMs)),
        D(name: "touchToPhotonP95", column: "t2p p95 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .touch, places: 3, inFrames: true, value: .pooled(.p95, of: .touchToPhotonMs)),
        D(name: "touchToPhotonP99", column: "t2p p99 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .touch, places: 3, inFrames: true, value: .pooled(.p99, of: .touchToPhotonMs)),
        D(name: "touchToPhotonMean", column: "t2p mean ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .touch, places: 3, inFrames: true, value: .pooled(.mean, of: .touchToPhotonMs)),
        D(name: "pipelineFramesP50", column: "frames p50", unit: .frames, better: .lower,
          platform: .both, channel: .touch, places: 3, value: .pooled(.p50, of: .pipelineFrames)),
        D(name: "pipelineFramesMean", column: "frames mean", unit: .frames, better: .lower,
          platform: .both, channel: .touch, places: 3, value: .pooled(.mean, of: .pipelineFrames)),
        D(name: "pipelineFramesMax", column: "frames max", unit: .frames, better: .lower,
          platform: .both, channel: .touch, places: 3, value: .pooled(.max, of: .pipelineFrames)),
        D(name: "effectiveP50", column: "effective p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .touch, places: 3, inFrames: true, value: .pooled(.p50, of: .effectiveMs)),
        D(name: "effectiveFramesP50", column: "effective frames p50", unit: .frames, better: .lower,
          platform: .both, channel: .touch, places: 3, value: .pooled(.p50, of: .effectiveFrames)),
        D(name: "perSampleP50", column: "per-sample p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .touch, places: 3, inFrames: true, value: .pooled(.p50, of: .perSampleMs)),
        D(name: "frameToPhotonP50", column: "f2p p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .display, places: 3, inFrames: true, value: .pooled(.p50, of: .frameToPhotonMs)),
    ]

    /// A finger that taps: from each contact (and lift) to its photon, and
    /// to its touch-down (touch-up) being ready.
    static let tap: [D] = [
        D(name: "tapToPhotonP50", column: "tap p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .tap, places: 3, inFrames: true, value: .pooled(.p50, of: .tapToPhotonMs)),
        D(name: "tapToPhotonMean", column: "tap mean ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .tap, places: 3, inFrames: true, value: .pooled(.mean, of: .tapToPhotonMs)),
        D(name: "tapToPhotonP95", column: "tap p95 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .tap, places: 3, inFrames: true, value: .pooled(.p95, of: .tapToPhotonMs)),
        D(name: "tapToPhotonP99", column: "tap p99 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .tap, places: 3, inFrames: true, value: .pooled(.p99, of: .tapToPhotonMs)),
        D(name: "touchDownMean", column: "touch-down ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .tap, places: 3, inFrames: true, value: .pooled(.mean, of: .touchDownMs)),
        D(name: "liftToPhotonMean", column: "lift mean ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .lift, places: 3, inFrames: true, value: .pooled(.mean, of: .liftToPhotonMs)),
        D(name: "touchUpMean", column: "touch-up ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .lift, places: 3, inFrames: true, value: .pooled(.mean, of: .touchUpMs)),
    ]

    /// The first touch after a quiet screen against steady ones
    /// (Docs/Figures.md, "First touch after idle").
    static let transitions: [D] = [
        D(name: "firstTouchP50", column: "first touch p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .transitions, places: 3, inFrames: true, value: .pooled(.p50, of: .firstTouchMs)),
        D(name: "firstTouchP99", column: "first touch p99 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .transitions, places: 3, inFrames: true, value: .pooled(.p99, of: .firstTouchMs)),
        D(name: "steadyTouchP50", column: "steady touch p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .transitions, places: 3, inFrames: true, value: .pooled(.p50, of: .steadyTouchMs)),
        D(name: "steadyTouchP99", column: "steady touch p99 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .transitions, places: 3, inFrames: true, value: .pooled(.p99, of: .steadyTouchMs)),
    ]

    /// A display that changes its rate (Docs/Model.md, "Display rate"):
    /// how often it switched and where it spent the run.
    static let displayRate: [D] = [
        D(name: "rateSwitches", column: "rate switches", unit: .count, better: .none,
          platform: .both, channel: .displayRate, places: 0, value: .runMean { $0.measurements.displayRate.map { Double($0.switches) } }),
        D(name: "peakRatePercent", column: "at peak rate %", unit: .percent, better: .none,
          platform: .both, channel: .displayRate, places: 1, value: .runMean { $0.measurements.displayRate?.peakPercent }),
        D(name: "meanRateHz", column: "mean rate Hz", unit: .hertz, better: .none,
          platform: .both, channel: .displayRate, places: 1, value: .runMean { $0.measurements.displayRate?.meanHz }),
    ]

    /// A scroll view following a dragging finger (Docs/Model.md, "Scrolling").
    static let scroll: [D] = [
        D(name: "scrollStartP50", column: "scroll start p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .scroll, places: 3, inFrames: true, value: .pooled(.p50, of: .scrollStartMs)),
        D(name: "scrollStartMean", column: "scroll start mean ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .scroll, places: 3, inFrames: true, value: .pooled(.mean, of: .scrollStartMs)),
        D(name: "scrollToPhotonP50", column: "s2p p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .scroll, places: 3, inFrames: true, value: .pooled(.p50, of: .scrollToPhotonMs)),
        D(name: "scrollToPhotonP95", column: "s2p p95 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .scroll, places: 3, inFrames: true, value: .pooled(.p95, of: .scrollToPhotonMs)),
        D(name: "scrollToPhotonP99", column: "s2p p99 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .scroll, places: 3, inFrames: true, value: .pooled(.p99, of: .scrollToPhotonMs)),
        D(name: "scrollTrailMean", column: "scroll trail pt", unit: .points, better: .lower,
          platform: .both, channel: .scroll, places: 3, value: .pooled(.mean, of: .scrollTrailPoints)),
    ]

    /// An ink app's pen (Docs/Ink.md): the wet stroke at the pen's row, the
    /// predicted ink's on-screen error, a front buffer's torn draws and its
    /// dry commits.
    static let ink: [D] = [
        D(name: "penToInkP50", column: "ink p50 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .ink, places: 3, inFrames: true, value: .pooled(.p50, of: .penToInkMs)),
        D(name: "penToInkP99", column: "ink p99 ms", unit: .milliseconds, better: .lower,
          platform: .both, channel: .ink, places: 3, inFrames: true, value: .pooled(.p99, of: .penToInkMs)),
        D(name: "inkErrorRms", column: "ink error rms pt", unit: .points, better: .lower,
          platform: .both, channel: .ink, places: 3, value: .runMean { $0.measurements.ink?.errorMoments.rms }),
        D(name: "tornPerSecond", column: "torn frames/s", unit: .perSecond, better: .lower,
          platform: .android, channel: .frontBuffer, places: 1, value: .runMean { $0.measurements.ink?.tornPerSecond }),
        D(name: "dryCommitP50", column: "dry commit p50 ms", unit: .milliseconds, better: .lower,
          platform: .android, channel: .frontBuffer, places: 3, inFrames: true, value: .pooled(.p50, of: .dryCommitMs)),
    ]

    /// What the display showed (Docs/Model.md, "Repeated frames and hitches").
    static let display: [D] = [
        D(name: "framesPresented", column: "presented", unit: .count, better: .none,
          platform: .both, channel: .display, places: 0, value: .runMean { Double($0.measurements.framesPresented) }),
        D(name: "fps", column: "fps", unit: .perSecond, better: .higher,
          platform: .both, channel: .display, places: 1, value: .runMean { $0.framesPerSecond }),
        D(name: "repeatedFrames", column: "repeated", unit: .count, better: .lower,
          platform: .both, channel: .display, places: 0, value: .runMean { Double($0.measurements.repeatedFrames) }),
        D(name: "droppedFrames", column: "dropped", unit: .count, better: .lower,
          platform: .both, channel: .display, places: 0, value: .runMean { Double($0.measurements.droppedFrames) }),
        D(name: "hitches", column: "hitches", unit: .count, better: .lower,
          platform: .both, channel: .display, places: 0, value: .runMean { Double($0.measurements.hitches) }),
        D(name: "hitchTimeRatio", column: "hitch ms/s", unit: .msPerSecond, better: .lower,
          platform: .both, channel: .display, places: 1, value: .runMean { $0.hitchTimeRatioMsPerS }),
        D(name: "triplePercent", column: "triple %", unit: .percent, better: .lower,
          platform: .ios, channel: .display, places: 1, value: .runMean { $0.tripleBufferedFraction * 100 }),
        D(name: "wastedUpdates", column: "wasted updates", unit: .count, better: .lower,
          platform: .both, channel: .display, places: 0, value: .runMean { Double($0.measurements.wastedUpdates) }),
    ]

    /// Android's BufferQueue and FrameTimeline (Docs/Android.md, "Measurements").
    static let android: [D] = [
        D(name: "appDuration", column: "D_app ms", unit: .milliseconds, better: .none,
          platform: .android, channel: .bufferQueue, places: 3, value: .runMean { $0.measurements.android.map { Double($0.appDuration) / 1e6 } }),
        D(name: "sfDuration", column: "D_sf ms", unit: .milliseconds, better: .none,
          platform: .android, channel: .bufferQueue, places: 3, value: .runMean { $0.measurements.android.map { Double($0.sfDuration) / 1e6 } }),
        D(name: "buffers", column: "buffers", unit: .count, better: .none,
          platform: .android, channel: .bufferQueue, places: 0, value: .runMean { $0.measurements.android.map { Double($0.buffers) } }),
        D(name: "maxBuffersHeld", column: "held max", unit: .count, better: .none,
          platform: .android, channel: .bufferQueue, places: 0, value: .runMean { $0.measurements.android.map { Double($0.maxBuffersHeld) } }),
        D(name: "dequeueWaits", column: "dequeue waits", unit: .count, better: .lower,
          platform: .android, channel: .bufferQueue, places: 0, value: .runMean { $0.measurements.android.map { Double($0.dequeueWaits) } }),
        D(name: "fenceWaits", column: "fence waits", unit: .count, better: .lower,
          platform: .android, channel: .bufferQueue, places: 0, value: .runMean { $0.measurements.android.map { Double($0.fenceWaits) } }),
        jank(name: "jankOnTime", column: "onTime", .onTime, better: .higher),
        jank(name: "jankAppDeadlineMissed", column: "appMissed", .appDeadlineMissed, better: .lower),
        jank(name: "jankBufferStuffing", column: "stuffing", .bufferStuffing, better: .lower),
        jank(name: "jankSurfaceFlingerDeadlineMissed", column: "sfMissed",
             .surfaceFlingerDeadlineMissed, better: .lower),
        jank(name: "jankDropped", column: "ft dropped", .dropped, better: .lower),
        jank(name: "jankUnknown", column: "unknown", .unknown, better: .none),
    ]

    /// 3D Touch (Docs/Force.md, "What is measured"): presses recognised,
    /// each stage's latency from the true threshold crossing, the force the
    /// frame showed.
    static let force: [D] = [
        D(name: "peeks", column: "peeks", unit: .count, better: .none,
          platform: .ios, channel: .force, places: 0, value: .runMean { recognizing($0).map { Double($0.peek.recognized) } }),
        D(name: "pops", column: "pops", unit: .count, better: .none,
          platform: .ios, channel: .force, places: 0, value: .runMean { recognizing($0).map { Double($0.pop.recognized) } }),
        D(name: "forceRejected", column: "rejected", unit: .count, better: .none,
          platform: .ios, channel: .force, places: 0, value: .runMean { recognizing($0).map { Double($0.rejected) } }),
        forceMedian(name: "peekDecidedP50", column: "peek decided ms", .peekDecidedMs),
        forceMedian(name: "peekHapticP50", column: "peek tap ms", .peekHapticMs),
        forceMedian(name: "peekPhotonP50", column: "peek photon ms", .peekPhotonMs),
        forceMedian(name: "popDecidedP50", column: "pop decided ms", .popDecidedMs),
        forceMedian(name: "popHapticP50", column: "pop tap ms", .popHapticMs),
        forceMedian(name: "popPhotonP50", column: "pop photon ms", .popPhotonMs),
        forceMedian(name: "touchToPhotonAnimatingP50", column: "t2p animating ms", .touchToPhotonAnimatingMs),
        forceMedian(name: "touchToPhotonOtherwiseP50", column: "t2p otherwise ms", .touchToPhotonOtherwiseMs),
        D(name: "forceErrorP50", column: "force error p50", unit: .force, better: .lower,
          platform: .ios, channel: .force, places: 3, value: .pooled(.p50, of: .forceErrorAtPhoton)),
        D(name: "forceErrorP99", column: "force error p99", unit: .force, better: .lower,
          platform: .ios, channel: .force, places: 3, value: .pooled(.p99, of: .forceErrorAtPhoton)),
    ]

    /// A predicting app's accuracy (Docs/Prediction.md), in points.
    static let prediction: [D] = [
        predictionMetric(name: "predictionErrorRms", column: "pred error rms pt", .errorRms),
        predictionMetric(name: "predictionErrorP95", column: "pred error p95 pt", .errorP95),
        predictionMetric(name: "predictionAlongTrackMean", column: "pred along-track pt", .alongTrackMean),
        predictionMetric(name: "predictionJitter", column: "pred jitter pt", .jitter),
        predictionMetric(name: "predictionPhotonRms", column: "pred photon rms pt", .photonRms),
    ]

    // MARK: the families' shared parts

    /// FrameTimeline's count of class `c` per run.
    static func jank(name: String, column: String, _ c: JankClass, better: FigureDirection) -> D {
        D(name: name, column: column, unit: .count, better: better, platform: .android, channel: .frameTimeline,
          places: 0, value: .runMean { $0.measurements.android?.frameTimeline.map { Double($0[c]) } })
    }

    /// A force run's figures, when its app recognises peek and pop.
    static func recognizing(_ r: RunResult) -> ForceMeasurements? {
        r.measurements.force.flatMap { $0.interaction == .peekPop ? $0 : nil }
    }

    /// The median of a force run's latency stream, ms.
    static func forceMedian(name: String, column: String, _ stream: Measurements.Stream) -> D {
        D(name: name, column: column, unit: .milliseconds, better: .lower, platform: .ios, channel: .force,
          places: 3, inFrames: true, value: .pooled(.p50, of: stream))
    }

    /// A prediction metric of the run's score (nil when nothing was scored).
    static func predictionMetric(name: String, column: String, _ metric: PredictionMetric) -> D {
        D(name: name, column: column, unit: .points, better: metric.isSigned ? .towardZero : .lower,
          platform: .both, channel: .prediction, places: 3,
          value: .runMean { r in r.predictionScore.flatMap { $0.samples > 0 ? metric.value($0) : nil } })
    }
}
