import Foundation
import SimKernel
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

/// Deliberate damage done to every run of a study, so that a test can check
/// that the regression gate notices a worse predictor.
public struct PredictionDegradation: Sendable {
    /// Factor applied to the horizon the pipeline predicts with; the run is
    /// still reported under its nominal horizon. A scale above 1 draws the
    /// stroke too far ahead: it overshoots the finger at photon time.
    ///
    /// The pipeline scores each prediction against the truth at the horizon
    /// it predicted with, so the prediction-error figures describe the scaled
    /// horizon; the photon-time error is what the eye would see.
    public var horizonScale: Double
    /// Replaces the predictor of every run; nil keeps the configured one.
    public var predictor: (@Sendable (PredictorConfiguration) -> PredictorConfiguration)?

    /// A degradation; by default none at all.
    public init(horizonScale: Double = 1,
                predictor: (@Sendable (PredictorConfiguration) -> PredictorConfiguration)? = nil) {
        self.horizonScale = horizonScale
        self.predictor = predictor
    }

    /// No damage: the runs are the real ones.
    public static let none = PredictionDegradation()
}

/// A set of motions and the device settings predictors are scored with:
/// the input of `latsim predict` and of the regression gate of
/// `latsim regress`.
///
/// Every run is the built-in ``PredictionCorpus/scenarioName`` scenario with
/// `app.prediction.predictor`, `app.prediction.horizon`, `device.scanHz`,
/// `device.displayHz`, `app.prediction.smoothing` and `input.trajectory`
/// overridden. The `none` predictor is scored too, as the reference: it
/// draws the newest delivered touch, which the pipeline does not score on
/// its own (``RunResult/predictionScore`` is nil for it). It is never
/// smoothed, so that it stays the raw touch whatever the smoothing.
public struct PredictionCorpus: Sendable {
    /// The built-in scenario every run starts from.
    public static let scenarioName = "ios9-prediction"
    /// The horizons of the standard study: half, one and one and a half
    /// display frames.
    public static let standardHorizons = ["0.5frames", "1frame", "1.5frames"]
    /// Simulated time of each synthetic item of ``synthetic``.
    public static let syntheticDuration = "20s"

    /// The motions, in report order.
    public var items: [PredictionCorpusItem]
    /// Digitizer scan rate, Hz (`device.scanHz`).
    public var scanHz: String
    /// Display refresh rate, Hz (`device.displayHz`).
    public var displayHz: String
    /// Smoothing of the predicted positions (`app.prediction.smoothing`).
    public var smoothing: PredictionSmoothing

