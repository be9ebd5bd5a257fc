import Foundation
import SimKernel
import Scenarios

/// One part of a sweep split over machines: shard `index` of `count`
/// (numbered from 0) runs a contiguous block of the grid's points, each
/// point with all its seeds (they are merged), so any number of shards up
/// to the number of points divides the work.
public struct Shard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which shard, 0 ..< `count`.
    public let index: Int
    /// How many shards the sweep is split into.
    public let count: Int

    /// A shard; `index` must be below `count`.
    public init(index: Int, count: Int) throws(LatsimError) {
        guard count >= 1, index >= 0, index < count else {
            throw LatsimError(value: "\(index)/\(count)", problem: "not a shard of the sweep",
                              expected: "I/N with N at least 1 and I from 0 to N-1, e.g. 0/4")
        }
        self.index = index
        self.count = count
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
    public func points(of total: Int) -> Range<Int> {
        (index * total / count)..<((index + 1) * total / count)
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}

/// What a shard of a sweep wrote: its rows, exactly, and what the sweep
/// was, so that ``merge(_:)`` gives the result, and every output made from
/// it, byte for byte as the sweep run on one machine.
public struct SweepPart: Sendable, Codable {
    /// The format of part files.
    public static let currentVersion = 3
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
        rows = result.rows
        runs = result.runs
        wallSeconds = result.wallSeconds
    }

    /// The part as JSON (doubles written so that they read back exactly).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    /// Reads a part file.
    public static func read(_ path: String) throws(LatsimError) -> SweepPart {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LatsimError(file: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot read this file" : "no such file",
                              expected: "a part written by a sweep with a shard")
        }
        let part: SweepPart
        do { part = try JSONDecoder().decode(SweepPart.self, from: data) } catch {
            throw LatsimError(file: path, problem: "not a sweep part", expected: "a part written by a sweep with a shard")
        }
        guard part.version == currentVersion else {
            throw LatsimError(file: path, problem: "part format version \(part.version)", expected: "version \(currentVersion)")
        }
        return part
    }

    /// The sweep's result from every one of its parts (in any order): the
    /// same rows, in the same order, as one machine gives.
    public static func merge(_ parts: [(path: String, part: SweepPart)]) throws(LatsimError) -> SweepResult {
        guard let first = parts.first else {
            throw LatsimError(problem: "no part to merge", expected: "the part files of every shard of one sweep")
        }
        let count = first.part.shard.count
        var byIndex: [Int: (String, SweepPart)] = [:]
        for (path, p) in parts {
            guard p.scenario == first.part.scenario, p.axes == first.part.axes, p.seeds == first.part.seeds, p.shard.count == count,
                  p.command == first.part.command, p.settings == first.part.settings else {
                throw LatsimError(file: path, problem: "a part of another sweep than \(first.path)",
                                  expected: "the parts of one sweep (same scenario, settings, keys, values, seeds and number of shards)")
            }
            if let other = byIndex[p.shard.index] {
                throw LatsimError(file: path, problem: "shard \(p.shard) is also in \(other.0)", expected: "each shard once")
            }
            byIndex[p.shard.index] = (path, p)
        }
        let missing = (0..<count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw LatsimError(problem: "shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing",
                              expected: "the parts of all \(count) shards")
        }
        let grid = try SweepGrid(axes: first.part.axes)
        var rows: [SweepRow] = []
        var runs = 0
        var wall = 0.0
        for i in 0..<count {
            let (path, p) = byIndex[i]!
            let seeds = first.part.seeds
            guard p.rows.map(\.index) == Array(p.shard.points(of: grid.count)),
                  p.rows.allSatisfy({ seeds == 1 ? $0.seeds == nil : $0.seeds?.isWellFormed(seeds: seeds) == true }) else {
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
        return result
    }
}
