import Foundation
import Testing

/// Values on the command line and in part files that were accepted
/// although they could not work: part files whose run counts overflow a
/// merge, a 300-digit tolerance and a gate on a figure with no better
/// direction, a timeout of 1e-300 s, a spec message offering `1h`, which
/// is no duration.
@Suite struct FlagBoundsTests {
    /// `sweep merge` of parts whose `runs` are near Int.max trapped on
    /// overflow (exit 132).
    @Test func partsWithAbsurdRunCountsAreRefused() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var parts: [String] = []
        for i in 0..<2 {
            let part = dir.appendingPathComponent("part\(i).json").path
            let o = try Latsim.run(["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--duration", "200ms", "--shard", "\(i)/2", "--part", part])
            #expect(o.status == 0, "\(o.stderr)")
            let text = try String(contentsOfFile: part, encoding: .utf8)
            #expect(text.contains("\"runs\":1,"))
            try text.replacingOccurrences(of: "\"runs\":1,", with: "\"runs\":\(Int.max),").write(toFile: part, atomically: true, encoding: .utf8)
            parts.append(part)
        }
        let o = try Latsim.run(["sweep", "merge"] + parts + ["--csv", dir.appendingPathComponent("merged.csv").path])
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.contains("part0.json") && o.stderr.contains("runs") && o.stderr.contains("expected"), "\(o.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("merged.csv").path))
    }

    /// `--fail-if-worse FIGURE:1e308%` was accepted (the gate spec caps a
    /// tolerance at 1,000,000), and a figure with no better direction
    /// (framesPresented) was accepted as a gate that can never fail.
    @Test(arguments: ["touchToPhotonP50:1e308%", "touchToPhotonP50:1000001%", "framesPresented", "framesPresented:5%",
                      "repeatedFrames:1e300", "touchToPhotonP50:100000000s"])
    func aGateThatCannotWorkIsRefused(_ gate: String) throws {
        let o = try Latsim.run(["compare", "ios8", "--b-set", "gpu.render=6ms", "--seeds", "1", "--duration", "200ms", "--fail-if-worse", gate])
        #expect(o.status == 2, "\(gate): \(o.stderr)")
        #expect(o.stderr.contains("--fail-if-worse") && o.stderr.contains("expected"), "\(o.stderr)")
        #expect(o.stdout.isEmpty)
    }

    @Test func aGateWithinTheCapStillWorks() throws {
        let o = try Latsim.run(["compare", "ios8", "--b-set", "gpu.render=6ms", "--seeds", "1", "--duration", "200ms",
                                "--fail-if-worse", "touchToPhotonP50:1000000%", "--fail-if-worse", "fps:1000000"])
        #expect(o.status == 0, "\(o.stderr)")
    }

    /// `--predictor-timeout 1e-300` was accepted and then reported "a
    /// timeout of 0 s".
    @Test(arguments: ["--predictor-timeout", "--predictor-timeout-total"])
    func aTimeoutTooShortToAnswerIsRefused(_ flag: String) throws {
        let o = try Latsim.run(["run", "ios9-prediction", "--duration", "200ms", "--predictor-command", "cat", flag, "1e-300"])
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.contains(flag) && o.stderr.contains("1e-300") && o.stderr.contains("0.001"), "\(o.stderr)")
        #expect(!o.stderr.contains(" 0 s"))
    }

    /// The gate spec's message said "up to 1h", and `1h` is not a duration.
    @Test func theSpecOffersOnlyDurationsItReads() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spec = dir.appendingPathComponent("gate.yaml")
        try "version: 1\ncorpus:\n  - synthetic: strokes\n    duration: 7200s\n".write(to: spec, atomically: true, encoding: .utf8)
        let o = try Latsim.run(["regress", "--spec", spec.path, "--baseline", dir.appendingPathComponent("b.json").path, "--update"])
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.contains("7200s") && o.stderr.contains("3600s") && !o.stderr.contains("1h"), "\(o.stderr)")
        // and the bound it names is one it takes
        try "version: 1\nhorizons: [1]\ncorpus:\n  - synthetic: flick\n    duration: 3600s\nmetrics:\n  errorRms: 5%\n".write(to: spec, atomically: true, encoding: .utf8)
        let max = try Latsim.run(["regress", "--spec", spec.path, "--baseline", dir.appendingPathComponent("b.json").path, "--update",
                                  "--predictor", "linearFirst", "--max-events", "1"])
        #expect(max.status == 2 && !max.stderr.contains("out of range") && max.stderr.contains("--max-events"), "\(max.stderr)")
    }
}