    /// A corpus from its parts; by default a 120 Hz digitizer, a 60 Hz
    /// display and no smoothing.
    public init(items: [PredictionCorpusItem], scanHz: String = "120", displayHz: String = "60",
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
        throws(TouchInputError) -> (items: [PredictionCorpusItem], skipped: [TouchInputError]) {
        let files = try TraceSelection.files(under: directory, include: include)
        var groups: [String: [String]] = [:]
        for f in files {
            let folder = (f as NSString).deletingLastPathComponent
            groups[folder.isEmpty ? "." : folder, default: []].append(f)
        }
        var items: [PredictionCorpusItem] = []
        var skipped: [TouchInputError] = []
        for folder in groups.keys.sorted() {
            let loaded = try TraceSelection.load(groups[folder]!, root: directory, skipBad: skipBad, parameters: parameters)
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
        /// The horizon in the duration syntax (`1frame`, `8ms`).
        public var horizon: String

        /// A cell from its parts.
        public init(item: Int, predictor: PredictorKind, horizon: String) {
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
    public func cells(predictors: [PredictorKind], horizons: [String]) -> [Cell] {
        var out: [Cell] = []
        for i in items.indices {
            for h in horizons { for p in predictors { out.append(Cell(item: i, predictor: p, horizon: h)) } }
        }
        return out
    }

    /// The resolved configuration of a cell (before any degradation).
    public func configuration(for cell: Cell, seed: UInt64? = nil) throws(ScenarioError) -> PipelineConfiguration {
        let item = items[cell.item]
        var trajectory = "strokes"
        var itemSeed = seed
        if case .synthetic(let kind, let s) = item.motion {
            trajectory = kind
            itemSeed = seed ?? s
        } else if case .trajectory(let t) = item.motion {
            trajectory = t.name
        }
        let scenario = try Scenario.named(PredictionCorpus.scenarioName)
        let overrides = [
            "app.prediction.predictor=\(cell.predictor.rawValue)",
            "app.prediction.horizon=\(cell.horizon)",
            "app.prediction.smoothing=\(smoothing.rawValue)",
            "device.scanHz=\(scanHz)",
            "device.displayHz=\(displayHz)",
            "input.trajectory=\(trajectory)",
        ]
        var c = try scenario.configuration(overrides: overrides, duration: item.duration, seed: itemSeed)
        if item.duration == nil, case .trajectory(let t) = item.motion, let length = t.duration, length > 0 {
            c.duration = length
        }
        return c
    }

    /// Runs `cells`, on all cores when `parallel`; results come back in the
    /// order of `cells` whatever the parallelism, and are identical to a
    /// serial run. Every configuration is resolved before anything runs, so
    /// bad input fails before any work is done.
    public func run(_ cells: [Cell], seed: UInt64? = nil, parallel: Bool = true,
                    degradation: PredictionDegradation = .none) throws -> [CellResult] {
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
                        throw ScenarioError(keyPath: "input.trajectory", value: kind, message: error.description)
                    }
                }
                built[cell.item] = t
            }
            jobs.append((cell, c, t))
        }
        let resolved = jobs
        let slots = ResultSlots<CellResult>(count: resolved.count)
        let names = items.map(\.name)
        let work: @Sendable (Int) -> Void = { i in
            let (cell, c, t) = resolved[i]
            slots[i] = PredictionCorpus.runOne(cell: cell, item: names[cell.item], configuration: c,
                                               trajectory: t, degradation: degradation)
        }
        Parallel.forEach(resolved.count, jobs: parallel ? ProcessInfo.processInfo.activeProcessorCount : 1, work)
        return slots.values
    }

    /// One pipeline run, scored.
    static func runOne(cell: Cell, item: String, configuration c: PipelineConfiguration, trajectory: Trajectory,
                       degradation: PredictionDegradation) -> CellResult {
        let nominal = c.horizon
        var runConfiguration = c
        if degradation.horizonScale != 1 {
            runConfiguration.horizon = SimTime((Double(nominal) * degradation.horizonScale).rounded())
        }
        var predictorConfiguration = c.predictorConfiguration ?? PredictorConfiguration(kind: .none)
        if let transform = degradation.predictor { predictorConfiguration = transform(predictorConfiguration) }
        var run = PipelineRun(configuration: runConfiguration, trajectory: trajectory)
        // `none` is not run by the pipeline on its own: install it so that the
        // reference is scored like any other predictor
        run.usePredictor(BuiltinPredictor(predictorConfiguration))
        let result = run.run()
        let score = result.measurements.prediction.score(pointsPerMM: c.pointsPerMM)
        return CellResult(cell: cell, item: item, predictor: PredictorConfiguration(kind: cell.predictor,
                                                                                     oneEuro: c.predictorConfiguration?.oneEuro).name,
                          horizon: nominal, horizonMs: Double(nominal) / 1e6,
                          horizonFrames: Double(nominal) * c.displayHz.doubleValue / 1e9,
                          simulatedSeconds: result.simulatedSeconds, score: score)
    }

