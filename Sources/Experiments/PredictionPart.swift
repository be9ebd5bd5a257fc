import Foundation
import SimKernel

/// What a shard of a prediction study (`latsim predict ... --shard I/N
/// --part FILE`) wrote: its cells' results, exactly, and what the study was,
/// so that ``merge(_:)`` gives every result of the study run on one machine
/// in the same order, and every output made from them the same bytes.
///
/// A study's cells (predictor x horizon over its motion) are independent
/// runs; shard `I` of `N` runs the `I`-th contiguous block of them
/// (``Shard/points(of:)``).
public struct PredictionPart: ShardPart {
    /// The format of part files.
    public static let currentVersion = 1
    /// This part's format version.
    public var version: Int
    /// The shard it holds.
    public var shard: Shard
    /// The study's command line, as its result records it.
    public var command: String
    /// The study's motion and its settings (rates, scenario, smoothing), as
    /// its table's heading says them: the same for every shard of one study.
    public var motion: String, setting: String
    /// The scorecards kept, by name.
    public var scorecards: [String]
    /// The number of cells of the whole study.
    public var cells: Int
    /// This shard's results, in cell order.
    public var results: [PredictionCorpus.CellResult]
    /// Wall time of the shard, seconds.
    public var wallSeconds: Double

    /// The part of shard `shard` of a study of `cells` cells.
    public init(shard: Shard, command: String, motion: String, setting: String, scorecards: [String], cells: Int,
                results: [PredictionCorpus.CellResult], wallSeconds: Double) {
        version = Self.currentVersion
        self.shard = shard
        self.command = command
        self.motion = motion
        self.setting = setting
        self.scorecards = scorecards
        self.cells = cells
        self.results = results
        self.wallSeconds = wallSeconds
    }

    /// The most cells a study has (a study is predictors x horizons, a few
    /// hundred cells).
    public static let maximumCells = 1_000_000

    /// The number of cells and of results must fit the shard.
    public func problem() -> String? {
        guard (0...Self.maximumCells).contains(cells) else {
            return "cells is \(cells); a study has 0 to \(Self.maximumCells) cells"
        }
        guard results.count == shard.points(of: cells).count else {
            return "\(results.count) results, but shard \(shard) of \(cells) cells holds \(shard.points(of: cells).count)"
        }
        return nil
    }

    public static let kind = "prediction part"
    public static let writer = "`latsim predict` with a shard"

    public func isSameJob(as other: PredictionPart) -> Bool {
        command == other.command && motion == other.motion && setting == other.setting && scorecards == other.scorecards
            && cells == other.cells && shard.count == other.shard.count
    }

    /// Every result of the study from all of its parts (in any order), in
    /// cell order, with what the study was.
    public static func merge(_ parts: [(path: String, part: PredictionPart)]) throws(LatsimError)
        -> (results: [PredictionCorpus.CellResult], first: PredictionPart) {
        let ordered = try inShardOrder(parts, job: "study")
        var results: [PredictionCorpus.CellResult] = []
        for (path, p) in ordered {
            guard p.results.count == p.shard.points(of: p.cells).count else {
                throw LatsimError(file: path, problem: "the results are not those of shard \(p.shard)", expected: "a part as `latsim predict` wrote it")
            }
            results += p.results
        }
        return (results, ordered[0].part)
    }
}
