import Experiments
import FramePipeline
import Measures
import Scenarios
import SimKernel
import Testing

/// `latsim compare`: a real change is flagged, a seed-only one is not.
@Suite struct ComparisonTests {
    static func side(_ name: String, _ overrides: [String], label: String) throws -> Comparison.Side {
        let s = try Scenario.named(name).settings(with: try cli(overrides, duration: "4s"))
        return Comparison.Side(name: label, settings: s, configuration: try s.configuration())
    }

    static let stochastic = ["app.handler=lognormal(4ms,0.6)", "gpu.render=lognormal(4ms,0.5)"]

    @Test func aRealChangeIsBeyondTheNoise() throws {
        let a = try Self.side("ios9-coalescing-120hz", Self.stochastic, label: "A")
        let b = try Self.side("ios9-coalescing-120hz", Self.stochastic + ["gpu.render=lognormal(9ms,0.5)"], label: "B")
        let c = try Comparison.run(a: a, b: b, seeds: 6, jobs: 2)
        #expect(c.settingDifferences.map(\.key) == ["gpu.render"])
        let mean = try #require(c.rows.first { $0.figure == .named("touchToPhotonMean") })
        #expect(mean.difference.isReal == true, "\(mean.difference)")
        #expect((mean.difference.perSeed.mean ?? 0) > 1)
        #expect(mean.a.values.count == 6 && mean.b.values.count == 6)
    }

    @Test func aSeedOnlyChangeIsNoise() throws {
        let a = try Self.side("ios9-low-latency", Self.stochastic + ["seed=1"], label: "A")
        let b = try Self.side("ios9-low-latency", Self.stochastic + ["seed=1000"], label: "B")
        let c = try Comparison.run(a: a, b: b, seeds: 10, jobs: 2)
        #expect(c.settingDifferences.map(\.key) == ["seed"])
        for f in ["touchToPhotonMean", "touchToPhotonP50", "fps"].compactMap(Figure.init(rawValue:)) {
            let row = try #require(c.rows.first { $0.figure == f })
            #expect(row.difference.isReal != true, "\(f): \(row.difference)")
        }
    }

    @Test func identicalFixedRunsAreTheSame() throws {
        let a = try Self.side("ios8", [], label: "A"), b = try Self.side("ios8", [], label: "B")
        let c = try Comparison.run(a: a, b: b, seeds: 3, jobs: 1)
        #expect(c.settingDifferences.isEmpty)
        #expect(c.rows.allSatisfy { $0.difference.perSeed.mean == 0 && $0.difference.isReal == false })
    }

    @Test func theIntervalIsStudentsT() {
        // values 1, 2, 3: mean 2, sd 1; with 2 degrees of freedom t's
        // quantile has a closed form, t = (2p − 1)·sqrt(2 / (4p(1 − p))),
        // at p = 0.975: 0.95·sqrt(2/0.0975) = 4.3026527 (tables: 4.303);
        // the half-width is t / sqrt(3)
        let s = SeedStatistic([1, 2, 3])
        #expect(s.mean == 2)
        let t2 = 0.95 * (2 / (4 * 0.975 * 0.025)).squareRoot()
        #expect(abs(s.halfWidth95! - t2 / 3.0.squareRoot()) < 1e-12)
        #expect(SeedStatistic([5]).halfWidth95 == nil)
        #expect(SeedStatistic([5, 5, 5]).halfWidth95 == 0)
        #expect(SeedStatistic([nil, 4]).mean == 4)
    }
}

/// Verdicts follow each figure's better direction; `--fail-if-worse` parses
/// its tolerance in the figure's unit and fails only beyond noise and tolerance.
@Suite struct VerdictAndGateTests {
    static func row(_ f: Figure, _ a: [Double?], _ b: [Double?]) -> Comparison.Row {
        let sa = SeedStatistic(a), sb = SeedStatistic(b)
        return Comparison.Row(figure: f, a: sa, b: sb, difference: SeedDifference(a: sa, b: sb))
    }

