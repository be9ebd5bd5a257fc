import FramePipeline
import SimKernel
import Foundation
import Yams

/// A named scenario: settings read from a YAML document (Docs/Model.md,
/// "Scenarios").
///
/// A scenario file holds `name`, `description` and any keys of
/// ``ConfigurationKey/all`` written as nested mappings (`os: {renderServer:
/// vsync}`) or dotted paths (`os.renderServer: vsync`). Distributions may be
/// written `uniform(2ms,6ms)` or as a mapping (`{uniform: [2ms, 6ms]}`,
/// `{normal: {mean: 4ms, sd: 1ms}}`, `{lognormal: {median: 4ms, sigma: 0.3}}`,
/// `{empirical: [1ms, 2ms]}`); animation intervals as a string or a list.
public struct Scenario: Sendable {
    /// The scenario's name (`name:`, else the file's name).
    public var name: String
    /// One line saying what it is (`description:`).
    public var description: String
    /// The figure the scenario exists for (`headline:`, a name of
    /// Docs/Figures.md such as `frameToPhotonP50`), with where it was
    /// written; nil when the scenario names none (its app model's then:
    /// tap-to-photon for taps, touch-to-photon otherwise). Tables show it first.
    public var headline: (name: String, source: SettingSource)?
    /// The keys it runs with, with where each was written: its device
    /// preset's (``device``), then its own (``ownSettings``) over them.
    public var settings: Settings
    /// The keys the scenario itself sets.
    public private(set) var ownSettings = Settings()
    /// The device preset applied (`device: NAME`, or ``applying(device:)``).
    public private(set) var device: DevicePreset?
    /// The YAML text it was read from.
    public var yaml: String
    /// The file it was read from, or `builtin:NAME`.
    public var file: String

    /// Reads a scenario from YAML text. `file` names it in errors.
    /// The largest scenario file read: 1 MiB (a scenario is a few dozen lines).
    public static let maximumBytes = 1 << 20

    public init(yaml: String, file: String, defaultName: String) throws(LatsimError) {
        guard yaml.utf8.count <= Scenario.maximumBytes else {
            throw LatsimError(file: file, problem: "the scenario has \(yaml.utf8.count) bytes",
                              expected: "a scenario file of at most \(InputFiles.size(Scenario.maximumBytes))")
        }
        self.yaml = yaml
        self.file = file
        name = defaultName
        // a scenario's name goes into output file names (`--trace t.json`
        // for two scenarios writes t-NAME.json): an identifier, checked here
        // where it is read, so no name can lead an output out of its folder
        let nameFromFile = Identifier.problem(defaultName)
        description = ""
        settings = Settings()
        let root = try YAMLDocument.compose(yaml, file: file)
        guard let root else { // an empty file is the defaults
            if let nameFromFile {
                throw LatsimError(file: file, value: defaultName, problem: "the file's name is not a scenario name (\(nameFromFile)) and the file has no name: line",
                                  expected: "a name: line with a scenario name of " + Identifier.characters)
            }
            return
        }
        guard case .mapping(let mapping) = root else {
            throw LatsimError(file: file, line: root.mark?.line, column: root.mark?.column,
                              problem: "a scenario is a YAML mapping of keys, not a \(Scenario.kind(root))",
                              expected: "keys such as `os:` then `  renderServer: vsync`")
        }
        try read(mapping, prefix: "")
        if let nameFromFile, !nameGiven {
            throw LatsimError(file: file, value: defaultName, problem: "the file's name is not a scenario name (\(nameFromFile)) and the file has no name: line",
                              expected: "a name: line with a scenario name of " + Identifier.characters)
        }
        ownSettings = settings
        if let (name, place) = deviceNode {
            let folder = FileManager.default.fileExists(atPath: file) ? (file as NSString).deletingLastPathComponent : nil
            let preset: DevicePreset
            do { preset = try DevicePreset.named(name, relativeTo: folder) } catch {
                var e = error
                if e.file == nil { e = e.located(file: place.file, line: place.line, column: place.column) }
                e.key = e.key ?? "device"
                throw e
            }
            self = try applying(device: preset)
        }
    }

    /// Whether the file has a `name:` line, while reading.
    private var nameGiven = false

    /// The device named by a scalar `device:` line, while reading.
    private var deviceNode: (name: String, place: SettingSource)?

