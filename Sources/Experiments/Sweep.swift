import Foundation
import FramePipeline
import Measures
import Scenarios
import SimKernel
import TouchModel

// Parameter sweeps (`latsim sweep`, and the sweep figures of `latsim report`):
// one or two configuration keys varied over a grid, every grid point run for
// one or more seeds, in parallel, with results that do not depend on the
// number of threads.

/// Runs parameter sweeps.
public enum Sweep {
    /// The most grid points a sweep may have.
    public static let maximumPoints = 100_000
    /// The most runs per grid point (seeds): their results are merged, so a
    /// point's seeds are held until its last one is done.
    public static let maximumSeeds = 10_000
    /// The most runs (grid points x seeds) of a sweep with more than one
    /// seed: each keeps its own figures (``SweepRow/seeds``), about 180
    /// bytes a run, in memory and in every output.
    public static let maximumSeededRuns = 1_000_000

    /// Runs every grid point of `axes` on `scenario`, `seeds` times each.
    ///
    /// Each point's settings are, in order of precedence: the axis values,
    /// then `assignments` (in order), then the scenario file, then the
    /// defaults. A key may not be both varied and assigned. Every point is
    /// resolved and checked before anything runs, so bad input costs no
    /// simulation. Seed `k` of a point (0-based) runs with the point's seed
    /// plus `k`. A row's latency figures are over the seeds' frames merged;
    /// with more than one seed the row also keeps each seed's own figures
    /// (``SweepRow/seeds``), from which outputs give 95% intervals.
    ///
    /// The runs are spread over `jobs` threads; the rows are the same at any
    /// `jobs`, because each point's seeds are merged in seed order and each
    /// row is stored at its grid index.
    ///
    /// - Parameters:
    ///   - assignments: settings for every point (e.g. from the command line).
    ///   - axes: one or two axes (see ``SweepAxis``).
    ///   - seeds: runs per grid point (>= 1).
    ///   - jobs: threads to use (>= 1).
    ///   - maxEvents: the most model events the whole sweep may handle
    ///     (``WorkEstimate``); checked before anything runs.
    ///   - shard: run only this shard's grid points (every point is still
    ///     resolved and checked, so every shard refuses bad input alike);
    ///     ``SweepPart`` carries the rows to ``SweepPart/merge(_:)``.
    ///   - progress: called after each run, one call at a time (from worker
    ///     threads); it should return quickly.
    public static func run(scenario: Scenario,
                           assignments: [Assignment] = [],
                           axes: [SweepAxis],
                           seeds: Int = 1,
                           jobs: Int = Parallel.availableCPUs,
                           maxEvents: Double = WorkEstimate.defaultEventLimit,
                           shard: Shard? = nil,
                           progress: (@Sendable (SweepProgress) -> Void)? = nil) throws(LatsimError) -> SweepResult {
        let start = DispatchTime.now().uptimeNanoseconds
        let elapsed: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        guard seeds >= 1 else { throw LatsimError(value: String(seeds), problem: "runs per grid point must be at least 1") }
        guard seeds <= maximumSeeds else {
            throw LatsimError(value: String(seeds), problem: "more runs per grid point than \(maximumSeeds)", expected: "at most \(maximumSeeds) seeds")
        }
        guard jobs >= 1 else { throw LatsimError(value: String(jobs), problem: "the number of threads must be at least 1") }
        let grid = try SweepGrid(axes: axes)
        if seeds > 1 {
            let (all, over) = grid.count.multipliedReportingOverflow(by: seeds)
            guard !over, all <= maximumSeededRuns else {
                throw LatsimError(value: String(seeds), problem: "\(grid.count) points x \(seeds) seeds is more than the \(maximumSeededRuns) runs whose every seed a sweep keeps",
                                  expected: "fewer seeds or points, or one seed per point (its figures over the frames of every run)")
            }
        }
        let mine = shard?.points(of: grid.count) ?? 0..<grid.count
        let (runs, overflow) = mine.count.multipliedReportingOverflow(by: seeds)
        guard !overflow else { throw LatsimError(value: String(seeds), problem: "too many runs") }
        for a in assignments where axes.contains(where: { $0.path == a.path }) {
            throw LatsimError(file: a.source.file, key: a.path, value: a.value,
                              problem: "this key is also varied", expected: "a key either varied or set, not both")
        }

        // settings shared by every point; a bad one fails once, not per point
        // parsed once: a point parses only its axes' keys over them
        let base = try ResolvedSettings(scenario.settings(with: assignments))
        let baseConfiguration = base.configuration
        let headline = try Figure.headline(of: scenario, baseConfiguration)

        // resolve this shard's points (every point of an unsplit sweep)
        // before running anything: a shard resolves its own points only
        let first = mine.lowerBound
        let trajectories = TrajectoryCache()
        // the finger of a point whose axes leave it as the scenario's is
        // made (and checked) once
        let baseTrajectory = (baseConfiguration.trajectory, baseConfiguration.trajectoryParameters)
        let baseChecked = Locked<Result<Bool, LatsimError>?>(nil)
        let resolved = Parallel.map(mine.count, jobs: jobs) { r -> Result<PipelineConfiguration, LatsimError> in
            Result { () throws(LatsimError) -> PipelineConfiguration in
                let i = first + r
                let c = try base.configuration(setting: zip(grid.axes, grid.values(of: i)).map {
                    Assignment(path: $0.path, value: $1, source: $0.source)
                })
                if c.trajectory != baseTrajectory.0 || c.trajectoryParameters != baseTrajectory.1 {
                    _ = try trajectories.trajectory(for: c)
                } else {
                    _ = try baseChecked.withLock { checked in
                        if checked == nil { checked = Result { () throws(LatsimError) in _ = try trajectories.trajectory(for: c); return true } }
                        return checked!
                    }.get()
                }
                return c
            }
        }
        var points: [PipelineConfiguration] = []
        points.reserveCapacity(mine.count)
        for r in resolved { points.append(try r.get()) }
        if seeds > 1, let c = points.first(where: { $0.seed > UInt64.max - UInt64(seeds - 1) }) {
            throw LatsimError(key: "seed", value: String(c.seed), problem: "seeds \(c.seed) to \(c.seed) + \(seeds - 1) go past the largest seed",
                              expected: "a first seed of at most \(UInt64.max - UInt64(seeds - 1))")
        }
        let configurations = points
        var perSeed = 0.0
        for c in configurations { perSeed += WorkEstimate.events(c) }
        try WorkEstimate.check(events: perSeed * Double(seeds), runs: runs, limit: maxEvents)

        // run: runs are handed out in index order. One seed: the row is
        // made from the run at once (nothing kept but the row). More: a
        // point's seeds are merged, in seed order, by whichever thread
        // finishes its last seed.
        let rows = Locked([SweepRow?](repeating: nil, count: mine.count))
        let state = RunState(seeds: seeds)
        @Sendable func row(_ point: Int, _ p: PipelineConfiguration, runs: Int, invariantsHold: Bool, figures: FigureValues,
                           seedFigures: SweepSeedFigures?) -> SweepRow {
            SweepRow(index: point, values: grid.values(of: point),
                     numbers: zip(grid.axes, grid.indices(of: point)).map { $0.number(at: $1) },
                     buffering: p.buffering,
                     simulatedSeconds: Double(p.duration) / 1e9,
                     framePeriodMs: p.framePeriod.doubleValue / 1e6,
                     runs: runs,
                     invariantsHold: invariantsHold,
                     figures: figures,
                     seeds: seedFigures)
        }
        Parallel.forEach(runs, jobs: jobs) { r in
            let point = first + r / seeds, k = r % seeds
            var c = configurations[point - first]
            c.seed = c.seed &+ UInt64(k)
            func run() throws(LatsimError) -> RunResult {
                try PipelineRun(configuration: c, trajectory: try trajectories.trajectory(for: c)).run()
            }
            if seeds == 1 {
                // the point's one run: its row now, figures read in place
                // (the result is not wrapped, which would copy it twice)
                do throws(LatsimError) {
                    let run = try run()
                    state.finish(point: point, failure: nil)
                    let made = row(point, c, runs: 1, invariantsHold: run.invariants.holds,
                                   figures: FigureValues(single: run, configuration: c), seedFigures: nil)
                    rows.withLock { $0[point - first] = made }
                } catch {
                    state.finish(point: point, failure: error)
                }
            } else {
                let result: Result<RunResult, LatsimError>
                do throws(LatsimError) { result = .success(try run()) } catch { result = .failure(error) }
                let complete = state.finish(point: point, seed: k, result.map(RunDigest.init))
                if case .success(let digests)? = complete {
                    let p = configurations[point - first]
                    let made = row(point, p, runs: digests.count, invariantsHold: digests.allSatisfy(\.invariantsHold),
                                   figures: FigureValues(pooling: digests.map { ($0.figures, $0.measurements) }, configuration: p),
                                   seedFigures: SweepSeedFigures(first: p.seed, runs: digests.map(\.figures)))
                    rows.withLock { $0[point - first] = made }
                }
            }
            if let progress {
                state.report { progress(SweepProgress(completed: $0, total: runs, elapsedSeconds: elapsed())) }
            }
        }
        if let e = state.firstError { throw e }
        var result = SweepResult(scenario: scenario.name, grid: grid, seeds: seeds, rows: rows.current.map { $0! }, runs: runs,
                                 wallSeconds: elapsed(), shard: shard)
        // every figure some point produces; a shard's are those of its
        // points, and merging the parts takes every figure some part shows
        // (SweepPart.merge), the columns of the whole grid
        result.figures = Figure.shown(for: configurations, first: [headline])
        result.headline = headline
        return result
    }
}

