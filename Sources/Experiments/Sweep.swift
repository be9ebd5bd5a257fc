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

    /// Runs every grid point of `axes` on `scenario`, `seeds` times each,
    /// and returns every row: ``prepare(scenario:assignments:axes:seeds:jobs:maxEvents:shard:)``
    /// then ``PreparedSweep/run(jobs:progress:each:)``, the rows kept.
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
    /// `jobs`, because each point's seeds are merged in seed order and the
    /// rows are taken in grid order.
    ///
    /// - Parameters:
    ///   - assignments: settings for every point (e.g. from the command line).
    ///   - axes: one or two axes (see ``SweepAxis``).
    ///   - seeds: runs per grid point (>= 1).
    ///   - jobs: threads to use (>= 1).
    ///   - maxEvents: the most model events the whole sweep may handle
    ///     (``WorkEstimate``); checked before anything runs.
    ///   - shard: run only this shard's grid points (a shard resolves and
    ///     checks only its own points); ``SweepPart`` carries the rows to
    ///     ``SweepPart/merge(_:)``.
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
        let prepared = try prepare(scenario: scenario, assignments: assignments, axes: axes, seeds: seeds, jobs: jobs,
                                   maxEvents: maxEvents, shard: shard)
        let rows = Locked([SweepRow]())
        rows.withLock { $0.reserveCapacity(prepared.head.runs / seeds) }
        var result: SweepResult
        do {
            result = try prepared.run(jobs: jobs, progress: progress) { row in rows.withLock { $0.append(row) } }
        } catch let e as LatsimError {
            throw e
        } catch {
            preconditionFailure("keeping the rows cannot fail: \(error)")
        }
        result.rows = rows.current
        return result
    }

    /// Resolves and checks every grid point of a sweep (of its shard, when
    /// split) before anything runs: the settings shared by every point
    /// once, then each point's varied keys over them, its finger, the seeds
    /// and the work of the whole sweep (``WorkEstimate``). Bad input
    /// throws here and costs no simulation. The parameters are
    /// ``run(scenario:assignments:axes:seeds:jobs:maxEvents:shard:progress:)``'s;
    /// `jobs` threads resolve the points.
    public static func prepare(scenario: Scenario,
                               assignments: [Assignment] = [],
                               axes: [SweepAxis],
                               seeds: Int = 1,
                               jobs: Int = Parallel.availableCPUs,
                               maxEvents: Double = WorkEstimate.defaultEventLimit,
                               shard: Shard? = nil) throws(LatsimError) -> PreparedSweep {
        try prepare(scenario: scenario, assignments: assignments, axes: axes, seeds: seeds, jobs: jobs, maxEvents: maxEvents,
                    shard: shard, keeping: PreparedSweep.keptConfigurations)
    }

    /// ``prepare(scenario:assignments:axes:seeds:jobs:maxEvents:shard:)``,
    /// keeping the configurations of at most `keeping` points.
    static func prepare(scenario: Scenario, assignments: [Assignment], axes: [SweepAxis], seeds: Int, jobs: Int,
                        maxEvents: Double, shard: Shard?, keeping: Int) throws(LatsimError) -> PreparedSweep {
        let start = DispatchTime.now().uptimeNanoseconds
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
        // the finger of a point whose axes leave it as the scenario's is
        // made (and checked) once, before any point, so that the points
        // need no lock to share it; its error is thrown only by a point
        // that uses it
        let trajectories = TrajectoryCache(base: baseConfiguration)
        // each axis's key found once for every point
        let setter = base.setter(grid.axes.map { ($0.path, $0.source) })
        // a point's configuration, its finger checked (`values` are its
        // axes' values, ``SweepGrid/values(of:)``); made again as it runs
        // (`checked` true), the rules between keys it passed are not
        // checked twice
        @Sendable func resolve(_ i: Int, _ values: [String], checked: Bool) throws(LatsimError) -> PipelineConfiguration {
            let c = try setter.configuration(values: values, checkingAcrossKeys: !checked)
            if !checked { try trajectories.check(c) }
            return c
        }
        // what the checks need of each point; its configuration kept only
        // when the points are few (a configuration is about 1 KB): those of
        // a larger grid are resolved again as they run, so that its memory
        // does not grow with the grid
        let keeps = mine.count <= keeping
        // the error of the lowest point that fails, kept apart: a slot
        // holds a point's few checked facts, not room for an error
        let failed = Locked<(point: Int, error: LatsimError)?>(nil)
        let checked = Parallel.map(mine.count, jobs: jobs) { r -> PreparedSweep.Point? in
            do throws(LatsimError) {
                let values = grid.values(of: first + r)
                let c = try resolve(first + r, values, checked: false)
                let events = WorkEstimate.events(c), production = Figure.Production(c), seed = c.seed
                // the configuration's last use: kept without a copy
                return PreparedSweep.Point(configuration: keeps ? PreparedSweep.Kept(c, values: values) : nil, events: events,
                                           production: production, seed: seed)
            } catch {
                failed.withLock { f in if f == nil || f!.point > r { f = (r, error) } }
                return nil
            }
        }
        if let f = failed.current { throw f.error }
        let points = checked.map { $0! }
        if seeds > 1, let p = points.first(where: { $0.seed > UInt64.max - UInt64(seeds - 1) }) {
            throw LatsimError(key: "seed", value: String(p.seed), problem: "seeds \(p.seed) to \(p.seed) + \(seeds - 1) go past the largest seed",
                              expected: "a first seed of at most \(UInt64.max - UInt64(seeds - 1))")
        }
        var perSeed = 0.0
        for p in points { perSeed += p.events }
        try WorkEstimate.check(events: perSeed * Double(seeds), runs: runs, limit: maxEvents)

        var head = SweepResult(scenario: scenario.name, grid: grid, seeds: seeds, rows: [], runs: runs, wallSeconds: 0, shard: shard)
        // every figure some point produces; a shard's are those of its
        // points, and merging the parts takes every figure some part shows
        // (SweepPart.merge), the columns of the whole grid
        head.figures = Figure.shown(for: Set(points.map(\.production)), first: [headline])
        head.headline = headline
        let configurations = keeps ? points.map { $0.configuration! } : nil
        // the figures each production among the points produces, found once
        var produced = ProducedFigures()
        for p in points where produced[p.production] == nil { produced.add(p.production) }
        return PreparedSweep(head: head, first: first, configurations: configurations, resolve: resolve,
                             trajectories: trajectories, produced: produced, start: start)
    }
}

