import FramePipeline
import Foundation
import Scenarios
import SimKernel

/// Two configurations compared (`latsim compare`): the settings that
/// differ, then every figure of each run with several seeds, the paired
/// difference, and whether it is beyond the noise the seeds show.
public struct Comparison: Sendable {
    /// One side: a name, its settings and their configuration.
    public struct Side: Sendable {
        /// What the side is called in tables (a scenario name, `A`, `B`).
        public var name: String
        /// Its settings, with where each came from.
        public var settings: Settings
        /// Its configuration (its seed is the first of its seeds).
        public var configuration: PipelineConfiguration

        /// A side from its parts.
        public init(name: String, settings: Settings, configuration: PipelineConfiguration) {
            self.name = name
            self.settings = settings
            self.configuration = configuration
        }
    }

    /// One compared figure.
    public struct Row: Sendable {
        /// The figure.
        public var figure: Figure
        /// Its value per seed on side A.
        public var a: SeedStatistic
        /// Its value per seed on side B.
        public var b: SeedStatistic
        /// `b − a`, paired by seed.
        public var difference: SeedDifference
    }

    /// Side A.
    public var a: Side
    /// Side B.
    public var b: Side
    /// Runs per side (seeds S, S+1, ... on each side).
    public var seeds: Int
    /// The settings that differ.
    public var settingDifferences: [SettingDifference]
    /// Every figure, in ``Figure`` order.
    public var rows: [Row]

    /// Runs both sides `seeds` times each, seed k of A beside seed k of B,
    /// on up to `jobs` threads (the result is the same at any number).
    public static func run(a: Side, b: Side, seeds: Int, jobs: Int,
                           maxEvents: Double = WorkEstimate.defaultEventLimit) throws(LatsimError) -> Comparison {
        let runs = try SeedRuns.run([a.configuration, b.configuration], seeds: seeds, jobs: jobs, maxEvents: maxEvents)
        let aRuns = runs[0], bRuns = runs[1]
        let rows = Figure.allCases.map { f -> Row in
            let sa = SeedStatistic(aRuns.map(f.value)), sb = SeedStatistic(bRuns.map(f.value))
            return Row(figure: f, a: sa, b: sb, difference: SeedDifference(a: sa, b: sb))
        }
        return Comparison(a: a, b: b, seeds: seeds, settingDifferences: SettingDifference.between(a.settings, b.settings),
                          rows: rows)
    }
}

/// A key set differently on two sides: its text and origin on each.
public struct SettingDifference: Sendable, Equatable {
    /// The key path.
    public var key: String
    /// The value on side A.
    public var a: String
    /// Where A's value came from (`default`, a file position, `--set`).
    public var aSource: String
    /// The value on side B.
    public var b: String
    /// Where B's value came from.
    public var bSource: String

    /// The keys whose values differ, in the key table's order. `seed` is
    /// left out when `includeSeed` is false.
    public static func between(_ a: Settings, _ b: Settings, includeSeed: Bool = true) -> [SettingDifference] {
        ConfigurationKey.all.compactMap { key in
            let ta = a.text(key.path), tb = b.text(key.path)
            guard ta != tb, includeSeed || key.path != "seed" else { return nil }
            return SettingDifference(key: key.path, a: ta, aSource: a.origin(key.path), b: tb, bSource: b.origin(key.path))
        }
    }
}
