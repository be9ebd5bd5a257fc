import FramePipeline
import Foundation
import SimKernel
import Yams

/// A real device: the facts of its display, digitizer and (on Android) its
/// pipeline configuration, each with where it comes from (Docs/Devices.md).
///
/// A preset is a YAML file: `name`, `description`, `platform`, the
/// `classes` whose defaults it takes, `parameters` (each key of the key
/// table with its `value`, `from`: one of ``origins``, and `source`: the
/// document, file or measurement), and `notes` (where sources disagree,
/// what is left out). A scenario applies one with `device: NAME`; the
/// scenario's own keys, then `--set`, still override it.
public struct DevicePreset: Sendable {
    /// One parameter: a configuration key's value and its source.
    public struct Parameter: Sendable, Hashable {
        /// The configuration key.
        public var path: String
        /// The value, as a scenario would write it.
        public var value: String
        /// What kind of source: one of ``DevicePreset/origins``, or
        /// `class` for a class default.
        public var from: String
        /// The source itself: the document, file or measurement.
        public var source: String
        /// The class it comes from, for a class default.
        public var className: String?
        /// Where it is written.
        public var place: SettingSource
    }

    /// The kinds of source a preset's own parameter may name.
    public static let origins = ["manufacturer", "device-tree", "hal", "walt", "talk"]

    /// The preset's name (`nexus-9`).
    public var name: String
    /// One line: what the device is.
    public var description: String
    /// Its platform (sets `os.platform`).
    public var platform: Platform
    /// The classes whose defaults it takes, in order.
    public var classes: [String]
    /// Every parameter it sets, class defaults first, its own after (an own
    /// parameter replaces a class default of the same key).
    public var parameters: [Parameter]
    /// Where sources disagree and what is left out.
    public var notes: [String]
    /// The file it was read from (`builtin-device:NAME` for a built-in one).
    public var file: String

    /// The settings the preset gives: `os.platform` and every parameter,
    /// each with its place in the preset (or class) file.
    public func settings() -> Settings {
        var s = Settings()
        // every path was checked when the preset was read
        try? s.set("os.platform", platform.rawValue, source: SettingSource(file: file))
        for p in parameters { try? s.set(p.path, p.value, source: p.place) }
        s.devicePreset = name
        return s
    }

    /// The value the preset gives a key, if it sets it.
    public func parameter(_ path: String) -> Parameter? { parameters.last { $0.path == path } }
}

extension DevicePreset {
    /// The built-in presets (Docs/Devices.md), iOS first.
    public static let builtinNames = [
        "iphone-5", "iphone-x", "ipad-mini", "ipad-air-2", "ipad-pro-2015", "ipad-pro-2017",
        "iphone-13-pro", "ipad-pro-m4",
        "nexus-5", "nexus-5x", "nexus-7-2013", "nexus-9", "pixel", "pixel-xl", "pixel-4", "pixel-5", "pixel-6",
        "pixel-7", "pixel-8", "xiaomi-pad-5",
    ]

    /// The YAML text of a built-in resource of the device folder.
    static func resource(_ name: String) -> String? {
        BundledFile.yaml(name, in: "Devices")
    }

