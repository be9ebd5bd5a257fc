import Foundation
import Testing

/// `$GITHUB_STEP_SUMMARY` is an output like any other: refused when it is
/// one of the command's inputs or another output, or names a folder or a
/// path in a missing folder; appended to, never replaced. And a command
/// refused for its outputs writes nothing at all, not even the error
/// reports (JUnit, summary) it writes when the gate itself cannot run.
@Suite struct StepSummaryTests {
    /// A one-item gate spec (a 2 s stroke, one horizon, one metric) and its
    /// baseline recorded with latsim's linearFirst: a gate that runs in a
    /// fraction of a second.
    static func gate(in dir: URL) throws -> (spec: String, baseline: String) {
        let spec = dir.appendingPathComponent("gate.yaml").path, baseline = dir.appendingPathComponent("baseline.json").path
        try """
        version: 1
        horizons: [1]
        corpus:
          - synthetic: strokes
            duration: 2s
        metrics:
          errorRms: 5%

        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let record = try Latsim.run(["regress", "--spec", spec, "--baseline", baseline, "--update", "--predictor", "linearFirst"])
        #expect(record.status == 0, "\(record.stderr)")
        return (spec, baseline)
    }

    static func environment(summary: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["GITHUB_STEP_SUMMARY"] = summary
        return env
    }

    static func check(_ g: (spec: String, baseline: String), _ extra: [String] = [], summary: String) throws -> Latsim.Output {
        try Latsim.run(["regress", "--spec", g.spec, "--baseline", g.baseline, "--predictor", "linearFirst"] + extra,
                       environment: environment(summary: summary))
    }

    /// The step summary pointing at the baseline or the gate spec was
    /// appended to (exit 0), and every later run failed on the damaged file.
    @Test func aStepSummaryThatIsAnInputIsRefused() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try Self.gate(in: dir)
        for input in [g.baseline, g.spec] {
            let before = try Data(contentsOf: URL(fileURLWithPath: input))
            let o = try Self.check(g, summary: input)
            #expect(o.status == 2, "\(input): \(o.stderr)")
            #expect(o.stderr.contains("GITHUB_STEP_SUMMARY") && o.stderr.contains("input"), "\(o.stderr)")
            #expect(o.stderr.split(separator: "\n").count == 1, "one paragraph: \(o.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before, "\(input) was changed")
        }
        // recording: the baseline is the command's output, so the summary may not be it either
        let before = try Data(contentsOf: URL(fileURLWithPath: g.baseline))
        let o = try Self.check(g, ["--update"], summary: g.baseline)
        #expect(o.status == 2 && o.stderr.contains("GITHUB_STEP_SUMMARY"), "\(o.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: g.baseline)) == before)
        // the gate still passes on the untouched files
        #expect(try Self.check(g, summary: "").status == 0)
    }

    /// A folder, or a file in a missing folder, was silently ignored.
    @Test func aStepSummaryFolderOrMissingFolderIsRefused() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try Self.gate(in: dir)
        let missing = dir.appendingPathComponent("no-such-folder")
        for summary in [dir.path, missing.appendingPathComponent("summary.md").path] {
            let o = try Self.check(g, summary: summary)
            #expect(o.status == 2, "\(summary): \(o.stderr)")
            #expect(o.stderr.contains("GITHUB_STEP_SUMMARY") && o.stderr.contains(summary), "\(o.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: missing.path), "a folder was made")
    }

    /// What a step summary is for: each step appends; a missing file in an
    /// existing folder is created, as `>>` would.
    @Test func theStepSummaryIsAppendedTo() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try Self.gate(in: dir)
        let summary = dir.appendingPathComponent("summary.md").path
        try "## An earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        #expect(try Self.check(g, summary: summary).status == 0)
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("## An earlier step\n") && text.contains("Prediction gate"), "\(text)")
        let fresh = dir.appendingPathComponent("fresh.md").path
        #expect(try Self.check(g, summary: fresh).status == 0)
        #expect(try String(contentsOfFile: fresh, encoding: .utf8).contains("Prediction gate"))
    }

    /// `--junit x.xml --summary x.xml` was refused, and then the error
    /// summary was written to x.xml; the same for any refused output.
    @Test func aCommandRefusedForItsOutputsWritesNoReport() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try Self.gate(in: dir)
        let x = dir.appendingPathComponent("x.xml").path
        var o = try Self.check(g, ["--junit", x, "--summary", x], summary: "")
        #expect(o.status == 2 && o.stderr.contains("same destination"), "\(o.stderr)")
        #expect(!FileManager.default.fileExists(atPath: x), "the refused output was written")

        try "kept\n".write(toFile: x, atomically: true, encoding: .utf8)
        o = try Self.check(g, ["--junit", x, "--summary", x], summary: "")
        #expect(o.status == 2)
        #expect(try String(contentsOfFile: x, encoding: .utf8) == "kept\n")

        // the step summary is one of the outputs: naming the JUnit file is refused
        o = try Self.check(g, ["--junit", x], summary: x)
        #expect(o.status == 2 && o.stderr.contains("GITHUB_STEP_SUMMARY"), "\(o.stderr)")
        #expect(try String(contentsOfFile: x, encoding: .utf8) == "kept\n")

        // a summary that cannot be written (a folder): the JUnit file is not written either
        let junit = dir.appendingPathComponent("gate.xml").path
        o = try Self.check(g, ["--junit", junit, "--summary", dir.path], summary: "")
        #expect(o.status == 2, "\(o.stderr)")
        #expect(!FileManager.default.fileExists(atPath: junit), "an error report was written for a refused command")
    }

    /// The reports the gate writes when it cannot run (a broken baseline)
    /// are kept: the outputs themselves were fine.
    @Test func aGateThatCannotRunStillReportsIt() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try Self.gate(in: dir)
        try "{".write(toFile: g.baseline, atomically: true, encoding: .utf8)
        let junit = dir.appendingPathComponent("gate.xml").path, summary = dir.appendingPathComponent("summary.md").path
        try Data().write(to: URL(fileURLWithPath: summary))
        let o = try Self.check(g, ["--junit", junit], summary: summary)
        #expect(o.status == 2, "\(o.stderr)")
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains("<error"))
        #expect(try String(contentsOfFile: summary, encoding: .utf8).contains("ERROR"))
    }
}
