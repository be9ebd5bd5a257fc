import Foundation
import FramePipeline
import Scenarios
import SimKernel
import TouchModel

extension PredictionCorpus {
    /// One run of the study: an item scored with a predictor at a horizon.
    public struct Cell: Sendable, Hashable, Codable {
        /// Index into ``PredictionCorpus/items``.
        public var item: Int
        /// The predictor.
        public var predictor: StudyPredictor
        /// The horizon.
        public var horizon: Horizon

        /// A cell from its parts.
        public init(item: Int, predictor: StudyPredictor, horizon: Horizon) {
            self.item = item
            self.predictor = predictor
            self.horizon = horizon
        }
    }

    /// What one cell measured.
    public struct CellResult: Sendable, Codable {
        /// The cell.
        public var cell: Cell
        /// The item's name.
        public var item: String
        /// The predictor's report name: the spec's canonical name with the
        /// study's smoothing applied (`kalman+1e`), or the own predictor's name.
        public var predictor: String
        /// The nominal horizon, ns.
        public var horizon: SimTime
        /// The nominal horizon, ms.
        public var horizonMs: Double
        /// The nominal horizon in display frames.
        public var horizonFrames: Double
        /// Simulated time of the run, s.
        public var simulatedSeconds: Double
        /// latsim's accuracy figures.
        public var score: PredictionScore
        /// Chromium's prediction metrics, when asked for.
        public var chromium: ChromiumPredictionMetrics?
        /// Android's prediction metrics, when asked for.
        public var android: AndroidPredictionMetrics?
    }

    /// Every predictor x horizon over every item, item-major, then horizon,
    /// then predictor, in the order given.
    public func cells(predictors: [StudyPredictor], horizons: [Horizon]) -> [Cell] {
        var out: [Cell] = []
        for i in items.indices {
            for h in horizons { for p in predictors { out.append(Cell(item: i, predictor: p, horizon: h)) } }
        }
        return out
    }

    /// latsim's five predictors, `none` first.
    public static var latsimPredictors: [StudyPredictor] { PredictorKind.allCases.map { .latsim($0) } }