    /// The scenario run on `preset`: the preset's settings, then the
    /// scenario's own keys over them. A key of the other platform, or an
    /// `os.platform` other than the device's, is bad input naming both.
    /// The keys `preset` sets that this scenario sets too: the scenario's
    /// value wins (defaults, preset, scenario, `--set`), so `--device` does
    /// not change them. Each with the scenario's value and where it is set,
    /// and the preset's value it replaces.
    public func keysOverriding(_ preset: DevicePreset) -> [(path: String, ours: ResolvedText, preset: String)] {
        preset.parameters.compactMap { p in
            guard let e = ownSettings.entries[p.path], e.text != p.value else { return nil }
            return (p.path, ResolvedText(text: e.text, source: e.source), p.value)
        }
    }

    /// A value as written and where.
    public struct ResolvedText: Sendable {
        /// The value as written.
        public var text: String
        /// Where it is written.
        public var source: SettingSource
    }

    public func applying(device preset: DevicePreset) throws(LatsimError) -> Scenario {
        if let set = ownSettings.entries["os.platform"], let p = Platform(keyword: set.text), p != preset.platform {
            throw LatsimError(file: set.source.file, line: set.source.line, column: set.source.column, key: "os.platform",
                              value: set.text,
                              problem: "scenario \(name) runs on \(p.rawValue), but device \(preset.name) is an \(preset.platform == .ios ? "iOS" : "Android") device",
                              expected: "a device of the scenario's platform (`latsim devices` lists each one's)")
        }
        for key in ConfigurationKey.all where !key.applies(to: preset.platform) {
            guard let e = ownSettings.entries[key.path] else { continue }
            throw LatsimError(file: e.source.file, line: e.source.line, column: e.source.column, key: key.path, value: e.text,
                              problem: "scenario \(name) sets this \(preset.platform == .ios ? "Android" : "iOS-only") key, but device \(preset.name) is an \(preset.platform == .ios ? "iOS" : "Android") device",
                              expected: "a device of the scenario's platform (`latsim devices` lists each one's)")
        }
        var s = self
        s.device = preset
        s.settings = preset.settings().overlaid(by: ownSettings)
        return s
    }

