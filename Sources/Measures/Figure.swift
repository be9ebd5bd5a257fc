import FramePipeline
import Scenarios
import SimKernel
import TouchModel

/// A figure a run produces (Docs/Figures.md), declared once in
/// ``FigureCatalogue``: its stable name (``rawValue``, as JSON and
/// `--fail-if-worse` write it), its column, unit, better direction, what
/// produces it, its precision, how it aggregates over seeds and how it is
/// read from a run. `run`, `run --seeds`, `compare`, `sweep` (table, CSV,
/// JSON, part files), the summary JSON's `figures` and the report's scenario
/// tables take their rows from ``allCases``, in the catalogue's order; none
/// of them names a figure but through it.
public struct Figure: Hashable, Sendable, CaseIterable, RawRepresentable, Codable, CustomStringConvertible {
    /// The figure's place in the catalogue.
    let index: Int

    init(index: Int) { self.index = index }

    /// The figure declared with this name, or once declared with it
    /// (``FigureCatalogue/formerNames``: a gate file, `--fail-if-worse` or a
    /// baseline written before a rename still reads); nil when none is.
    public init?(rawValue name: String) {
        guard let i = FigureCatalogue.index[name] ?? FigureCatalogue.formerNames[name].flatMap({ FigureCatalogue.index[$0] }) else {
            return nil
        }
        index = i
    }

    /// The figure's name (``FigureDeclaration/name``).
    public var rawValue: String { declaration.name }
    public var description: String { rawValue }

    /// Every figure, in the catalogue's order.
    public static let allCases: [Figure] = FigureCatalogue.declarations.indices.map(Figure.init(index:))

    /// The declaration.
    public var declaration: FigureDeclaration { FigureCatalogue.declarations[index] }

