import FramePipeline
import Scenarios
import SimKernel
import TouchModel

/// Every figure a run produces, declared once (Docs/Figures.md): its stable
/// name (the case's raw value, as JSON and `--fail-if-worse` write it), its
/// column, unit, better direction, what produces it, its precision, how it
/// aggregates over seeds, whether it is also shown in display frames, and
/// how it is read from a result. `run`, `run --seeds`, `compare`, `sweep`
/// (table, CSV, JSON), the summary JSON's `figures` and the report's
/// scenario table take their rows from ``allCases``, in this order.
public enum Figure: String, CaseIterable, Sendable, Codable {
    // touch: a finger that draws
    case touchToPhotonP50, touchToPhotonP99, touchToPhotonMean
    case pipelineFramesP50, pipelineFramesMean, pipelineFramesMax
    case effectiveP50Ms, effectiveFramesP50
    case perSampleP50
    // the frame: Google WALT's screen response
    case frameToPhotonP50
    // tap: a finger that taps
    case tapToPhotonP50, tapToPhotonMean, tapToPhotonP99, touchDownMean
    // lift: taps whose lift the app draws
    case liftToPhotonMean, touchUpMean
    // scroll: a scroll view following a dragging finger
    case scrollStartP50, scrollStartMean, scrollToPhotonP50, scrollToPhotonP99, scrollTrailMean
    // ink: an ink app's wet stroke at the pen's row, a front buffer's torn draws and dry commits (Docs/Ink.md)
    case penToInkP50, penToInkP99, inkErrorRms, tornPerSecond, dryCommitP50
    // the display
    case framesPresented, fps, repeatedFrames, droppedFrames, hitches, hitchMsPerS, triplePercent, wastedUpdates
    // Android's BufferQueue and FrameTimeline
    case appDurationMs, sfDurationMs, buffers, maxBuffersHeld, dequeueWaits, fenceWaits
    case jankOnTime, jankAppDeadlineMissed, jankBufferStuffing, jankSurfaceFlingerDeadlineMissed, jankDropped, jankUnknown
    // force (3D Touch)
    case peeks, pops, forceRejected
    case peekDecidedMs, peekHapticMs, peekPhotonMs, popDecidedMs, popHapticMs, popPhotonMs
    case touchToPhotonAnimatingMs, touchToPhotonOtherwiseMs, forceErrorP50, forceErrorP99
    // prediction
    case predictionErrorRms, predictionErrorP95, predictionAlongTrackMean, predictionJitter, predictionPhotonRms

    /// The declaration: everything about the figure but its name.
    public var declaration: FigureDeclaration { Self.declarations[self]! }

