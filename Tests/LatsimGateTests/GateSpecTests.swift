import Experiments
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SimKernel
import Testing
import TouchModel
@testable import LatsimGate

/// The gate spec a team writes, and the reports a CI reads.
@Suite(.serialized) struct GateSpecTests {
    /// The commented spec `latsim regress init` writes is the default spec,
    /// key for key: its metric names and directions are PredictionMetric's.
    @Test func theTemplateIsTheDefaultSpec() throws {
        let read = try GateSpec(yaml: GateSpec.template, file: "template.yaml")
        let defaults = GateSpec()
        #expect(read.settings(of: try read.makeCorpus().corpus) == defaults.settings(of: try defaults.makeCorpus().corpus))
        #expect(read.rules == defaults.rules)
        #expect(read.rules.map(\.metric) == PredictionMetric.allCases)
        for m in PredictionMetric.allCases {
            #expect(GateSpec.template.contains("  \(m.rawValue): {tolerance: 2%"), "\(m) is not in the template")
        }
        #expect(try read.makeCorpus().corpus.items.map(\.name) == PredictionCorpus.synthetic.items.map(\.name))
    }

    /// A 240 Hz stylus on a 120 Hz display, gated on two metrics.
    @Test func aStylusSpecOnTwoMetrics() throws {
        let spec = try GateSpec(yaml: """
            scanHz: 240
            displayHz: 120
            tool: stylus
            horizons: [8ms, 1frame]
            corpus:
              - synthetic: strokes
                seeds: [3]
                duration: 5s
            metrics:
              photonRms: 5%
              jitter: {tolerance: 0.05pt, direction: both}
            """, file: "s.yaml")
        let corpus = try spec.makeCorpus().corpus
        #expect(corpus.scanHz == Rational(240) && corpus.displayHz == Rational(120) && corpus.tool == .pencil)
        #expect(corpus.items.map(\.name) == ["strokes-seed3"])
        #expect(spec.rules == [MetricRule(.jitter, tolerance: .points(0.05), fails: .both), MetricRule(.photonRms, tolerance: .percent(5))])
        let c = try corpus.configuration(for: .init(item: 0, predictor: .latsim(.linearFirst), horizon: spec.horizons[1]))
        #expect(c.horizon == 8_333_333 && c.pencilScanHz == Rational(240) && c.tool == .pencil, "\(c.horizon) \(c.pencilScanHz) \(c.tool)")
        // the percentage floor and an absolute tolerance
        #expect(spec.rules[1].threshold(old: 0.1) == 0.01 && spec.rules[1].threshold(old: 10) == 0.5)
        #expect(spec.rules[0].threshold(old: 10) == 0.05)
    }

    /// Every bad value names the file, line, key and value and what was
    /// expected.
    @Test func badSpecValuesNameTheirPlace() throws {
        let cases: [(yaml: String, line: Int, key: String, value: String, words: String)] = [
            ("scanHz: fast", 1, "scanHz", "fast", "a rate in Hz"),
            ("displayHz: 0", 1, "displayHz", "0", "a rate in Hz"),
            ("tool: pen", 1, "tool", "pen", "finger or stylus"),
            ("scanHz: 120\nhorizons: [1frame, soon]", 2, "horizons", "soon", "display frames"),
            ("horizons: [1frame, 1frame]", 1, "horizons", "1frame", "each horizon once"),
            ("horizons: 10s", 1, "horizons", "10s", "a horizon up to"),
            ("smoothing: kalman", 1, "smoothing", "kalman", "none or oneEuro"),
            ("colour: red", 1, "colour", "colour", "one of version, scenario"),
            ("version: 2", 1, "version", "2", "1"),
            ("metrics:\n  photonRms: 5", 2, "metrics.photonRms", "5", "such as 5%"),
            ("metrics:\n  photonRms: five%", 2, "metrics.photonRms", "five%", "such as 5%"),
            ("metrics:\n  wobble: 5%", 2, "metrics", "wobble", "photonRms"),
            ("metrics:\n  jitter: {tolerance: 5%, direction: larger}", 2, "metrics.jitter.direction", "larger", "smaller"),
            ("metrics:\n  alongTrackMean: {tolerance: 5%, direction: smaller}", 2, "metrics.alongTrackMean.direction", "smaller", "closerToZero"),
            ("metrics:\n  jitter: {direction: smaller}", 2, "metrics.jitter.tolerance", "missing", "such as 5%"),
            ("metrics: {}", 1, "metrics", "{}", "at least one of"),
            ("floor: lots", 1, "floor", "lots", "points"),
            ("corpus:\n  - synthetic: spiral", 2, "corpus[0].synthetic", "spiral", "strokes"),
            ("corpus:\n  - synthetic: strokes\n    seeds: [1, x]", 3, "corpus[0].seeds", "x", "a whole number"),
            ("corpus:\n  - synthetic: strokes\n    duration: -1s", 3, "corpus[0].duration", "-1s", "duration"),
            ("corpus:\n  - dataset: /no/such/dir", 2, "corpus[0].dataset", "/no/such/dir", "a directory"),
            ("corpus:\n  - synthetic: circle\n    include: [fast]", 3, "corpus[0].include", "fast", "dataset"),
            ("corpus: []", 1, "corpus", "a list", "a list of items"),
            ("scenario: no-such-scenario", 1, "scenario", "no-such-scenario", "built-in scenario"),
            ("device: no-such-phone", 1, "device", "no-such-phone", "device"),
        ]
        for c in cases {
            do {
                _ = try GateSpec(yaml: c.yaml, file: "spec.yaml")
                Issue.record("accepted: \(c.yaml)")
            } catch {
                #expect(error.kind == .badInput && error.file == "spec.yaml", "\(c.yaml): \(error)")
                #expect(error.line == c.line, "\(c.yaml): line \(String(describing: error.line)) in \(error)")
                #expect(error.key == c.key || (c.key == "scenario" || c.key == "device"), "\(c.yaml): key in \(error)")
                #expect(error.description.contains(c.value) && error.description.contains(c.words), "\(c.yaml): \(error)")
            }
        }
        do { _ = try GateSpec(yaml: "scanHz: [1,", file: "spec.yaml"); Issue.record("malformed YAML read") } catch {
            #expect(error.file == "spec.yaml" && error.line != nil && error.problem.contains("malformed YAML"), "\(error)")
        }
        do { _ = try GateSpec.load(file: "/no/such/spec.yaml"); Issue.record("a missing spec read") } catch {
            #expect(error.problem.contains("no such file") && error.expected?.contains("gate spec") == true, "\(error)")
        }
    }

