import Foundation
import SimKernel
import Scenarios
import FramePipeline
import TouchModel

/// Where the finger's motion of a prediction study comes from.
public enum PredictionMotion: Sendable {
    /// A synthetic generator (`Trajectory.syntheticKinds`) with its seed.
    case synthetic(kind: String, seed: UInt64)
    /// A trajectory already built, typically recorded traces.
    case trajectory(Trajectory)
}

/// One motion that predictors are scored on.
public struct PredictionCorpusItem: Sendable {
    /// A stable, machine-independent name: it identifies the item's entries
    /// in a stored baseline.
    public var name: String
    /// The finger's motion.
    public var motion: PredictionMotion
    /// Simulated time in the duration syntax (`20s`, `600frames`); nil for a
    /// recorded trace means the trace's own length.
    public var duration: String?

    /// An item from its parts.
    public init(name: String, motion: PredictionMotion, duration: String?) {
        self.name = name
        self.motion = motion
        self.duration = duration
    }
}

/// How far ahead a predictor is asked to predict: a duration, or a number
/// of display frames (resolved against the display rate of the run).
public struct Horizon: Sendable, Hashable, CustomStringConvertible {
    /// As written: `8ms`, `1frame`, `0.5frames`.
    public let description: String

    /// Parses a duration (`8ms`, `1frame`, `0.5frames`); a bare number is a
    /// number of display frames.
    public init(parsing text: String) throws(LatsimError) {
        let t = text.trimmingCharacters(in: .whitespaces)
        let spec = Rational(decimal: t) != nil ? t + "frames" : t
        // checked against a 60 Hz frame here; the run's own rate resolves it
        let ns = try DurationSyntax.parse(spec, framePeriod: Rational(16_666_667))
        guard ns >= 0 else { throw LatsimError(value: text, problem: "a horizon cannot be negative", expected: "a duration of 0 or more") }
        description = spec
    }

    /// The horizon in ns at a display period of `framePeriod` ns.
    public func nanoseconds(framePeriod: Rational) throws(LatsimError) -> SimTime {
        let ns = try DurationSyntax.parse(description, framePeriod: framePeriod)
        guard ns <= ValueLimits.horizon else {
            throw LatsimError(key: "app.prediction.horizon", value: description, problem: "is longer than \(DurationSyntax.format(ValueLimits.horizon))",
                              expected: "a horizon up to \(DurationSyntax.format(ValueLimits.horizon))")
        }
        return ns
    }
}

/// Makes the predictor of a run from its configuration: a user's own
/// ``TouchPredictor`` can be scored by the corpus like a built-in.
public typealias PredictorFactory = @Sendable (PredictorConfiguration) -> any TouchPredictor

/// A set of motions and the device settings predictors are scored with:
/// the input of `latsim predict` and of the regression gate of
/// `latsim regress`.
///
/// Every run is the built-in ``PredictionCorpus/scenarioName`` scenario with
/// the predictor, horizon, scan and display rates, smoothing and finger
/// motion set. The `none` predictor is scored too, as the reference: it
/// draws the newest delivered touch, which the pipeline does not score on
/// its own (``RunResult/predictionScore`` is nil for it). It is never
/// smoothed, so that it stays the raw touch whatever the smoothing.
public struct PredictionCorpus: Sendable {
    /// The built-in scenario every run starts from.
    public static let scenarioName = "ios9-prediction"
    /// The horizons of the standard study: half, one and one and a half
    /// display frames.
    public static let standardHorizons = ["0.5frames", "1frame", "1.5frames"].map { try! Horizon(parsing: $0) }
    /// Simulated time of each synthetic item of ``synthetic``.
    public static let syntheticDuration = "20s"

    /// The motions, in report order.
    public var items: [PredictionCorpusItem]
    /// Digitizer scan rate, Hz (`device.scanHz`).
    public var scanHz: Rational
    /// Display refresh rate, Hz (`device.displayHz`).
    public var displayHz: Rational
    /// Smoothing of the predicted positions (`app.prediction.smoothing`).
    public var smoothing: PredictionSmoothing

    /// A corpus from its parts; by default a 120 Hz digitizer, a 60 Hz
    /// display and no smoothing.
    public init(items: [PredictionCorpusItem], scanHz: Rational = Rational(120), displayHz: Rational = Rational(60),
                smoothing: PredictionSmoothing = .none) {
        self.items = items
        self.scanHz = scanHz
        self.displayHz = displayHz
        self.smoothing = smoothing
    }