    /// Every figure's declaration, made once.
    static let declarations = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.declared) })

    /// The declarations, one per figure.
    private var declared: FigureDeclaration {
        typealias D = FigureDeclaration
        switch self {
        case .touchToPhotonP50:
            return D("t2p p50 ms", "t2pP50Ms", .milliseconds, .lower, .both, .touch, 3, inFrames: true, stream: .init({ $0.touchToPhotonMs }, .p50))
        case .touchToPhotonP99:
            return D("t2p p99 ms", "t2pP99Ms", .milliseconds, .lower, .both, .touch, 3, inFrames: true, stream: .init({ $0.touchToPhotonMs }, .p99))
        case .touchToPhotonMean:
            return D("t2p mean ms", "t2pMeanMs", .milliseconds, .lower, .both, .touch, 3, inFrames: true, stream: .init({ $0.touchToPhotonMs }, .mean))
        case .pipelineFramesP50:
            return D("frames p50", "framesP50", .frames, .lower, .both, .touch, 3, stream: .init({ $0.pipelineFrames }, .p50))
        case .pipelineFramesMean:
            return D("frames mean", "framesMean", .frames, .lower, .both, .touch, 3, stream: .init({ $0.pipelineFrames }, .mean))
        case .pipelineFramesMax:
            return D("frames max", "framesMax", .frames, .lower, .both, .touch, 3, stream: .init({ $0.pipelineFrames }, .max))
        case .effectiveP50Ms:
            return D("effective p50 ms", "effectiveP50Ms", .milliseconds, .lower, .both, .touch, 3, inFrames: true, stream: .init({ $0.effectiveMs }, .p50))
        case .effectiveFramesP50:
            return D("effective frames p50", "effectiveFramesP50", .frames, .lower, .both, .touch, 3, stream: .init({ $0.effectiveFrames }, .p50))
        case .perSampleP50:
            return D("per-sample p50 ms", "perSampleP50Ms", .milliseconds, .lower, .both, .touch, 3, inFrames: true, stream: .init({ $0.perSampleMs }, .p50))
        case .frameToPhotonP50:
            return D("f2p p50 ms", "f2pP50Ms", .milliseconds, .lower, .both, .display, 3, inFrames: true, stream: .init({ $0.frameToPhotonMs }, .p50))
        case .tapToPhotonP50:
            return D("tap p50 ms", "tapP50Ms", .milliseconds, .lower, .both, .tap, 3, inFrames: true, stream: .init({ $0.tapToPhotonMs }, .p50))
        case .tapToPhotonMean:
            return D("tap mean ms", "tapMeanMs", .milliseconds, .lower, .both, .tap, 3, inFrames: true, stream: .init({ $0.tapToPhotonMs }, .mean))
        case .tapToPhotonP99:
            return D("tap p99 ms", "tapP99Ms", .milliseconds, .lower, .both, .tap, 3, inFrames: true, stream: .init({ $0.tapToPhotonMs }, .p99))
        case .touchDownMean:
            return D("touch-down ms", "touchDownMeanMs", .milliseconds, .lower, .both, .tap, 3, inFrames: true, stream: .init({ $0.touchDownMs }, .mean))
        case .liftToPhotonMean:
            return D("lift mean ms", "liftMeanMs", .milliseconds, .lower, .both, .lift, 3, inFrames: true, stream: .init({ $0.liftToPhotonMs }, .mean))
        case .touchUpMean:
            return D("touch-up ms", "touchUpMeanMs", .milliseconds, .lower, .both, .lift, 3, inFrames: true, stream: .init({ $0.touchUpMs }, .mean))
        case .scrollStartP50:
            return D("scroll start p50 ms", "scrollStartP50Ms", .milliseconds, .lower, .both, .scroll, 3, inFrames: true, stream: .init({ $0.scroll?.startMs }, .p50))
        case .scrollStartMean:
            return D("scroll start mean ms", "scrollStartMeanMs", .milliseconds, .lower, .both, .scroll, 3, inFrames: true, stream: .init({ $0.scroll?.startMs }, .mean))
        case .scrollToPhotonP50:
            return D("s2p p50 ms", "s2pP50Ms", .milliseconds, .lower, .both, .scroll, 3, inFrames: true, stream: .init({ $0.scroll?.scrollToPhotonMs }, .p50))
        case .scrollToPhotonP99:
            return D("s2p p99 ms", "s2pP99Ms", .milliseconds, .lower, .both, .scroll, 3, inFrames: true, stream: .init({ $0.scroll?.scrollToPhotonMs }, .p99))
        case .scrollTrailMean:
            return D("scroll trail pt", "scrollTrailMeanPt", .points, .lower, .both, .scroll, 3, stream: .init({ $0.scroll?.trailPoints }, .mean))
        case .penToInkP50:
            return D("ink p50 ms", "inkP50Ms", .milliseconds, .lower, .both, .ink, 3, inFrames: true, stream: .init({ $0.ink?.penToInkMs }, .p50))
        case .penToInkP99:
            return D("ink p99 ms", "inkP99Ms", .milliseconds, .lower, .both, .ink, 3, inFrames: true, stream: .init({ $0.ink?.penToInkMs }, .p99))
        case .inkErrorRms:
            return D("ink error rms pt", "inkErrorRmsPt", .points, .lower, .both, .ink, 3) { $0.measurements.ink?.errorMoments.rms }
        case .tornPerSecond:
            return D("torn frames/s", "tornPerS", .perSecond, .lower, .android, .frontBuffer, 1) { $0.measurements.ink?.tornPerSecond }
        case .dryCommitP50:
            return D("dry commit p50 ms", "dryCommitP50Ms", .milliseconds, .lower, .android, .frontBuffer, 3, inFrames: true,
                     stream: .init({ $0.ink?.dryCommitMs }, .p50))
        case .framesPresented:
            return D("presented", "framesPresented", .count, .none, .both, .display, 0) { Double($0.measurements.framesPresented) }
        case .fps:
            return D("fps", "fps", .perSecond, .higher, .both, .display, 1) { $0.framesPerSecond }
        case .repeatedFrames:
            return D("repeated", "repeatedFrames", .count, .lower, .both, .display, 0) { Double($0.measurements.repeatedFrames) }
        case .droppedFrames:
            return D("dropped", "droppedFrames", .count, .lower, .both, .display, 0) { Double($0.measurements.droppedFrames) }
        case .hitches:
            return D("hitches", "hitches", .count, .lower, .both, .display, 0) { Double($0.measurements.hitches) }
        case .hitchMsPerS:
            return D("hitch ms/s", "hitchMsPerS", .msPerSecond, .lower, .both, .display, 1) { $0.hitchTimeRatioMsPerS }
        case .triplePercent:
            return D("triple %", "triplePercent", .percent, .lower, .ios, .display, 1) { $0.tripleBufferedFraction * 100 }
        case .wastedUpdates:
            return D("wasted updates", "wastedUpdates", .count, .lower, .both, .display, 0) { Double($0.measurements.wastedUpdates) }
        case .appDurationMs:
            return D("D_app ms", "appDurationMs", .milliseconds, .none, .android, .bufferQueue, 3) { $0.measurements.android.map { Double($0.appDuration) / 1e6 } }
        case .sfDurationMs:
            return D("D_sf ms", "sfDurationMs", .milliseconds, .none, .android, .bufferQueue, 3) { $0.measurements.android.map { Double($0.sfDuration) / 1e6 } }
        case .buffers:
            return D("buffers", "buffers", .count, .none, .android, .bufferQueue, 0) { $0.measurements.android.map { Double($0.buffers) } }
        case .maxBuffersHeld:
            return D("held max", "maxBuffersHeld", .count, .none, .android, .bufferQueue, 0) { $0.measurements.android.map { Double($0.maxBuffersHeld) } }
        case .dequeueWaits:
            return D("dequeue waits", "dequeueWaits", .count, .lower, .android, .bufferQueue, 0) { $0.measurements.android.map { Double($0.dequeueWaits) } }
        case .fenceWaits:
            return D("fence waits", "fenceWaits", .count, .lower, .android, .bufferQueue, 0) { $0.measurements.android.map { Double($0.fenceWaits) } }
        case .jankOnTime:
            return Self.jank("onTime", .onTime, .higher)
        case .jankAppDeadlineMissed:
            return Self.jank("appMissed", .appDeadlineMissed, .lower)
        case .jankBufferStuffing:
            return Self.jank("stuffing", .bufferStuffing, .lower)
        case .jankSurfaceFlingerDeadlineMissed:
            return Self.jank("sfMissed", .surfaceFlingerDeadlineMissed, .lower)
        case .jankDropped:
            return Self.jank("ft dropped", .dropped, .lower)
        case .jankUnknown:
            return Self.jank("unknown", .unknown, .none)
        case .peeks:
            return D("peeks", "peeks", .count, .none, .ios, .force, 0) { Self.recognizing($0).map { Double($0.peek.recognized) } }
        case .pops:
            return D("pops", "pops", .count, .none, .ios, .force, 0) { Self.recognizing($0).map { Double($0.pop.recognized) } }
        case .forceRejected:
            return D("rejected", "forceRejected", .count, .none, .ios, .force, 0) { Self.recognizing($0).map { Double($0.rejected) } }
        case .peekDecidedMs:
            return Self.force("peek decided ms", "peekDecidedP50Ms") { $0.peek.crossingToRecognitionMs }
        case .peekHapticMs:
            return Self.force("peek tap ms", "peekHapticP50Ms") { $0.peek.crossingToHapticMs }
        case .peekPhotonMs:
            return Self.force("peek photon ms", "peekPhotonP50Ms") { $0.peek.crossingToPhotonMs }
        case .popDecidedMs:
            return Self.force("pop decided ms", "popDecidedP50Ms") { $0.pop.crossingToRecognitionMs }
        case .popHapticMs:
            return Self.force("pop tap ms", "popHapticP50Ms") { $0.pop.crossingToHapticMs }
        case .popPhotonMs:
            return Self.force("pop photon ms", "popPhotonP50Ms") { $0.pop.crossingToPhotonMs }
        case .touchToPhotonAnimatingMs:
            return Self.force("t2p animating ms", "t2pAnimatingP50Ms") { $0.touchToPhotonAnimatingMs }
        case .touchToPhotonOtherwiseMs:
            return Self.force("t2p otherwise ms", "t2pOtherwiseP50Ms") { $0.touchToPhotonOtherwiseMs }
        case .forceErrorP50:
            return D("force error p50", "forceErrorP50", .force, .lower, .ios, .force, 3, stream: .init({ $0.force?.forceErrorAtPhoton }, .p50))
        case .forceErrorP99:
            return D("force error p99", "forceErrorP99", .force, .lower, .ios, .force, 3, stream: .init({ $0.force?.forceErrorAtPhoton }, .p99))
        case .predictionErrorRms:
            return Self.prediction("pred error rms pt", "predictionErrorRmsPt", .errorRms)
        case .predictionErrorP95:
            return Self.prediction("pred error p95 pt", "predictionErrorP95Pt", .errorP95)
        case .predictionAlongTrackMean:
            return Self.prediction("pred along-track pt", "predictionAlongTrackMeanPt", .alongTrackMean)
        case .predictionJitter:
            return Self.prediction("pred jitter pt", "predictionJitterPt", .jitter)
        case .predictionPhotonRms:
            return Self.prediction("pred photon rms pt", "predictionPhotonRmsPt", .photonRms)
        }
    }

    // MARK: the declaration's parts, for the shorter calls above and for every output

    /// The column name, as every table prints it.
    public var column: String { declaration.column }
    /// The name in the sweep's CSV and JSON (`t2pP50Ms`).
    public var sweepKey: String { declaration.sweepKey }
    /// The unit.
    public var unit: FigureUnit { declaration.unit }
    /// Which way is better.
    public var better: FigureDirection { declaration.better }
    /// Decimals shown.
    public var places: Int { declaration.places }
    /// True for milliseconds also shown in display frames (a difference in
    /// `compare`).
    public var inFrames: Bool { declaration.inFrames }

    /// True when a run of `c` produces the figure: its platform, and the
    /// channel its input and app give (a drawing finger, a tap, a drawn
    /// lift, force, a predictor, Android's BufferQueue and FrameTimeline).
    public func isProduced(by c: PipelineConfiguration) -> Bool {
        let d = declaration
        switch d.platform {
        case .ios: if c.platform != .ios { return false }
        case .android: if c.platform != .android { return false }
        case .both: break
        }
        switch d.channel {
        case .display, .bufferQueue: return true
        case .frameTimeline: return c.platform != .android || c.android.version.hasFrameTimeline
        case .touch: return !c.taps
        case .tap: return c.taps
        case .lift: return c.taps && c.liftResponse
        case .scroll: return c.scrolls && !c.taps
        case .force: return c.force.interaction != .none
        case .ink: return c.inkApp
        case .frontBuffer: return c.frontBuffered
        case .prediction: return !c.predictor.isNone
        }
    }

    /// True when run `r` produces the figure: as its configuration says,
    /// and the prediction figures also when a predictor of its own replaced
    /// the configured one (`run --predictor-command`).
    public func isProduced(by r: RunResult) -> Bool {
        isProduced(by: r.configuration) || declaration.channel == .prediction && r.predictorName != nil
    }

    /// The figure of a run; nil when the run does not produce it, or
    /// produced it but measured nothing of it (no frame reached the screen).
    public func value(_ r: RunResult) -> Double? {
        guard isProduced(by: r) else { return nil }
        return declaration.read(r)
    }

    /// The headline of a run of `c` when its scenario names none: a tapping
    /// finger's tap-to-photon, a scrolling app's time to first scroll
    /// movement, else touch-to-photon (Docs/Figures.md).
    public static func headline(for c: PipelineConfiguration) -> Figure {
        c.taps ? .tapToPhotonP50 : c.scrolls ? .scrollStartP50 : .touchToPhotonP50
    }

    /// The figures some run of `configurations` produces, in catalogue order
    /// after `first` (the runs' headlines, each once).
    public static func shown(for configurations: [PipelineConfiguration], first: [Figure] = []) -> [Figure] {
        var out: [Figure] = []
        for f in first where !out.contains(f) && configurations.contains(where: f.isProduced) { out.append(f) }
        for f in allCases where !out.contains(f) && configurations.contains(where: f.isProduced) { out.append(f) }
        return out
    }

    /// The figures some run of `runs` produces, in catalogue order after
    /// `first`, each once.
    public static func shown(forRuns runs: [RunResult], first: [Figure] = []) -> [Figure] {
        var out: [Figure] = []
        for f in first where !out.contains(f) && runs.contains(where: f.isProduced) { out.append(f) }
        for f in allCases where !out.contains(f) && runs.contains(where: f.isProduced) { out.append(f) }
        return out
    }

    // MARK: helpers of the declarations

    static func jank(_ column: String, _ c: JankClass, _ better: FigureDirection) -> FigureDeclaration {
        FigureDeclaration(column, "frameTimeline" + c.rawValue.prefix(1).uppercased() + c.rawValue.dropFirst(), .count, better,
                          .android, .frameTimeline, 0) { $0.measurements.android?.frameTimeline.map { Double($0[c]) } }
    }

    /// A force run's figures, when its app recognises peek and pop.
    static func recognizing(_ r: RunResult) -> ForceMeasurements? {
        r.measurements.force.flatMap { $0.interaction == .peekPop ? $0 : nil }
    }

    static func force(_ column: String, _ key: String, _ read: @escaping @Sendable (ForceMeasurements) -> StreamingStats) -> FigureDeclaration {
        FigureDeclaration(column, key, .milliseconds, .lower, .ios, .force, 3, inFrames: true, stream: .init({ $0.force.map(read) }, .p50))
    }

    static func prediction(_ column: String, _ key: String, _ metric: PredictionMetric) -> FigureDeclaration {
        FigureDeclaration(column, key, .points, metric.isSigned ? .towardZero : .lower, .both, .prediction, 3) { r in
            r.predictionScore.flatMap { $0.samples > 0 ? metric.value($0) : nil }
        }
    }
}