/// A sweep resolved and checked (``Sweep/prepare(scenario:assignments:axes:seeds:jobs:maxEvents:shard:)``),
/// not run yet: what its outputs need before the first row (the grid, the
/// figures shown) and its points' configurations.
public struct PreparedSweep: Sendable {
    /// The sweep's result without rows: scenario, grid, seeds, runs, shard,
    /// figures and headline.
    public let head: SweepResult
    /// The grid index of the first point run (0 unless sharded).
    let first: Int
    /// The points' configurations, in grid order from ``first``, when
    /// there are at most ``keptConfigurations``.
    let configurations: [Kept]?
    /// Resolves a grid point's configuration again (checked by the
    /// preparation: it throws again only when a file a value names changed
    /// since).
    let resolve: @Sendable (Int, [String], _ checked: Bool) throws(LatsimError) -> PipelineConfiguration
    let trajectories: TrajectoryCache
    /// The figures each production among the points produces.
    let produced: ProducedFigures
    /// When the preparation started (the sweep's wall time counts from it).
    let start: UInt64

    /// The most points whose configurations a prepared sweep keeps: more
    /// are resolved again as they run (about 1 KB each kept, a few
    /// microseconds each resolved).
    public static let keptConfigurations = 4096

    /// What the preparation keeps of a point: its configuration when kept,
    /// and what the checks of the whole sweep read.
    struct Point: Sendable {
        /// Boxed: the points of a large grid hold none, in 8 bytes each.
        var configuration: Kept?
        var events: Double
        var production: Figure.Production
        var seed: UInt64
    }

    /// A kept configuration, and the point's values it was made of.
    final class Kept: Sendable {
        let configuration: PipelineConfiguration
        let values: [String]
        init(_ c: PipelineConfiguration, values: [String]) {
            self.values = values
            configuration = c
        }
    }

