import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Your own predictor on the command line (`--predictor-command`), the
/// platform scorecards, and the CI gate as a CI job meets it.
@Suite(.serialized) struct GateCommandTests {
    static let python = "python3 '" + Latsim.packageRoot.appendingPathComponent("Examples/predictors/linear.py").path + "'"
    static func found(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }
    static let hasPython = found("python3")
    static let committedBaseline = Latsim.packageRoot.appendingPathComponent("Reports/prediction-baseline.json").path

    /// The C example, built with `cc` as its header says; the Python one
    /// when there is no compiler.
    static let fastExample: String = {
        let source = Latsim.packageRoot.appendingPathComponent("Examples/predictors/linear.c").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-cli-linear-\(getpid())").path
        guard found("cc"), (try? Latsim.shell("cc -O2 -ffp-contract=off -o '\(out)' '\(source)'")) == 0 else { return python }
        return "'\(out)'"
    }()


    /// The gate on the example predictor: record its baseline (Python),
    /// pass it (C: the same arithmetic, so the same figures), then fail on a
    /// variant that overshoots by 30%, with the regression named in the
    /// text, the JUnit file and the GitHub annotations.
    @Test(.enabled(if: GateCommandTests.hasPython, "python3 is not on PATH; skipped"))
    func theGateOnTheExamplePredictor() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let baseline = dir.appendingPathComponent("baseline.json").path, junit = dir.appendingPathComponent("gate.xml").path
        let record = try Latsim.run(["regress", "--baseline", baseline, "--update", "--predictor-command", Self.python])
        #expect(record.status == 0, "\(record.stderr)")
        #expect(record.stdout.contains("wrote 15 entries (5 items x 1 predictor x 3 horizons)"), "\(record.stdout)")

        let pass = try Latsim.run(["regress", "--baseline", baseline, "--predictor-command", Self.fastExample, "--junit", junit])
        #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
        #expect(pass.stdout.contains("compared 15 entries") && pass.stdout.contains("passed: 15 entries compared, no gated metric beyond its tolerance"), "\(pass.stdout)")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).components(separatedBy: "<testcase ").count - 1 == 15)