/// What a figure is said in.
public enum FigureUnit: String, Sendable, CaseIterable {
    case milliseconds = "ms"
    case frames = "display frames"
    case count = "per run"
    case perSecond = "frames per s"
    case msPerSecond = "ms per s"
    case percent = "%"
    case force = "force units"
    case points = "points"
}

/// Which way a figure is better.
public enum FigureDirection: String, Sendable, CaseIterable {
    /// Smaller is better (latency, hitches).
    case lower
    /// Larger is better (fps, on-time frames).
    case higher
    /// Closer to 0 is better (a signed error).
    case towardZero
    /// Neither: a count or a setting that describes the run.
    case none
}

/// The runs that produce a figure.
public enum FigurePlatform: String, Sendable, CaseIterable {
    case ios, android, both
}

/// What in a run produces a figure.
public enum FigureChannel: String, Sendable, CaseIterable {
    /// Every run: what the display showed.
    case display
    /// A drawing finger (every trajectory but taps).
    case touch
    /// A tapping finger (`input.trajectory: taps`).
    case tap
    /// A tapping finger whose lifts the app draws (`app.liftResponse`).
    case lift
    /// A scrolling app (`app.scrolls`) with a moving finger.
    case scroll
    /// An app that uses force (`app.force.interaction`).
    case force
    /// An ink app (`app.ink`, or front-buffered) with a drawing pen.
    case ink
    /// A front-buffered app (`android.renderMode: frontBuffered`).
    case frontBuffer
    /// An app that predicts (`app.predictor`).
    case prediction
    /// Android's FrameTimeline.
    case frameTimeline
    /// Android's BufferQueue.
    case bufferQueue
}