    /// A built-in preset by name, or a preset file by path (relative paths
    /// from `folder` when given).
    public static func named(_ nameOrPath: String, relativeTo folder: String? = nil) throws(LatsimError) -> DevicePreset {
        if builtinNames.contains(nameOrPath), let text = resource(nameOrPath) {
            return try DevicePreset(yaml: text, file: "builtin-device:\(nameOrPath)")
        }
        if nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml") || nameOrPath.contains("/") {
            var path = nameOrPath
            if let folder, !nameOrPath.hasPrefix("/") { path = (folder as NSString).appendingPathComponent(nameOrPath) }
            let data = try InputFiles.read(path, expected: "a device preset YAML file, or a built-in device name",
                                           maximumBytes: Scenario.maximumBytes)
            guard let text = String(data: data, encoding: .utf8) else {
                throw LatsimError(file: path, problem: "not UTF-8 text", expected: "a device preset YAML file")
            }
            return try DevicePreset(yaml: text, file: path)
        }
        let problem = "no device preset of that name" + didYouMean(nameOrPath, among: builtinNames)
        var e = LatsimError(value: nameOrPath, problem: problem,
                            expected: "one of the \(builtinNames.count) built-in device presets, or a path to a device YAML file")
        e.seeAlso = .devices
        throw e
    }

    /// Every built-in preset, in order.
    public static func all() throws(LatsimError) -> [DevicePreset] {
        var out: [DevicePreset] = []
        for n in builtinNames { out.append(try named(n)) }
        return out
    }

    /// The class defaults (`classes.yaml`): name -> description and parameters.
    static let classTable: Result<[String: (description: String, parameters: [Parameter])], LatsimError> = {
        guard let text = resource("classes") else {
            return .failure(LatsimError(.internal, file: "builtin-device:classes", problem: "the class defaults are missing"))
        }
        return Result(catching: { () throws(LatsimError) in try readClasses(text, file: "builtin-device:classes") })
    }()

    /// The class defaults, by name.
    public static func classDefaults() throws(LatsimError) -> [String: (description: String, parameters: [Parameter])] {
        try classTable.get()
    }

    static func readClasses(_ text: String, file: String) throws(LatsimError) -> [String: (description: String, parameters: [Parameter])] {
        let root = try PresetYAML.root(text, file: file)
        var out: [String: (description: String, parameters: [Parameter])] = [:]
        for (k, v) in root {
            let name = try PresetYAML.key(k, file: file)
            let m = try PresetYAML.mapping(v, file: file, what: "class \(name)")
            var description = ""
            var parameters: [Parameter] = []
            for (ik, iv) in m {
                switch try PresetYAML.key(ik, file: file) {
                case "description": description = try PresetYAML.string(iv, file: file, key: "\(name).description")
                case "parameters":
                    parameters = try readParameters(iv, file: file, origins: ["class"], className: name)
                case let other:
                    throw PresetYAML.error(ik, file: file, key: other, "is not a field of a class",
                                           expected: "description and parameters")
                }
            }
            out[name] = (description, parameters)
        }
        return out
    }

    /// Reads a `parameters:` mapping: key -> {value, from, source}.
    static func readParameters(_ node: Node, file: String, origins: [String], className: String?) throws(LatsimError) -> [Parameter] {
        var out: [Parameter] = []
        for (k, v) in try PresetYAML.mapping(node, file: file, what: "parameters") {
            let path = try PresetYAML.key(k, file: file)
            do { _ = try ConfigurationKey.named(path) } catch {
                throw error.located(file: file, line: k.mark?.line, column: k.mark?.column)
            }
            if path == "os.platform" {
                throw PresetYAML.error(k, file: file, key: path, "is set by the preset's platform", expected: "platform: ios or android")
            }
            let fields = try PresetYAML.mapping(v, file: file, what: path)
            var value: String?, from: String? = className == nil ? nil : "class", source: String?
            for (fk, fv) in fields {
                switch try PresetYAML.key(fk, file: file) {
                case "value": value = try Scenario.text(of: fv, path: path, file: file)
                case "from" where className == nil: from = try PresetYAML.string(fv, file: file, key: "\(path).from")
                case "source": source = try PresetYAML.string(fv, file: file, key: "\(path).source")
                case let other:
                    throw PresetYAML.error(fk, file: file, key: "\(path).\(other)", "is not a field of a parameter",
                                           expected: className == nil ? "value, from and source" : "value and source")
                }
            }
            guard let value, let from, let source, !source.isEmpty else {
                throw PresetYAML.error(k, file: file, key: path, "lacks its value, its kind of source or its source",
                                       expected: className == nil ? "value, from (\(origins.joined(separator: ", "))) and source"
                                           : "value and source")
            }
            guard origins.contains(from) else {
                throw PresetYAML.error(k, file: file, key: "\(path).from", "'\(from)' is not a kind of source",
                                       expected: "one of \(origins.joined(separator: ", ")), or a class default under classes:")
            }
            out.append(Parameter(path: path, value: value, from: from, source: source, className: className,
                                 place: SettingSource(file: file, line: k.mark?.line, column: k.mark?.column)))
        }
        return out
    }

    /// Reads a preset from YAML text; `file` names it in errors. Every
    /// value is checked as the key table checks it.
    public init(yaml: String, file: String) throws(LatsimError) {
        self.file = file
        let root = try PresetYAML.root(yaml, file: file)
        var name: String?, description = "", platform: Platform?, classes: [String] = [], own: [Parameter] = []
        var notes: [String] = []
        for (k, v) in root {
            switch try PresetYAML.key(k, file: file) {
            case "name":
                let text = try PresetYAML.string(v, file: file, key: "name")
                // a device's name goes into tables and file names: an identifier
                if let problem = Identifier.problem(text) {
                    throw LatsimError(file: file, line: v.mark?.line, column: v.mark?.column, key: "name", value: text,
                                      problem: problem, expected: "a device name of " + Identifier.characters)
                }
                name = text
            case "description": description = try PresetYAML.string(v, file: file, key: "description")
            case "platform":
                let text = try PresetYAML.string(v, file: file, key: "platform")
                guard let p = Platform(keyword: text) else {
                    throw PresetYAML.error(v, file: file, key: "platform", "'\(text)' is not a platform", expected: Platform.spellings)
                }
                platform = p
            case "classes":
                guard case .sequence(let seq) = v else {
                    throw PresetYAML.error(v, file: file, key: "classes", "is not a list", expected: "a list of class names, e.g. [lcd]")
                }
                for item in seq { classes.append(try PresetYAML.string(item, file: file, key: "classes")) }
            case "parameters": own = try DevicePreset.readParameters(v, file: file, origins: DevicePreset.origins, className: nil)
            case "notes":
                guard case .sequence(let seq) = v else {
                    throw PresetYAML.error(v, file: file, key: "notes", "is not a list", expected: "a list of sentences")
                }
                for item in seq { notes.append(try PresetYAML.string(item, file: file, key: "notes")) }
            case let other:
                throw PresetYAML.error(k, file: file, key: other, "is not a field of a device preset",
                                       expected: "name, description, platform, classes, parameters and notes")
            }
        }
        guard let name, !name.isEmpty else { throw LatsimError(file: file, key: "name", problem: "is missing", expected: "the preset's name") }
        guard let platform else {
            throw LatsimError(file: file, key: "platform", problem: "is missing", expected: "platform: ios or android")
        }
        let table = try DevicePreset.classDefaults()
        var parameters: [Parameter] = []
        for c in classes {
            guard let entry = table[c] else {
                throw LatsimError(file: file, key: "classes", value: c, problem: "no class of that name",
                                  expected: "one of " + table.keys.sorted().joined(separator: ", "))
            }
            parameters += entry.parameters
        }
        let ownPaths = Set(own.map(\.path))
        parameters = parameters.filter { !ownPaths.contains($0.path) } + own
        self.name = name
        self.description = description
        self.platform = platform
        self.classes = classes
        self.parameters = parameters
        self.notes = notes
        // every value as the key table reads it, on the preset's platform
        _ = try settings().configuration()
    }
}

