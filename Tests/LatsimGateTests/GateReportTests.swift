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
    static let failing: Result<GateOutcome, Error> = Result {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gate = try PredictionGate(baseline: dir.appendingPathComponent("baseline.json").path)
        try gate.record(name: "team") { TeamPredictor() }
        return try gate.check(name: "team") { TeamPredictor(scale: 1.3) }
    }

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

    /// GitHub Actions: one `::error` per regressed entry, escaped as the
    /// workflow-command syntax requires, then a notice.
    @Test func githubAnnotations() throws {
        let outcome = try Self.failing.get()
        let lines = outcome.githubAnnotations()
        let file = "file=" + GateOutcome.githubProperty(outcome.baselineFile) + ","
        let errors = lines.dropLast().filter { $0.hasPrefix("::error \(file)title=prediction regression") }
        #expect(errors.count == min(GateOutcome.annotationLimit, outcome.regressedEntries.count) && errors.count == lines.count - 1)
        #expect(lines.last?.hasPrefix("::error \(file)title=prediction gate::FAILED: ") == true, "\(lines.last ?? "")")
        for line in lines {
            #expect(!line.contains("\n") && !line.contains("\r"))
            let properties = line.split(separator: "::")[0]
            #expect(properties.split(separator: ",").count == 2 && !properties.dropFirst("error ".count).contains(":"), "\(line)")
        }
        #expect(errors.contains { $0.contains("strokes-seed1 team @ 16.667 ms") && $0.contains("alongTrackMean") && $0.contains("%0A") })
        #expect(GateOutcome.githubData("50% a\nb") == "50%25 a%0Ab")
        #expect(GateOutcome.githubProperty("a:b,c") == "a%3Ab%2Cc")
    }
}