    /// A baseline made under one spec is refused under another, naming
    /// the keys that differ; the entries a check no longer scores are
    /// reported as missing (not as test cases), and fail the gate.
    @Test func otherSettingsAreRefusedAndMissingEntriesFail() throws {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("baseline.json").path
        var spec = try GateSpec(yaml: "corpus:\n  - synthetic: strokes\n    seeds: [1]\n    duration: 4s\nhorizons: 1", file: "s.yaml")
        try PredictionGate(spec: spec, baseline: file).record(predictors: [.latsim(.linearFirst), .latsim(.kalman)], own: nil)
        let stored = try PredictionBaseline.decode(Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(stored.spec?["horizons"] == "1frames" && stored.spec?["scanHz"] == "120" && stored.entries.count == 2)

        spec.scanHz = Rational(240)
        spec.tool = .stylus
        do {
            _ = try PredictionGate(spec: spec, baseline: file).check(predictors: [.latsim(.linearFirst)], own: nil)
            Issue.record("a baseline of another spec was compared")
        } catch {
            #expect(error.kind == .badInput && error.file == file, "\(error)")
            #expect(error.problem.contains("scanHz (baseline: 120, now: 240); tool (baseline: finger, now: stylus)"), "\(error)")
        }
        // the tolerances are not settings: a check may change them
        spec.scanHz = nil
        spec.tool = .finger
        spec.rules = [MetricRule(.photonRms, tolerance: .percent(50))]
        let outcome = try PredictionGate(spec: spec, baseline: file).check(predictors: [.latsim(.linearFirst)], own: nil)
        #expect(!outcome.passed && outcome.missingEntries.map(\.predictor) == ["kalman"] && outcome.regressedMetrics.isEmpty)
        #expect(outcome.verdict == "FAILED: 1 baseline entry missing from this run", "\(outcome.verdict)")
        let xml = outcome.junitXML()
        let root = try #require(try XMLDocument(xmlString: xml, options: []).rootElement())
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["linearFirst @ 16.667 ms", "baseline entries missing from this run"])
        #expect(cases.last?.attribute(forName: "time")?.stringValue == "0.000")
        #expect(xml.contains("type=\"MissingEntries\"") && xml.contains("strokes-seed1 kalman @ 16.667 ms"))
        #expect(outcome.markdownSummary.contains("| missing from this run | 1 |") && outcome.markdownSummary.contains("### Missing from this run"))
        // the missing entry is annotated at its line of the baseline (the
        // file sorts entries by item, predictor, horizon: kalman's is the
        // first, on line 3 after `{` and `"entries" : [`), then the summary
        let lines = outcome.githubAnnotations(workspace: nil)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("::error file=\(GateOutcome.githubProperty(file)),line=3,title=baseline entry missing%3A strokes-seed1 kalman @ 16.667 ms::") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("::error file=") == true && lines.last?.contains("1 baseline entry missing") == true, "\(lines)")
    }

    /// Counts name their unit, singular or plural.
    @Test func countsAreSingularOrPlural() {
        #expect(GateOutcome.count(1, "entry", "entries") == "1 entry" && GateOutcome.count(2, "entry", "entries") == "2 entries")
        #expect(GateOutcome.count(1, "metric") == "1 metric" && GateOutcome.count(0, "metric") == "0 metrics")
    }

    /// A gate that cannot run still leaves a JUnit file with one error case.
    @Test func junitForAnErrorHasOneErrorCase() throws {
        let e = LatsimError(file: "b.json", problem: "the baseline has no entries <&>", expected: "a baseline")
        let xml = GateOutcome.junitXML(error: e, baselineFile: "b.json")
        let root = try #require(try XMLDocument(xmlString: xml, options: []).rootElement())
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 1 && suites[0].attribute(forName: "errors")?.stringValue == "1" && suites[0].attribute(forName: "tests")?.stringValue == "1")
        let error = try #require(suites[0].elements(forName: "testcase").first?.elements(forName: "error").first)
        #expect(error.attribute(forName: "type")?.stringValue == "BadInput" && error.stringValue?.contains("no entries <&>") == true)
    }
}
