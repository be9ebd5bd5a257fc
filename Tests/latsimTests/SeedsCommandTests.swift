import Foundation
import Testing

/// `latsim run --seeds N`: every figure across seeds S...S+N-1, each seed's
/// value the figure of the run with that seed.
@Suite struct SeedsCommandTests {
    static let stochastic = ["--set", "app.handler=lognormal(6ms,0.5)", "--duration", "2s", "--stable"]

    @Test func eachSeedsValueIsThatSeedsRunAndTheIntervalIsStudents() throws {
        let o = try Latsim.run(["run", "ios9-low-latency", "--seeds", "4", "--seed", "5", "--json", "-"] + Self.stochastic)
        #expect(o.status == 0, "\(o.stderr)")
        let run = try Latsim.onlyRun(o.stdout)
        let seeds = try #require(run["seeds"] as? [String: Any])
        #expect(seeds["count"] as? Int == 4 && seeds["first"] as? Int == 5)
        let figures = try #require(seeds["figures"] as? [String: [String: Any]])
        let mean = try #require(figures["touchToPhotonMean"])
        let perSeed = try #require(mean["perSeed"] as? [Double])
        // seed 5 + k alone gives the k-th value; the summary is seed 5's
        for k in [0, 3] {
            let single = try Latsim.onlyRun(try Latsim.run(["run", "ios9-low-latency", "--seed", String(5 + k), "--json", "-"] + Self.stochastic).stdout)
            let m = ((single["latency"] as? [String: Any])?["touchToPhotonMs"] as? [String: Any])?["mean"] as? Double
            #expect(m == perSeed[k])
            if k == 0 { #expect((run["latency"] as? NSDictionary) == (single["latency"] as? NSDictionary)) }
        }
        #expect(Set(perSeed).count > 1)
        // the mean and t(0.975, 3) = 3.1824463 (tables: 3.182; StudentTTests checks the quantile) times the standard error
        let m = perSeed.reduce(0, +) / 4
        let sd = (perSeed.map { ($0 - m) * ($0 - m) }.reduce(0, +) / 3).squareRoot()
        #expect(abs((mean["mean"] as? Double ?? 0) - m) < 1e-6)
        #expect(abs((mean["halfWidth95"] as? Double ?? 0) - 3.1824463 * sd / 2) < 1e-6)
    }

    @Test func aFixedPipelineHasNoSpreadAndTheTableSaysSo() throws {
        let o = try Latsim.run(["run", "ios8", "ios9-low-latency", "--seeds", "3", "--duration", "1s"])
        #expect(o.status == 0, "\(o.stderr)")
        let p50 = try #require(o.stdout.split(separator: "\n").first { $0.hasPrefix("t2p p50 ms") })
        #expect(p50.contains("50.000 ± 0.000") && p50.contains("33.333 ± 0.000"), "\(p50)")
        #expect(o.stdout.contains("seeds 1...3"))
    }

    @Test(arguments: [
        ["--seeds", "0"], ["--seeds", "1001"], ["--seeds", "3", "--trace", "t.json"], ["--seeds", "3", "--frames", "f.csv"],
        ["--seeds", "2", "--seed", "18446744073709551615"],
    ])
    func badSeedsAreOneParagraphAndWriteNothing(_ args: [String]) throws {
        let dir = try Latsim.temporaryDirectory()
        let o = try Latsim.run(["run", "ios8", "--duration", "1s", "--json", "out.json"] + args, in: dir)
        #expect(o.status == 2, "\(o.status) \(o.stderr)")
        #expect(o.stderr.contains("seed"), "\(o.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
