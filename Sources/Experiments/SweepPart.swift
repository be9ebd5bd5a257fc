import Foundation
import FramePipeline
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

/// What a shard of a sweep wrote: its own rows, and what the sweep was in
/// a few lines (its scenario, the `--vary` arguments, seeds, command) with
/// a digest of the whole grid and settings, so that ``merge(_:)`` checks
/// that parts belong together and cover the grid, and gives the result,
/// and every output made from it, byte for byte as the sweep run on one
/// machine. A part costs its own rows, not the grid's: the axes' values are
/// rebuilt from their arguments, and only shard 0 carries the settings.
public struct SweepPart: ShardPart {
    /// The format of part files (6: the grid as its arguments and digest,
    /// rows as arrays; 5 held every axis value and the settings in every
    /// part).
    public static let currentVersion = 6
    /// This part's format version.
    public var version: Int
    /// The shard it holds.
    public var shard: Shard
    /// The sweep's scenario name.
    public var scenario: String
    /// Each varied key's argument as given (`gpu.render=1ms...20ms:0.5ms`),
    /// from which the grid is rebuilt.
    public var axes: [String]
    /// The number of grid points.
    public var points: Int
    /// Seeds per grid point.
    public var seeds: Int
    /// The sweep's command line (``SweepResult/command``).
    public var command: String
    /// The digest of the sweep (``SweepPart/digest(scenario:axes:seeds:shards:command:settings:)``):
    /// equal in every part of one sweep.
    public var digest: String
    /// The settings (``SweepResult/settings``), in shard 0 only.
    public var settings: [ResolvedSetting]?
    /// The scenario's headline figure, shown first.
    public var headline: Figure
    /// The figures this shard's points produce (the headline first); the
    /// sweep shows every figure some part shows.
    public var figures: [Figure]
    /// The shard's rows, in grid order.
    public var rows: [Row]
    /// Runs the shard made.
    public var runs: Int
    /// Wall time of the shard.
    public var wallSeconds: Double

    /// A grid point's row as a part holds it: its place and values come
    /// from the grid, its figures are in the part's ``figures`` order.
    public struct Row: Sendable, Equatable, Codable {
        public var buffering: BufferingPolicy
        public var simulatedSeconds: Double
        public var framePeriodMs: Double
        public var runs: Int
        public var invariantsHold: Bool
        /// ``SweepPart/figures``' values, in that order (null: not measured).
        public var figures: [Double?]
        public var seeds: SweepSeedFigures?

        public init(buffering: BufferingPolicy, simulatedSeconds: Double, framePeriodMs: Double, runs: Int,
                    invariantsHold: Bool, figures: [Double?], seeds: SweepSeedFigures?) {
            self.buffering = buffering
            self.simulatedSeconds = simulatedSeconds
            self.framePeriodMs = framePeriodMs
            self.runs = runs
            self.invariantsHold = invariantsHold
            self.figures = figures
            self.seeds = seeds
        }

        /// A row is written as an array, not an object: `[buffering,
        /// simulatedSeconds, framePeriodMs, runs, invariantsHold, [figures],
        /// seeds]` (seeds only with more than one seed), so a part costs
        /// its values, not their keys repeated on every row.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.unkeyedContainer()
            try c.encode(buffering)
            try c.encode(simulatedSeconds)
            try c.encode(framePeriodMs)
            try c.encode(runs)
            try c.encode(invariantsHold)
            try c.encode(figures)
            if let seeds { try c.encode(seeds) }
        }

