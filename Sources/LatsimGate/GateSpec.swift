import Experiments
import FramePipeline
import Foundation
import Scenarios
import SimKernel
import TouchModel
import Yams

/// What a prediction gate scores and how it judges it, as a team writes it
/// in one YAML file (`latsim regress --spec FILE`; `latsim regress init`
/// writes a commented one): the device (a scenario, a device preset, the
/// scan and display rates, finger or stylus), the horizons, the motions
/// (synthetic ones with their seeds, folders of recorded strokes), the
/// smoothing, and the metrics gated, each with its tolerance and the moves
/// that fail it.
///
/// The settings that make the figures (everything but the metrics) are
/// recorded in the baseline (``settings``); a check under other settings is
/// bad input naming the keys that differ. The metric names and which way
/// each is better come from ``PredictionMetric``.
public struct GateSpec: Sendable {
    /// One entry of the corpus.
    public enum CorpusEntry: Sendable, Hashable, CustomStringConvertible {
        /// A synthetic motion (`Trajectory.syntheticKinds`), one item per
        /// seed (`KIND-seedN`), each simulated for `duration`.
        case synthetic(kind: String, seeds: [UInt64], duration: String)
        /// A directory of recorded traces, one item per folder (see
        /// ``PredictionCorpus/datasetItems(directory:include:skipBad:parameters:jobs:)``),
        /// only files below a folder named in `include` (every file when empty).
        case dataset(path: String, include: [String])

        /// `strokes seeds 1, 2 for 20s` or `dataset ci/strokes (include medium, fast)`.
        public var description: String {
            switch self {
            case let .synthetic(kind, seeds, duration):
                return "\(kind) seed\(seeds.count == 1 ? "" : "s") \(seeds.map(String.init).joined(separator: ", ")) for \(duration)"
            case let .dataset(path, include):
                return "dataset \(path)" + (include.isEmpty ? "" : " (include \(include.joined(separator: ", ")))")
            }
        }
    }

    /// What touches the glass.
    public enum Tool: String, Sendable, CaseIterable {
        /// A finger, scanned at the scan rate.
        case finger
        /// A stylus (a pencil, `input.tool: pencil`), scanned at the scan rate.
        case stylus
    }

    /// The scenario the runs start from (a built-in one or a file).
    public var scenario = PredictionCorpus.scenarioName
    /// A device preset it runs on (`latsim devices`), if any.
    public var device: String?
    /// Digitizer scan rate, Hz; nil: the scenario's (the device's).
    public var scanHz: Rational?
    /// Display refresh rate, Hz; nil: the scenario's (the device's).
    public var displayHz: Rational?
    /// What touches the glass.
    public var tool = Tool.finger
    /// How far ahead.
    public var horizons = PredictionCorpus.standardHorizons
    /// Smoothing of the predicted positions.
    public var smoothing = PredictionSmoothing.none
    /// The motions scored, in report order.
    public var corpus = GateSpec.standardCorpus
    /// The metrics gated, in ``PredictionMetric`` order.
    public var rules = MetricRule.all(percent: 2)

    /// A spec; by default the gate's own setting (the implicit spec of
    /// `latsim regress` without `--spec`): the ios9-prediction scenario,
    /// 120 Hz scan, 60 Hz display, a finger, 0.5, 1 and 1.5 frames, the
    /// five synthetic motions, no smoothing, every metric at 2%.
    public init() {}

    /// The synthetic motions of ``PredictionCorpus/synthetic``: strokes with
    /// seeds 1 and 2, a circle, a flick and random motion, 20 s each.
    public static let standardCorpus: [CorpusEntry] = [
        .synthetic(kind: "strokes", seeds: [1, 2], duration: PredictionCorpus.syntheticDuration),
        .synthetic(kind: "circle", seeds: [1], duration: PredictionCorpus.syntheticDuration),
        .synthetic(kind: "flick", seeds: [1], duration: PredictionCorpus.syntheticDuration),
        .synthetic(kind: "random", seeds: [1], duration: PredictionCorpus.syntheticDuration),
    ]

