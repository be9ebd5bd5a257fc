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
        axes.count == 1 ? [i] : [i / axes[1].count, i % axes[1].count]
    }

    /// The `--set` text of each axis at grid point `i`.
    public func values(of i: Int) -> [String] {
        zip(axes, indices(of: i)).map { $0.values[$1] }
    }
}

/// Summary of one merged measure (touch-to-photon, pipeline frames, ...);
/// every field nil when nothing was measured.
public struct SweepStatistic: Sendable, Equatable, Codable {
    /// Values recorded, over every run of the point.
    public var count: Int
    /// The exact mean over every recorded value.
    public var mean: Double?
    /// The median and 99th percentile of the merged histogram (three
    /// significant digits), taken in one walk of the histogram.
    public var p50: Double?, p99: Double?
    /// The exact extremes.
    public var min: Double?, max: Double?

    /// The summary of a stream.
    public init(_ s: StreamingStats) {
        count = s.count
        mean = s.mean
        min = s.count > 0 ? s.min : nil
        max = s.count > 0 ? s.max : nil
        let q = s.percentiles([50, 99])
        (p50, p99) = (q[0], q[1])
    }
}

/// The measurements of one grid point over its seeds.
///
/// Latency figures come from the seeds' histograms merged
/// (``StreamingStats/merge(_:)``): percentiles and means are over every
/// displayed frame of every seed. Per-run figures (counts, rates,
/// fractions) are the mean across the seeds.
public struct SweepMetrics: Sendable, Equatable, Codable {
    /// A figure of ``Figure/allCases`` at this point.
    public func value(_ f: Figure) -> Double? {
        guard let i = Figure.allCases.firstIndex(of: f), i < figures.count else { return nil }
        return figures[i]
    }

    /// Touch-to-photon of each displayed frame with new touch content, ms.
    public var touchToPhotonMs: SweepStatistic
    /// The talk's pipeline-frames convention.
    public var pipelineFrames: SweepStatistic
    /// Touch-to-photon minus the prediction horizon applied, ms.
    public var effectiveMs: SweepStatistic
    /// Pipeline frames minus the prediction horizon applied.
    public var effectiveFrames: SweepStatistic
    /// Touch-to-photon of every sample the app drew, ms.
    public var perSampleMs: SweepStatistic
    /// Frames presented per simulated second.
    public var framesPerSecond: Double
    /// Frames presented per run.
    public var framesPresented: Double
    /// Repeated frames per run (a vsync with no new frame).
    public var repeatedFrames: Double
    /// Frames dropped at a latch per run.
    public var droppedFrames: Double
    /// Hitch time per simulated second, ms per s.
    public var hitchMsPerS: Double
    /// Fraction of simulated time with three buffers allocated; nil on
    /// Android, whose BufferQueue is sized once (its buffer figures are the
    /// run's).
    public var tripleBufferedFraction: Double?
    /// Handler runs all of whose commits were merged away, per run.
    public var wastedUpdates: Double
    /// Handler runs per run.
    public var handlerRuns: Double
    /// Touch deliveries per run.
    public var deliveries: Double
    /// Model events per run (deterministic; wall time is not kept).
    public var events: Double
    /// Every figure of ``Figure/allCases``, in that order, over the point's
    /// seeds as the figure aggregates (``FigureAggregation``); nil where the
    /// point does not produce it or measured nothing of it.
    public var figures: [Double?]
    /// Runs merged (the number of seeds).
    public var runs: Int
    /// True when every run kept the model's invariants (Docs/Model.md, "Invariants").
    public var invariantsHold: Bool
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
    /// The merged measurements.
    public var metrics: SweepMetrics
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
    /// Every figure of ``Figure/allCases``, in that order.
    public var figures: [Values]

    /// The figures of the runs of seeds S, S+1, ... (`runs` in seed order).
    init(first: UInt64, runs: [[Double?]]) {
        self.first = first
        figures = Figure.allCases.enumerated().map { i, f in Values(figure: f.rawValue, perSeed: runs.map { $0[i] }) }
    }

    /// Every figure across the seeds, in ``Figure/allCases`` order.
    public var statistics: [(figure: Figure, statistic: SeedStatistic)] {
        figures.compactMap { v in Figure(rawValue: v.figure).map { ($0, SeedStatistic(v.perSeed)) } }
    }

    /// One figure across the seeds.
    public func statistic(_ figure: Figure) -> SeedStatistic? {
        figures.first { $0.figure == figure.rawValue }.map { SeedStatistic($0.perSeed) }
    }

    /// True when the figures are exactly ``Figure/allCases``, each with
    /// `seeds` values (a part file read back is checked with this).
    func isWellFormed(seeds: Int) -> Bool {
        figures.map(\.figure) == Figure.allCases.map(\.rawValue) && figures.allSatisfy { $0.perSeed.count == seeds }
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