    /// The fixed synthetic corpus of the regression gate: minimum-jerk
    /// strokes with seeds 1 and 2, a circle, a flick and random smooth
    /// motion, 20 s each, 120 Hz scan, 60 Hz display. Its item names
    /// (`strokes-seed1`, ...) are stable: baselines refer to them.
    public static var synthetic: PredictionCorpus {
        let specs: [(String, UInt64)] = [("strokes", 1), ("strokes", 2), ("circle", 1), ("flick", 1), ("random", 1)]
        return PredictionCorpus(items: specs.map { kind, seed in
            PredictionCorpusItem(name: "\(kind)-seed\(seed)", motion: .synthetic(kind: kind, seed: seed),
                                 duration: syntheticDuration)
        })
    }

    /// Items for a directory of recorded traces: one per folder that
    /// directly holds `.xml`/`.csv` files, named `dataset/` plus the folder's
    /// path relative to `directory` (`dataset/.` for files at the top), its
    /// files played one after another as ``Trajectory/loadDirectory(_:parameters:skipBad:)``
    /// plays a directory. `include` keeps only files that have a folder of
    /// one of these names on their relative path (empty keeps every file).
    ///
    /// With `skipBad`, malformed files are left out and returned; without
    /// it the first one throws.
    public static func datasetItems(directory: String, include: [String] = [], skipBad: Bool,
                                    parameters: TrajectoryParameters = TrajectoryParameters())
        throws(LatsimError) -> (items: [PredictionCorpusItem], skipped: [LatsimError]) {
        let files = try TraceFiles.list(under: directory, include: include)
        var groups: [String: [String]] = [:]
        for f in files {
            let folder = (f as NSString).deletingLastPathComponent
            groups[folder.isEmpty ? "." : folder, default: []].append((directory as NSString).appendingPathComponent(f))
        }
        var items: [PredictionCorpusItem] = []
        var skipped: [LatsimError] = []
        for folder in groups.keys.sorted() {
            let loaded = try Trajectory.load(groups[folder]!, name: directory, parameters: parameters, skipBad: skipBad)
            skipped += loaded.skipped
            items.append(PredictionCorpusItem(name: "dataset/" + folder, motion: .trajectory(loaded.trajectory), duration: nil))
        }
        return (items, skipped)
    }

    /// One run of the study: an item scored with a predictor at a horizon.
    public struct Cell: Sendable, Hashable {
        /// Index into ``PredictionCorpus/items``.
        public var item: Int
        /// The predictor.
        public var predictor: PredictorKind
        /// The horizon.
        public var horizon: Horizon

        /// A cell from its parts.
        public init(item: Int, predictor: PredictorKind, horizon: Horizon) {
            self.item = item
            self.predictor = predictor
            self.horizon = horizon
        }
    }

    /// What one cell measured.
    public struct CellResult: Sendable {
        /// The cell.
        public var cell: Cell
        /// The item's name.
        public var item: String
        /// The predictor's report name (``PredictorConfiguration/name``).
        public var predictor: String
        /// The nominal horizon, ns.
        public var horizon: SimTime
        /// The nominal horizon, ms.
        public var horizonMs: Double
        /// The nominal horizon in display frames.
        public var horizonFrames: Double
        /// Simulated time of the run, s.
        public var simulatedSeconds: Double
        /// The accuracy figures.
        public var score: PredictionScore
    }

    /// Every predictor x horizon over every item, item-major, then horizon,
    /// then predictor, in the order given.
    public func cells(predictors: [PredictorKind], horizons: [Horizon]) -> [Cell] {
        var out: [Cell] = []
        for i in items.indices {
            for h in horizons { for p in predictors { out.append(Cell(item: i, predictor: p, horizon: h)) } }
        }
        return out
    }