/// Trajectories by what they are made from: recorded traces are read once,
/// synthetic motions (cheap) are made per run.
final class TrajectoryCache: Sendable {
    private let cache = Locked([String: Trajectory]())

    func trajectory(for c: PipelineConfiguration) throws(LatsimError) -> Trajectory {
        do throws(LatsimError) {
            if Trajectory.syntheticKinds.contains(c.trajectory) || c.trajectory == Trajectory.tapsName {
                return try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters)
            }
            let key = c.trajectory + "\u{0}" + String(describing: c.trajectoryParameters)
            if let t = cache.withLock({ $0[key] }) { return t }
            let t = try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters)
            cache.withLock { $0[key] = t }
            return t
        } catch {
            throw error.about(key: "input.trajectory", value: c.trajectory)
        }
    }
}

/// The parts of a run a sweep keeps until its point's last seed is done:
/// its figures, the streams they pool, and whether its invariants held.
struct RunDigest: Sendable {
    /// The run's figures (``FigureValues``).
    var figures: FigureValues
    /// The run's measurements, whose streams a point's figures pool.
    var measurements: Measurements
    var invariantsHold: Bool

    init(_ r: RunResult) {
        figures = FigureValues(r)
        measurements = r.measurements
        invariantsHold = r.invariants.holds
    }
}