/// How a figure of several runs (seeds, a sweep point's seeds) is made.
public enum FigureAggregation: String, Sendable, CaseIterable {
    /// A statistic of a latency stream: over a sweep point's seeds, taken
    /// from the seeds' frames pooled (their histograms merged); across seeds
    /// in `run --seeds` and `compare`, the mean of each seed's value.
    case pooled
    /// A per-run value (a count, a rate): the mean of the runs' values.
    case runMean
}

/// Which statistic of a stream a figure is.
public enum StreamStatistic: Sendable {
    case p50, p99, mean, max

    /// The statistic of `s`; nil when it holds no value.
    public func of(_ s: StreamingStats) -> Double? {
        guard s.count > 0 else { return nil }
        switch self {
        case .p50: return s.percentile(50)
        case .p99: return s.percentile(99)
        case .mean: return s.mean
        case .max: return s.max
        }
    }
}

/// A latency stream of a run and the statistic a figure takes of it.
public struct FigureStream: Sendable {
    /// The stream, from a run's measurements (nil when the run has none).
    public var stream: @Sendable (Measurements) -> StreamingStats?
    /// The statistic taken.
    public var statistic: StreamStatistic

    init(_ stream: @escaping @Sendable (Measurements) -> StreamingStats?, _ statistic: StreamStatistic) {
        self.stream = stream
        self.statistic = statistic
    }