    /// The corpus this spec scores: its items (datasets loaded; malformed
    /// files left out and returned with `skipBad`, else the first throws)
    /// and its device settings.
    public func makeCorpus(skipBad: Bool = false) throws(LatsimError) -> (corpus: PredictionCorpus, skipped: [LatsimError]) {
        var items: [PredictionCorpusItem] = []
        var skipped: [LatsimError] = []
        for entry in corpus {
            switch entry {
            case let .synthetic(kind, seeds, duration):
                for seed in seeds {
                    items.append(PredictionCorpusItem(name: "\(kind)-seed\(seed)", motion: .synthetic(kind: kind, seed: seed), duration: duration))
                }
            case let .dataset(path, include):
                let loaded = try PredictionCorpus.datasetItems(directory: path, include: include, skipBad: skipBad,
                                                               jobs: Parallel.availableCPUs)
                items += loaded.items
                skipped += loaded.skipped
            }
        }
        var c = PredictionCorpus(items: items, smoothing: smoothing)
        c.scenario = scenario
        c.device = device
        c.tool = tool == .stylus ? .pencil : .finger
        let base = try c.baseScenario().configuration()
        c.scanHz = scanHz ?? (tool == .stylus ? base.pencilScanHz ?? base.scanHz : base.scanHz)
        c.displayHz = displayHz ?? base.displayHz
        return (c, skipped)
    }

    /// The settings that make the figures, as recorded in a baseline: one
    /// text per key, the rates resolved (so `scanHz: 120` and the
    /// scenario's own 120 Hz are one setting).
    public func settings(of corpus: PredictionCorpus) -> [String: String] {
        [
            "scenario": scenario,
            "device": device ?? "none",
            "scanHz": formatDecimal(corpus.scanHz.doubleValue, places: 6),
            "displayHz": formatDecimal(corpus.displayHz.doubleValue, places: 6),
            "tool": tool.rawValue,
            "horizons": horizons.map(\.description).joined(separator: ", "),
            "smoothing": smoothing.rawValue,
            "corpus": self.corpus.map(\.description).joined(separator: "; "),
        ]
    }

    /// The keys whose values differ between two recorded settings, sorted,
    /// each as `key (baseline A, now B)`.
    public static func differences(baseline: [String: String], now: [String: String]) -> [String] {
        Set(baseline.keys).union(now.keys).sorted().compactMap { key in
            let a = baseline[key], b = now[key]
            return a == b ? nil : "\(key) (baseline: \(a ?? "unset"), now: \(b ?? "unset"))"
        }
    }

    /// The gated metrics as a phrase: `photonRms 5%, jitter 0.05pt`.
    public var rulesSummary: String {
        rules.map { r in "\(r.metric.rawValue) \(r.tolerance)\(r.fails == .both ? " (any move)" : "")" }.joined(separator: ", ")
    }
}

// MARK: - Reading a spec file

extension GateSpec {
    /// The top-level keys of a spec file.
    public static let keys = ["version", "scenario", "device", "scanHz", "displayHz", "tool", "horizons", "smoothing", "corpus", "floor", "metrics"]

    /// Reads a spec file. Every bad value is bad input naming the file,
    /// line, key and value and what was expected.
    public static func load(file path: String) throws(LatsimError) -> GateSpec {
        let data = try InputFiles.read(path, expected: "a gate spec written by `latsim regress init \(path)`", maximumBytes: 1 << 20)
        guard let text = String(data: data, encoding: .utf8) else {
            throw LatsimError(file: path, problem: "not UTF-8 text", expected: "a YAML gate spec")
        }
        return try GateSpec(yaml: text, file: path)
    }

    /// A spec from its YAML text; `file` names it in errors.
    public init(yaml: String, file: String) throws(LatsimError) {
        var reader = SpecReader(file: file)
        self = try reader.read(yaml)
    }
}

/// Reads a spec, one key at a time, with the place of every value.
struct SpecReader {
    let file: String

    func fail(_ node: Node?, key: String, value: String? = nil, _ problem: String, expected: String? = nil) -> LatsimError {
        LatsimError(file: file, line: node?.mark?.line, column: node?.mark?.column, key: key,
                    value: value ?? node.flatMap(SpecReader.text), problem: problem, expected: expected)
    }

    /// A scalar's text; nil for a list or a mapping.
    static func text(_ node: Node) -> String? {
        if case .scalar(let s) = node { return s.string }
        return nil
    }

    func scalar(_ node: Node, key: String, expected: String) throws(LatsimError) -> String {
        guard let t = SpecReader.text(node), !t.isEmpty else {
            throw fail(node, key: key, value: SpecReader.kind(node), "is not a single value", expected: expected)
        }
        return t
    }