    /// Scores every item with every predictor at every horizon and returns
    /// the entries of a regression baseline.
    public func score(horizons: [String] = PredictionCorpus.standardHorizons,
                      predictors: [PredictorKind] = PredictorKind.allCases,
                      parallel: Bool = true,
                      degradation: PredictionDegradation = .none) throws -> PredictionBaseline {
        let results = try run(cells(predictors: predictors, horizons: horizons), parallel: parallel, degradation: degradation)
        return PredictionBaseline(entries: results.map {
            BaselineEntry(item: $0.item, predictor: $0.predictor, horizonMs: $0.horizonMs, metrics: BaselineMetrics($0.score))
        })
    }
}

/// Choosing trace files of a directory and loading exactly those.
public enum TraceSelection {
    /// The `.xml` and `.csv` files under `directory`, recursively, as paths
    /// relative to it, sorted. With a non-empty `include`, only files that
    /// have a folder of one of those names on their relative path.
    public static func files(under directory: String, include: [String] = []) throws(TouchInputError) -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
              let walker = fm.enumerator(atPath: directory) else {
            throw TouchInputError(file: directory, message: "not a readable directory — expected a directory of .xml/.csv traces")
        }
        let wanted = Set(include)
        var all = 0
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let ext = (relative as NSString).pathExtension.lowercased()
            guard ext == "xml" || ext == "csv" else { continue }
            var sub: ObjCBool = false
            let full = (directory as NSString).appendingPathComponent(relative)
            guard fm.fileExists(atPath: full, isDirectory: &sub), !sub.boolValue else { continue }
            all += 1
            let folders = (relative as NSString).pathComponents.dropLast()
            if wanted.isEmpty || folders.contains(where: wanted.contains) { found.append(relative) }
        }
        if found.isEmpty {
            let what = wanted.isEmpty ? "no .xml/.csv trace file"
                : "none of its \(all) .xml/.csv trace files is in a folder named \(include.joined(separator: " or "))"
            throw TouchInputError(file: directory, message: "\(what) — expected at least one readable trace")
        }
        return found.sorted()
    }

    /// Loads the files `relative` (paths relative to `root`) as one trace,
    /// exactly as ``Trajectory/loadDirectory(_:parameters:skipBad:)`` loads a
    /// directory holding only them: in this order, one stroke per file.
    /// The trajectory is named after `root`; errors name the real files.
    public static func load(_ relative: [String], root: String, skipBad: Bool,
                            parameters: TrajectoryParameters = TrajectoryParameters())
        throws(TouchInputError) -> (trajectory: Trajectory, skipped: [TouchInputError]) {
        let fm = FileManager.default
        // a private folder of links mirroring the chosen files' relative paths
        let staging = fm.temporaryDirectory.appendingPathComponent("latsim-traces-\(UUID().uuidString)").path
        defer { try? fm.removeItem(atPath: staging) }
        let absoluteRoot = URL(fileURLWithPath: root).standardizedFileURL.path
        do {
            for r in relative {
                let link = (staging as NSString).appendingPathComponent(r)
                try fm.createDirectory(atPath: (link as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try fm.createSymbolicLink(atPath: link, withDestinationPath: (absoluteRoot as NSString).appendingPathComponent(r))
            }
        } catch {
            throw TouchInputError(file: root, message: "cannot prepare the selected traces for reading (\(error.localizedDescription)) — expected a writable temporary directory")
        }
        func renamed(_ e: TouchInputError) -> TouchInputError {
            var e = e
            if let f = e.file, f.hasPrefix(staging) {
                let rest = f.dropFirst(staging.count).drop(while: { $0 == "/" })
                e.file = rest.isEmpty ? root : (root as NSString).appendingPathComponent(String(rest))
            }
            return e
        }
        do {
            let loaded = try Trajectory.loadDirectory(staging, parameters: parameters, skipBad: skipBad)
            var t = loaded.trajectory
            t.name = root
            return (t, loaded.skipped.map(renamed))
        } catch {
            throw renamed(error)
        }
    }
}
