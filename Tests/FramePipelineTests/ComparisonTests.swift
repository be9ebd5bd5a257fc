import Experiments
import FramePipeline
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
        let mean = try #require(c.rows.first { $0.figure == .touchToPhotonMean })
        #expect(mean.difference.isReal == true, "\(mean.difference)")
        #expect((mean.difference.perSeed.mean ?? 0) > 1)
        #expect(mean.a.values.count == 6 && mean.b.values.count == 6)
    }

    @Test func aSeedOnlyChangeIsNoise() throws {
        let a = try Self.side("ios9-low-latency", Self.stochastic + ["seed=1"], label: "A")
        let b = try Self.side("ios9-low-latency", Self.stochastic + ["seed=1000"], label: "B")
        let c = try Comparison.run(a: a, b: b, seeds: 10, jobs: 2)
        #expect(c.settingDifferences.map(\.key) == ["seed"])
        for f in [Figure.touchToPhotonMean, .touchToPhotonP50, .fps] {
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
        // values 1, 2, 3: mean 2, sd 1, t(2) = 4.303: 4.303 / sqrt(3)
        let s = SeedStatistic([1, 2, 3])
        #expect(s.mean == 2)
        #expect(abs(s.halfWidth95! - 4.303 / 3.0.squareRoot()) < 1e-12)
        #expect(SeedStatistic([5]).halfWidth95 == nil)
        #expect(SeedStatistic([5, 5, 5]).halfWidth95 == 0)
        #expect(SeedStatistic([nil, 4]).mean == 4)
    }
}