    /// Grid point `point`'s configuration, and its axes' values
    /// (``SweepGrid/values(of:)``: the row shows them).
    func configuration(_ point: Int) throws(LatsimError) -> (PipelineConfiguration, values: [String]) {
        if let configurations {
            let k = configurations[point - first]
            return (k.configuration, k.values)
        }
        let values = head.grid.values(of: point)
        return (try resolve(point, values, true), values)
    }

    /// Runs every point, `head.seeds` times each, on `jobs` threads, and
    /// hands each row to `each` in grid order as soon as it and the rows
    /// before it are done: one call at a time, from whichever worker
    /// thread completed the rows due, while the others run on. A row is
    /// kept only until its turn. Returns ``head`` with the wall time (no
    /// rows: `each` had them).
    ///
    /// The rows are the same at any `jobs` (see
    /// ``Sweep/run(scenario:assignments:axes:seeds:jobs:maxEvents:shard:progress:)``).
    ///
    /// - Throws: the ``LatsimError`` of the lowest-numbered point whose run
    ///   failed (points after it are not run, and their rows not handed
    ///   over), or the first error `each` threw (nothing more runs).
    public func run(jobs: Int, progress: (@Sendable (SweepProgress) -> Void)? = nil,
                    each: @escaping @Sendable (SweepRow) throws -> Void) throws -> SweepResult {
        try run(jobs: jobs, progress: progress, ahead: Self.rowsAhead, each: each).result
    }

    /// How far past the row due a point may start: a slow point holds at
    /// most this many rows done after it (a few KB each) until its own.
    public static let rowsAhead = 1024

    /// ``run(jobs:progress:each:)`` with points started at most `ahead`
    /// past the row due; also returns the most rows that waited at once.
    func run(jobs: Int, progress: (@Sendable (SweepProgress) -> Void)?, ahead: Int,
             each: @escaping @Sendable (SweepRow) throws -> Void) throws -> (result: SweepResult, mostWaiting: Int) {
        let start = self.start
        let elapsed: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        let grid = head.grid, seeds = head.seeds, runs = head.runs
        let first = self.first, trajectories = self.trajectories, produced = self.produced
        // run: runs are handed out in index order. One seed: the row is
        // made from the run at once (nothing kept but the row). More: a
        // point's seeds are merged, in seed order, by whichever thread
        // finishes its last seed.
        let order = RowOrder(first: first, ahead: ahead, each: each)
        let state = RunState(seeds: seeds)
        // what a row reads of its point's configuration, read before the
        // run takes the configuration
        struct Facts {
            var buffering: BufferingPolicy
            var simulatedSeconds, framePeriodMs: Double
            var production: Figure.Production
            init(_ p: borrowing PipelineConfiguration) {
                buffering = p.buffering
                simulatedSeconds = Double(p.duration) / 1e9
                framePeriodMs = p.framePeriod.doubleValue / 1e6
                production = Figure.Production(p)
            }
        }
        @Sendable func row(_ point: Int, _ values: [String], _ p: Facts, runs: Int, invariantsHold: Bool, figures: FigureValues,
                           seedFigures: SweepSeedFigures?) -> SweepRow {
            SweepRow(index: point, values: values,
                     numbers: grid.numbers(of: point),
                     buffering: p.buffering,
                     simulatedSeconds: p.simulatedSeconds,
                     framePeriodMs: p.framePeriodMs,
                     runs: runs,
                     invariantsHold: invariantsHold,
                     figures: figures,
                     seeds: seedFigures)
        }
        Parallel.forEach(runs, jobs: jobs) { r in
            let point = first + r / seeds, k = r % seeds
            // after a failed point nothing later runs: its row could never
            // be handed over, and the lowest failed point is the error
            // (every point before it was handed out already)
            guard !order.awaitTurn(point) else { return }
            defer {
                if let progress {
                    state.report { progress(SweepProgress(completed: $0, total: runs, elapsedSeconds: elapsed())) }
                }
            }
            let p: PipelineConfiguration, values: [String]
            do throws(LatsimError) { (p, values) = try configuration(point) } catch {
                // resolved again (not kept): a file a value names changed
                // since it was checked. The point fails as a run would.
                if seeds == 1 { state.finish(point: point, failure: error) } else { _ = state.finish(point: point, seed: k, .failure(error)) }
                order.fail(point)
                return
            }
            if seeds == 1 {
                // the point's one run: its row now, figures read in place
                // (the result is not wrapped, which would copy it twice).
                // The configuration goes to the run, which keeps it: the row
                // reads what it needs before (a copy is about 1 KB and some
                // 30 references)
                do throws(LatsimError) {
                    let facts = Facts(p)
                    let run: RunResult
                    if try trajectories.usesBase(p) {
                        run = try PipelineRun.run(consume p, trajectory: trajectories.base.unsafelyUnwrapped)
                    } else {
                        let trajectory = try trajectories.notBase(p)
                        run = try PipelineRun.run(consume p, trajectory: trajectory)
                    }
                    state.finish(point: point, failure: nil)
                    order.complete(row(point, values, facts, runs: 1, invariantsHold: run.invariants.holds,
                                       figures: FigureValues(single: run, produced: produced[facts.production] ?? Figure.Produced(facts.production)),
                                       seedFigures: nil))
                } catch {
                    state.finish(point: point, failure: error)
                    order.fail(point)
                }
            } else {
                var c = p
                c.seed = c.seed &+ UInt64(k)
                let result: Result<RunResult, LatsimError>
                do throws(LatsimError) {
                    result = .success(try PipelineRun.run(c, trajectory: try trajectories.trajectory(for: c)))
                } catch { result = .failure(error) }
                switch state.finish(point: point, seed: k, result.map(RunDigest.init)) {
                case .success(let digests)?:
                    order.complete(row(point, values, Facts(p), runs: digests.count, invariantsHold: digests.allSatisfy(\.invariantsHold),
                                       figures: FigureValues(pooling: digests.map { ($0.figures, $0.measurements) }, configuration: p),
                                       seedFigures: SweepSeedFigures(first: p.seed, runs: digests.map(\.figures))))
                case .failure?: order.fail(point)
                case nil: break
                }
            }
        }
        if let e = order.deliveryError { throw e }
        if let e = state.firstError { throw e }
        var result = head
        result.wallSeconds = elapsed()
        return (result, order.mostWaiting)
    }
}

