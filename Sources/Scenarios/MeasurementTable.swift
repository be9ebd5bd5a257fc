import Foundation
import SimKernel
import Yams

/// A table of published measurements, the rows `latsim validate` runs
/// (Docs/Devices.md, "Validation"): each names a device, the app the
/// measurement used, which latency figure it is, and the published value.
public struct MeasurementTable: Sendable {
    /// The latency figure a row compares.
    public enum Measure: String, Sendable, CaseIterable, Keyword {
        /// From a tap's contact to its first photon (`latency.tapToPhotonMs`).
        case tapToPhoton
        /// From a frame's start to its photon: WALT's screen response (`latency.frameToPhotonMs`).
        case frameToPhoton
        /// From a drag's newest sample to its photon (`latency.touchToPhotonMs`).
        case touchToPhoton
        /// An ink app's pen-to-ink: from the newest pen sample to its
        /// photons at the pen's own row (`ink.penToInkMs`; Docs/Ink.md).
        case penToInk
        /// Touch-to-photon less the prediction horizon the frame applied
        /// (`latency.effectiveMs`): the latency a predicting app shows.
        case effectiveToPhoton
    }

    /// Which statistic of the simulated figure is compared.
    public enum Statistic: String, Sendable, CaseIterable, Keyword {
        /// The mean.
        case mean
        /// The median.
        case p50
    }

    /// One published measurement.
    public struct Row: Sendable {
        /// A short unique name.
        public var id: String
        /// The device preset (a name, or a preset file).
        public var device: String
        /// The app: a built-in scenario or a scenario file.
        public var scenario: String
        /// The figure compared.
        public var measure: Measure
        /// The statistic compared.
        public var statistic: Statistic
        /// The published value, ns.
        public var published: SimTime
        /// The low and high figures published around it, ns.
        public var spread: (low: SimTime, high: SimTime)?
        /// Where it was published.
        public var source: String
        /// How it was read: `R`, `R2` or `vendor`.
        public var tag: String
        /// What was measured, in a phrase.
        public var what: String
        /// What a reader should know about the row (a caveat).
        public var note: String
        /// True when the model is known to miss this row (`expected: miss`):
        /// `latsim validate` then fails if it passes, so the list stays true.
        public var expectedMiss: Bool
        /// Why the model misses it (`reason`), required with `expected: miss`.
        public var reason: String
        /// Where the row is written.
        public var place: SettingSource
    }

    /// The tags a row may carry.
    public static let tags = ["R", "R2", "vendor"]

    /// The rows, in order.
    public var rows: [Row]
    /// The file it was read from (`builtin:measurements` for the shipped one).
    public var file: String
    /// The folder relative device and scenario files are read from (nil: the working folder).
    public var folder: String?

    /// The shipped table (Devices/measurements.yaml; Docs/Devices.md, "The shipped rows").
    public static func builtin() throws(LatsimError) -> MeasurementTable {
        guard let text = DevicePreset.resource("measurements") else {
            throw LatsimError(.internal, file: "builtin:measurements", problem: "the shipped table of measurements is missing")
        }
        return try MeasurementTable(yaml: text, file: "builtin:measurements")
    }

    /// A table from a file.
    public static func load(file path: String) throws(LatsimError) -> MeasurementTable {
        let data = try InputFiles.read(path, expected: "a YAML table of measurements (Docs/Devices.md, \"Validation\")",
                                       maximumBytes: Scenario.maximumBytes)
        guard let text = String(data: data, encoding: .utf8) else {
            throw LatsimError(file: path, problem: "not UTF-8 text", expected: "a YAML table of measurements")
        }
        var t = try MeasurementTable(yaml: text, file: path)
        t.folder = (path as NSString).deletingLastPathComponent
        return t
    }

    /// Reads a table from YAML text; `file` names it in errors. Devices and
    /// scenarios are checked when the rows run.
    public init(yaml: String, file: String) throws(LatsimError) {
        self.file = file
        let root = try PresetYAML.root(yaml, file: file)
        var rows: [Row] = []
        var ids: Set<String> = []
        for (k, v) in root {
            let key = try PresetYAML.key(k, file: file)
            guard key == "measurements" else {
                throw PresetYAML.error(k, file: file, key: key, "is not a field of a table of measurements", expected: "measurements: a list of rows")
            }
            guard case .sequence(let seq) = v else {
                throw PresetYAML.error(v, file: file, key: "measurements", "is not a list", expected: "a list of rows, each starting `- id:`")
            }
            for item in seq {
                let row = try MeasurementTable.row(item, file: file)
                guard ids.insert(row.id).inserted else {
                    throw PresetYAML.error(item, file: file, key: "id", "'\(row.id)' names two rows", expected: "a unique id per row")
                }
                rows.append(row)
            }
        }
        guard !rows.isEmpty else {
            throw LatsimError(file: file, key: "measurements", problem: "no row", expected: "at least one measurement")
        }
        self.rows = rows
    }