    /// The statistic of the streams of several runs pooled (merged).
    public func pooled(_ runs: [Measurements]) -> Double? {
        var merged: StreamingStats?
        for m in runs {
            guard let s = stream(m) else { continue }
            if merged == nil { merged = s } else { merged!.merge(s) }
        }
        return merged.flatMap(statistic.of)
    }
}

/// One figure's declaration (``Figure/declaration``).
public struct FigureDeclaration: Sendable {
    /// The column name in tables.
    public var column: String
    /// The name in the sweep's CSV and JSON.
    public var sweepKey: String
    public var unit: FigureUnit
    public var better: FigureDirection
    public var platform: FigurePlatform
    public var channel: FigureChannel
    /// Decimals shown.
    public var places: Int
    /// True when a value (or difference) is also shown in display frames.
    public var inFrames: Bool
    /// The latency stream the figure is a statistic of; nil for a per-run value.
    public var stream: FigureStream?
    /// Reads the figure from a run that produces it.
    public var read: @Sendable (RunResult) -> Double?

    /// How it aggregates over a sweep point's seeds.
    public var aggregation: FigureAggregation { stream == nil ? .runMean : .pooled }

    /// A statistic of a latency stream.
    init(_ column: String, _ sweepKey: String, _ unit: FigureUnit, _ better: FigureDirection, _ platform: FigurePlatform,
         _ channel: FigureChannel, _ places: Int, inFrames: Bool = false, stream: FigureStream) {
        self.init(column, sweepKey, unit, better, platform, channel, places, inFrames: inFrames) { r in
            stream.stream(r.measurements).flatMap(stream.statistic.of)
        }
        self.stream = stream
    }

