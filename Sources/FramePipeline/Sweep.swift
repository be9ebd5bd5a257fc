import Foundation
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

    /// Runs every grid point of `axes` on `scenario`, `seeds` times each.
    ///
    /// Each point's settings are, in order of precedence: the axis values,
    /// then `duration` and `seed`, then `baseOverrides` (`PATH=VALUE`), then
    /// the scenario file, then the defaults. Every point is resolved and
    /// checked before anything runs, so bad input costs no simulation. Seed
    /// `k` of a point (0-based) runs with the point's seed plus `k`.
    ///
    /// The runs are spread over `jobs` threads; the rows are the same at any
    /// `jobs`, because each point's seeds are merged in seed order and each
    /// row is stored at its grid index.
    ///
    /// - Parameters:
    ///   - baseOverrides: `PATH=VALUE` assignments for every point.
    ///   - axes: one or two axes (see ``SweepAxis``).
    ///   - seeds: runs per grid point (>= 1).
    ///   - duration: simulated time per run (the scenario's when nil).
    ///   - seed: the first seed (the scenario's when nil).
    ///   - jobs: threads to use (>= 1).
    ///   - progress: called after each run, one call at a time (from worker
    ///     threads); it should return quickly.
    /// - Throws: ``SweepError`` for a bad grid, seeds or jobs;
    ///   ``ScenarioError`` for a value the scenario's settings refuse.
    public static func run(scenario: Scenario,
                           baseOverrides: [String] = [],
                           axes: [SweepAxis],
                           seeds: Int = 1,
                           duration: String? = nil,
                           seed: UInt64? = nil,
                           jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                           progress: (@Sendable (SweepProgress) -> Void)? = nil) throws -> SweepResult {
        let start = DispatchTime.now().uptimeNanoseconds
        let elapsed: @Sendable () -> Double = { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        guard seeds >= 1 else { throw SweepError(argument: "--seeds \(seeds)", message: "runs per grid point must be at least 1") }
        guard jobs >= 1 else { throw SweepError(argument: "--jobs \(jobs)", message: "the number of threads must be at least 1") }
        let grid = try SweepGrid(axes: axes)
        let (runs, overflow) = grid.count.multipliedReportingOverflow(by: seeds)
        guard !overflow else { throw SweepError(argument: "--seeds \(seeds)", message: "too many runs") }

        // settings shared by every point
        var base = scenario.settings
        for o in baseOverrides { try base.apply(assignment: o) }
        if let duration { try base.set("duration", duration, source: SettingSource(file: "--duration")) }
        if let seed { try base.set("seed", String(seed), source: SettingSource(file: "--seed")) }
        _ = try PipelineConfiguration(settings: base) // a bad --set fails once, not per point

        // resolve every point before running anything
        let baseSettings = base
        let configurations = ResultSlots<Result<PipelineConfiguration, ScenarioError>>(count: grid.count)
        let trajectories = TrajectoryCache()
        let source = SettingSource(file: "--vary")
        Parallel.forEach(grid.count, jobs: jobs) { i in
            var s = baseSettings
            let r: Result<PipelineConfiguration, ScenarioError> = Result { () throws(ScenarioError) -> PipelineConfiguration in
                for (axis, value) in zip(grid.axes, grid.values(of: i)) { try s.set(axis.path, value, source: source) }
                let c = try PipelineConfiguration(settings: s)
                _ = try trajectories.trajectory(for: c)
                return c
            }
            configurations[i] = r
        }
        var resolved: [PipelineConfiguration] = []
        resolved.reserveCapacity(grid.count)
        for r in configurations.values { resolved.append(try r.get()) }
        let points = resolved

        // run: runs are handed out in index order; a point's seeds are
        // merged, in seed order, by whichever thread finishes its last seed
        let rows = ResultSlots<SweepRow>(count: grid.count)
        let state = RunState(seeds: seeds)
        Parallel.forEach(runs, jobs: jobs) { r in
            let point = r / seeds, k = r % seeds
            var c = points[point]
            c.seed = c.seed &+ UInt64(k)
            let digest: Result<RunDigest, ScenarioError>
            do throws(ScenarioError) {
                var run = PipelineRun(configuration: c, trajectory: try trajectories.trajectory(for: c))
                digest = .success(RunDigest(run.run()))
            } catch {
                digest = .failure(error)
            }
            let complete = state.finish(point: point, seed: k, digest)
            if let progress {
                state.report { progress(SweepProgress(completed: $0, total: runs, elapsedSeconds: elapsed())) }
            }
            guard case .success(let digests)? = complete else { return }
            rows[point] = SweepRow(index: point, values: grid.values(of: point),
                                   numbers: zip(grid.axes, grid.indices(of: point)).map { $0.numbers?[$1] },
                                   buffering: points[point].buffering,
                                   simulatedSeconds: Double(points[point].duration) / 1e9,
                                   framePeriodMs: points[point].framePeriod.doubleValue / 1e6,
                                   metrics: RunDigest.merge(digests, predicts: points[point].predictor != .none))
        }
        if let e = state.firstError { throw e }
        return SweepResult(scenario: scenario.name, grid: grid, seeds: seeds, rows: rows.values, runs: runs,
                           wallSeconds: elapsed())
    }
}

/// Trajectories by what they are made from: recorded traces are read once,
/// synthetic motions (cheap) are made per run.
final class TrajectoryCache: @unchecked Sendable {
    private var cache: [String: Trajectory] = [:]
    private let lock = NSLock()

