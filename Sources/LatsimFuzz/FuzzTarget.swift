import Charts
import Experiments
import Foundation
import FramePipeline
import LatsimOutput
import Measures
import PredictorProcess
import Report
import Scenarios
import SimKernel
import TouchModel
import Traces

/// What a fuzz input is: the file kinds and command-line values latsim
/// reads. New kinds go at the end: libFuzzer's inputs choose theirs by the
/// first byte's place in this list (Fuzz/seed-corpus.sh).
public enum FuzzKind: String, CaseIterable, Sendable {
    /// A scenario YAML file.
    case yaml
    /// `--set PATH=VALUE` lines applied to a built-in scenario.
    case set
    /// A CSV trace.
    case csv
    /// A $1 gesture-log XML trace.
    case xml
    /// A prediction baseline (JSON).
    case json
    /// A part file of a sharded sweep or prediction study (JSON).
    case part
    /// A measured-durations CSV, read through `empirical(@FILE:handler_ms)`.
    case durations
    /// Output paths, one per line, written inside a scratch folder that
    /// holds one of the command's inputs; the last line is also a chart name.
    case outpath
    /// Lines a predictor answers with, to requests 1, 2, 3...
    case answer
    /// A `dumpsys gfxinfo framestats` dump, imported (`latsim import`).
    case framestats
    /// A Perfetto trace, imported (`latsim import`).
    case perfetto
    /// A step summary (`$GITHUB_STEP_SUMMARY`): its path on the first
    /// line, another output's on the second, the Markdown after, in a
    /// scratch folder holding the gate's inputs.
    case summary

    /// The kind of a corpus file, by its extension.
    public init?(fileExtension ext: String) { self.init(rawValue: ext.lowercased()) }
}

/// How latsim met an input: it ran (with finite figures) or refused it as
/// bad input.
public enum FuzzOutcome: Sendable, Equatable {
    /// Accepted; the run (if any) measured only finite numbers.
    case accepted
    /// Refused with one short paragraph.
    case refused(String)
}

/// An input latsim handled wrongly: the oracle's finding.
public struct FuzzViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}

/// The fuzz target: one input through the same parsing and run paths as the
/// command line, with the oracle of Docs/Limits.md — accepted with finite
/// numbers, or refused as bad input in under 1,000 characters; never another
/// error, a non-finite figure, or work past the estimate. A trap ends the
/// process, which is the other finding.
public enum FuzzTarget {
    /// The work a fuzzed run may do (a few milliseconds); inputs asking for
    /// more are refused by the work estimate, as the command line refuses
    /// work past its limit.
    public static let eventBudget = 3e5

    /// Checks one input. `scratch` is a directory for trace files.
    public static func check(_ kind: FuzzKind, _ bytes: [UInt8], scratch: URL) -> Result<FuzzOutcome, FuzzViolation> {
        do {
            try run(kind, bytes, scratch: scratch)
            return .success(.accepted)
        } catch let e as LatsimError {
            let text = e.description
            guard e.kind == .badInput else { return .failure(FuzzViolation(description: "not bad input: \(text)")) }
            guard text.count < 1_000 else { return .failure(FuzzViolation(description: "a message of \(text.count) characters")) }
            return .success(.refused(text))
        } catch let v as FuzzViolation {
            return .failure(v)
        } catch {
            return .failure(FuzzViolation(description: "an error that is not a LatsimError: \(error)"))
        }
    }