    static let fields = ["id", "device", "scenario", "measure", "statistic", "published", "spread", "source", "tag", "what", "note",
                         "expected", "reason"]

    /// The verdicts a row may be expected to reach (`expected:`).
    public static let expectations = ["pass", "miss"]

    static func row(_ node: Node, file: String) throws(LatsimError) -> Row {
        let m = try PresetYAML.mapping(node, file: file, what: "a row")
        var text: [String: (String, Node)] = [:]
        var spread: (SimTime, SimTime)?
        func duration(_ s: String, _ n: Node, _ key: String) throws(LatsimError) -> SimTime {
            let expected = "a duration above 0 with a unit, e.g. 48.8ms"
            let v: SimTime
            do throws(LatsimError) { v = try DurationSyntax.parse(s, framePeriod: Rational(16_666_667)) } catch {
                throw LatsimError(file: file, line: n.mark?.line, column: n.mark?.column, key: key, value: s, problem: error.problem,
                                  expected: expected)
            }
            guard v > 0, v <= ValueLimits.stage else {
                throw LatsimError(file: file, line: n.mark?.line, column: n.mark?.column, key: key, value: s,
                                  problem: "is outside 0 to an hour", expected: expected)
            }
            return v
        }
        for (k, v) in m {
            let key = try PresetYAML.key(k, file: file)
            guard fields.contains(key) else {
                var e = PresetYAML.error(k, file: file, key: key, "is not a field of a measurement",
                                         expected: fields.joined(separator: ", ") + " (a row sets no configuration key)")
                if ConfigurationKey.byPath[key] != nil || key == "set" { e.problem += ": a row runs its device and its app as they are" }
                throw e
            }
            if key == "spread" {
                guard case .sequence(let seq) = v, seq.count == 2, let lo = seq[0].string, let hi = seq[1].string else {
                    throw PresetYAML.error(v, file: file, key: "spread", "is not a pair", expected: "[LOW, HIGH], e.g. [47.3ms, 50.2ms]")
                }
                let l = try duration(lo, seq[0], "spread"), h = try duration(hi, seq[1], "spread")
                guard l <= h else { throw PresetYAML.error(v, file: file, key: "spread", "its low figure is above its high one", expected: "[LOW, HIGH]") }
                spread = (l, h)
                continue
            }
            text[key] = (try PresetYAML.string(v, file: file, key: key), v)
        }
        func required(_ key: String) throws(LatsimError) -> (String, Node) {
            guard let t = text[key], !t.0.trimmedWhitespace.isEmpty else {
                throw PresetYAML.error(node, file: file, key: key, "is missing from this row",
                                       expected: "id, device, scenario, measure, published, source and tag in every row")
            }
            return t
        }
        let (id, _) = try required("id")
        let (device, _) = try required("device")
        let (scenario, _) = try required("scenario")
        let (measureText, measureNode) = try required("measure")
        guard let measure = Measure(keyword: measureText) else {
            throw PresetYAML.error(measureNode, file: file, key: "measure", "'\(measureText)' is not a figure latsim measures",
                                   expected: Measure.spellings)
        }
        var statistic = Statistic.mean
        if let (s, n) = text["statistic"] {
            guard let st = Statistic(keyword: s) else {
                throw PresetYAML.error(n, file: file, key: "statistic", "'\(s)' is not a statistic", expected: Statistic.spellings)
            }
            statistic = st
        }
        let (publishedText, publishedNode) = try required("published")
        let published = try duration(publishedText, publishedNode, "published")
        let (source, _) = try required("source")
        let (tag, tagNode) = try required("tag")
        guard tags.contains(tag) else {
            throw PresetYAML.error(tagNode, file: file, key: "tag", "'\(tag)' is not a tag", expected: tags.joined(separator: ", "))
        }
        var expectedMiss = false
        if let (e, n) = text["expected"] {
            guard expectations.contains(e) else {
                throw PresetYAML.error(n, file: file, key: "expected", "'\(e)' is not a verdict", expected: expectations.joined(separator: " or "))
            }
            expectedMiss = e == "miss"
        }
        let reason = text["reason"]?.0.trimmedWhitespace ?? ""
        if expectedMiss, reason.isEmpty {
            throw PresetYAML.error(node, file: file, key: "reason", "is missing from a row expected to miss",
                                   expected: "reason: why the model misses this measurement (Docs/Devices.md lists each)")
        }
        if !expectedMiss, let (_, n) = text["reason"] {
            throw PresetYAML.error(n, file: file, key: "reason", "is given for a row expected to pass",
                                   expected: "reason only with expected: miss (a caveat of a passing row is a note)")
        }
        return Row(id: id, device: device, scenario: scenario, measure: measure, statistic: statistic, published: published,
                   spread: spread, source: source, tag: tag, what: text["what"]?.0 ?? "", note: text["note"]?.0 ?? "",
                   expectedMiss: expectedMiss, reason: reason,
                   place: SettingSource(file: file, line: node.mark?.line, column: node.mark?.column))
    }
}
