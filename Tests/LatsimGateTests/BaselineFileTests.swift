import Experiments
import Foundation
import SimKernel
import Testing
import TouchModel
@testable import LatsimGate

/// A baseline is a file people edit by hand, and the gate trusts it: what
/// it holds is checked as any input is. Duplicate keys and duplicate
/// entries (the last one won, and the gate passed), values out of range (a
/// stored 1e308 made the tolerance infinite, so the gate always passed; a
/// negative rms was reported as a regression), and a lost `spec` object
/// (its settings check silently skipped) are each refused or said.
@Suite struct BaselineFileTests {
    /// A one-item spec: a 2 s stroke at one horizon.
    static let specYAML = """
    version: 1
    horizons: [1]
    corpus:
      - synthetic: strokes
        duration: 2s
    metrics:
      errorRms: 5%

    """

    static func metrics(_ errorRms: String = "0.5", along: String = "-0.25", horizon: String = "16.666667",
                        item: String = "strokes-seed1", extra: String = "") -> String {
        """
        {"horizonMs": \(horizon), "item": "\(item)", "predictor": "linearFirst", "metrics": {"alongTrackMean": \(along), "crossTrackRms": 0.1,
         "errorMax": 2, "errorP95": 1, "errorRms": \(errorRms), "jitter": 0.2, "photonP95": 9, "photonRms": 8\(extra)}}
        """
    }

    /// Reads `json` as the baseline of a gate; the error, if refused.
    static func read(_ json: String) throws -> LatsimError? {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("baseline.json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let gate = try PredictionGate(spec: try GateSpec(yaml: specYAML, file: "gate.yaml"), baseline: path)
        do { _ = try gate.readBaseline() } catch {
            #expect(error.kind == .badInput && error.file == path, "\(error)")
            #expect(error.description.count < 1_000)
            return error
        }
        return nil
    }

    @Test func aWellFormedBaselineIsRead() throws {
        #expect(try Self.read(#"{"version": 1, "entries": [\#(Self.metrics())]}"#) == nil)
        #expect(try Self.read(#"{"version": 1, "entries": [\#(Self.metrics(along: "-1000000", horizon: "0"))]}"#) == nil)
    }

    /// The same key twice in one object: JSON leaves it undefined, and the
    /// decoder took the last one.
    @Test(arguments: [
        (#"{"version": 1, "entries": [], "entries": [ENTRY]}"#, "entries"),
        (#"{"version": 1, "entries": [ENTRY2]}"#, "errorRms"),
        (#"{"version": 1, "entries": [ENTRY3]}"#, "errorRms"),
    ])
    func duplicateKeysAreRefused(_ template: String, _ key: String) throws {
        let json = template.replacingOccurrences(of: "ENTRY3", with: Self.metrics(extra: #", "error\u0052ms": 0.1"#))
            .replacingOccurrences(of: "ENTRY2", with: Self.metrics(extra: #", "errorRms": 0.1"#))
            .replacingOccurrences(of: "ENTRY", with: Self.metrics())
        let e = try #require(try Self.read(json), "accepted: \(json)")
        #expect(e.description.contains("'\(key)'") && e.description.contains("twice"), "\(e)")
    }

    /// Two entries for one item, predictor and horizon that disagree: the
    /// last one won.
    @Test func duplicateEntriesAreRefused() throws {
        let e = try #require(try Self.read(#"{"version": 1, "entries": [\#(Self.metrics("0.5")), \#(Self.metrics("900"))]}"#))
        #expect(e.description.contains("strokes-seed1") && e.description.contains("linearFirst") && e.description.contains("entries[0] and entries[1]"), "\(e)")
    }

    /// Values a score cannot take: beyond 10^6 points (the gate's sensible
    /// limit), a negative magnitude, a horizon outside 0 to 1 s.
    @Test(arguments: [
        (BaselineFileTests.metrics("1e308"), "errorRms"),
        (BaselineFileTests.metrics("-0.5"), "errorRms"),
        (BaselineFileTests.metrics(along: "-2e6"), "alongTrackMean"),
        (BaselineFileTests.metrics(horizon: "-16"), "horizonMs"),
        (BaselineFileTests.metrics(horizon: "1e300"), "horizonMs"),
    ])
    func valuesOutOfRangeAreRefused(_ entry: String, _ key: String) throws {
        let e = try #require(try Self.read(#"{"version": 1, "entries": [\#(entry)]}"#), "accepted: \(entry)")
        #expect(e.description.contains(key) && e.description.contains("expected"), "\(e)")
    }

    /// What the gate did with a stored 1e308: the tolerance overflowed to
    /// infinity and anything passed. With the value refused, the gate stops
    /// before it runs.
    @Test func aStoredHugeValueNoLongerPassesAnything() throws {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("baseline.json").path
        let gate = try PredictionGate(spec: try GateSpec(yaml: Self.specYAML, file: "gate.yaml"), baseline: path)
        try gate.record(predictors: [.latsim(.linearFirst)])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = text.replacingOccurrences(of: #""errorRms" : [0-9.e-]+"#, with: #""errorRms" : 1e308"#, options: .regularExpression)
        #expect(edited != text)
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: LatsimError.self) { try gate.check(predictors: [.latsim(.linearFirst)]) }
    }

    /// A baseline that lost its `spec` object is checked without its
    /// settings (as one written before they were recorded is); with a spec
    /// file named, the report says so.
    @Test func aBaselineWithoutItsSpecIsSaidToBeUnchecked() throws {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("baseline.json").path
        let spec = try GateSpec(yaml: Self.specYAML, file: "gate.yaml")
        try PredictionGate(spec: spec, baseline: path, specFile: "gate.yaml").record(predictors: [.latsim(.linearFirst)])
        var b = try PredictionBaseline.decode(try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(b.spec != nil)
        b.spec = nil
        try b.encodedJSON().write(to: URL(fileURLWithPath: path))
        let outcome = try PredictionGate(spec: spec, baseline: path, specFile: "gate.yaml").check(predictors: [.latsim(.linearFirst)])
        #expect(outcome.passed)
        #expect(outcome.report.contains("records no gate spec") && outcome.report.contains("gate.yaml"), "\(outcome.report)")
        // a spec made in code (the command line's default) is no spec given: nothing to say
        let plain = try PredictionGate(spec: spec, baseline: path).check(predictors: [.latsim(.linearFirst)])
        #expect(!plain.report.contains("records no gate spec"))
    }
}
