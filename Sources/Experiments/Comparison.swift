import Foundation
import FramePipeline
import Measures
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
        /// The figure its scenario exists for (``Figure/headline(of:_:)``).
        public var headline: Figure

        /// A side from its parts; without a headline, its app model's.
        public init(name: String, settings: Settings, configuration: PipelineConfiguration, headline: Figure? = nil) {
            self.name = name
            self.settings = settings
            self.configuration = configuration
            self.headline = headline ?? Figure.headline(for: configuration)
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
        /// False for a figure counted in display frames when the two sides'
        /// displays run at different rates: a frame is a different length
        /// on each side, so the counts are not compared (``Verdict/notComparable``).
        public var comparable: Bool

        /// A row from its parts.
        public init(figure: Figure, a: SeedStatistic, b: SeedStatistic, difference: SeedDifference, comparable: Bool = true) {
            self.figure = figure
            self.a = a
            self.b = b
            self.difference = difference
            self.comparable = comparable
        }

        /// What the difference means, given which way the figure is better.
        public var verdict: Verdict { comparable ? Verdict(figure, a: a, b: b, difference) : .notComparable }
    }

    /// What a compared figure's difference means.
    public enum Verdict: String, Sendable, CaseIterable {
        /// Beyond the noise, and better on B.
        case better
        /// Beyond the noise, and worse on B.
        case worse
        /// Beyond the noise, for a figure with no better direction.
        case differs
        /// Within the noise the seeds show.
        case noise
        /// No difference at the figure's shown precision.
        case same
        /// One seed of a configuration that varies with the seed: nothing
        /// tells the seed's variation from a difference.
        case oneSeed = "one seed"
        /// Not measured on both sides.
        case none = "-"
        /// Counted in display frames of two different display rates: each
        /// side's count is of its own frames, so no difference is taken (the
        /// same latency in time, the figure in ms, is compared).
        case notComparable = "not comparable"

        /// The verdict of `difference` for `figure`.
        public init(_ figure: Figure, a: SeedStatistic, b: SeedStatistic, _ difference: SeedDifference) {
            let d = difference.perSeed
            guard let mean = d.mean else { self = .none; return }
            let shown = 0.5 * pow(10, -Double(figure.places))
            if abs(mean) < shown && (d.halfWidth95 ?? 0) < shown { self = .same; return }
            switch difference.isReal {
            case nil: self = .oneSeed
            case false?: self = .noise
            case true?:
                switch figure.better {
                case .lower: self = mean < 0 ? .better : .worse
                case .higher: self = mean > 0 ? .better : .worse
                case .towardZero:
                    // the side whose mean is nearer 0
                    guard let ma = a.mean, let mb = b.mean, abs(mb) != abs(ma) else { self = .differs; return }
                    self = abs(mb) < abs(ma) ? .better : .worse
                case .none: self = .differs
                }
            }
        }
    }

    /// Side A.
    public var a: Side
    /// Side B.
    public var b: Side
    /// Runs per side (seeds S, S+1, ... on each side).
    public var seeds: Int
    /// The settings that differ.
    public var settingDifferences: [SettingDifference]
    /// Every figure either side produces: A's headline, B's, then the
    /// catalogue's order (``Figure/shown(for:first:)``).
    public var rows: [Row]

    /// True when both sides' displays run at one rate: only then is a
    /// figure counted in display frames compared, and a difference in time
    /// also said in frames.
    public var sameDisplayRate: Bool { Self.sameDisplayRate(a.configuration, b.configuration) }

    /// True when `a` and `b` run their displays at one rate.
    public static func sameDisplayRate(_ a: PipelineConfiguration, _ b: PipelineConfiguration) -> Bool {
        a.displayHz == b.displayHz
    }

    /// True when `figure` can be compared between `a` and `b`: any figure
    /// of two sides at one display rate; a figure counted in display frames
    /// (``FigureUnit/frames``) of two rates is not comparable.
    public static func comparable(_ figure: Figure, _ a: PipelineConfiguration, _ b: PipelineConfiguration) -> Bool {
        figure.unit != .frames || sameDisplayRate(a, b)
    }

    /// Runs both sides `seeds` times each, seed k of A beside seed k of B,
    /// on up to `jobs` threads (the result is the same at any number).
    public static func run(a: Side, b: Side, seeds: Int, jobs: Int,
                           maxEvents: Double = WorkEstimate.defaultEventLimit) throws(LatsimError) -> Comparison {
        let runs = try SeedRuns.run([a.configuration, b.configuration], seeds: seeds, jobs: jobs, maxEvents: maxEvents)
        let aRuns = runs[0], bRuns = runs[1]
        let figures = Figure.shown(for: [a.configuration, b.configuration], first: [a.headline, b.headline])
        let rows = figures.map { f -> Row in
            let sa = SeedStatistic(aRuns.map(f.value)), sb = SeedStatistic(bRuns.map(f.value))
            return Row(figure: f, a: sa, b: sb, difference: SeedDifference(a: sa, b: sb),
                       comparable: comparable(f, a.configuration, b.configuration))
        }
        return Comparison(a: a, b: b, seeds: seeds, settingDifferences: SettingDifference.between(a.settings, b.settings),
                          rows: rows)
    }
}