    /// A figure the code names (a headline, a chart's line): it must be
    /// declared; `FigureCatalogueTests` reads every one.
    static func declared(_ name: String) -> Figure {
        guard let f = Figure(rawValue: name) else { preconditionFailure("\(name) is not declared in FigureCatalogue") }
        return f
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let f = Figure(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no figure is named \(name)"))
        }
        self = f
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    // MARK: the declaration's parts, for every output

    /// The column name, as every table prints it.
    public var column: String { declaration.column }
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
    public func isProduced(by c: PipelineConfiguration) -> Bool { isProduced(by: Production(c)) }

    /// What of a configuration decides which figures its run produces: a
    /// sweep of thousands of points has a handful of these, so the figures
    /// it shows are found over them, not over every point.
    public struct Production: Hashable, Sendable {
        var platform: Platform
        var frameTimeline, taps, liftResponse, scrolls, noFinger, firstTouch, rateSwitches, force, ink, frontBuffered, predicts: Bool

        public init(_ c: borrowing PipelineConfiguration) {
            platform = c.platform
            frameTimeline = c.platform != .android || c.android.version.hasFrameTimeline
            (taps, liftResponse, scrolls, noFinger) = (c.taps, c.liftResponse, c.scrolls, c.noFinger)
            (firstTouch, rateSwitches, force) = (c.measuresFirstTouch, c.rate.switches, c.force.interaction != .none)
            (ink, frontBuffered, predicts) = (c.inkApp, c.frontBuffered, !c.predictor.isNone)
        }
    }

    /// Each figure's platform and channel, by catalogue place (read
    /// without copying its declaration).
    private static let producers: [(platform: FigurePlatform, channel: FigureChannel)] =
        FigureCatalogue.declarations.map { ($0.platform, $0.channel) }

    /// The figures runs of one production produce, with how each is read,
    /// in catalogue order: found once, a sweep point's figures are read
    /// from this list, not by asking every figure of the catalogue.
    public struct Produced: Sendable {
        let figures: [(index: Int, value: FigureValue)]

        /// The figures runs of production `p` produce.
        public init(_ p: Production) {
            figures = Figure.allCases.filter { $0.isProduced(by: p) }.map { ($0.index, $0.declaration.value) }
        }
    }

    /// True when a run of a configuration of production `p` produces the figure.
    public func isProduced(by p: Production) -> Bool {
        let (platform, channel) = Self.producers[index]
        switch platform {
        case .ios: if p.platform != .ios { return false }
        case .android: if p.platform != .android { return false }
        case .both: break
        }
        switch channel {
        case .display, .bufferQueue: return true
        case .frameTimeline: return p.frameTimeline
        case .touch: return !p.taps
        case .tap: return p.taps
        case .lift: return p.taps && p.liftResponse
        case .scroll: return p.scrolls && !p.taps && !p.noFinger
        case .transitions: return p.firstTouch
        case .displayRate: return p.rateSwitches
        case .force: return p.force
        case .ink: return p.ink
        case .frontBuffer: return p.frontBuffered
        case .prediction: return p.predicts
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
        return declaration.value.of(r)
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
        shown(for: Set(configurations.map(Production.init)), first: first)
    }

    /// The figures some run of a configuration of one of `productions`
    /// produces, in catalogue order after `first`, each once.
    public static func shown(for productions: Set<Production>, first: [Figure] = []) -> [Figure] {
        shown(first) { f in productions.contains(where: f.isProduced) }
    }

    /// The figures some run of `runs` produces, in catalogue order after
    /// `first`, each once.
    public static func shown(forRuns runs: [RunResult], first: [Figure] = []) -> [Figure] {
        shown(first) { f in runs.contains(where: f.isProduced) }
    }

    /// The figures `produced` holds, in catalogue order after `first`
    /// (those of `first` it holds), each once: what ``shown(for:first:)``
    /// gives when `produced` is the union of the figures some run produces.
    public static func shown(first: [Figure], where produced: (Figure) -> Bool) -> [Figure] {
        shown(first, produced)
    }

    static func shown(_ first: [Figure], _ produced: (Figure) -> Bool) -> [Figure] {
        var out: [Figure] = []
        for f in first + allCases where !out.contains(f) && produced(f) { out.append(f) }
        return out
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

/// One figure's declaration: a row of ``FigureCatalogue``.
public struct FigureDeclaration: Sendable {
    /// The stable name: the JSON's `figures`, `--fail-if-worse`, `headline:`.
    public var name: String
    /// The column name in tables.
    public var column: String
    /// What it is said in.
    public var unit: FigureUnit
    /// Which way is better.
    public var better: FigureDirection
    /// The platforms whose runs produce it.
    public var platform: FigurePlatform
    /// What in a run produces it.
    public var channel: FigureChannel
    /// Decimals shown.
    public var places: Int
    /// True when a value (or difference) is also shown in display frames.
    public var inFrames: Bool
    /// How it is read from a run, and so how it aggregates over seeds.
    public var value: FigureValue

    /// How it aggregates over a sweep point's seeds.
    public var aggregation: FigureAggregation { value.aggregation }

    public init(name: String, column: String, unit: FigureUnit, better: FigureDirection,
                platform: FigurePlatform, channel: FigureChannel, places: Int, inFrames: Bool = false, value: FigureValue) {
        self.name = name
        self.column = column
        self.unit = unit
        self.better = better
        self.platform = platform
        self.channel = channel
        self.places = places
        self.inFrames = inFrames
        self.value = value
    }
}

/// How a figure is read from a run: which also says how it aggregates over
/// several runs (``FigureAggregation``).
public enum FigureValue: Sendable {
    /// A statistic of a latency stream of the run's measurements (nil: the
    /// run has no such stream); over a sweep point's seeds, of their frames
    /// pooled (histograms merged).
    case pooled(StreamStatistic, of: Measurements.Stream)
    /// One number per run; over a sweep point's seeds, the mean of the
    /// seeds' numbers.
    case runMean(@Sendable (RunResult) -> Double?)

    /// How it aggregates.
    public var aggregation: FigureAggregation {
        switch self {
        case .pooled: return .pooled
        case .runMean: return .runMean
        }
    }

    /// The value of one run (produced or not: ``Figure/value(_:)`` asks).
    public func of(_ r: RunResult) -> Double? {
        switch self {
        case .pooled(let statistic, let stream): return r.withMeasurements { $0.read(stream) { statistic.of($0) } } ?? nil
        case .runMean(let read): return read(r)
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
    case hertz = "Hz"
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

    /// As Docs/Figures.md says it.
    public var phrase: String {
        switch self {
        case .ios: return "iOS"
        case .android: return "Android"
        case .both: return "both"
        }
    }
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
    /// A finger that comes and goes (taps, drags, strokes with lift-offs),
    /// or any finger on a display that changes its rate: first touches
    /// after idle and steady ones.
    case transitions
    /// A display that changes its rate (`display.minHz`).
    case displayRate
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

    /// As Docs/Figures.md says it.
    public var phrase: String {
        switch self {
        case .display: return "every run"
        case .touch: return "a drawing finger"
        case .tap: return "a tapping finger"
        case .lift: return "taps, app.liftResponse"
        case .scroll: return "app.scrolls"
        case .transitions: return "taps, drags, lift-offs or display.minHz"
        case .displayRate: return "display.minHz"
        case .force: return "app.force.interaction"
        case .ink: return "app.ink"
        case .frontBuffer: return "android.renderMode frontBuffered"
        case .prediction: return "app.predictor"
        case .frameTimeline: return "FrameTimeline"
        case .bufferQueue: return "BufferQueue"
        }
    }
}

/// How a figure of several runs (seeds, a sweep point's seeds) is made.
public enum FigureAggregation: String, Sendable, CaseIterable {
    /// A statistic of a latency stream: over a sweep point's seeds, taken
    /// from the seeds' frames pooled (their histograms merged); across seeds
    /// in `run --seeds` and `compare`, the mean of each seed's value.
    case pooled
    /// A per-run value (a count, a rate): the mean of the runs' values.
    case runMean

    /// As Docs/Figures.md says it.
    public var phrase: String {
        switch self {
        case .pooled: return "seeds' frames pooled"
        case .runMean: return "mean of the runs"
        }
    }
}

/// Which statistic of a stream a figure is.
public enum StreamStatistic: Sendable {
    case p50, p95, p99, mean, max

    /// The statistic of `s`; nil when it holds no value.
    public func of(_ s: StreamingStats) -> Double? {
        guard s.count > 0 else { return nil }
        switch self {
        case .p50: return s.percentile(50)
        case .p95: return s.percentile(95)
        case .p99: return s.percentile(99)
        case .mean: return s.mean
        case .max: return s.max
        }
    }

    /// The statistic of the streams of several runs pooled (merged).
    func pooled(_ streams: [StreamingStats]) -> Double? {
        var merged: StreamingStats?
        for s in streams {
            if merged == nil { merged = s } else { merged!.merge(s) }
        }
        return merged.flatMap(of)
    }
}

// MARK: the figures the code names

extension Figure {
    /// The headlines (``headline(for:)``), and the sweep chart's lines.
    public static let touchToPhotonP50 = declared("touchToPhotonP50")
    public static let touchToPhotonP99 = declared("touchToPhotonP99")
    public static let tapToPhotonP50 = declared("tapToPhotonP50")
    public static let scrollStartP50 = declared("scrollStartP50")
    /// The stage budget's whole (`run --budget`), the report's tables.
    public static let tapToPhotonP99 = declared("tapToPhotonP99")
    public static let frameToPhotonP50 = declared("frameToPhotonP50")
    public static let framesPresented = declared("framesPresented")
    /// What the sweep's narrative tells: where the median pipeline frames
    /// step, where adaptive buffering goes triple, where the frame rate falls.
    public static let pipelineFramesP50 = declared("pipelineFramesP50")
    public static let triplePercent = declared("triplePercent")
    public static let fps = declared("fps")

    /// Every figure named above (a test reads them all, so a name that is
    /// not declared fails there and not in a user's run).
    static var namedByCode: [Figure] {
        [touchToPhotonP50, touchToPhotonP99, tapToPhotonP50, scrollStartP50, tapToPhotonP99, frameToPhotonP50, framesPresented,
         pipelineFramesP50, triplePercent, fps]
    }
}
