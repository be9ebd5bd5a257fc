import Experiments
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SimKernel
import Testing
import TouchModel
@testable import LatsimGate

/// The gate's reports as a CI reads them.
@Suite(.serialized) struct GateReportTests {
    /// A failing pass: the team's predictor against its own baseline, 30% too far.
    /// With the baseline file's text, as the pass read it.
    static let failingRun: Result<(outcome: GateOutcome, baseline: String), Error> = Result {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("baseline.json").path
        let gate = try PredictionGate(baseline: file)
        try gate.record(name: "team") { TeamPredictor() }
        return (try gate.check(name: "team") { TeamPredictor(scale: 1.3) }, try String(contentsOfFile: file, encoding: .utf8))
    }
    static var failing: Result<GateOutcome, Error> { failingRun.map(\.outcome) }

    func attribute(_ e: XMLElement, _ name: String) -> String? { e.attribute(forName: name)?.stringValue }

    /// Every element and attribute the JUnit schema (Apache Ant's, as
    /// published by Windy Road) requires, in its order; one test case per
    /// item x predictor x horizon; failures where the gate found regressions.
    @Test func junitHasEveryRequiredElementAndAttribute() throws {
        let outcome = try Self.failing.get()
        let document = try XMLDocument(xmlString: outcome.junitXML(), options: [])
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { attribute($0, "name") } == PredictionCorpus.synthetic.items.map(\.name))
        var cases = 0, failures = 0
        for (index, suite) in suites.enumerated() {
            for required in ["name", "timestamp", "hostname", "tests", "failures", "errors", "time", "package", "id"] {
                let value = try #require(attribute(suite, required), "testsuite without \(required)")
                #expect(!value.trimmingCharacters(in: .whitespaces).isEmpty)
            }
            #expect(attribute(suite, "id") == String(index))
            let stamp = try #require(attribute(suite, "timestamp"))
            #expect(stamp.range(of: #"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$"#, options: .regularExpression) != nil, "\(stamp)")
            for number in ["tests", "failures", "errors"] { #expect(Int(attribute(suite, number) ?? "") != nil) }
            #expect(Decimal(string: attribute(suite, "time") ?? "") != nil)
            // children in the schema's order: properties, testcase*, system-out, system-err
            let names = (suite.children ?? []).compactMap { ($0 as? XMLElement)?.name }
            #expect(names.first == "properties" && names.suffix(2) == ["system-out", "system-err"], "\(names)")
            #expect(Set(names.dropFirst().dropLast(2)) == ["testcase"])
            let testcases = suite.elements(forName: "testcase")
            #expect(Int(attribute(suite, "tests") ?? "") == testcases.count)
            var suiteFailures = 0
            for t in testcases {
                for required in ["name", "classname", "time"] { #expect(attribute(t, required) != nil, "testcase without \(required)") }
                #expect(attribute(t, "classname") == attribute(suite, "name"))
                let results = (t.children ?? []).compactMap { $0 as? XMLElement }
                #expect(results.count <= 1 && results.allSatisfy { ["failure", "error", "skipped"].contains($0.name ?? "") })
                if let f = t.elements(forName: "failure").first {
                    suiteFailures += 1
                    #expect(attribute(f, "type") == "PredictionRegression")
                    #expect(attribute(f, "message")?.contains("regression: ") == true)
                    #expect(f.stringValue?.contains("alongTrackMean") == true && f.stringValue?.contains("REGRESSION") == true)
                }
            }
            #expect(Int(attribute(suite, "failures") ?? "") == suiteFailures)
            cases += testcases.count
            failures += suiteFailures
        }
        #expect(cases == 5 * 1 * 3)
        let regressedEntries = Set(outcome.regressions.map { "\($0.item)|\($0.horizonMs)" })
        #expect(failures == regressedEntries.count && failures > 0)
    }

    /// XML special characters in names survive.
    @Test func namesAreEscaped() {
        #expect(GateOutcome.xml("a<b & \"c\"\n") == "a&lt;b &amp; &quot;c&quot;&#10;")
        #expect(GateOutcome.xml("x\u{1}y") == "xy")
    }

    /// GitHub Actions: one `::error` per regressed entry, at most nine, each
    /// on the line of the baseline where its entry begins, escaped as
    /// GitHub's toolkit escapes workflow commands, then the summary: at
    /// most ten error annotations, the number GitHub shows for a step.
    @Test func githubAnnotations() throws {
        let outcome = try Self.failing.get()
        let lines = outcome.githubAnnotations(workspace: nil)
        let file = "file=" + GateOutcome.githubProperty(outcome.baselineFile) + ","
        let errors = lines.dropLast().filter { $0.hasPrefix("::error \(file)line=") && $0.contains(",title=prediction regression") }
        let failing = outcome.regressedEntries.count
        #expect(failing > 0 && errors.count == min(GateOutcome.annotationLimit - 1, failing) && errors.count == lines.count - 1)
        #expect(lines.count <= GateOutcome.annotationLimit)
        #expect(lines.last?.hasPrefix("::error \(file)title=prediction gate::FAILED: ") == true, "\(lines.last ?? "")")
        if failing > GateOutcome.annotationLimit - 1 {
            #expect(lines.last?.contains("(\(failing - 9) more failing entr") == true && lines.last?.contains("not annotated") == true, "\(lines.last ?? "")")
        }
        for line in lines {
            #expect(!line.contains("\n") && !line.contains("\r"))
            let properties = line.split(separator: "::")[0]
            #expect(!properties.dropFirst("error ".count).contains(":"), "\(line)")
        }
        #expect(errors.contains { $0.contains("strokes-seed1 team @ 16.667 ms") && $0.contains("alongTrackMean") && $0.contains("%0A") })

        // each line= is where that entry's object opens in the file: the
        // `{` on that line, its item, predictor and horizon in the lines
        // that follow before the next `}` at that indentation
        let text = try Self.failingRun.get().baseline.components(separatedBy: "\n")
        for e in errors {
            let lineText = try #require(e.split(separator: ",").first { $0.hasPrefix("line=") })
            let n = try #require(Int(lineText.dropFirst("line=".count)))
            let id = try #require(outcome.regressedEntries.first { e.contains(GateOutcome.githubProperty("prediction regression: \($0)")) })
            #expect(text[n - 1].trimmingCharacters(in: .whitespaces) == "{", "line \(n): \(text[n - 1])")
            let indent = text[n - 1].prefix { $0 == " " }
            let object = text[n...].prefix { !$0.hasPrefix(indent + "}") }.joined(separator: "\n")
            #expect(object.contains("\"item\" : \"\(id.item)\"") && object.contains("\"predictor\" : \"\(id.predictor)\""), "line \(n): \(object)")
            #expect(object.contains("\"horizonMs\" : \(formatDecimal(id.horizonMs, places: 6))"), "line \(n): \(object)")
        }

        // GitHub's toolkit (@actions/core, command.ts): data escapes % CR LF,
        // a property also : and ,
        #expect(GateOutcome.githubData("50% a\r\nb") == "50%25 a%0D%0Ab")
        #expect(GateOutcome.githubProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
    }

    /// `file=` is relative to GITHUB_WORKSPACE when the file lies in it
    /// (GitHub resolves annotations there), as given otherwise.
    @Test func annotationPathsAreRelativeToTheWorkspace() {
        let ws = "/home/runner/work/app/app"
        #expect(GateOutcome.githubPath("/home/runner/work/app/app/ci/b.json", workspace: ws) == "ci/b.json")
        #expect(GateOutcome.githubPath("/home/runner/work/app/app/ci/../ci/./b.json", workspace: ws + "/") == "ci/b.json")
        #expect(GateOutcome.githubPath("b.json", workspace: ws, currentDirectory: ws + "/ci") == "ci/b.json")
        #expect(GateOutcome.githubPath("ci/b.json", workspace: ws, currentDirectory: ws) == "ci/b.json")
        // outside the workspace, or no workspace: the path as given
        #expect(GateOutcome.githubPath("/tmp/b.json", workspace: ws) == "/tmp/b.json")
        #expect(GateOutcome.githubPath("/home/runner/work/app/app2/b.json", workspace: ws) == "/home/runner/work/app/app2/b.json")
        #expect(GateOutcome.githubPath("../b.json", workspace: ws, currentDirectory: ws) == "../b.json")
        #expect(GateOutcome.githubPath("/home/runner/work/app/app/b.json", workspace: nil) == "/home/runner/work/app/app/b.json")
        #expect(GateOutcome.githubPath(ws, workspace: ws) == ws)
    }
}
