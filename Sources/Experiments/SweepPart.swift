import Foundation
import Measures
import Scenarios
import SimKernel

/// One part of a sweep split over machines: shard `index` of `count`
/// (numbered from 0) runs a contiguous block of the grid's points, each
/// point with all its seeds (they are merged), so any number of shards up
/// to the number of points divides the work.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which shard, 0 ..< `count`.
    public let index: Int
    /// How many shards the sweep is split into.
    public let count: Int

    /// The most shards a job is split into: more than the largest sweep
    /// grid has points, and few enough that the part files of every shard
    /// can be listed and merged.
    public static let maximumCount = 100_000

    /// A shard; `index` must be below `count`, `count` at most
    /// ``maximumCount``.
    public init(index: Int, count: Int) throws(LatsimError) {
        guard count >= 1, count <= Self.maximumCount, index >= 0, index < count else {
            throw LatsimError(value: "\(index)/\(count)", problem: "not a shard",
                              expected: "I/N with N from 1 to \(Self.maximumCount) and I from 0 to N-1, e.g. 0/4")
        }
        self.index = index
        self.count = count
    }

    private enum CodingKeys: String, CodingKey { case index, count }

    /// Decodes a shard as the initializer checks it: a part file's `shard`
    /// is refused, not trusted.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(index: try c.decode(Int.self, forKey: .index), count: try c.decode(Int.self, forKey: .count))
    }

    /// Parses `I/N`.
    public init(parsing text: String) throws(LatsimError) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = NumberSyntax.integer(String(parts[0])), let n = NumberSyntax.integer(String(parts[1])) else {
            throw LatsimError(value: text, problem: "not a shard", expected: "I/N, e.g. 0/4 (shards are numbered from 0)")
        }
        try self.init(index: i, count: n)
    }

    /// The grid points this shard runs, of `total`.
    /// (The products are taken at double width: `index * total` cannot
    /// overflow.)
    public func points(of total: Int) -> Range<Int> {
        let total = Swift.max(total, 0)
        func bound(_ i: Int) -> Int {
            count.dividingFullWidth(i.multipliedFullWidth(by: total)).quotient
        }
        return bound(index)..<bound(index + 1)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}

/// What a shard of a sweep wrote: its rows, exactly, and what the sweep
/// was, so that ``merge(_:)`` gives the result, and every output made from
/// it, byte for byte as the sweep run on one machine.
public struct SweepPart: ShardPart {
    /// The format of part files.
    public static let currentVersion = 5
    /// This part's format version.
    public var version: Int
    /// The shard it holds.
    public var shard: Shard
    /// The sweep's scenario name.
    public var scenario: String
    /// The varied keys.
    public var axes: [SweepAxis]
    /// Seeds per grid point.
    public var seeds: Int
    /// The sweep's command line and settings (``SweepResult/command``).
    public var command: String
    public var settings: [ResolvedSetting]
    /// The figures the sweep shows (``SweepResult/figures``).
    public var figures: [Figure]
    /// The shard's rows, in grid order.
    public var rows: [SweepRow]
    /// Runs the shard made.
    public var runs: Int
    /// Wall time of the shard.
    public var wallSeconds: Double

    /// The part of a sharded sweep's result.
    public init(_ result: SweepResult) throws(LatsimError) {
        guard let shard = result.shard else {
            throw LatsimError(.internal, problem: "a sweep that was not split has no part")
        }
        version = Self.currentVersion
        self.shard = shard
        scenario = result.scenario
        axes = result.axes
        seeds = result.seeds
        command = result.command
        settings = result.settings
        figures = result.figures
        rows = result.rows
        runs = result.runs
        wallSeconds = result.wallSeconds
    }

    public static let kind = "sweep part"
    public static let writer = "a sweep with a shard"

    /// A shard runs each of its points with every seed: `runs` is its
    /// rows times the seeds, which lie within a sweep's limits. (Runs near
    /// Int.max once overflowed the merge's sum.)
    public func problem() -> String? {
        guard (1...Sweep.maximumSeeds).contains(seeds) else {
            return "seeds is \(seeds); a sweep runs each point 1 to \(Sweep.maximumSeeds) times"
        }
        let (made, overflow) = rows.count.multipliedReportingOverflow(by: seeds)
        guard !overflow, runs == made else {
            return "runs is \(runs), but \(rows.count) point\(rows.count == 1 ? "" : "s") with \(seeds) seed\(seeds == 1 ? "" : "s") each make \(made) runs"
        }
        return nil
    }

    public func isSameJob(as other: SweepPart) -> Bool {
        scenario == other.scenario && axes == other.axes && seeds == other.seeds && shard.count == other.shard.count
            && command == other.command && settings == other.settings && figures == other.figures
    }

    /// The sweep's result from every one of its parts (in any order): the
    /// same rows, in the same order, as one machine gives.
    public static func merge(_ parts: [(path: String, part: SweepPart)]) throws(LatsimError) -> SweepResult {
        let ordered = try inShardOrder(parts, job: "sweep")
        let first = ordered[0]
        let grid = try SweepGrid(axes: first.part.axes)
        var rows: [SweepRow] = []
        var runs = 0
        var wall = 0.0
        let seeds = first.part.seeds
        for (path, p) in ordered {
            guard p.rows.map(\.index) == Array(p.shard.points(of: grid.count)),
                  p.rows.allSatisfy({ (seeds == 1 ? $0.seeds == nil : $0.seeds?.isWellFormed(seeds: seeds) == true) }) else {
                throw LatsimError(file: path, problem: "the rows are not those of shard \(p.shard)", expected: "a part as a sweep wrote it")
            }
            rows += p.rows
            runs += p.runs
            wall = Swift.max(wall, p.wallSeconds)
        }
        var result = SweepResult(scenario: first.part.scenario, grid: grid, seeds: first.part.seeds, rows: rows, runs: runs,
                                 wallSeconds: wall, shard: nil)
        result.command = first.part.command
        result.settings = first.part.settings
        result.figures = first.part.figures
        return result
    }
}
