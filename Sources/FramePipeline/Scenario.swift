import Foundation
import Yams

/// A named scenario: settings read from a YAML document (MODEL.md section 8).
///
/// A scenario file holds `name`, `description` and any keys of
/// ``ConfigurationKey/all`` written as nested mappings (`os: {renderServer:
/// vsync}`) or dotted paths (`os.renderServer: vsync`). Distributions may be
/// written `uniform(2ms,6ms)` or as a mapping (`{uniform: [2ms, 6ms]}`,
/// `{normal: {mean: 4ms, sd: 1ms}}`, `{lognormal: {median: 4ms, sigma: 0.3}}`,
/// `{empirical: [1ms, 2ms]}`); animation intervals as a string or a list.
public struct Scenario: Sendable {
    public var name: String
    public var description: String
    public var settings: Settings
    /// The YAML text it was read from.
    public var yaml: String
    /// The file it was read from, or `builtin:NAME`.
    public var file: String

    /// Reads a scenario from YAML text. `file` names it in errors.
    public init(yaml: String, file: String, defaultName: String) throws(ScenarioError) {
        self.yaml = yaml
        self.file = file
        name = defaultName
        description = ""
        settings = Settings()
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let e as YamlError {
            throw Scenario.describe(e, file: file)
        } catch {
            throw ScenarioError(file: file, message: "not valid YAML: \(error)")
        }
        guard let root else { return } // an empty file is the defaults
        guard case .mapping(let mapping) = root else {
            throw ScenarioError(file: file, line: root.mark?.line, column: root.mark?.column,
                                message: "a scenario is a YAML mapping of keys (e.g. `os:` then `  renderServer: vsync`), not a \(Scenario.kind(root))")
        }
        try read(mapping, prefix: "")
    }

    private mutating func read(_ mapping: Node.Mapping, prefix: String) throws(ScenarioError) {
        for (keyNode, value) in mapping {
            guard let key = keyNode.string else {
                throw ScenarioError(file: file, line: keyNode.mark?.line, column: keyNode.mark?.column, message: "keys must be plain names")
            }
            let path = prefix.isEmpty ? key : prefix + "." + key
            let source = SettingSource(file: file, line: keyNode.mark?.line, column: keyNode.mark?.column)
            if prefix.isEmpty, ConfigurationKey.metadataKeys.contains(key) {
                guard let s = value.string else {
                    throw ScenarioError(file: file, keyPath: path, line: source.line, column: source.column, message: "expected a string")
                }
                if key == "name" { name = s } else { description = s }
                continue
            }
            if ConfigurationKey.byPath[path] != nil {
                try settings.set(path, try Scenario.text(of: value, path: path, file: file), source: source)
            } else if case .mapping(let inner) = value, ConfigurationKey.all.contains(where: { $0.path.hasPrefix(path + ".") }) {
                try read(inner, prefix: path)
            } else {
                try settings.set(path, value.string ?? "", source: source) // throws: unknown key
            }
        }
    }

    /// The value of a setting as the command-line text it stands for.
    static func text(of node: Node, path: String, file: String) throws(ScenarioError) -> String {
        func bad(_ what: String) -> ScenarioError {
            ScenarioError(file: file, keyPath: path, line: node.mark?.line, column: node.mark?.column,
                          message: what + "; expected " + (ConfigurationKey.byPath[path]?.expected ?? "a value"))
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

    static func describe(_ e: YamlError, file: String) -> ScenarioError {
        switch e {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            let ctx = context.map { $0.text + " (line \($0.mark.line)), " } ?? ""
            return ScenarioError(file: file, line: mark.line, column: mark.column, message: "malformed YAML: \(ctx)\(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            return ScenarioError(file: file, line: context.mark.line, column: context.mark.column,
                                 message: "malformed YAML: duplicated key(s) \(duplicates.sorted().joined(separator: ", "))")
        default:
            return ScenarioError(file: file, message: "malformed YAML: \(e)")
        }
    }
}

extension Scenario {
    /// Reads a scenario from a file path.
    public static func load(file path: String) throws(ScenarioError) -> Scenario {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ScenarioError(file: path, message: exists ? "cannot read this file" : "no such file, and no built-in scenario of that name (`latsim list` shows them)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(file: path, message: "not UTF-8 text; expected a YAML scenario")
        }
        return try Scenario(yaml: text, file: path, defaultName: url.deletingPathExtension().lastPathComponent)
    }

    /// A built-in scenario by name, or a YAML file by path.
    public static func named(_ nameOrPath: String) throws(ScenarioError) -> Scenario {
        if let s = try BuiltinScenarios.scenario(named: nameOrPath) { return s }
        if nameOrPath.hasSuffix(".yaml") || nameOrPath.hasSuffix(".yml") || nameOrPath.contains("/") {
            return try load(file: nameOrPath)
        }
        var message = "no built-in scenario of that name; use one of: " + BuiltinScenarios.names.joined(separator: ", ") + ", or a path to a YAML file"
        if let near = BuiltinScenarios.names.min(by: { editDistance($0, nameOrPath) < editDistance($1, nameOrPath) }),
           editDistance(near, nameOrPath) <= 3 {
            message = "no built-in scenario of that name; did you mean '\(near)'? Valid names: " + BuiltinScenarios.names.joined(separator: ", ") + ", or a path to a YAML file"
        }
        throw ScenarioError(value: nameOrPath, message: message)
    }

    /// The resolved configuration, after `overrides` (PATH=VALUE) and the
    /// optional duration and seed.
    public func configuration(overrides: [String] = [], duration: String? = nil, seed: UInt64? = nil) throws(ScenarioError) -> PipelineConfiguration {
        var s = settings
        for o in overrides { try s.apply(assignment: o) }
        if let duration { try s.set("duration", duration, source: SettingSource(file: "--duration")) }
        if let seed { try s.set("seed", String(seed), source: SettingSource(file: "--seed")) }
        return try PipelineConfiguration(settings: s)
    }
}