    static func kind(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return s.string.isEmpty ? "empty" : s.string
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .alias: return "an alias"
        }
    }

    /// A scalar or a list of scalars, each with its node.
    func list(_ node: Node, key: String, expected: String) throws(LatsimError) -> [(String, Node)] {
        switch node {
        case .sequence(let seq):
            var out: [(String, Node)] = []
            for n in seq { out.append((try scalar(n, key: key, expected: expected), n)) }
            if out.isEmpty { throw fail(node, key: key, value: "[]", "is empty", expected: expected) }
            return out
        default:
            return [(try scalar(node, key: key, expected: expected), node)]
        }
    }

    func mapping(_ node: Node, key: String, expected: String) throws(LatsimError) -> Node.Mapping {
        guard case .mapping(let m) = node else {
            throw fail(node, key: key, value: SpecReader.kind(node), "is not a mapping", expected: expected)
        }
        return m
    }

    func keyName(_ node: Node, in path: String) throws(LatsimError) -> String {
        guard let k = SpecReader.text(node), !k.isEmpty else {
            throw fail(node, key: path.isEmpty ? "(key)" : path, value: SpecReader.kind(node), "a key is not a plain name", expected: "a name such as scanHz")
        }
        return k
    }

    func rate(_ node: Node, key: String, range: ClosedRange<Double>, example: String) throws(LatsimError) -> Rational {
        let expected = "a rate in Hz from \(formatDecimal(range.lowerBound, places: 3)) to \(formatDecimal(range.upperBound, places: 3)), e.g. \(example)"
        let t = try scalar(node, key: key, expected: expected)
        guard let r = Rational(decimal: t), range.contains(r.doubleValue) else {
            throw fail(node, key: key, "is not a rate", expected: expected)
        }
        return r
    }

    /// `5%` or `0.5pt` (a bare number is refused: the unit says which).
    func tolerance(_ node: Node, key: String) throws(LatsimError) -> MetricRule.Tolerance {
        let expected = "a percentage of the baseline value such as 5% or a number of points such as 0.5pt"
        let t = try scalar(node, key: key, expected: expected).trimmedWhitespace
        let unit = t.hasSuffix("%") ? "%" : t.hasSuffix("pt") ? "pt" : ""
        let number = String(t.dropLast(unit.count)).trimmedWhitespace
        guard !unit.isEmpty, number.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil,
              let x = Double(number), x <= 1_000_000 else {
            throw fail(node, key: key, unit.isEmpty && Double(t) != nil ? "has no unit" : "is not a tolerance", expected: expected)
        }
        return unit == "%" ? .percent(x) : .points(x)
    }

    func points(_ node: Node, key: String) throws(LatsimError) -> Double {
        let expected = "a number of points such as 0.01pt"
        let t = try scalar(node, key: key, expected: expected)
        let number = t.hasSuffix("pt") ? String(t.dropLast(2)).trimmedWhitespace : t
        guard number.range(of: #"^[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil, let x = Double(number), x <= 1_000_000 else {
            throw fail(node, key: key, "is not a number of points", expected: expected)
        }
        return x
    }

    mutating func read(_ yaml: String) throws(LatsimError) -> GateSpec {
        let root: Node?
        do { root = try Yams.compose(yaml: yaml, YAMLDocument.resolver, YAMLDocument.constructor, YAMLDocument.encoding) } catch let e as YamlError {
            throw SpecReader.describe(e, file: file)
        } catch {
            throw LatsimError(file: file, problem: "malformed YAML: \(error)")
        }
        guard let root else { throw LatsimError(file: file, problem: "the gate spec is empty", expected: "a spec written by `latsim regress init`") }
        let top = try mapping(root, key: "(top level)", expected: "a mapping of the keys " + GateSpec.keys.joined(separator: ", "))
        var spec = GateSpec()
        var floor = MetricRule.defaultFloor
        var metricsNode: (Node, Node)?
        var horizonNodes: [(Horizon, Node)] = []
        var scenarioNode: Node?, deviceNode: Node?
        for (k, v) in top {
            let key = try keyName(k, in: "")
            switch key {
            case "version":
                guard SpecReader.text(v) == "1" else { throw fail(v, key: key, "is not a gate spec version this latsim reads", expected: "1") }
            case "scenario":
                spec.scenario = try scalar(v, key: key, expected: "a built-in scenario (`latsim list`) or a scenario file")
                scenarioNode = v
            case "device":
                let d = try scalar(v, key: key, expected: "a device preset (`latsim devices`) or none")
                spec.device = d == "none" ? nil : d
                deviceNode = v
            case "scanHz":
                spec.scanHz = try rate(v, key: key, range: ValueLimits.scanHz, example: "120 or 240")
            case "displayHz":
                spec.displayHz = try rate(v, key: key, range: ValueLimits.displayHz, example: "60 or 120")
            case "tool":
                let t = try scalar(v, key: key, expected: "finger or stylus")
                guard let tool = GateSpec.Tool(rawValue: t) else { throw fail(v, key: key, "is not a tool", expected: "finger or stylus") }
                spec.tool = tool
            case "horizons":
                let expected = "display frames (1frame, 0.5frames, or a bare number such as 0.5) or a duration (8ms), one or a list"
                var seen: [Horizon] = []
                for (t, n) in try list(v, key: key, expected: expected) {
                    let h: Horizon
                    do { h = try Horizon(parsing: t) } catch { throw fail(n, key: key, value: t, error.problem, expected: expected) }
                    if seen.contains(h) { throw fail(n, key: key, value: t, "is given twice", expected: "each horizon once") }
                    seen.append(h)
                    horizonNodes.append((h, n))
                }
                spec.horizons = seen
            case "smoothing":
                let t = try scalar(v, key: key, expected: "none or oneEuro")
                guard let s = PredictionSmoothing.allCases.first(where: { $0.rawValue.lowercased() == t.lowercased() }) else {
                    throw fail(v, key: key, "is not a smoothing", expected: "none or oneEuro")
                }
                spec.smoothing = s
            case "corpus":
                spec.corpus = try corpus(v)
            case "floor":
                floor = try points(v, key: key)
            case "metrics":
                metricsNode = (k, v)
            default:
                throw fail(k, key: key, value: key, "is not a gate spec key", expected: "one of " + GateSpec.keys.joined(separator: ", "))
            }
        }
        if let (k, v) = metricsNode {
            spec.rules = try rules(v, keyNode: k, floor: floor)
        } else {
            spec.rules = MetricRule.all(percent: 2, floor: floor)
        }
        // the scenario and device exist, and every horizon fits the display rate
        let resolved: PredictionCorpus
        do {
            var c = PredictionCorpus(items: [])
            c.scenario = spec.scenario
            c.device = spec.device
            _ = try c.baseScenario()
            var specCopy = spec
            specCopy.corpus = []
            resolved = try specCopy.makeCorpus().corpus
        } catch {
            var e = error
            let node = e.key == "device" || (e.seeAlso == .devices) ? deviceNode : scenarioNode
            if e.file == nil || e.line == nil {
                e.file = file
                e.line = node?.mark?.line ?? e.line
                e.column = node?.mark?.column ?? e.column
            }
            throw e
        }
        let period = Rational(Nanos.perSecond * resolved.displayHz.denominator, resolved.displayHz.numerator)
        for (h, n) in horizonNodes {
            do { _ = try h.nanoseconds(framePeriod: period) } catch {
                throw fail(n, key: "horizons", value: h.description, error.problem, expected: error.expected)
            }
        }
        return spec
    }

    func corpus(_ node: Node) throws(LatsimError) -> [GateSpec.CorpusEntry] {
        let expected = "a list of items such as `- synthetic: strokes` (with seeds, duration) or `- dataset: DIR` (with include)"
        guard case .sequence(let seq) = node, !seq.isEmpty else {
            throw fail(node, key: "corpus", value: SpecReader.kind(node), "is not a list of corpus items", expected: expected)
        }
        var out: [GateSpec.CorpusEntry] = []
        for (i, item) in seq.enumerated() {
            let path = "corpus[\(i)]"
            let m = try mapping(item, key: path, expected: expected)
            var kind: String?, dataset: String?, seeds: [UInt64] = [1], duration = PredictionCorpus.syntheticDuration
            var include: [String] = []
            var seedsNode: Node?, durationNode: Node?, includeNode: Node?
            for (k, v) in m {
                let key = try keyName(k, in: path)
                switch key {
                case "synthetic":
                    let t = try scalar(v, key: "\(path).synthetic", expected: Trajectory.syntheticKinds.joined(separator: ", "))
                    guard Trajectory.syntheticKinds.contains(t) else {
                        throw fail(v, key: "\(path).synthetic", "is not a synthetic motion", expected: "one of " + Trajectory.syntheticKinds.joined(separator: ", "))
                    }
                    kind = t
                case "seeds", "seed":
                    seedsNode = v
                    seeds = []
                    for (t, n) in try list(v, key: "\(path).seeds", expected: "whole numbers such as [1, 2]") {
                        guard let s = UInt64(t), s <= UInt64(UInt32.max) else {
                            throw fail(n, key: "\(path).seeds", value: t, "is not a seed", expected: "a whole number from 0 to \(UInt32.max)")
                        }
                        if seeds.contains(s) { throw fail(n, key: "\(path).seeds", value: t, "is given twice", expected: "each seed once") }
                        seeds.append(s)
                    }
                case "duration":
                    durationNode = v
                    duration = try scalar(v, key: "\(path).duration", expected: "a duration such as 20s")
                    let ns: SimTime
                    do { ns = try DurationSyntax.parse(duration, framePeriod: Rational(16_666_667)) } catch {
                        throw fail(v, key: "\(path).duration", error.problem, expected: "a duration such as 20s")
                    }
                    guard ns > 0, ns <= 3_600 * 1_000_000_000 else {
                        throw fail(v, key: "\(path).duration", "is out of range", expected: "a duration above 0 and up to 3600s (an hour), such as 20s")
                    }
                case "dataset":
                    dataset = try scalar(v, key: "\(path).dataset", expected: "a directory of recorded traces")
                    var isDir: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: dataset!, isDirectory: &isDir), isDir.boolValue else {
                        throw fail(v, key: "\(path).dataset", "is not a directory", expected: "a directory of recorded traces (.xml, .csv), relative to the current directory")
                    }
                case "include":
                    includeNode = v
                    include = try list(v, key: "\(path).include", expected: "folder names such as [medium, fast]").map(\.0)
                default:
                    throw fail(k, key: "\(path).\(key)", value: key, "is not a corpus item key", expected: "synthetic, seeds, duration; or dataset, include")
                }
            }
            switch (kind, dataset) {
            case let (kind?, nil):
                if let includeNode { throw fail(includeNode, key: "\(path).include", value: include.joined(separator: ", "), "belongs to a dataset item", expected: "include under `- dataset: DIR`") }
                out.append(.synthetic(kind: kind, seeds: seeds, duration: duration))
            case let (nil, dir?):
                if let n = seedsNode ?? durationNode {
                    throw fail(n, key: "\(path).\(seedsNode != nil ? "seeds" : "duration")", "belongs to a synthetic item",
                               expected: "a recorded trace plays for its own length, with no seed")
                }
                out.append(.dataset(path: dir, include: include))
            default:
                throw fail(item, key: path, value: kind == nil ? "neither" : "both", "names neither or both of synthetic and dataset", expected: "one of them")
            }
        }
        return out
    }

    func rules(_ node: Node, keyNode: Node, floor: Double) throws(LatsimError) -> [MetricRule] {
        let names = PredictionMetric.allCases.map(\.rawValue)
        let m = try mapping(node, key: "metrics", expected: "a mapping of metric names (\(names.joined(separator: ", "))) to their tolerance")
        var rules: [PredictionMetric: MetricRule] = [:]
        for (k, v) in m {
            let name = try keyName(k, in: "metrics")
            guard let metric = PredictionMetric(rawValue: name) else {
                throw fail(k, key: "metrics", value: name, "is not a metric", expected: "one of " + names.joined(separator: ", "))
            }
            let key = "metrics.\(name)"
            var rule = MetricRule(metric, tolerance: .percent(2), floor: floor)
            if case .mapping(let fields) = v {
                var gotTolerance = false
                for (fk, fv) in fields {
                    let field = try keyName(fk, in: key)
                    switch field {
                    case "tolerance":
                        rule.tolerance = try tolerance(fv, key: "\(key).tolerance")
                        gotTolerance = true
                    case "direction":
                        let own = metric.better.rawValue
                        let expected = "\(own) (\(name) is better \(metric.better == .smaller ? "smaller" : "closer to 0")), or both (any move beyond the tolerance fails)"
                        let t = try scalar(fv, key: "\(key).direction", expected: expected)
                        if t == "both" { rule.fails = .both } else if t == own { rule.fails = .worse } else {
                            throw fail(fv, key: "\(key).direction", "is not this metric's direction", expected: expected)
                        }
                    default:
                        throw fail(fk, key: "\(key).\(field)", value: field, "is not a metric key", expected: "tolerance, direction")
                    }
                }
                if !gotTolerance { throw fail(v, key: "\(key).tolerance", value: "missing", "is required", expected: "a tolerance such as 5% or 0.5pt") }
            } else {
                rule.tolerance = try tolerance(v, key: key)
            }
            rules[metric] = rule
        }
        if rules.isEmpty {
            throw fail(node, key: "metrics", value: "{}", "names no metric: such a gate would pass anything", expected: "at least one of " + names.joined(separator: ", "))
        }
        return PredictionMetric.allCases.compactMap { rules[$0] }
    }

    static func describe(_ e: YamlError, file: String) -> LatsimError {
        switch e {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let ctx = context.map { $0.text + " (line \($0.mark.line)), " } ?? ""
            return LatsimError(file: file, line: mark.line, column: mark.column, problem: "malformed YAML: \(ctx)\(problem)", expected: "a YAML gate spec")
        case let .duplicatedKeysInMapping(duplicates, context):
            return LatsimError(file: file, line: context.mark.line, column: context.mark.column,
                               problem: "malformed YAML: duplicated key(s) \(duplicates.sorted().joined(separator: ", "))")
        default:
            return LatsimError(file: file, problem: "malformed YAML: \(e)")
        }
    }
}