/// The shared bookkeeping of a running sweep: seeds waiting for the rest of
/// their point, the count of finished runs and the errors.
final class RunState: Sendable {
    private struct Point {
        var finished = 0
        var digests: [RunDigest?]
        var error: (seed: Int, error: LatsimError)?

        /// Records seed `seed`'s digest, or its error when it is the lowest
        /// seed's so far.
        mutating func add(_ seed: Int, _ digest: Result<RunDigest, LatsimError>) {
            finished += 1
            switch digest {
            case .success(let d): digests[seed] = d
            case .failure(let e): if error == nil || error!.seed > seed { error = (seed, e) }
            }
        }
    }

    private struct State {
        var waiting: [Int: Point] = [:]
        var failed: [Int: LatsimError] = [:]
        var completed = 0
    }

    private let seeds: Int
    private let state = Locked(State())
    /// Serialises progress reports, so their numbers never go backwards.
    private let reporting = Locked(())

    init(seeds: Int) { self.seeds = seeds }

    /// Records seed `seed` of `point`. When it was the point's last seed,
    /// returns every seed's digest in seed order, or the error of the
    /// lowest seed that failed; otherwise nil.
    func finish(point: Int, seed: Int, _ digest: Result<RunDigest, LatsimError>) -> Result<[RunDigest], LatsimError>? {
        let seeds = self.seeds
        return state.withLock { st in
            st.completed += 1
            // in place: copying a point out and back would copy its digests
            // at every seed (quadratic in the seeds)
            st.waiting[point, default: Point(digests: Array(repeating: nil, count: seeds))].add(seed, digest)
            guard st.waiting[point]!.finished == seeds, let p = st.waiting.removeValue(forKey: point) else { return nil }
            if let e = p.error {
                st.failed[point] = e.error
                return .failure(e.error)
            }
            return .success(p.digests.map { $0! })
        }
    }

    /// Records the one run of `point` in a sweep of one seed: only a
    /// failure is kept.
    func finish(point: Int, failure: LatsimError?) {
        state.withLock { st in
            st.completed += 1
            if let failure { st.failed[point] = failure }
        }
    }

    /// Calls `body` with the number of finished runs, one call at a time
    /// (the numbers never decrease).
    func report(_ body: (Int) -> Void) {
        reporting.withLock { _ in body(state.withLock { $0.completed }) }
    }

    /// The error of the lowest-numbered point that failed.
    var firstError: LatsimError? {
        state.withLock { $0.failed.min { $0.key < $1.key }?.value }
    }
}