/// Hands a sweep's rows over in grid order as they complete: a row done
/// early waits for those before it; the thread that completes the row due
/// hands it over, and every waiting row after it, outside the lock, while
/// other threads go on completing rows. A point starts at most ``ahead``
/// points past the row due, so a slow point holds that many rows at most.
final class RowOrder: @unchecked Sendable {
    private let turn = NSCondition()
    private var waiting: [Int: SweepRow] = [:]
    /// The grid index of the next row to hand over.
    private var next: Int
    /// True while a thread is handing rows over.
    private var handing = false
    /// The lowest point that failed; Int.min once `each` failed.
    private var failedAt = Int.max
    private var failure: (any Error)?
    private let each: @Sendable (SweepRow) throws -> Void
    /// How far past the row due a point may start.
    let ahead: Int
    /// The most rows that waited at once.
    private(set) var mostWaiting = 0

    init(first: Int, ahead: Int, each: @escaping @Sendable (SweepRow) throws -> Void) {
        next = first
        self.ahead = max(1, ahead)
        self.each = each
    }

    /// Waits until `point` is fewer than ``ahead`` points past the row
    /// due, so that rows done early do not pile up behind a slow point.
    /// Every point before `point` was handed out already, and the one due
    /// runs, so the wait ends. Returns true when `point` comes after a
    /// failed point (or `each` failed): it need not run.
    func awaitTurn(_ point: Int) -> Bool {
        turn.lock()
        defer { turn.unlock() }
        while point - next >= ahead && point <= failedAt { turn.wait() }
        return point > failedAt
    }

    /// Records that `point`'s run failed: the rows after it are dropped.
    func fail(_ point: Int) {
        turn.lock()
        failedAt = min(failedAt, point)
        waiting = waiting.filter { $0.key < failedAt }
        turn.broadcast()
        turn.unlock()
    }

    /// The error `each` threw, if it did.
    var deliveryError: (any Error)? {
        turn.lock()
        defer { turn.unlock() }
        return failure
    }