        let fail = try Latsim.run(["regress", "--baseline", baseline, "--predictor-command", Self.fastExample + " --overshoot 1.3",
                                   "--junit", junit, "--format", "github"])
        #expect(fail.status == 1, "\(fail.stdout)\(fail.stderr)")
        #expect(fail.stdout.contains("example-linear") && fail.stdout.contains("alongTrackMean") && fail.stdout.contains("REGRESSION"))
        // on the line of the baseline where the entry begins: "entries" is
        // the first key, its first entry on line 3; entries are sorted by
        // item, predictor, horizon and take 15 lines each (`{`, horizonMs,
        // item, `"metrics" : {`, 8 figures, `},`, predictor, `},`); items
        // circle-seed1, flick-seed1 and random-seed1 (3 horizons each) come
        // first, then strokes-seed1 at 8.333 and 16.667 ms: entry 10 from 0,
        // on line 3 + 10·15 = 153
        let annotation = try #require(fail.stdout.components(separatedBy: "\n").first { $0.contains(",title=prediction regression%3A strokes-seed1 example-linear @ 16.667 ms::") }, "\(fail.stdout)")
        #expect(annotation.hasPrefix("::error file=\(GateOutcomeText.property(baseline)),line=153,title="), "\(annotation)")
        let baselineLines = try String(contentsOfFile: baseline, encoding: .utf8).components(separatedBy: "\n")
        #expect(baselineLines[152].trimmingCharacters(in: .whitespaces) == "{" && baselineLines[154].contains("strokes-seed1"), "\(baselineLines[152...154])")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<failure type=\"PredictionRegression\" message=\"regression: ") && xml.contains("alongTrackMean"))
    }

    /// A predictor speaking the protocol in /bin/sh that answers every
    /// request with (1e308, 1e308): every error it makes is out of range.
    static func hugePredictor(in dir: URL) throws -> String {
        let script = dir.appendingPathComponent("huge.sh")
        try #"""
        while IFS= read -r line; do
          case "$line" in
            *'"type":"hello"'*) echo '{"type":"hello","protocol":"latsim-predictor","version":1,"name":"huge"}' ;;
            *'"type":"predict"'*) id=${line#*'"id":'}; id=${id%%,*}; echo "{\"type\":\"prediction\",\"id\":$id,\"x\":1e308,\"y\":1e308}" ;;
          esac
        done
        """#.write(to: script, atomically: true, encoding: .utf8)
        return "sh '\(script.path)'"
    }

    /// A predictor answering 1e308 fails the gate (never "better"), is not
    /// recorded, and `predict` says its figures are unusable.
    @Test func aPredictorAnswering1e308FailsTheGate() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let huge = try Self.hugePredictor(in: dir)
        let junit = dir.appendingPathComponent("gate.xml").path
        let check = try Latsim.run(["regress", "--baseline", Self.committedBaseline, "--predictor-command", huge,
                                    "--junit", junit, "--format", "github"])
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("unusable figures") && check.stdout.contains("huge") && check.stdout.contains("not finite"), "\(check.stdout)")
        #expect(!check.stdout.contains("better"), "\(check.stdout)")
        #expect(check.stdout.contains("title=unusable prediction%3A strokes-seed1 huge @ 8.333 ms::"), "\(check.stdout)")
        // 15 runs fail, and the 75 entries of latsim's predictors in the
        // baseline are missing from a run of this one predictor: 90 failing
        // entries; GitHub shows 10 error annotations a step: nine entries,
        // then the summary counting the 81 left out
        #expect(check.stdout.components(separatedBy: "::error ").count - 1 == 10, "nine annotations and the summary: \(check.stdout)")
        #expect(check.stdout.contains("title=prediction gate::FAILED: ") && check.stdout.contains("(81 more failing entries not annotated"), "\(check.stdout)")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("type=\"UnusablePrediction\""))
        let baseline = dir.appendingPathComponent("b.json").path
        let record = try Latsim.run(["regress", "--baseline", baseline, "--update", "--predictor-command", huge])
        #expect(record.status == 1 && record.stdout.contains("nothing written"), "\(record.stdout)\(record.stderr)")
        #expect(!FileManager.default.fileExists(atPath: baseline))
        let predict = try Latsim.run(["predict", "--duration", "2s", "--horizon", "1", "--predictor-command", huge])
        #expect(predict.status == 0 && predict.stderr.contains("huge @ 16.667 ms on strokes: unusable figures"), "\(predict.stderr)")
    }

    /// A gate that cannot fail is bad input, and says so to GitHub too.
    @Test func emptyAndUnrelatedBaselinesAreBadInput() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("b.json")
        try #"{"version": 1, "entries": []}"#.write(to: file, atomically: true, encoding: .utf8)
        let empty = try Latsim.run(["regress", "--baseline", file.path, "--format", "github"])
        #expect(empty.status == 2 && empty.stderr.contains("no entries") && empty.stderr.contains("--update"), "\(empty.stderr)")
        #expect(empty.stdout.hasPrefix("::error file=\(GateOutcomeText.property(file.path)),title=latsim regress::"), "\(empty.stdout)")
        let metrics = #"{"alongTrackMean": 0, "crossTrackRms": 0, "errorMax": 1, "errorP95": 1, "errorRms": 1, "jitter": 0, "photonP95": 1, "photonRms": 1}"#
        try #"{"version": 1, "entries": [{"item": "elsewhere", "predictor": "kalman", "horizonMs": 16.666667, "metrics": \#(metrics)}]}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let unrelated = try Latsim.run(["regress", "--baseline", file.path, "--predictor", "kalman"])
        #expect(unrelated.status == 2 && unrelated.stderr.contains("compares nothing") && unrelated.stderr.contains("elsewhere"), "\(unrelated.stderr)")
    }

    /// `predict` scores the example beside latsim's linearFirst: the same
    /// figures under its own name; `run` reports it by that name.
    @Test(.enabled(if: GateCommandTests.hasPython, "python3 is not on PATH; skipped"))
    func predictAndRunTakeAPredictorCommand() throws {
        let o = try Latsim.run(["predict", "--duration", "5s", "--horizon", "1", "--predictor", "linearFirst",
                                "--predictor-command", Self.python, "--json", "-"])
        #expect(o.status == 0, "\(o.stderr)")
        let rows = try Latsim.rows(Data(o.stdout.utf8), kind: "predict")
        #expect(rows.map { $0["predictor"] as? String } == ["none", "linearFirst", "example-linear"])
        var a = rows[1], b = rows[2]
        a["predictor"] = nil
        b["predictor"] = nil
        #expect(NSDictionary(dictionary: a).isEqual(to: b), "\(a)\n\(b)")

        let r = try Latsim.run(["run", "ios9-prediction", "--duration", "2s", "--stable", "--json", "-", "--predictor-command", Self.python])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try Latsim.onlyRun(r.stdout)
        let prediction = try #require(summary["prediction"] as? [String: Any])
        #expect(prediction["predictor"] as? String == "example-linear")
        let plain = try Latsim.onlyRun(try Latsim.run(["run", "ios9-prediction", "--duration", "2s", "--stable", "--json", "-"]).stdout)
        var p = try #require(plain["prediction"] as? [String: Any]), q = prediction
        p["predictor"] = nil
        q["predictor"] = nil
        #expect(NSDictionary(dictionary: p).isEqual(to: q))
    }

    @Test func aCommandThatFailsStopsTheRunWithItsStatus() throws {
        let missing = try Latsim.run(["predict", "--duration", "1s", "--predictor-command", "no-such-predictor-command-here"])
        // the command is the user's input: bad input, said before anything runs
        #expect(missing.status == 2 && missing.stderr.contains("cannot start: no program 'no-such-predictor-command-here' on PATH"), "\(missing.stderr)")
        let garbage = try Latsim.run(["run", "ios9-prediction", "--duration", "1s", "--predictor-command", "echo garbage"])
        #expect(garbage.status == 2 && garbage.stderr.contains("predictor 'echo garbage':1: 'garbage'"), "\(garbage.stderr)")
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let hang = try Latsim.run(["regress", "--baseline", dir.appendingPathComponent("b.json").path, "--update",
                                   "--predictor-command", "sleep 30", "--predictor-timeout", "0.2"])
        #expect(hang.status == 2 && hang.stderr.contains("timeout of 0.2 s"), "\(hang.stderr)")
        let badTimeout = try Latsim.run(["predict", "--predictor-command", "x", "--predictor-timeout", "soon"])
        #expect(badTimeout.status == 2 && badTimeout.stderr.contains("--predictor-timeout: 'soon'"), "\(badTimeout.stderr)")
    }

    /// Interrupted while a predictor hangs: latsim exits 130 and the
    /// predictor's process group is gone.
    @Test func anInterruptStopsThePredictor() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = dir.appendingPathComponent("pid").path
        let p = Process()
        p.executableURL = Latsim.binary
        p.arguments = ["predict", "--duration", "1s", "--predictor-command", "echo $$ > '\(marker)'; exec sleep 300"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        var waited = 0
        while (try? String(contentsOfFile: marker, encoding: .utf8))?.hasSuffix("\n") != true && p.isRunning && waited < 1000 {
            usleep(10_000)
            waited += 1
        }
        let pid = try #require(pid_t((try String(contentsOfFile: marker, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        #expect(p.terminationStatus == 130)
        var gone = false
        for _ in 0..<200 where !gone {
            let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
            gone = kill(pid, 0) != 0 || stat?.contains(") Z ") == true
            if !gone { usleep(10_000) }
        }
        #expect(gone, "the predictor \(pid) outlived latsim")
    }

    /// The platform scorecards in the JSON, under their names, and as tables.
    @Test func scorecardsInJSONAndTables() throws {
        let only = try Latsim.run(["predict", "--duration", "3s", "--predictor", "androidx.kalman,chromium.kalman(heuristics,directionCutOff)",
                                   "--scorecard", "chromium,android", "--json", "-"])
        #expect(only.status == 0, "\(only.stderr)")
        let rows = try Latsim.rows(Data(only.stdout.utf8), kind: "predict")
        #expect(rows.count == 9)
        #expect(rows.prefix(3).map { $0["predictor"] as? String } == ["none", "androidx.kalman", "chromium.kalman(heuristics,directionCutOff)"])
        for r in rows {
            #expect(r["samples"] == nil && r["photonErrorPx"] == nil, "latsim's figures were not asked for")
            let chromium = try #require(r["chromium"] as? [String: Any])
            #expect(chromium["histogramRange"] as? [String: Int] == ["min": 1, "max": 1000, "buckets": 50])
            for h in ["OverPrediction", "UnderPrediction", "PredictionScore", "FramePredictionScore", "PredictionJitter", "VisualJitter"] {
                #expect(chromium[h] is [String: Any], "missing \(h)")
            }
            let android = try #require(r["android"] as? [String: Any])
            #expect((android["buckets"] as? [[String: Any]])?.compactMap { $0["deltaTimeBucketMs"] as? Int } == [4, 8, 12, 16, 20])
        }
        let table = try Latsim.run(["predict", "--duration", "3s", "--predictor", "kalman", "--scorecard", "latsim,chromium,android"])
        #expect(table.status == 0)
        for words in ["photon rms", "Chromium's UMA prediction metrics", "frame score mean", "Android's MotionPredictor metrics", "si along rmse"] {
            #expect(table.stdout.contains(words), "missing \(words)")
        }
        let bad = try Latsim.run(["predict", "--scorecard", "ios"])
        #expect(bad.status == 2 && bad.stderr.contains("--scorecard: 'ios'") && bad.stderr.contains("chromium"), "\(bad.stderr)")
        let smoothing = try Latsim.run(["run", "ios9-prediction", "--set", "app.prediction.predictor=androidx.kalman", "--set", "app.prediction.smoothing=oneEuro"])
        #expect(smoothing.status == 2 && smoothing.stderr.contains("has no 1€ filter"), "\(smoothing.stderr)")
    }
}

extension Latsim {
    /// Runs `command` with /bin/sh; its exit status.
    static func shell(_ command: String) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}

/// How a GitHub workflow command escapes a property (`:` and `,`), as the
/// gate writes it.
enum GateOutcomeText {
    static func property(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