    /// The resolved configuration of a cell (an own predictor's cell names
    /// `none`: the predictor is installed when the run is made).
    public func configuration(for cell: Cell, seed: UInt64? = nil) throws(LatsimError) -> PipelineConfiguration {
        let item = items[cell.item]
        var c = try baseScenario().configuration()
        if case .spec(let spec) = cell.predictor { c.predictor = spec } else { c.predictor = PredictorSpec(.none) }
        c.smoothing = smoothing
        c.scanHz = scanHz
        c.displayHz = displayHz
        c.tool = tool
        if tool == .pencil { c.pencilScanHz = scanHz }
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
    /// bad input fails before any work is done.
    ///
    /// - Parameters:
    ///   - predictor: makes each spec cell's predictor instead of the spec
    ///     itself (a variant scored under the spec's name).
    ///   - own: the predictor of the ``StudyPredictor/own`` cells, made
    ///     fresh for each run. When one of its runs fails (a process that
    ///     died), no cell starts after it and the first failure, in cell
    ///     order, is thrown.
    ///   - scorecards: the platform scorecards to keep besides latsim's.
    public func run(_ cells: [Cell], seed: UInt64? = nil, parallel: Bool = true,
                    predictor: PredictorFactory? = nil, own: OwnPredictor? = nil,
                    scorecards: PredictionScorecards = [],
                    maxEvents: Double = WorkEstimate.defaultEventLimit,
                    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws(LatsimError) -> [CellResult] {
        var jobs: [(Cell, PipelineConfiguration, Trajectory)] = []
        var built: [Int: Trajectory] = [:]
        for cell in cells {
            if cell.predictor == .own && own == nil {
                throw LatsimError(.internal, problem: "a study cell asks for its own predictor, and none was given")
            }
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
        // the work, estimated before any of it is done (a trace spanning years,
        // a duration of days): refused past the limit with the estimate
        try WorkEstimate.check(jobs.map(\.1), limit: maxEvents)
        let resolved = jobs
        let names = items.map(\.name)
        let stopped = Locked(false)
        let done = Locked(0)
        let one = { @Sendable (i: Int) -> Result<CellResult, LatsimError>? in
            if stopped.current { return nil }
            let (cell, c, t) = resolved[i]
            let r = Result { () throws(LatsimError) -> CellResult in
                try PredictionCorpus.runOne(cell: cell, item: names[cell.item], configuration: c, trajectory: t,
                                            factory: predictor, own: own, scorecards: scorecards)
            }
            // a failed run is not progress, and after a failure nothing more is said
            if case .failure = r {
                stopped.withLock { $0 = true }
            } else if let progress, !stopped.current {
                let n = done.withLock { (d: inout Int) -> Int in d += 1; return d }
                progress(n, resolved.count)
            }
            return r
        }
        // your own predictor's first run goes alone: a command that cannot
        // start, or breaks the protocol at once, fails once, and no other
        // process of it is started
        let first = own == nil ? nil : resolved.firstIndex { $0.0.predictor == .own }
        let alone = first.map(one)
        let results = Parallel.map(resolved.count, jobs: parallel ? Parallel.availableCPUs : 1) { i -> Result<CellResult, LatsimError>? in
            i == first ? alone ?? nil : one(i)
        }
        var out: [CellResult] = []
        out.reserveCapacity(results.count)
        for r in results {
            if case .failure(let e)? = r { throw e }
        }
        for r in results {
            guard case .success(let value)? = r else {
                throw LatsimError(.internal, problem: "a study cell was not run")
            }
            out.append(value)
        }
        return out
    }

    /// One pipeline run, scored.
    static func runOne(cell: Cell, item: String, configuration c: PipelineConfiguration, trajectory: Trajectory,
                       factory: PredictorFactory?, own: OwnPredictor?,
                       scorecards: PredictionScorecards) throws(LatsimError) -> CellResult {
        var run = PipelineRun(configuration: c, trajectory: trajectory)
        if !scorecards.isEmpty { run.keepScorecards(scorecards) }
        let name: String
        var started: OwnPredictor.Started?
        switch cell.predictor {
        case .spec(let spec):
            // `none` is not run by the pipeline on its own: install it so that
            // the reference is scored like any other predictor (unsmoothed)
            let effective = c.appPredictor ?? spec
            name = effective.description
            if let factory {
                run.usePredictor(factory(effective))
            } else {
                run.usePredictor(effective.makePredictor(frameInterval: c.frameInterval))
            }
        case .own:
            let s = try own!.start(c.frameInterval)
            name = s.name
            started = s
            run.usePredictor(s.predictor)
        }
        let result = try run.run()
        if let started, let failure = started.finish() { throw failure }
        let m = result.measurements
        return CellResult(cell: cell, item: item, predictor: name,
                          horizon: c.horizon, horizonMs: Double(c.horizon) / 1e6,
                          horizonFrames: Double(c.horizon) * c.displayHz.doubleValue / 1e9,
                          simulatedSeconds: result.simulatedSeconds,
                          score: m.prediction.score(pointsPerMM: c.pointsPerMM),
                          chromium: m.chromiumScorecard, android: m.androidScorecard)
    }

    /// Scores every item with every predictor at every horizon and returns
    /// the entries of a regression baseline. A run that scored nothing (no
    /// prediction was ever made) gives no entry: a baseline never holds one.
    public func score(horizons: [Horizon] = PredictionCorpus.standardHorizons,
                      predictors: [StudyPredictor] = PredictionCorpus.latsimPredictors,
                      parallel: Bool = true,
                      predictor: PredictorFactory? = nil, own: OwnPredictor? = nil) throws(LatsimError) -> PredictionBaseline {
        let results = try run(cells(predictors: predictors, horizons: horizons), parallel: parallel, predictor: predictor, own: own)
        return PredictionCorpus.baseline(results)
    }

    /// The baseline entries of results, leaving out runs that scored nothing.
    public static func baseline(_ results: [CellResult]) -> PredictionBaseline {
        PredictionBaseline(entries: results.filter { $0.score.samples > 0 }.map {
            BaselineEntry(item: $0.item, predictor: $0.predictor, horizonMs: $0.horizonMs, metrics: BaselineMetrics($0.score))
        })
    }
}