        public init(from decoder: any Decoder) throws {
            var c = try decoder.unkeyedContainer()
            buffering = try c.decode(BufferingPolicy.self)
            simulatedSeconds = try c.decode(Double.self)
            framePeriodMs = try c.decode(Double.self)
            runs = try c.decode(Int.self)
            invariantsHold = try c.decode(Bool.self)
            figures = try c.decode([Double?].self)
            seeds = c.isAtEnd ? nil : try c.decode(SweepSeedFigures.self)
            guard c.isAtEnd else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "a row holds more than its seven fields")
            }
        }
    }

    /// The part of a sharded sweep's result.
    public init(_ result: SweepResult) throws(LatsimError) {
        guard let shard = result.shard else {
            throw LatsimError(.internal, problem: "a sweep that was not split has no part")
        }
        version = Self.currentVersion
        self.shard = shard
        scenario = result.scenario
        axes = result.axes.map(\.argument)
        points = result.grid.count
        seeds = result.seeds
        command = result.command
        digest = Self.digest(scenario: result.scenario, axes: result.axes, seeds: result.seeds, shards: shard.count,
                             command: result.command, settings: result.settings)
        settings = shard.index == 0 ? result.settings : nil
        headline = result.headline ?? result.figures.first ?? .touchToPhotonP50
        figures = result.figures
        rows = result.rows.map { r in
            Row(buffering: r.buffering, simulatedSeconds: r.simulatedSeconds, framePeriodMs: r.framePeriodMs, runs: r.runs,
                invariantsHold: r.invariantsHold, figures: result.figures.map { r.figures[$0] }, seeds: r.seeds)
        }
        runs = result.runs
        wallSeconds = result.wallSeconds
    }

    public static let kind = "sweep part"
    public static let writer = "a sweep with a shard"

    /// The digest of a sweep: 64-bit FNV-1a, in hex, of its scenario, every
    /// axis (key, unit, and its values and numbers, or a range's first
    /// value, step and scale), seeds, number of shards, command
    /// and settings, each field prefixed by its length (8 bytes), each
    /// number its 8 bytes. Parts of different sweeps
    /// (or a part edited or cut short) differ in it; it is a check against
    /// mistakes, not against forgery.
    public static func digest(scenario: String, axes: [SweepAxis], seeds: Int, shards: Int, command: String,
                              settings: [ResolvedSetting]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        // a field: its length (8 bytes, little-endian), then its bytes
        func add(bits: UInt64) {
            for k in 0..<8 { add(byte: UInt8(truncatingIfNeeded: bits >> (8 * k))) }
        }
        func add(_ text: String) {
            add(bits: UInt64(text.utf8.count))
            for byte in text.utf8 { add(byte: byte) }
        }
        add(scenario)
        add(String(axes.count))
        for a in axes {
            add(a.path)
            add(a.unit)
            add(String(a.count))
            switch a.storage {
            case .list(let values, let numbers):
                for v in values { add(v) }
                if let numbers {
                    add(bits: UInt64(numbers.count))
                    for n in numbers { add(bits: n.bitPattern) }
                } else {
                    add("-")
                }
            case let .range(first, step, _, scale):
                // a range is its first value, step and scale: a shard
                // digests them, not its grid's values
                add("range")
                add(String(first))
                add(String(step))
                add(String(scale))
            }
        }
        add(String(seeds))
        add(String(shards))
        add(command)
        add(String(settings.count))
        for s in settings {
            add(s.key)
            add(s.value)
            add(s.from)
        }
        return String(hash, radix: 16)
    }

    /// A shard runs each of its points with every seed: `runs` is its
    /// rows times the seeds, which lie within a sweep's limits. (Runs near
    /// Int.max once overflowed the merge's sum.) Each row has a value for
    /// each of the part's figures; only shard 0 holds the settings.
    public func problem() -> String? {
        guard (1...Sweep.maximumSeeds).contains(seeds) else {
            return "seeds is \(seeds); a sweep runs each point 1 to \(Sweep.maximumSeeds) times"
        }
        guard (1...Sweep.maximumPoints).contains(points), (1...2).contains(axes.count) else {
            return "a grid of \(points) points over \(axes.count) keys; a sweep has 1 to \(Sweep.maximumPoints) points over one or two keys"
        }
        let (made, overflow) = rows.count.multipliedReportingOverflow(by: seeds)
        guard !overflow, runs == made else {
            return "runs is \(runs), but \(rows.count) point\(rows.count == 1 ? "" : "s") with \(seeds) seed\(seeds == 1 ? "" : "s") each make \(made) runs"
        }
        guard rows.count == shard.points(of: points).count else {
            return "\(rows.count) rows, but shard \(shard) of \(points) points holds \(shard.points(of: points).count)"
        }
        guard Set(figures).count == figures.count, rows.allSatisfy({ $0.figures.count == figures.count }) else {
            return "a row's figures do not match the part's \(figures.count) figures"
        }
        guard rows.allSatisfy({ seeds == 1 ? $0.seeds == nil : $0.seeds?.isWellFormed(seeds: seeds) == true }) else {
            return "a row's seeds are not its \(seeds) seeds' figures"
        }
        guard (shard.index == 0) == (settings != nil) else {
            return shard.index == 0 ? "shard 0 holds no settings" : "shard \(shard) holds settings, which only shard 0 carries"
        }
        return nil
    }

    public func isSameJob(as other: SweepPart) -> Bool {
        scenario == other.scenario && axes == other.axes && points == other.points && seeds == other.seeds
            && shard.count == other.shard.count && command == other.command && digest == other.digest && headline == other.headline
    }

    /// The sweep's result from every one of its parts (in any order): the
    /// same rows, in the same order, as one machine gives.
    public static func merge(_ parts: [(path: String, part: SweepPart)]) throws(LatsimError) -> SweepResult {
        var merger = Merger()
        for (path, part) in parts { try merger.add(part, from: path) }
        return try merger.result()
    }

    /// ``merge(_:)`` of the part files at `paths`, read one at a time: only
    /// their rows are kept, so the merge's memory and time grow with the
    /// rows, not with the number of parts times the grid.
    public static func merge(reading paths: [String]) throws(LatsimError) -> SweepResult {
        var merger = Merger()
        for path in paths { try merger.add(try read(path), from: path) }
        return try merger.result()
    }

    /// Parts taken one at a time: each checked against the first (the same
    /// sweep, a shard not seen before), its rows kept by shard.
    struct Merger {
        var first: (path: String, part: SweepPart)?
        var grid: SweepGrid?
        var settings: [ResolvedSetting]?
        var paths: [Int: String] = [:]
        var rows: [Int: [SweepRow]] = [:]
        var figures: Set<Figure> = []
        var runs = 0
        var wall = 0.0

        mutating func add(_ p: SweepPart, from path: String) throws(LatsimError) {
            if let first {
                guard p.isSameJob(as: first.part) else {
                    throw LatsimError(file: path, problem: "a part of another sweep than \(first.path)",
                                      expected: "the parts of one sweep (the same command, settings and number of shards)")
                }
            } else {
                first = (path, p)
                // the grid rebuilt from its arguments must be the one the
                // digest was made of
                let axes: [SweepAxis]
                do throws(LatsimError) {
                    axes = try p.axes.map { a throws(LatsimError) in try SweepAxis(parsing: a, source: SettingSource(file: "--vary")) }
                    grid = try SweepGrid(axes: axes)
                } catch {
                    throw LatsimError(file: path, problem: "its grid does not rebuild: \(error.problem)", expected: "a part as a sweep wrote it")
                }
                guard grid!.count == p.points else {
                    throw LatsimError(file: path, problem: "its axes make \(grid!.count) points, not \(p.points)", expected: "a part as a sweep wrote it")
                }
            }
            if let other = paths[p.shard.index] {
                throw LatsimError(file: path, problem: "shard \(p.shard) is also in \(other)", expected: "each shard once")
            }
            paths[p.shard.index] = path
            if let s = p.settings {
                let axes = grid!.axes
                guard Self.digestMatches(p, axes: axes, settings: s) else {
                    throw LatsimError(file: path, problem: "its settings or grid do not match its digest \(p.digest)", expected: "a part as a sweep wrote it")
                }
                settings = s
            }
            let range = p.shard.points(of: p.points)
            rows[p.shard.index] = zip(range, p.rows).map { i, r in
                SweepRow(index: i, values: grid!.values(of: i),
                         numbers: grid!.numbers(of: i),
                         buffering: r.buffering, simulatedSeconds: r.simulatedSeconds, framePeriodMs: r.framePeriodMs,
                         runs: r.runs, invariantsHold: r.invariantsHold, figures: FigureValues(p.figures, values: r.figures),
                         seeds: r.seeds)
            }
            figures.formUnion(p.figures)
            runs += p.runs
            wall = Swift.max(wall, p.wallSeconds)
        }

        static func digestMatches(_ p: SweepPart, axes: [SweepAxis], settings: [ResolvedSetting]) -> Bool {
            SweepPart.digest(scenario: p.scenario, axes: axes, seeds: p.seeds, shards: p.shard.count, command: p.command,
                             settings: settings) == p.digest
        }

        func result() throws(LatsimError) -> SweepResult {
            guard let first, let grid else {
                throw LatsimError(problem: "no part to merge", expected: "the part files of every shard of one sweep")
            }
            let count = first.part.shard.count
            try SweepPart.checkNoneMissing(count: count) { rows[$0] != nil }
            guard let settings else {
                throw LatsimError(file: paths[0], problem: "shard 0 holds no settings", expected: "a part as a sweep wrote it")
            }
            var all: [SweepRow] = []
            all.reserveCapacity(grid.count)
            for i in 0..<count { all += rows[i]! }
            var result = SweepResult(scenario: first.part.scenario, grid: grid, seeds: first.part.seeds, rows: all, runs: runs,
                                     wallSeconds: wall, shard: nil)
            result.command = first.part.command
            result.settings = settings
            result.headline = first.part.headline
            result.figures = Figure.shown(first: [first.part.headline], where: { figures.contains($0) })
            return result
        }
    }
}