    /// Takes a completed row; hands it over, with those waiting after it,
    /// when its turn has come and no other thread is handing rows over.
    func complete(_ row: SweepRow) {
        turn.lock()
        guard row.index < failedAt else { return turn.unlock() }
        if row.index == next && !handing {
            // the row due, and no thread handing rows over: handed over at
            // once, without waiting in the table (one thread's every row)
            mostWaiting = max(mostWaiting, waiting.count + 1)
            handing = true
            hand(row)
        } else {
            waiting[row.index] = row
            mostWaiting = max(mostWaiting, waiting.count)
            guard !handing else { return turn.unlock() }
            handing = true
        }
        while !waiting.isEmpty, let due = waiting.removeValue(forKey: next) { hand(due) }
        handing = false
        turn.unlock()
    }

    /// Hands the row due over, outside the lock (held on entry and on return).
    private func hand(_ due: SweepRow) {
        next += 1
        turn.broadcast()
        turn.unlock()
        var thrown: (any Error)?
        do { try each(due) } catch { thrown = error }
        turn.lock()
        if let thrown {
            failure = thrown
            failedAt = Int.min
            waiting.removeAll()
            turn.broadcast()
        }
    }
}

/// Trajectories by what they are made from: recorded traces are read once,
/// synthetic motions (cheap) are made per run.
final class TrajectoryCache: Sendable {
    private let cache = Locked([String: Trajectory]())
    /// The base configuration's finger, made once: most points use it,
    /// and found by comparison (``usesBase(_:)``) it needs neither a lock
    /// nor a synthetic trajectory made again. Nil when it fails, and a
    /// point that uses it fails with its error, as a run would.
    let base: Trajectory?
    private let baseError: LatsimError?
    private let baseName: String
    private let baseParameters: TrajectoryParameters

    init(base c: borrowing PipelineConfiguration) {
        baseName = c.trajectory
        baseParameters = c.trajectoryParameters
        do throws(LatsimError) {
            base = try Self.make(baseName, baseParameters, cache: nil)
            baseError = nil
        } catch {
            base = nil
            baseError = error
        }
    }

    /// True when `c`'s finger is the base's (``base``: read in place, not
    /// returned, as a trajectory is some 400 bytes and several references
    /// copied); throws the base's error when it failed.
    func usesBase(_ c: borrowing PipelineConfiguration) throws(LatsimError) -> Bool {
        guard c.trajectory == baseName && c.trajectoryParameters == baseParameters else { return false }
        if let baseError { throw baseError }
        return true
    }

    /// Checks that the finger of `c` can be made (its error placed as a
    /// run places it).
    func check(_ c: borrowing PipelineConfiguration) throws(LatsimError) {
        if try !usesBase(c) { _ = try notBase(c) }
    }

    /// The finger of `c`, its error placed as a run places it.
    func trajectory(for c: borrowing PipelineConfiguration) throws(LatsimError) -> Trajectory {
        if try usesBase(c) { return base.unsafelyUnwrapped }
        return try notBase(c)
    }

    /// The finger of `c`, which ``usesBase(_:)`` said is not the base's.
    func notBase(_ c: borrowing PipelineConfiguration) throws(LatsimError) -> Trajectory {
        try Self.make(c.trajectory, c.trajectoryParameters, cache: cache)
    }

    private static func make(_ name: String, _ parameters: TrajectoryParameters,
                             cache: Locked<[String: Trajectory]>?) throws(LatsimError) -> Trajectory {
        do throws(LatsimError) {
            if Trajectory.syntheticKinds.contains(name) || name == Trajectory.tapsName {
                return try Trajectory.make(name, parameters: parameters)
            }
            let key = name + "\u{0}" + String(describing: parameters)
            if let t = cache?.withLock({ $0[key] }) { return t }
            let t = try Trajectory.make(name, parameters: parameters)
            cache?.withLock { $0[key] = t }
            return t
        } catch {
            throw error.about(key: "input.trajectory", value: name)
        }
    }
}

/// The figures each production among a sweep's points produces
/// (``Figure/Produced``), found by comparison: a sweep has a few
/// productions, and hashing one cost more than comparing it with each.
struct ProducedFigures: Sendable {
    private var list: [(production: Figure.Production, produced: Figure.Produced)] = []

    mutating func add(_ p: Figure.Production) { list.append((p, Figure.Produced(p))) }

    subscript(p: Figure.Production) -> Figure.Produced? {
        for e in list where e.production == p { return e.produced }
        return nil
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