    /// The resolved configuration of a cell.
    public func configuration(for cell: Cell, seed: UInt64? = nil) throws(LatsimError) -> PipelineConfiguration {
        let item = items[cell.item]
        var c = try Scenario.named(PredictionCorpus.scenarioName).configuration()
        c.predictor = cell.predictor
        c.smoothing = smoothing
        c.scanHz = scanHz
        c.displayHz = displayHz
        c.horizon = try cell.horizon.nanoseconds(framePeriod: c.framePeriod)
        switch item.motion {
        case .synthetic(let kind, let s):
            c.trajectory = kind
            c.seed = seed ?? s
        case .trajectory(let t):
            c.trajectory = t.name
            if let seed { c.seed = seed }
        }
        if let duration = item.duration {
            c.duration = try DurationSyntax.parse(duration, framePeriod: c.framePeriod)
        } else if case .trajectory(let t) = item.motion, let length = t.duration, length > 0 {
            c.duration = length
        }
        return c
    }

    /// Runs `cells`, on all cores when `parallel`; results come back in the
    /// order of `cells` whatever the parallelism, and are identical to a
    /// serial run. Every configuration is resolved before anything runs, so
    /// bad input fails before any work is done. With `predictor`, each run's
    /// predictor is made by it (a user's own) instead of the built-ins.
    public func run(_ cells: [Cell], seed: UInt64? = nil, parallel: Bool = true,
                    predictor: PredictorFactory? = nil) throws(LatsimError) -> [CellResult] {
        var jobs: [(Cell, PipelineConfiguration, Trajectory)] = []
        var built: [Int: Trajectory] = [:]
        for cell in cells {
            let c = try configuration(for: cell, seed: seed)
            let t: Trajectory
            if let known = built[cell.item] {
                t = known
            } else {
                switch items[cell.item].motion {
                case .trajectory(let given): t = given
                case .synthetic(let kind, _):
                    do { t = try Trajectory.make(kind, parameters: c.trajectoryParameters) } catch {
                        throw error.about(key: "input.trajectory", value: kind)
                    }
                }
                built[cell.item] = t
            }
            jobs.append((cell, c, t))
        }
        let resolved = jobs
        let names = items.map(\.name)
        let results = Parallel.map(resolved.count, jobs: parallel ? ProcessInfo.processInfo.activeProcessorCount : 1) { i in
            let (cell, c, t) = resolved[i]
            return Result { () throws(LatsimError) -> CellResult in
                try PredictionCorpus.runOne(cell: cell, item: names[cell.item], configuration: c, trajectory: t, predictor: predictor)
            }
        }
        var out: [CellResult] = []
        out.reserveCapacity(results.count)
        for r in results { out.append(try r.get()) }
        return out
    }

    /// One pipeline run, scored.
    static func runOne(cell: Cell, item: String, configuration c: PipelineConfiguration, trajectory: Trajectory,
                       predictor factory: PredictorFactory?) throws(LatsimError) -> CellResult {
        let predictorConfiguration = c.predictorConfiguration ?? PredictorConfiguration(kind: .none)
        var run = PipelineRun(configuration: c, trajectory: trajectory)
        // `none` is not run by the pipeline on its own: install it so that the
        // reference is scored like any other predictor
        if let factory {
            run.usePredictor(factory(predictorConfiguration))
        } else {
            run.usePredictor(BuiltinPredictor(predictorConfiguration))
        }
        let result = try run.run()
        let score = result.measurements.prediction.score(pointsPerMM: c.pointsPerMM)
        return CellResult(cell: cell, item: item, predictor: PredictorConfiguration(kind: cell.predictor,
                                                                                     oneEuro: c.predictorConfiguration?.oneEuro).name,
                          horizon: c.horizon, horizonMs: Double(c.horizon) / 1e6,
                          horizonFrames: Double(c.horizon) * c.displayHz.doubleValue / 1e9,
                          simulatedSeconds: result.simulatedSeconds, score: score)
    }

    /// Scores every item with every predictor at every horizon and returns
    /// the entries of a regression baseline.
    public func score(horizons: [Horizon] = PredictionCorpus.standardHorizons,
                      predictors: [PredictorKind] = PredictorKind.allCases,
                      parallel: Bool = true,
                      predictor: PredictorFactory? = nil) throws(LatsimError) -> PredictionBaseline {
        let results = try run(cells(predictors: predictors, horizons: horizons), parallel: parallel, predictor: predictor)
        return PredictionBaseline(entries: results.map {
            BaselineEntry(item: $0.item, predictor: $0.predictor, horizonMs: $0.horizonMs, metrics: BaselineMetrics($0.score))
        })
    }
}