    func trajectory(for c: PipelineConfiguration) throws(ScenarioError) -> Trajectory {
        do {
            if Trajectory.syntheticKinds.contains(c.trajectory) {
                return try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters)
            }
            let key = c.trajectory + "\u{0}" + String(describing: c.trajectoryParameters)
            lock.lock()
            if let t = cache[key] { lock.unlock(); return t }
            lock.unlock()
            let t = try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters)
            lock.lock(); cache[key] = t; lock.unlock()
            return t
        } catch {
            throw ScenarioError(keyPath: "input.trajectory", value: c.trajectory, message: error.description)
        }
    }
}

/// The parts of a run a sweep keeps: the latency streams and the counts,
/// without the configuration, frame log or wall time.
struct RunDigest: Sendable {
    var measurements: Measurements
    var framesPerSecond: Double
    var hitchMsPerS: Double
    var tripleBufferedFraction: Double
    var events: Int
    var invariantsHold: Bool

    init(_ r: RunResult) {
        measurements = r.measurements
        framesPerSecond = Double(r.measurements.framesPresented) / r.simulatedSeconds
        hitchMsPerS = r.hitchTimeRatioMsPerS
        tripleBufferedFraction = r.tripleBufferedFraction
        events = r.events
        invariantsHold = r.invariants.holds
    }

    /// Merges the digests of one point's seeds, in the order given.
    ///
    /// - Parameter predicts: whether the point runs a predictor; without one
    ///   the effective figures are the measured ones (``PipelineRun`` copies
    ///   them), so they are summarised once.
    static func merge(_ digests: [RunDigest], predicts: Bool) -> SweepMetrics {
        var m = digests[0].measurements
        for d in digests.dropFirst() {
            m.touchToPhotonMs.merge(d.measurements.touchToPhotonMs)
            m.pipelineFrames.merge(d.measurements.pipelineFrames)
            if predicts {
                m.effectiveMs.merge(d.measurements.effectiveMs)
                m.effectiveFrames.merge(d.measurements.effectiveFrames)
            }
            m.perSampleMs.merge(d.measurements.perSampleMs)
        }
        let touchToPhoton = SweepStatistic(m.touchToPhotonMs), frames = SweepStatistic(m.pipelineFrames)
        let n = Double(digests.count)
        func mean(_ f: (RunDigest) -> Double) -> Double {
            var s = 0.0
            for d in digests { s += f(d) }
            return s / n
        }
        return SweepMetrics(
            touchToPhotonMs: touchToPhoton,
            pipelineFrames: frames,
            effectiveMs: predicts ? SweepStatistic(m.effectiveMs) : touchToPhoton,
            effectiveFrames: predicts ? SweepStatistic(m.effectiveFrames) : frames,
            perSampleMs: SweepStatistic(m.perSampleMs),
            framesPerSecond: mean(\.framesPerSecond),
            framesPresented: mean { Double($0.measurements.framesPresented) },
            repeatedFrames: mean { Double($0.measurements.repeatedFrames) },
            droppedFrames: mean { Double($0.measurements.droppedFrames) },
            hitchMsPerS: mean(\.hitchMsPerS),
            tripleBufferedFraction: mean(\.tripleBufferedFraction),
            wastedUpdates: mean { Double($0.measurements.wastedUpdates) },
            handlerRuns: mean { Double($0.measurements.handlerRuns) },
            deliveries: mean { Double($0.measurements.deliveries) },
            events: mean { Double($0.events) },
            runs: digests.count,
            invariantsHold: digests.allSatisfy(\.invariantsHold))
    }
}

/// The shared bookkeeping of a running sweep: seeds waiting for the rest of
/// their point, the count of finished runs and the errors.
final class RunState: @unchecked Sendable {
    private struct Point {
        var finished = 0
        var digests: [RunDigest?]
        var error: (seed: Int, error: ScenarioError)?
    }

    private let seeds: Int
    private var waiting: [Int: Point] = [:]
    private var failed: [Int: ScenarioError] = [:]
    private var completed = 0
    private let lock = NSLock()
    private let reportLock = NSLock()

    init(seeds: Int) { self.seeds = seeds }

    /// Records seed `seed` of `point`. When it was the point's last seed,
    /// returns every seed's digest in seed order, or the error of the
    /// lowest seed that failed; otherwise nil.
    func finish(point: Int, seed: Int, _ digest: Result<RunDigest, ScenarioError>) -> Result<[RunDigest], ScenarioError>? {
        lock.lock(); defer { lock.unlock() }
        completed += 1
        var p = waiting[point] ?? Point(digests: Array(repeating: nil, count: seeds))
        p.finished += 1
        switch digest {
        case .success(let d): p.digests[seed] = d
        case .failure(let e): if p.error == nil || p.error!.seed > seed { p.error = (seed, e) }
        }
        guard p.finished == seeds else {
            waiting[point] = p
            return nil
        }
        waiting[point] = nil
        if let e = p.error {
            failed[point] = e.error
            return .failure(e.error)
        }
        return .success(p.digests.map { $0! })
    }

    /// Calls `body` with the number of finished runs, one call at a time
    /// (the numbers never decrease).
    func report(_ body: (Int) -> Void) {
        reportLock.lock(); defer { reportLock.unlock() }
        lock.lock()
        let n = completed
        lock.unlock()
        body(n)
    }

    /// The error of the lowest-numbered point that failed.
    var firstError: ScenarioError? {
        lock.lock(); defer { lock.unlock() }
        return failed.min { $0.key < $1.key }?.value
    }
}
