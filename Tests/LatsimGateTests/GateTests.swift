import Experiments
import Foundation
import SimKernel
import Testing
import TouchModel
@testable import LatsimGate

/// A team's own predictor as it would be written in their package:
/// latsim's linearFirst, aiming `scale` times as far as asked, and silent
/// until `patience` samples of a stroke have been seen.
struct TeamPredictor: TouchPredictor {
    var inner = BuiltinPredictor(kind: .linearFirst)
    var scale = 1.0
    var patience = 0
    var seen = 0
    mutating func reset() { inner.reset(); seen = 0 }
    mutating func observe(_ sample: TouchSample) { inner.observe(sample); seen += 1 }
    mutating func predict(horizon: SimTime) -> TouchPoint? {
        seen < patience ? nil : inner.predict(horizon: SimTime((Double(horizon) * scale).rounded()))
    }
}

enum GateFixtures {
    static func directory() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    /// A dataset of three short strokes (6 samples each, 40 ms) in a folder
    /// `short`: shorter than any synthetic stroke (a flick lasts 120 ms or more).
    static func shortStrokes(in dir: URL) throws -> String {
        let folder = dir.appendingPathComponent("data/short")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for k in 0..<3 {
            var csv = "t_ms,x,y\n"
            for i in 0..<6 { csv += "\(i * 8),\(100 + k * 50 + i * 4),\(300 + i * 3)\n" }
            try csv.write(to: folder.appendingPathComponent("stroke\(k).csv"), atomically: true, encoding: .utf8)
        }
        return dir.appendingPathComponent("data").path
    }
}

@Suite(.serialized) struct GateTests {
    /// Record, pass, then fail on a variant that overshoots by 30%: the
    /// library gate of a Swift package.
    @Test func aSwiftPredictorPassesItsBaselineAndAnOvershootFails() throws {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gate = try PredictionGate(baseline: dir.appendingPathComponent("baseline.json").path)
        let recorded = try gate.record(name: "team") { TeamPredictor() }
        #expect(recorded.recorded && recorded.passed && recorded.current.entries.count == 5 * 3)
        #expect(recorded.report.contains("wrote 15 entries (5 items x 1 predictor x 3 horizons)"))

        let same = try gate.check(name: "team") { TeamPredictor() }
        #expect(same.passed && same.exitStatus == 0 && same.compared == 15 && same.changes.isEmpty, "\(same.report)")

        let over = try gate.check(name: "team") { TeamPredictor(scale: 1.3) }
        #expect(!over.passed && over.exitStatus == 1)
        // aiming 30% too far puts the prediction ahead of the finger: along-track error grows
        #expect(over.regressions.contains { $0.metric == "alongTrackMean" && $0.predictor == "team" && $0.item == "strokes-seed1" })
        #expect(over.report.contains("REGRESSION") && over.report.contains("FAILED: \(over.regressedEntries.count) of 15 entries regressed (\(over.regressedMetrics.count) metric"), "\(over.report)")
        // latsim's linearFirst is the same predictor under another name, which the team's baseline does not hold
        #expect(throws: LatsimError.self) { try gate.check(predictors: [.latsim(.linearFirst)]) }
    }

    /// A gate that could not fail is bad input: an empty baseline, or one
    /// whose entries this run does not score.
    @Test func aBaselineThatComparesNothingIsBadInput() throws {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("baseline.json")
        try #"{"version": 1, "entries": []}"#.write(to: file, atomically: true, encoding: .utf8)
        let gate = try PredictionGate(baseline: file.path)
        do {
            _ = try gate.check(name: "team") { TeamPredictor() }
            Issue.record("an empty baseline passed")
        } catch {
            #expect(error.kind == .badInput && error.problem.contains("no entries"), "\(error)")
        }
        try gate.record(name: "other") { TeamPredictor() }
        do {
            _ = try gate.check(name: "team") { TeamPredictor() }
            Issue.record("a baseline of another predictor passed")
        } catch {
            #expect(error.kind == .badInput && error.problem.contains("compares nothing") && error.problem.contains("other"), "\(error)")
        }
    }

    /// Runs that scored nothing are never recorded: the dataset's strokes
    /// are shorter than the predictor's patience.
    @Test func runsThatScoredNothingAreNotRecorded() throws {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try GateFixtures.shortStrokes(in: dir)
        let file = dir.appendingPathComponent("baseline.json").path
        let gate = try PredictionGate(baseline: file, dataset: data)
        #expect(gate.corpus.items.map(\.name).last == "dataset/short")
        let recorded = try gate.record(name: "patient") { TeamPredictor(patience: 10) }
        #expect(recorded.emptyRuns.map(\.item) == ["dataset/short", "dataset/short", "dataset/short"])
        let stored = try PredictionBaseline.decode(Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(stored.entries.count == 15 && !stored.entries.contains { $0.item.hasPrefix("dataset/") })
        #expect(recorded.report.contains("3 runs scored nothing"))
        // and a predictor that never answers has nothing to record at all
        do {
            try gate.record(name: "silent") { TeamPredictor(patience: .max) }
            Issue.record("an empty baseline was written")
        } catch {
            #expect(error.problem.contains("nothing to record"), "\(error)")
        }
        #expect(try PredictionBaseline.decode(Data(contentsOf: URL(fileURLWithPath: file))) == stored)
    }

    @Test func missingAndCorruptBaselinesAreBadInput() throws {
        let dir = try GateFixtures.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("b.json")
        var gate = try PredictionGate(baseline: file.path)
        gate.remedy = "REMEDY"
        for (text, words) in [(nil, "no such baseline file"), ("{", "not valid JSON"), ("{\"version\": 1}", "missing key 'entries'"),
                              ("{\"version\": 9, \"entries\": []}", "version 9")] as [(String?, String)] {
            if let text { try text.write(to: file, atomically: true, encoding: .utf8) }
            do {
                _ = try gate.readBaseline()
                Issue.record("\(String(describing: text)) was read")
            } catch {
                #expect(error.kind == .badInput && error.problem.contains(words) && error.expected == "REMEDY", "\(error)")
            }
        }
        #expect(throws: LatsimError.self) { try PredictionGate(baseline: "x", tolerancePercent: -1) }
    }
}