    private mutating func read(_ mapping: Node.Mapping, prefix: String) throws(LatsimError) {
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else {
                throw LatsimError(file: file, line: keyNode.mark?.line, column: keyNode.mark?.column, problem: "a key is not a plain name",
                                  expected: "keys such as app.handler")
            }
            let path = prefix.isEmpty ? key : prefix + "." + key
            let source = SettingSource(file: file, line: keyNode.mark?.line, column: keyNode.mark?.column)
            if prefix.isEmpty, key == "device", case .scalar(let scalar) = value {
                // a device preset by name (`device: nexus-9`); `device:` as a mapping holds device.* keys
                deviceNode = (scalar.string, SettingSource(file: file, line: keyNode.mark?.line, column: keyNode.mark?.column))
                continue
            }
            if prefix.isEmpty, ConfigurationKey.metadataKeys.contains(key) {
                guard let s = value.string else {
                    throw LatsimError(file: file, line: source.line, column: source.column, key: path, problem: "not a string",
                                      expected: "a string")
                }
                switch key {
                case "name":
                    if let problem = Identifier.problem(s) {
                        throw LatsimError(file: file, line: source.line, column: source.column, key: "name", value: s,
                                          problem: problem, expected: "a scenario name of " + Identifier.characters)
                    }
                    name = s
                    nameGiven = true
                case "headline": headline = (s, source)
                default: description = s
                }
                continue
            }
            if ConfigurationKey.byPath[path] != nil {
                if let earlier = settings.entries[path]?.source, earlier.file == file {
                    // dotted and nested forms of one key: which should win is not the file's to leave implicit
                    throw LatsimError(file: file, line: source.line, column: source.column, key: path,
                                      problem: "is set twice (also on line \(earlier.line ?? 0))", expected: "each key once")
                }
                try settings.set(path, try Scenario.text(of: value, path: path, file: file), source: source)
            } else if case .mapping(let inner) = value, ConfigurationKey.all.contains(where: { $0.path.hasPrefix(path + ".") }) {
                try read(inner, prefix: path)
            } else {
                try settings.set(path, value.string ?? "", source: source) // throws: unknown key
            }
        }
    }

    /// The value of a setting as the command-line text it stands for.
    static func text(of node: Node, path: String, file: String) throws(LatsimError) -> String {
        func bad(_ what: String) -> LatsimError {
            LatsimError(file: file, line: node.mark?.line, column: node.mark?.column, key: path,
                        problem: what, expected: ConfigurationKey.byPath[path]?.expected ?? "a value")
        }
        switch node {
        case .scalar(let s):
            return s.string
        case .sequence(let seq):
            // a list of animation intervals
            var parts: [String] = []
            for item in seq {
                guard let s = item.string else { throw bad("a list item is not a plain value") }
                parts.append(s)
            }
            return parts.joined(separator: ",")
        case .mapping(let m):
            // a distribution written as a mapping
            guard m.count == 1, let (k, v) = m.first, let name = k.string else {
                throw bad("a mapping here must name one distribution, e.g. {uniform: [2ms, 6ms]}")
            }
            var args: [String] = []
            switch v {
            case .sequence(let seq):
                for item in seq {
                    guard let s = item.string else { throw bad("distribution arguments must be plain values") }
                    args.append(s)
                }
            case .mapping(let named) where name == "empirical":
                // measured durations: {empirical: {file: frames.csv, column: handler_ms}}
                guard let f = named["file"]?.string, let col = named["column"]?.string, named.count == 2 else {
                    throw bad("empirical as a mapping needs 'file' and 'column'")
                }
                return "empirical(@\(f):\(col))"
            case .mapping(let named):
                let order = ["uniform": ["low", "high"], "normal": ["mean", "sd"], "lognormal": ["median", "sigma"]][name] ?? []
                for field in order {
                    guard let s = named[field]?.string else { throw bad("\(name) needs '\(field)'") }
                    args.append(s)
                }
                if named.count != order.count { throw bad("\(name) takes exactly \(order.joined(separator: " and "))") }
            case .scalar(let s):
                args = [s.string]
            default:
                throw bad("unsupported distribution form")
            }
            return "\(name)(\(args.joined(separator: ",")))"
        case .alias:
            throw bad("aliases are not supported")
        }
    }

    static func kind(_ node: Node) -> String {
        switch node {
        case .scalar: return "single value"
        case .sequence: return "list"
        case .mapping: return "mapping"
        case .alias: return "alias"
        }
    }

    static func describe(_ e: YamlError, file: String) -> LatsimError {
        YAMLDocument.describe(e, file: file)
    }
}

extension Scenario {
    /// Reads a scenario from a file path.
    public static func load(file path: String) throws(LatsimError) -> Scenario {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.fileExists(atPath: path) else {
            var e = LatsimError(file: path, problem: "no such file, and no built-in scenario of that name",
                                expected: "a built-in scenario name or the path of a YAML file")
            e.seeAlso = .scenarios
            throw e
        }
        let data = try InputFiles.read(path, expected: "a YAML scenario file", maximumBytes: maximumBytes)
        guard let text = String(data: data, encoding: .utf8) else {
            throw LatsimError(file: path, problem: "not UTF-8 text", expected: "a YAML scenario")
        }
        return try Scenario(yaml: text, file: path, defaultName: url.deletingPathExtension().lastPathComponent)
    }

    /// A built-in scenario by name, or a YAML file by path.
    public static func named(_ nameOrPath: String) throws(LatsimError) -> Scenario {
        if let s = try BuiltinScenarios.scenario(named: nameOrPath) { return s }
        if nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml") || nameOrPath.contains("/") {
            return try load(file: nameOrPath)
        }
        let problem = "no built-in scenario of that name" + didYouMean(nameOrPath, among: BuiltinScenarios.names)
        var e = LatsimError(value: nameOrPath, problem: problem,
                            expected: "one of the \(BuiltinScenarios.names.count) built-in scenarios, or a path to a YAML file")
        e.seeAlso = .scenarios
        throw e
    }

    /// The scenario's settings after `assignments`, in order.
    public func settings(with assignments: [Assignment]) throws(LatsimError) -> Settings {
        var s = settings
        for a in assignments { try s.apply(a) }
        return s
    }

    /// The resolved configuration after `assignments`, in order.
    public func configuration(_ assignments: [Assignment] = []) throws(LatsimError) -> PipelineConfiguration {
        try settings(with: assignments).configuration()
    }
}
