import Foundation
import FramePipeline
import Measures
import Scenarios
import SimKernel
import TouchModel

/// The grid of a sweep: every combination of the axes' values, the first
/// axis varying slowest (row `i` of a two-axis grid is value `i / n1` of the
/// first axis and `i % n1` of the second).
public struct SweepGrid: Sendable, Equatable {
    /// The axes, one or two.
    public let axes: [SweepAxis]
    /// The number of grid points.
    public let count: Int

    /// A grid of one or two axes with at most ``Sweep/maximumPoints`` points.
    ///
    /// - Throws: ``LatsimError`` for no axis, more than two, the same key
    ///   twice, or too many points.
    public init(axes: [SweepAxis]) throws(LatsimError) {
        let shown = axes.map(\.argument).joined(separator: " and ")
        let origin = axes.first?.source.file
        guard !axes.isEmpty else {
            throw LatsimError(problem: "a sweep needs one or two varied keys", expected: "PATH=FROM...TO[:STEP] or PATH=A,B,C, e.g. gpu.render=2ms...16ms:1ms")
        }
        guard axes.count <= 2 else {
            throw LatsimError(file: origin, value: shown, problem: "\(axes.count) keys varied; a sweep varies one or two (a line or a grid)",
                              expected: "one sweep per pair, the other keys fixed in the scenario")
        }
        if axes.count == 2 && axes[0].path == axes[1].path {
            throw LatsimError(file: origin, value: shown, problem: "\(axes[0].path) is varied twice",
                              expected: "two different keys, or one with every value")
        }
        var n = 1
        for a in axes {
            let (m, overflow) = n.multipliedReportingOverflow(by: a.count)
            n = overflow ? Int.max : m
        }
        guard n <= Sweep.maximumPoints else {
            throw LatsimError(file: origin, value: shown, problem: "\(axes.map { String($0.count) }.joined(separator: " x ")) = \(n) grid points is more than the \(Sweep.maximumPoints) a sweep may have",
                              expected: "larger steps or fewer values")
        }
        self.axes = axes
        count = n
    }

    /// The value index on each axis of grid point `i`.
    public func indices(of i: Int) -> [Int] {
        axes.indices.map { index(of: i, onAxis: $0) }
    }

    /// Axis `a`'s index at grid point `i` (the first axis is the outer).
    @inline(__always) func index(of i: Int, onAxis a: Int) -> Int {
        axes.count == 1 ? i : a == 0 ? i / axes[1].count : i % axes[1].count
    }

    /// The `--set` text of each axis at grid point `i`.
    public func values(of i: Int) -> [String] {
        axes.indices.map { axes[$0].value(at: index(of: i, onAxis: $0)) }
    }

    /// Each axis's value at grid point `i` as a number in its unit, nil on
    /// an axis that is not numeric (``SweepAxis/number(at:)``).
    public func numbers(of i: Int) -> [Double?] {
        axes.indices.map { axes[$0].number(at: index(of: i, onAxis: $0)) }
    }
}

/// One grid point of a sweep and what it measured.
public struct SweepRow: Sendable, Equatable, Codable {
    /// The grid point's index (row order).
    public var index: Int
    /// The `--set` text of each varied key, in axis order.
    public var values: [String]
    /// Each varied value as a number in its axis's unit, or nil when the
    /// axis is not numeric.
    public var numbers: [Double?]
    /// The display buffering of this point (for "adaptive goes triple").
    public var buffering: BufferingPolicy
    /// Simulated seconds per run.
    public var simulatedSeconds: Double
    /// The display period of this point, ms (one frame).
    public var framePeriodMs: Double
    /// Runs merged (the number of seeds).
    public var runs: Int
    /// True when every run kept the model's invariants (Docs/Model.md, "Invariants").
    public var invariantsHold: Bool
    /// Every figure of the point over its seeds, as each figure aggregates
    /// (``FigureAggregation``): a latency statistic over every displayed
    /// frame of every seed (their histograms merged), a per-run value's mean
    /// across the seeds.
    public var figures: FigureValues
    /// Each seed's own figures, when the point ran more than one seed.
    public var seeds: SweepSeedFigures?
}

/// The figures of each seed of a grid point (``Figure``, as `run --seeds`
/// reports them), kept so that a sweep says how much of each number is the
/// seed's: ``statistics`` gives every figure's mean and 95% interval across
/// the seeds.
public struct SweepSeedFigures: Sendable, Equatable, Codable {
    /// One figure's value for each seed, in seed order (nil where a seed
    /// measured nothing).
    public struct Values: Sendable, Equatable, Codable {
        /// The figure's name (``Figure/rawValue``).
        public var figure: String
        /// Seed S's value first.
        public var perSeed: [Double?]
    }

    /// The point's first seed, S.
    public var first: UInt64
    /// Every figure of ``Figure/allCases``, in that order (of the catalogue
    /// of the latsim that ran the point).
    public var figures: [Values]

    /// The figures of the runs of seeds S, S+1, ... (`runs` in seed order).
    init(first: UInt64, runs: [FigureValues]) {
        self.first = first
        figures = Figure.allCases.map { f in Values(figure: f.rawValue, perSeed: runs.map { $0[f] }) }
    }

    /// Every figure across the seeds, in ``Figure/allCases`` order.
    public var statistics: [(figure: Figure, statistic: SeedStatistic)] {
        figures.compactMap { v in Figure(rawValue: v.figure).map { ($0, SeedStatistic(v.perSeed)) } }
    }

    /// One figure across the seeds.
    public func statistic(_ figure: Figure) -> SeedStatistic? {
        figures.first { $0.figure == figure.rawValue }.map { SeedStatistic($0.perSeed) }
    }

    /// True when every figure is declared, each once, with `seeds` values
    /// (a part file read back is checked with this; one written before a
    /// figure was declared lacks it).
    func isWellFormed(seeds: Int) -> Bool {
        Set(figures.map(\.figure)).count == figures.count && figures.allSatisfy { Figure(rawValue: $0.figure) != nil && $0.perSeed.count == seeds }
    }
}

/// What a sweep produced: one row per grid point, in grid order.
public struct SweepResult: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// The grid swept.
    public var grid: SweepGrid
    /// Seeds per grid point.
    public var seeds: Int
    /// The rows, one per grid point.
    public var rows: [SweepRow]
    /// Pipeline runs made (grid points x seeds).
    public var runs: Int
    /// Wall time of the whole sweep, seconds (never part of the rows).
    public var wallSeconds: Double
    /// The shard this result holds the rows of, when the sweep was split.
    public var shard: Shard?
    /// The command line that asked for the sweep, as its result files
    /// record it (Docs/Results.md); empty when a library call made it.
    public var command = ""
    /// The scenario's settings before the varied keys, with where each
    /// came from.
    public var settings: [ResolvedSetting] = []
    /// The figures some point produces, the scenario's headline first
    /// (``Figure/shown(for:first:)``): the columns of the sweep's outputs.
    public var figures: [Figure] = []
    /// The scenario's headline figure (``Figure/headline(of:_:)``), shown
    /// first when its points produce it; nil when a library call made the
    /// result without one.
    public var headline: Figure?

    /// The axes.
    public var axes: [SweepAxis] { grid.axes }
}

/// Progress of a running sweep, reported after each run.
public struct SweepProgress: Sendable, Equatable {
    /// Runs finished.
    public var completed: Int
    /// Runs in the sweep.
    public var total: Int
    /// Wall seconds since the sweep started.
    public var elapsedSeconds: Double
}