/// The small YAML reading a preset needs, with its errors placed.
enum PresetYAML {
    static func root(_ text: String, file: String) throws(LatsimError) -> Node.Mapping {
        let node = try YAMLDocument.compose(text, file: file)
        guard let node, case .mapping(let m) = node else {
            throw LatsimError(file: file, line: node?.mark?.line, column: node?.mark?.column, problem: "is not a YAML mapping",
                              expected: "fields such as name:, platform: and parameters:")
        }
        return m
    }

    static func key(_ node: Node, file: String) throws(LatsimError) -> String {
        guard let s = node.string else { throw error(node, file: file, key: nil, "a key is not a plain name", expected: "a name") }
        return s
    }

    static func string(_ node: Node, file: String, key: String) throws(LatsimError) -> String {
        guard case .scalar(let s) = node else { throw error(node, file: file, key: key, "is not a single value", expected: "text") }
        return s.string
    }

    static func mapping(_ node: Node, file: String, what: String) throws(LatsimError) -> Node.Mapping {
        guard case .mapping(let m) = node else {
            throw error(node, file: file, key: what, "is not a mapping", expected: "indented fields under it")
        }
        return m
    }

    static func error(_ node: Node, file: String, key: String?, _ problem: String, expected: String) -> LatsimError {
        LatsimError(file: file, line: node.mark?.line, column: node.mark?.column, key: key, problem: problem, expected: expected)
    }
}