    @Test func theVerdictFollowsTheBetterDirection() {
        #expect(Self.row(.named("touchToPhotonP50"), [50, 50], [40, 40]).verdict == .better)
        #expect(Self.row(.named("touchToPhotonP50"), [40, 40], [50, 50]).verdict == .worse)
        #expect(Self.row(.named("fps"), [60, 60], [50, 50]).verdict == .worse)
        #expect(Self.row(.named("fps"), [50, 50], [60, 60]).verdict == .better)
        // a signed error: nearer 0 is better, whichever its sign
        #expect(Self.row(.named("predictionAlongTrackMean"), [-2, -2], [1, 1]).verdict == .better)
        #expect(Self.row(.named("predictionAlongTrackMean"), [1, 1], [-2, -2]).verdict == .worse)
        #expect(Self.row(.named("framesPresented"), [500, 500], [400, 400]).verdict == .differs)
        // differences 1, -1, 0: an interval about 0: noise; every difference 0: same
        #expect(Self.row(.named("touchToPhotonMean"), [1, 2, 3], [2, 1, 3]).verdict == .noise)
        #expect(Self.row(.named("touchToPhotonMean"), [1, 2, 3], [2.5, 1, 3]).verdict == .noise)
        #expect(Self.row(.named("touchToPhotonMean"), [1, 2, 3], [1, 2, 3]).verdict == .same)
        #expect(Self.row(.named("touchToPhotonP50"), [50], [60]).verdict == .oneSeed)
        #expect(Self.row(.named("tapToPhotonP50"), [nil, nil], [nil, nil]).verdict == .none)
    }

    @Test func aGateParsesItsToleranceInTheFiguresUnit() throws {
        #expect(try WorseGate(parsing: "tapToPhotonP50") == WorseGate(figure: .tapToPhotonP50))
        #expect(try WorseGate(parsing: "tapToPhotonP50:5%").tolerance == .percent(5))
        #expect(try WorseGate(parsing: "tapToPhotonP50:2ms").tolerance == .absolute(2))
        #expect(try WorseGate(parsing: "tapToPhotonP50:500us").tolerance == .absolute(0.5))
        #expect(try WorseGate(parsing: "fps:1.5").tolerance == .absolute(1.5))
        for bad in ["tapToPhoton", "tapToPhotonP50:5", "tapToPhotonP50:2frames", "fps:2ms", "fps:-1", "hitches:x%"] {
            #expect(throws: LatsimError.self, "\(bad)") { try WorseGate(parsing: bad) }
        }
    }

    @Test func aGateFailsOnlyBeyondNoiseAndTolerance() throws {
        let worse = Self.row(.named("touchToPhotonP50"), [40, 41, 40], [50, 51, 50]) // +10 ms, real
        #expect(try WorseGate(parsing: "touchToPhotonP50").fails(worse))
        #expect(try WorseGate(parsing: "touchToPhotonP50:9ms").fails(worse))
        #expect(try !WorseGate(parsing: "touchToPhotonP50:10ms").fails(worse))
        // 10 ms of A's 40.33 ms mean is 24.8%
        #expect(try WorseGate(parsing: "touchToPhotonP50:24%").fails(worse))
        #expect(try !WorseGate(parsing: "touchToPhotonP50:25%").fails(worse))
        #expect(try !WorseGate(parsing: "touchToPhotonP50").fails(Self.row(.named("touchToPhotonP50"), [50, 51, 50], [40, 41, 40])))
        #expect(try !WorseGate(parsing: "touchToPhotonP50").fails(Self.row(.named("touchToPhotonP50"), [1, 2, 3], [2.5, 1, 3])))
        #expect(try WorseGate(parsing: "fps").fails(Self.row(.named("fps"), [60, 60], [50, 50])))
        #expect(try !WorseGate(parsing: "fps").fails(Self.row(.named("fps"), [50, 50], [60, 60])))
    }
}

private extension Figure {
    /// A declared figure by name.
    static func named(_ name: String) -> Figure { Figure(rawValue: name)! }
}
