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
public struct PredictionPart: Sendable, Codable {
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

    /// The part as JSON (doubles written so that they read back exactly).
    public func encoded() throws(LatsimError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            var data = try encoder.encode(self)
            data.append(0x0A)
            return data
        } catch {
            throw LatsimError(.internal, problem: "a prediction part could not be written: \(error)")
        }
    }

    /// Reads a part file.
    public static func read(_ path: String) throws(LatsimError) -> PredictionPart {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LatsimError(file: path, problem: FileManager.default.fileExists(atPath: path) ? "cannot read this file" : "no such file",
                              expected: "a part written by `latsim predict` with a shard")
        }
        let part: PredictionPart
        do { part = try JSONDecoder().decode(PredictionPart.self, from: data) } catch {
            throw LatsimError(file: path, problem: "not a prediction part", expected: "a part written by `latsim predict` with a shard")
        }
        guard part.version == currentVersion else {
            throw LatsimError(file: path, problem: "part format version \(part.version)", expected: "version \(currentVersion)")
        }
        return part
    }

    /// Every result of the study from all of its parts (in any order), in
    /// cell order, with what the study was.
    public static func merge(_ parts: [(path: String, part: PredictionPart)]) throws(LatsimError)
        -> (results: [PredictionCorpus.CellResult], first: PredictionPart) {
        guard let first = parts.first else {
            throw LatsimError(problem: "no part to merge", expected: "the part files of every shard of one study")
        }
        let count = first.part.shard.count
        var byIndex: [Int: (String, PredictionPart)] = [:]
        for (path, p) in parts {
            guard p.command == first.part.command, p.motion == first.part.motion, p.setting == first.part.setting, p.scorecards == first.part.scorecards,
                  p.cells == first.part.cells, p.shard.count == count else {
                throw LatsimError(file: path, problem: "a part of another study than \(first.path)",
                                  expected: "the parts of one `latsim predict` (same command, motion and number of shards)")
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
        var results: [PredictionCorpus.CellResult] = []
        for i in 0..<count {
            let (path, p) = byIndex[i]!
            guard p.results.count == p.shard.points(of: p.cells).count else {
                throw LatsimError(file: path, problem: "the results are not those of shard \(p.shard)", expected: "a part as `latsim predict` wrote it")
            }
            results += p.results
        }
        return (results, first.part)
    }
}