    static func run(_ kind: FuzzKind, _ bytes: [UInt8], scratch: URL) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        switch kind {
        case .yaml:
            let s = try Scenario(yaml: text, file: "fuzz.yaml", defaultName: "fuzz")
            try simulate(try s.configuration())
        case .set:
            let s = try Scenario.named("ios9-prediction")
            var assignments: [Assignment] = []
            for line in text.split(separator: "\n").prefix(16) {
                assignments.append(try Assignment(parsing: String(line), source: SettingSource(file: "--set")))
            }
            try simulate(try s.configuration(assignments))
        case .csv, .xml:
            let file = scratch.appendingPathComponent("trace-\(UUID().uuidString).\(kind.rawValue)")
            try Data(bytes).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            var c = try Scenario.named("ios9-prediction").configuration()
            c.trajectory = file.path
            let t = try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters)
            c.duration = Swift.max(1, Swift.min(t.duration ?? Nanos.perSecond, Nanos.perSecond))
            try simulate(c, trajectory: t)
        case .json:
            try baseline(Data(bytes))
        case .part:
            try part(Data(bytes))
        case .durations:
            let file = scratch.appendingPathComponent("durations-\(UUID().uuidString).csv")
            try Data(bytes).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let c = try Scenario.named("ios9-low-latency").configuration([
                Assignment(path: "app.handler", value: "empirical(@\(file.path):handler_ms)", source: SettingSource(file: "--set")),
                Assignment(path: "duration", value: "1s", source: SettingSource(file: "--duration")),
            ])
            try simulate(c)
        case .outpath:
            try outputPaths(text, scratch: scratch)
        case .framestats, .perfetto:
            try importing(Data(bytes), file: kind == .framestats ? "fuzz.txt" : "fuzz.perfetto-trace")
        case .summary:
            try stepSummary(text, scratch: scratch)
        case .answer:
            for (i, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(64).enumerated() {
                switch PredictorAnswer.read(Array(line), id: i + 1) {
                case .success(let p?):
                    guard p.x.isFinite, p.y.isFinite else { throw FuzzViolation(description: "a non-finite point was accepted") }
                case .success(nil): break
                case .failure(let e): throw e
                }
            }
        }
    }

    /// A prediction baseline, read as the gate reads it: refused, or one
    /// that compares with itself without a regression, and whose every
    /// value gives a finite threshold at the largest tolerance (a stored
    /// 1e308 once made it infinite, and the gate passed anything).
    static func baseline(_ data: Data) throws {
        let b = try PredictionBaseline.read(data, file: "fuzz.json", remedy: "a baseline written by latsim regress --update")
        var keys = Set<String>()
        for e in b.entries {
            guard keys.insert("\(e.item)\u{0}\(e.predictor)\u{0}\(e.horizonMs)").inserted else {
                throw FuzzViolation(description: "two entries for \(e.item) \(e.predictor)@\(e.horizonMs) were accepted")
            }
            for m in PredictionMetric.allCases {
                let v = e.metrics[m]
                guard v.isFinite, MetricRule(m, tolerance: .percent(1_000_000)).threshold(old: v).isFinite, m.isSigned || v >= 0 else {
                    throw FuzzViolation(description: "an unusable \(m.rawValue) \(v) was accepted")
                }
            }
        }
        let changes = compareBaselines(baseline: b, current: b, tolerancePercent: 2)
        guard changes.allSatisfy({ !$0.isRegression }) else {
            throw FuzzViolation(description: "a baseline regressed against itself")
        }
    }

    /// The keys an imported scenario may set: what a recording measures,
    /// and the scan rate, set to the display's (Docs/TraceFormats.md).
    static let importedKeys: Set<String> = ["os.platform", "device.displayHz", "device.scanHz", "android.appDuration", "android.sfDuration",
                                            "app.handler", "android.renderThread", "gpu.render", "android.sfCompose"]

    /// A recording through `latsim import`: refused, or a scenario that
    /// loads, sets only what an import measures, and runs.
    static func importing(_ data: Data, file: String) throws {
        let imported = try DeviceImport.read(data, file: file)
        let yaml = imported.scenarioYAML(name: "fuzz", source: file)
        let scenario: Scenario
        var c: PipelineConfiguration
        do {
            scenario = try Scenario(yaml: yaml, file: "imported.yaml", defaultName: "fuzz")
            c = try scenario.configuration()
        } catch {
            throw FuzzViolation(description: "the scenario made from it does not load: \(error)\n\(yaml.prefix(600))")
        }
        let keys = Set(scenario.settings.entries.keys)
        guard keys.isSubset(of: importedKeys) else {
            throw FuzzViolation(description: "the recording set \(keys.subtracting(importedKeys).sorted())")
        }
        guard keys.contains("device.scanHz") == keys.contains("device.displayHz"), c.scanHz == c.displayHz || !keys.contains("device.scanHz") else {
            throw FuzzViolation(description: "the scan rate is not the recorded display rate: scan \(c.scanHz), display \(c.displayHz)")
        }
        c.duration = Swift.min(c.duration, 200 * Nanos.perMillisecond)
        try simulate(c)
    }

    /// A step summary, checked and appended as `latsim regress` does, in a
    /// scratch folder holding the gate's inputs (`baseline.json`,
    /// `gate.yaml`), a folder `sub` and a file `x.xml`. The summary and the
    /// other output are refused, or the summary is appended to: the inputs
    /// are never changed, what the summary file held stays its start,
    /// nothing is replaced, no folder is made, nothing is written outside
    /// the scratch folder.
    static func stepSummary(_ text: String, scratch: URL) throws {
        let root = scratch.appendingPathComponent("summary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let inputs = ["baseline.json": "{\"version\": 1, \"entries\": []}\n", "gate.yaml": "version: 1\n", "x.xml": "<kept/>\n"]
        for (name, content) in inputs { try Data(content.utf8).write(to: root.appendingPathComponent(name)) }
        for name in ["baseline.json", "gate.yaml"] { _ = InputFiles.contents(root.appendingPathComponent(name).path) }
        defer { for name in ["baseline.json", "gate.yaml"] { InputFiles.forget(root.appendingPathComponent(name).path) } }
        var lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        while lines.count < 3 { lines.append("") }
        let rootPath = PathSpelling.canonical(root.path)
        func inside(_ line: String) -> String? {
            guard !line.isEmpty, !line.contains("\0"), line.utf8.count < 1_024 else { return nil }
            let path = line.hasPrefix("/") ? line : root.path + "/" + line
            let canonical = PathSpelling.canonical(path)
            guard canonical.hasPrefix(rootPath + "/"), !line.contains("/dev"), !line.contains("/proc") else { return nil }
            return path
        }
        guard let summary = inside(lines[0]) else {
            // a path outside the folder is only checked, never written
            if !lines[0].isEmpty, !lines[0].contains("\0") {
                _ = try? OutputDestination.preflight(files: [], appended: (lines[0], "GITHUB_STEP_SUMMARY=" + lines[0]))
            }
            return
        }
        let other = inside(lines[1])
        let before = (try? Data(contentsOf: URL(fileURLWithPath: summary))) ?? Data()
        let folders = Self.folders(under: root)
        do {
            try OutputDestination.preflight(files: [other], appended: (summary, "GITHUB_STEP_SUMMARY=" + lines[0]))
            try AppendFile.append(lines[2], to: summary, label: "GITHUB_STEP_SUMMARY=" + lines[0])
            let after = (try? Data(contentsOf: URL(fileURLWithPath: summary))) ?? Data()
            guard after.starts(with: before), after.count == before.count + lines[2].utf8.count else {
                throw FuzzViolation(description: "the step summary '\(lines[0])' was not appended to")
            }
        } catch let e as LatsimError {
            guard e.description.count < 1_000 else { throw FuzzViolation(description: "a message of \(e.description.count) characters") }
            guard e.kind == .badInput || e.kind == .environment else { throw e }
        }
        for (name, content) in inputs {
            let path = root.appendingPathComponent(name).path
            // x.xml is no input: it may be the summary itself, appended to above
            if name == "x.xml" && PathSpelling.canonical(summary) == PathSpelling.canonical(path) { continue }
            guard (try? Data(contentsOf: URL(fileURLWithPath: path))) == Data(content.utf8) else {
                throw FuzzViolation(description: "\(name) was changed through the step summary '\(lines[0])'")
            }
        }
        guard Self.folders(under: root) == folders else {
            throw FuzzViolation(description: "a folder was made for the step summary '\(lines[0])'")
        }
    }

    /// The folders below `root`, as paths relative to it.
    static func folders(under root: URL) -> Set<String> {
        var out = Set<String>()
        let e = FileManager.default.enumerator(atPath: root.path)
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(p).path, isDirectory: &isDir), isDir.boolValue { out.insert(p) }
        }
        return out
    }

    /// A part file: refused, or merged into a result whose JSON is valid
    /// (every number finite, however large).
    static func part(_ data: Data) throws {
        if let sweep = try? SweepPart.decode(data, file: "fuzz.part") {
            let result = try SweepPart.merge([("fuzz.part", sweep)])
            let json = SweepOutput.json(result).text()
            guard (try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil else {
                throw FuzzViolation(description: "a merged sweep's JSON is not valid JSON: \(json.prefix(200))")
            }
            _ = SweepOutput.csv(result)
            return
        }
        let prediction = try PredictionPart.decode(data, file: "fuzz.part")
        _ = try PredictionPart.merge([("fuzz.part", prediction)])
    }

    /// Output paths inside `scratch`, which holds the input `input.yaml`:
    /// each is refused, or written leaving exactly its file; the input is
    /// never replaced; nothing is written outside the scratch folder; a
    /// chart name never leads out of its folder.
    static func outputPaths(_ text: String, scratch: URL) throws {
        let root = scratch.appendingPathComponent("out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("input.yaml")
        try Data("name: input\n".utf8).write(to: input)
        _ = InputFiles.contents(input.path)
        defer { InputFiles.forget(input.path) }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(8).map(String.init)
        let rootPath = PathSpelling.canonical(root.path)
        for line in lines {
            guard !line.contains("\0"), line.utf8.count < 1_024 else { continue }
            let path = line.hasPrefix("/") ? line : root.path + "/" + line
            // only paths that stay inside the scratch folder are written
            let canonical = PathSpelling.canonical(path)
            guard canonical.hasPrefix(rootPath + "/") || canonical == rootPath, !line.contains("/dev"), !line.contains("/proc") else {
                _ = try? OutputDestination.preflight(files: [path])
                continue
            }
            do {
                try OutputDestination.preflight(files: [path])
                try AtomicFile.write("fuzz\n", to: URL(fileURLWithPath: path))
            } catch let e as LatsimError {
                guard e.description.count < 1_000 else { throw FuzzViolation(description: "a message of \(e.description.count) characters") }
            }
            guard (try? Data(contentsOf: input)) == Data("name: input\n".utf8) else {
                throw FuzzViolation(description: "the input was replaced through the output path '\(line)'")
            }
        }
        // a chart name: refused unless it is a plain name in its folder
        let name = lines.last ?? ""
        if Identifier.problem(name, maximumLength: 200) == nil, name.contains("/") || name.hasPrefix(".") {
            throw FuzzViolation(description: "the chart name '\(name)' leaves its folder but is accepted")
        }
        if Identifier.problem(name, maximumLength: 200) != nil {
            let charts = root.appendingPathComponent("charts")
            do {
                _ = try Gnuplot(executable: nil).render(ChartScript(title: "t", tables: [], setup: "", plot: "plot 1"), directory: charts, basename: name)
                throw FuzzViolation(description: "the chart name '\(name)' was not refused")
            } catch let e as LatsimError where e.kind == .badInput {}
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        if let stray = left.first(where: { $0.contains(".latsim-") }) {
            throw FuzzViolation(description: "a temporary file was left: \(stray)")
        }
    }

    /// Runs a configuration within the fuzz budget and checks its figures.
    static func simulate(_ c: PipelineConfiguration, trajectory: Trajectory? = nil) throws {
        try WorkEstimate.check([c], limit: eventBudget)
        let started = DispatchTime.now().uptimeNanoseconds
        let r: RunResult
        if let trajectory {
            r = try PipelineRun(configuration: c, trajectory: trajectory).run()
        } else {
            r = try PipelineRun.run(c)
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        guard wall < 5 else { throw FuzzViolation(description: "a run within the budget took \(wall) s") }
        // every stream the summary lists, and every figure of the run, is finite
        for measure in MeasureCatalogue.measures {
            guard case .stream(let read) = measure.value else { continue }
            let s = read(r.measurements)
            guard s.count == 0 || (s.mean?.isFinite == true && s.min.isFinite && s.max.isFinite) else {
                throw FuzzViolation(description: "\(measure.name) is not finite")
            }
        }
        for f in Figure.allCases where f.value(r)?.isFinite == false {
            throw FuzzViolation(description: "the figure \(f) is not finite")
        }
        guard r.invariants.holds else { throw FuzzViolation(description: "an invariant broke: \(r.invariants)") }
        if let score = r.predictionScore {
            for metric in PredictionMetric.allCases where !metric.value(score).isFinite {
                throw FuzzViolation(description: "prediction \(metric.rawValue) is not finite")
            }
        }
        if let f = r.measurements.force {
            let streams = [("peek", f.peek.crossingToPhotonMs), ("pop", f.pop.crossingToPhotonMs), ("progressLag", f.progressLag),
                           ("forceErrorAtPhoton", f.forceErrorAtPhoton)]
            for (name, s) in streams where s.count > 0 {
                guard let mean = s.mean, mean.isFinite, s.min.isFinite, s.max.isFinite else {
                    throw FuzzViolation(description: "force \(name) is not finite")
                }
            }
        }
    }
}