/// A figure a comparison gates on (`--fail-if-worse FIGURE[:TOLERANCE]`):
/// the comparison fails when B is worse than A beyond the seeds' noise and
/// by more than the tolerance.
public struct WorseGate: Sendable, Equatable {
    /// How much worse is still accepted.
    public enum Tolerance: Sendable, Equatable {
        /// A share of A's mean, percent (`5%`).
        case percent(Double)
        /// An amount in the figure's unit (`2ms`, `0.5`).
        case absolute(Double)
    }

    /// The gated figure.
    public var figure: Figure
    /// The tolerance (0 by default: any real worsening fails).
    public var tolerance: Tolerance

    /// A gate from its parts.
    public init(figure: Figure, tolerance: Tolerance = .absolute(0)) {
        self.figure = figure
        self.tolerance = tolerance
    }

    /// Parses `FIGURE[:TOLERANCE]`: a figure's name (Docs/Figures.md), then
    /// a percentage (`5%`) or an amount in the figure's unit (`2ms` for a
    /// figure in ms: a duration such as `500us` or `0.002s`; a plain number
    /// for the others).
    public init(parsing text: String) throws(LatsimError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        guard let f = Figure(rawValue: name) else {
            throw LatsimError(value: name, problem: "names no figure",
                              expected: "FIGURE[:TOLERANCE] with a figure of Docs/Figures.md, such as tapToPhotonP50 or touchToPhotonP99:5%")
        }
        figure = f
        // a figure with no better direction is never worse: its gate could never fail
        guard f.better != .none else {
            throw LatsimError(value: name, problem: "has no better direction (a change in it is neither better nor worse), so a gate on it could never fail",
                              expected: "a figure with a better direction (Docs/Figures.md: lower, higher or toward zero), such as touchToPhotonP99 or fps")
        }
        guard parts.count == 2 else { tolerance = .absolute(0); return }
        let t = parts[1]
        let most = formatDecimal(Self.maximumTolerance, places: 0)
        func bad(_ expected: String) -> LatsimError {
            LatsimError(value: text, problem: "the tolerance '\(LatsimError.shortened(t))' of \(name) is not \(expected)", expected: "FIGURE:5% or FIGURE:\(f.unit == .milliseconds ? "2ms" : "2")")
        }
        if t.hasSuffix("%") {
            guard let p = NumberSyntax.double(String(t.dropLast())), p.isFinite, p >= 0, p <= Self.maximumTolerance else {
                throw bad("a percentage from 0 to \(most)")
            }
            tolerance = .percent(p)
        } else if f.unit == .milliseconds {
            guard t.contains(where: \.isLetter), !t.hasSuffix("frames"), !t.hasSuffix("frame"),
                  let ns = try? DurationSyntax.parse(t, framePeriod: Rational(1)), ns >= 0, Double(ns) / 1e6 <= Self.maximumTolerance else {
                throw bad("a duration with its unit (2ms, 500us) up to \(most) ms, or a percentage")
            }
            tolerance = .absolute(Double(ns) / 1e6)
        } else {
            guard let x = NumberSyntax.double(t), x.isFinite, x >= 0, x <= Self.maximumTolerance else {
                throw bad("a number in the figure's unit (\(f.unit.rawValue)) from 0 to \(most), or a percentage")
            }
            tolerance = .absolute(x)
        }
    }

    /// The largest tolerance, as a percentage or an amount in the figure's
    /// unit: 10^6, as a gate spec's tolerance (a 300-digit tolerance was
    /// once accepted and printed).
    public static let maximumTolerance = 1_000_000.0

    /// The tolerance as an amount, for a row whose A side has `aMean`.
    public func allowance(aMean: Double?) -> Double {
        switch tolerance {
        case .absolute(let x): return x
        case .percent(let p): return abs(aMean ?? 0) * p / 100
        }
    }

    /// True when `row` fails the gate: B worse than A beyond the noise (with
    /// one seed, any worsening) and by more than the tolerance. A figure
    /// neither side measured passes (there is nothing to compare).
    public func fails(_ row: Comparison.Row) -> Bool {
        guard let d = row.difference.perSeed.mean else { return false }
        let v = row.verdict
        guard v == .worse || v == .oneSeed else { return false }
        let worsening: Double
        switch figure.better {
        case .lower: worsening = d
        case .higher: worsening = -d
        case .towardZero:
            guard let a = row.a.mean, let b = row.b.mean else { return false }
            worsening = abs(b) - abs(a)
        case .none: return false
        }
        return worsening > 0 && worsening > allowance(aMean: row.a.mean)
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