    /// A per-run value.
    init(_ column: String, _ sweepKey: String, _ unit: FigureUnit, _ better: FigureDirection, _ platform: FigurePlatform,
         _ channel: FigureChannel, _ places: Int, inFrames: Bool = false, read: @escaping @Sendable (RunResult) -> Double?) {
        self.column = column
        self.sweepKey = sweepKey
        self.unit = unit
        self.better = better
        self.platform = platform
        self.channel = channel
        self.places = places
        self.inFrames = inFrames
        self.read = read
    }
}

extension Figure {
    /// The headline of a scenario run as `c`: the figure its `headline:`
    /// names, else its app model's (``headline(for:)``).
    ///
    /// - Throws: ``LatsimError`` naming the file, line and value when
    ///   `headline:` names no figure, or one a run of `c` does not produce.
    public static func headline(of s: Scenario, _ c: PipelineConfiguration) throws(LatsimError) -> Figure {
        guard let (name, source) = s.headline else { return headline(for: c) }
        guard let f = Figure(rawValue: name) else {
            throw LatsimError(file: source.file, line: source.line, column: source.column, key: "headline", value: name,
                              problem: "names no figure", expected: "a figure of Docs/Figures.md, such as touchToPhotonP50")
        }
        guard f.isProduced(by: c) else {
            throw LatsimError(file: source.file, line: source.line, column: source.column, key: "headline", value: name,
                              problem: "is not produced by this scenario's runs", expected: "a figure its runs produce (Docs/Figures.md)")
        }
        return f
    }
}
