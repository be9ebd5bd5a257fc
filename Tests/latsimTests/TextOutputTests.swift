import Foundation
import Testing

/// Text output as a user reads it: every column of a table has a header,
/// and a predictor command that cannot start is said once, with exit 2,
/// and nothing runs after it.
@Suite struct TextOutputTests {
    /// `latsim table`: the header names every column the rule and the rows
    /// have (0.10.0 left the last, ok or DIFFERS, unheaded).
    @Test func theTalksTableHeadsEveryColumn() throws {
        let o = try Latsim.run(["table", "--duration", "1s"])
        #expect(o.status == 0, "\(o.stderr)")
        let lines = o.stdout.split(separator: "\n")
        #expect(lines.count >= 3)
        let header = CompareAcrossRatesTests.cells(lines[0]), rule = CompareAcrossRatesTests.cells(lines[1])
        #expect(header.last == "verdict" && header.count == rule.count, "\(header) / \(rule)")
        // every row: the scenario, the talk's words (spaces inside), 5 numbers, the verdict
        for line in lines.dropFirst(2) {
            #expect(["ok", "DIFFERS"].contains(CompareAcrossRatesTests.cells(line).last ?? ""), "\(line)")
        }
    }

    /// A program that does not exist: one paragraph naming the command, exit
    /// 2 (the command is the user's input), no shell message, no progress.
    @Test func aMissingPredictorProgramIsSaidOnceAndNothingRuns() throws {
        let baseline = Latsim.packageRoot.appendingPathComponent("Reports/prediction-baseline.json").path
        let o = try Latsim.run(["regress", "--baseline", baseline, "--predictor-command", "no-such-predictor-here --flag"])
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.components(separatedBy: "no program 'no-such-predictor-here' on PATH").count == 2, "\(o.stderr)")
        #expect(!o.stderr.contains("not found") && !o.stderr.contains("runs done"), "\(o.stderr)")
        #expect(o.stdout.isEmpty, "\(o.stdout)")
        // a file named by its path, missing, likewise (predict and run too)
        for command in [["predict", "--predictor-command", "./no-such-predictor"],
                        ["run", "ios9-prediction", "--predictor-command", "./no-such-predictor"]] {
            let r = try Latsim.run(command)
            #expect(r.status == 2 && r.stderr.contains("'./no-such-predictor' does not exist") && !r.stderr.contains("not found"), "\(r.stderr)")
        }
    }

    /// A command the shell interprets (here `cd . && PROGRAM`) is known
    /// missing only when it runs: the first run goes alone, so the shell
    /// says so once, latsim once, with exit 2, and no other run starts.
    @Test func aCommandTheShellCannotStartFailsOnce() throws {
        let baseline = Latsim.packageRoot.appendingPathComponent("Reports/prediction-baseline.json").path
        let o = try Latsim.run(["regress", "--baseline", baseline, "--predictor-command", "cd . && no-such-predictor-here"])
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stderr.components(separatedBy: "no-such-predictor-here: ").count == 2, "the shell's message once: \(o.stderr)")
        #expect(o.stderr.components(separatedBy: "could not be started").count == 2 && !o.stderr.contains("runs done"), "\(o.stderr)")
    }
}
