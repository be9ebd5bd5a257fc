import Foundation
import Testing

/// `latsim predict` and `latsim regress` as a user and a CI job meet them.
@Suite struct PredictCommandTests {
    static let committedBaseline = Latsim.packageRoot.appendingPathComponent("Reports/prediction-baseline.json")
    /// Subject s01 of the $1 gesture logs (Tests/Fixtures/dollar-unistroke/README.md).
    static let dollarDirectory = Latsim.packageRoot.appendingPathComponent("Tests/Fixtures/dollar-unistroke").path

    /// A directory with one good and one malformed CSV trace.
    static func traceDirectory() throws -> URL {
        let dir = try Latsim.temporaryDirectory()
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("fast"), withIntermediateDirectories: true)
        var good = "t_ms,x,y\n"
        for i in 0..<60 { good += "\(i * 8),\(100 + i * 5),\(200 + i * 2)\n" }
        try good.write(to: dir.appendingPathComponent("fast/good.csv"), atomically: true, encoding: .utf8)
        try "t_ms,x,y\n0,10,10\n8,oops,10\n".write(to: dir.appendingPathComponent("fast/broken.csv"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func predictPrintsEveryPredictorAndHorizonWithTheBestMarked() throws {
        let o = try Latsim.run(["predict", "--duration", "3s"])
        #expect(o.status == 0, "\(o.stderr)")
        for word in ["predictor", "horizon ms", "frames", "err rms", "along mean", "cross rms", "jitter", "photon rms",
                     "photon p95 mm", "cut vs none %", "linearFirst", "linearSecond", "leastSquares", "kalman", "ref", "*"] {
            #expect(o.stdout.contains(word), "missing \(word)")
        }
        let lines = o.stdout.split(separator: "\n").filter { $0.hasPrefix("none ") || $0.hasPrefix("kalman ") }
        #expect(lines.count == 6)
        #expect(o.stdout.contains("best photon-time error at 25 ms (1.5 frames)"))
        // the twins' identical rows are said to be identical, and why
        let twin = { (p: String) in o.stdout.split(separator: "\n").filter { $0.hasPrefix(p + " ") && !$0.contains("construction") }.map { $0.dropFirst(p.count + 1) } }
        #expect(twin("linearSecond") == twin("leastSquares") && twin("leastSquares").count == 3)
        #expect(o.stdout.contains("linearSecond and leastSquares give the same rows by construction"))
        let one = try Latsim.run(["predict", "--duration", "1s", "--predictor", "leastSquares"])
        #expect(one.status == 0 && !one.stdout.contains("same rows"), "\(one.stdout)")
    }

    @Test func predictJSONHasTheSpecKeysInOrderAndNothingElseOnStdout() throws {
        let args = ["predict", "--duration", "3s", "--predictor", "kalman", "--horizon", "8ms", "--horizon", "1",
                    "--trajectory", "circle", "--json", "-"]
        let o = try Latsim.run(args)
        #expect(o.status == 0, "\(o.stderr)")
        let rows = try Latsim.rows(Data(o.stdout.utf8), kind: "predict")
        // `none` is always there, first, as the reference
        #expect(rows.map { $0["predictor"] as? String } == ["none", "kalman", "none", "kalman"])
        #expect(rows.map { $0["horizonMs"] as? Double } == [8, 8, 16.666667, 16.666667])
        for r in rows {
            for key in ["samples", "errorPx", "alongTrackMeanPx", "crossTrackRmsPx", "jitterPx", "photonErrorPx", "photonCutPercent"] {
                #expect(r.keys.contains(key), "missing \(key)")
            }
            let e = try #require(r["errorPx"] as? [String: Double])
            #expect(Set(e.keys) == ["rms", "p50", "p95", "max"])
            let p = try #require(r["photonErrorPx"] as? [String: Double])
            #expect(Set(p.keys) == ["rms", "p95"])
        }
        #expect((rows[1]["photonCutPercent"] as? Double ?? 0) > 0)
        // the same bytes again: independent of scheduling
        #expect(try Latsim.run(args).stdout == o.stdout)
    }

    @Test func aBadPredictorIsBadInput() throws {
        let o = try Latsim.run(["predict", "--predictor", "kalmann", "--duration", "1s"])
        #expect(o.status == 2)
        #expect(o.stderr.contains("--predictor: 'kalmann'") && o.stderr.contains("leastSquares"), "\(o.stderr)")
        #expect(o.stdout.isEmpty)
    }

    @Test(arguments: ["soon", "-1frames", "8 parsecs"])
    func aBadHorizonIsBadInput(_ horizon: String) throws {
        let o = try Latsim.run(["predict", "--horizon=\(horizon)", "--duration", "1s"])
        #expect(o.status == 2)
        #expect(o.stderr.contains("--horizon: '\(horizon)'"), "\(o.stderr)")
        #expect(!o.stderr.contains("Fatal"))
    }

    @Test func aMalformedDatasetFileStopsUnlessSkipped() throws {
        let dir = try Self.traceDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stop = try Latsim.run(["predict", "--dataset", dir.path, "--predictor", "linearFirst"])
        #expect(stop.status == 2)
        #expect(stop.stderr.contains(dir.path + "/fast/broken.csv:3"), "\(stop.stderr)")
        #expect(stop.stdout.isEmpty)
        let skip = try Latsim.run(["predict", "--dataset", dir.path, "--include", "fast", "--skip-bad", "--predictor", "linearFirst"])
        #expect(skip.status == 0, "\(skip.stderr)")
        #expect(skip.stderr.contains("skipped " + dir.path + "/fast/broken.csv:3"), "\(skip.stderr)")
        #expect(skip.stdout.contains("1 trace file, 1 skipped"))
        let none = try Latsim.run(["predict", "--dataset", dir.path, "--include", "slow"])
        #expect(none.status == 2 && none.stderr.contains("folder named slow"), "\(none.stderr)")
        let both = try Latsim.run(["predict", "--dataset", dir.path, "--trajectory", "circle"])
        #expect(both.status == 2 && both.stderr.contains("not both"), "\(both.status) \(both.stderr)")
    }

    @Test func regressPassesOnTheCommittedBaselineAndFailsOnATamperedOne() throws {
        let pass = try Latsim.run(["regress", "--baseline", Self.committedBaseline.path])
        #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
        #expect(pass.stdout.contains("compared 75 entries"))

        // pretend the baseline was better than today: a regression
        let text = try String(contentsOf: Self.committedBaseline, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let at = try #require(lines.firstIndex { $0.contains("\"photonRms\"") })
        var tampered = lines
        let number = try #require(Double(lines[at].split(separator: ":")[1].trimmingCharacters(in: .whitespaces.union(.init(charactersIn: ",")))))
        tampered[at] = lines[at].replacingOccurrences(of: formatted(number), with: formatted(number / 2))
        #expect(tampered[at] != lines[at])
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("baseline.json")
        try tampered.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let fail = try Latsim.run(["regress", "--baseline", file.path])
        #expect(fail.status == 1, "\(fail.stdout)\(fail.stderr)")
        #expect(fail.stdout.contains("photonRms") && fail.stdout.contains("REGRESSION") && fail.stdout.contains("+100"))
        // a wider tolerance does not hide a doubling
        #expect(try Latsim.run(["regress", "--baseline", file.path, "--tolerance", "50"]).status == 1)

        // --update rewrites it atomically, after which it passes
        let update = try Latsim.run(["regress", "--baseline", file.path, "--update"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try Data(contentsOf: file) == Data(contentsOf: Self.committedBaseline))
        #expect(try Latsim.run(["regress", "--baseline", file.path]).status == 0)
    }

    @Test func aMissingOrCorruptBaselineIsBadInputThatSuggestsUpdate() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("baseline.json")
        let missing = try Latsim.run(["regress", "--baseline", file.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such baseline file") && missing.stderr.contains("--update"), "\(missing.stderr)")
        try "{\"version\": 1, \"entries\": [".write(to: file, atomically: true, encoding: .utf8)
        let corrupt = try Latsim.run(["regress", "--baseline", file.path])
        #expect(corrupt.status == 2)
        #expect(corrupt.stderr.contains("not a prediction baseline") && corrupt.stderr.contains("--update"), "\(corrupt.stderr)")
        try "{\"version\": 1}".write(to: file, atomically: true, encoding: .utf8)
        let incomplete = try Latsim.run(["regress", "--baseline", file.path])
        #expect(incomplete.status == 2 && incomplete.stderr.contains("missing key 'entries'"), "\(incomplete.stderr)")
    }

    @Test
    func predictPlaysTheDollarDatasetFilteredByFolder() throws {
        let o = try Latsim.run(["predict", "--dataset", Self.dollarDirectory + "/s01", "--include", "fast",
                                "--predictor", "linearFirst", "--horizon", "1", "--json", "-"])
        #expect(o.status == 0, "\(o.stderr)")
        let rows = try Latsim.rows(Data(o.stdout.utf8), kind: "predict")
        #expect(rows.count == 2)
        #expect((rows[0]["samples"] as? Int ?? 0) > 1000)
        #expect((rows[1]["photonCutPercent"] as? Double ?? 0) > 20)
    }

    /// The number as the baseline writes it.
    func formatted(_ x: Double) -> String { "\(x)" }
}
