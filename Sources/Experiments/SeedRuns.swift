import FramePipeline
import Measures
import SimKernel

/// Configurations each run with seeds S, S+1, ... (S its own `seed`), in
/// parallel, and every figure of a configuration across its seeds
/// (``SeedStatistic``): how much of a number is the seed's.
public enum SeedRuns {
    /// The most seeds per configuration (`--seeds`).
    public static let maximumSeeds = 1_000

    /// `c` with seed S + `k`.
    public static func seeded(_ c: PipelineConfiguration, _ k: Int) -> PipelineConfiguration {
        var c = c
        c.seed &+= UInt64(k)
        return c
    }

    /// Every configuration of `configurations` run `seeds` times: one array
    /// of results per configuration, in seed order. The first seed's runs
    /// keep the stage budget when `budget` is true. The work is estimated
    /// (``WorkEstimate``) before anything runs.
    public static func run(_ configurations: [PipelineConfiguration], seeds: Int, jobs: Int, budget: Bool = false,
                           maxEvents: Double = WorkEstimate.defaultEventLimit) throws(LatsimError) -> [[RunResult]] {
        guard (1...maximumSeeds).contains(seeds) else {
            throw LatsimError(value: String(seeds), problem: "runs per configuration must be from 1 to \(maximumSeeds)")
        }
        for c in configurations where c.seed > UInt64.max - UInt64(seeds - 1) {
            throw LatsimError(key: "seed", value: String(c.seed), problem: "its \(seeds) seeds go past the largest seed")
        }
        // seed k of every configuration together, so that paired runs finish together
        let runs = (0..<seeds).flatMap { k in configurations.map { seeded($0, k) } }
        try WorkEstimate.check(runs, limit: maxEvents)
        let n = configurations.count
        let results = Parallel.map(runs.count, jobs: jobs) { i in
            Result { () throws(LatsimError) in try PipelineRun.run(runs[i], keepLog: false, keepBudget: budget && i < n) }
        }
        var out = [[RunResult]](repeating: [], count: n)
        for (i, r) in results.enumerated() { out[i % n].append(try r.get()) }
        return out
    }

    /// The figures of one configuration's runs (by default every figure
    /// they produce, in catalogue order), across its seeds.
    public static func figures(_ runs: [RunResult], _ figures: [Figure]? = nil) -> [(figure: Figure, statistic: SeedStatistic)] {
        (figures ?? Figure.shown(for: runs.prefix(1).map(\.configuration))).map { f in (f, SeedStatistic(runs.map(f.value))) }
    }
}
