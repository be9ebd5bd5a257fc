import Foundation
import Testing

/// The example gate a team copies (Examples/ci/gate.yaml) catches a
/// predictor that aims too far: recorded with the example predictor, it
/// passes that predictor unchanged and fails (exit 1) the same predictor
/// aiming 30% too far, on the metrics that judge the prediction itself,
/// while photonRms alone calls the overshoot better.
@Suite(.serialized) struct ExampleGateTests {
    static let spec = Latsim.packageRoot.appendingPathComponent("Examples/ci/gate.yaml").path

    /// The lines of a regress table with REGRESSION or better, as
    /// (item, horizon, metric, verdict).
    static func changes(_ report: String) -> [(item: String, horizon: String, metric: String, verdict: String)] {
        report.split(separator: "\n").compactMap { line in
            let c = CompareAcrossRatesTests.cells(line)
            guard c.count == 9, ["REGRESSION", "better", "changed"].contains(c[8]) else { return nil }
            return (c[0], c[2], c[3], c[8])
        }
    }

    @Test(.enabled(if: GateCommandTests.hasPython || GateCommandTests.found("cc"), "neither cc nor python3; skipped"))
    func theExampleGateFailsAnOvershootingPredictor() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseline = dir.appendingPathComponent("baseline.json").path
        let predictor = GateCommandTests.fastExample
        let record = try Latsim.run(["regress", "--spec", Self.spec, "--baseline", baseline, "--update", "--predictor-command", predictor])
        #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
        #expect(record.stdout.contains("wrote 6 entries (3 items x 1 predictor x 2 horizons)"), "\(record.stdout)")

        let pass = try Latsim.run(["regress", "--spec", Self.spec, "--baseline", baseline, "--predictor-command", predictor])
        #expect(pass.status == 0 && pass.stdout.contains("passed: 6 entries compared"), "\(pass.stdout)\(pass.stderr)")

        let fail = try Latsim.run(["regress", "--spec", Self.spec, "--baseline", baseline, "--predictor-command", predictor + " --overshoot 1.3"])
        #expect(fail.status == 1, "\(fail.stdout)\(fail.stderr)")
        #expect(fail.stdout.contains("gated: errorRms 5%, alongTrackMean 0.25pt, jitter 10%, photonRms 5%"), "\(fail.stdout)")
        let changes = Self.changes(fail.stdout)
        // every entry (3 items x 2 horizons) regresses on the error at the
        // horizon and on the bias ahead of the pen ...
        for metric in ["errorRms", "alongTrackMean"] {
            #expect(changes.filter { $0.metric == metric && $0.verdict == "REGRESSION" }.count == 6, "\(metric): \(fail.stdout)")
        }
        // ... while the error at photon time alone calls it better: the
        // horizon is shorter than the pipeline's latency, so aiming further
        // lands nearer the pen when the photons leave
        let photon = changes.filter { $0.metric == "photonRms" }
        #expect(photon.count == 6 && photon.allSatisfy { $0.verdict == "better" }, "\(fail.stdout)")

        // the table's every column has its header: the rule and the header
        // have as many columns as a row
        let lines = fail.stdout.split(separator: "\n")
        let rule = try #require(lines.firstIndex { $0.hasPrefix("-----") })
        let header = CompareAcrossRatesTests.cells(lines[rule - 1]), dashes = CompareAcrossRatesTests.cells(lines[rule])
        #expect(header == ["item", "predictor", "horizon ms", "metric", "old", "new", "change %", "tolerance", "verdict"], "\(header)")
        #expect(dashes.count == header.count && CompareAcrossRatesTests.cells(lines[rule + 1]).count == header.count)
    }
}