// MARK: The commented spec of `latsim regress init`

extension GateSpec {
    /// A commented spec file holding the default spec (``init()``): what
    /// `latsim regress init` writes for a team to edit.
    public static let template = """
    # A prediction gate: `latsim regress --spec THIS_FILE --baseline BASELINE.json`.
    # Record the baseline once with `--update`, commit both files, and run the
    # check in CI: it exits 1 when a gated metric got worse beyond its
    # tolerance. The baseline records every setting above `floor`; a check
    # under other settings is refused (exit 2), naming the keys that differ.
    version: 1

    # The device: a built-in scenario (`latsim list`) or a scenario file, and
    # optionally a device preset it runs on (`latsim devices`, e.g. pixel-6).
    scenario: ios9-prediction
    device: none

    # Digitizer scan rate and display refresh rate, Hz (120 / 60; a 240 Hz
    # stylus on a 120 Hz display: 240 / 120).
    scanHz: 120
    displayHz: 60

    # What touches the glass: finger, or stylus (scanned at scanHz).
    tool: finger

    # How far ahead the predictor is asked to predict: display frames
    # (1frame, 0.5frames, or a bare number) or a duration (8ms, 25ms).
    horizons: [0.5frames, 1frame, 1.5frames]

    # Smoothing of the predicted positions: none, or oneEuro (the 1€ filter
    # of each predictor's family).
    smoothing: none

    # The motions scored. Synthetic ones (line, circle, strokes, flick,
    # random), one corpus item per seed; folders of recorded traces (.xml $1
    # gesture logs, .csv), one item per folder, `include` keeping only files
    # below folders of those names (paths relative to the current directory).
    corpus:
      - synthetic: strokes
        seeds: [1, 2]
        duration: 20s
      - synthetic: circle
        seeds: [1]
        duration: 20s
      - synthetic: flick
        seeds: [1]
        duration: 20s
      - synthetic: random
        seeds: [1]
        duration: 20s
    #  - dataset: ci/strokes
    #    include: [medium, fast]

    # The least a percentage tolerance allows, points: keeps figures near 0
    # from flapping.
    floor: 0.01pt

    # The metrics gated (leave out the ones you do not gate). Each takes a
    # tolerance, a percentage of the baseline value (5%) or points (0.5pt),
    # and optionally a direction: the metric's own (smaller; closerToZero for
    # alongTrackMean), under which only a move for the worse fails, or both,
    # under which any move beyond the tolerance fails.
    #   errorRms, errorP95, errorMax: prediction error against the true finger
    #   alongTrackMean: + overshoot, - lateness; crossTrackRms: sideways error
    #   jitter: rms change of the error from one prediction to the next
    #   photonRms, photonP95: drawn vs true position when the photons leave
    metrics:
      errorRms: {tolerance: 2%, direction: smaller}
      errorP95: {tolerance: 2%}
      errorMax: {tolerance: 2%}
      alongTrackMean: {tolerance: 2%, direction: closerToZero}
      crossTrackRms: {tolerance: 2%}
      jitter: {tolerance: 2%}
      photonRms: {tolerance: 2%}
      photonP95: {tolerance: 2%}

    """
}
