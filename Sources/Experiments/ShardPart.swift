import Foundation
import SimKernel

/// A part file written by one shard of a job split over machines (a sweep,
/// a prediction study): what every kind of part shares, from writing it to
/// putting the parts of one job back in shard order.
public protocol ShardPart: Codable, Sendable {
    /// The format of this kind of part file.
    static var currentVersion: Int { get }
    /// What the part is, as an error names it: `sweep part`.
    static var kind: String { get }
    /// Who writes it, as an error names it: `a sweep with a shard`.
    static var writer: String { get }
    /// This part's format version.
    var version: Int { get }
    /// The shard it holds.
    var shard: Shard { get }
    /// True when `other` is a part of the same job (every setting equal,
    /// the number of shards included).
    func isSameJob(as other: Self) -> Bool
    /// What is wrong with a decoded part's own fields (beyond its shard,
    /// which decoding checks), or nil.
    func problem() -> String?
}

extension ShardPart {
    /// Refuses a merge missing some of its `count` shards (`present` says
    /// which are there), naming them up to ten, then counting: a message
    /// stays one short paragraph.
    static func checkNoneMissing(count: Int, _ present: (Int) -> Bool) throws(LatsimError) {
        let missing = (0..<count).filter { !present($0) }
        guard missing.isEmpty else {
            var listed = missing.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", ")
            if missing.count > 10 { listed += " and \(missing.count - 10) more" }
            throw LatsimError(problem: "shard\(missing.count == 1 ? "" : "s") \(listed) missing",
                              expected: "the parts of all \(count) shards")
        }
    }

    /// No more to check by default.
    public func problem() -> String? { nil }

    /// The part as JSON (doubles written so that they read back exactly).
    public func encoded() throws(LatsimError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            var data = try encoder.encode(self)
            data.append(0x0A)
            return data
        } catch {
            throw LatsimError(.internal, problem: "a \(Self.kind) could not be written: \(error)")
        }
    }

    /// Reads a part file.
    public static func read(_ path: String) throws(LatsimError) -> Self {
        let data = try InputFiles.read(path, expected: "a part written by \(writer)")
        return try decode(data, file: path)
    }

    /// Decodes a part file's bytes, checking what it holds: the shard (an
    /// index below a count of 1 to ``Shard/maximumCount``), the version and
    /// ``problem()``. `file` names it in errors.
    public static func decode(_ data: Data, file path: String) throws(LatsimError) -> Self {
        // the version first: a part of another format is named as such,
        // not as a malformed part of this one
        if let v = try? JSONDecoder().decode(PartVersion.self, from: data), v.version != currentVersion {
            throw LatsimError(file: path, problem: "part format version \(v.version)",
                              expected: "version \(currentVersion) (run the shards again with this latsim)")
        }
        let part: Self
        do { part = try JSONDecoder().decode(Self.self, from: data) } catch let e as LatsimError {
            throw LatsimError(file: path, value: e.value, problem: "shard: " + e.problem, expected: e.expected)
        } catch {
            throw LatsimError(file: path, problem: "not a \(kind)", expected: "a part written by \(writer)")
        }
        guard part.version == currentVersion else {
            throw LatsimError(file: path, problem: "part format version \(part.version)", expected: "version \(currentVersion)")
        }
        if let problem = part.problem() {
            throw LatsimError(file: path, problem: problem, expected: "a part written by \(writer)")
        }
        return part
    }

    /// The parts of one job, each shard once and none missing, in shard
    /// order; `job` names the job in errors (`sweep`, `study`).
    public static func inShardOrder(_ parts: [(path: String, part: Self)], job: String) throws(LatsimError) -> [(path: String, part: Self)] {
        guard let first = parts.first else {
            throw LatsimError(problem: "no part to merge", expected: "the part files of every shard of one \(job)")
        }
        let count = first.part.shard.count
        var byIndex: [Int: (path: String, part: Self)] = [:]
        for (path, p) in parts {
            guard p.isSameJob(as: first.part) else {
                throw LatsimError(file: path, problem: "a part of another \(job) than \(first.path)",
                                  expected: "the parts of one \(job) (the same command, settings and number of shards)")
            }
            if let other = byIndex[p.shard.index] {
                throw LatsimError(file: path, problem: "shard \(p.shard) is also in \(other.path)", expected: "each shard once")
            }
            byIndex[p.shard.index] = (path, p)
        }
        try checkNoneMissing(count: count) { byIndex[$0] != nil }
        return (0..<count).map { byIndex[$0]! }
    }
}

/// A part file's format version, read before the rest.
struct PartVersion: Decodable {
    var version: Int
}
