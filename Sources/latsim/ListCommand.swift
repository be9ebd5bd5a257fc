import ArgumentParser
import FramePipeline
import LatsimOutput
import Scenarios

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in scenarios.",
        discussion: "Each can be printed with `latsim scenario show NAME`, copied and edited; a YAML path works wherever a name does."
    )

    func run() throws {
        var t = TextTable(header: ["scenario", "description"])
        for s in BuiltinScenarios.all() { t.rows.append([s.name, s.description]) }
        CLI.say(t.render())
        
    }
}

struct ScenarioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: "Work with scenario files.",
        subcommands: [Show.self, ScenarioDiffCommand.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print a scenario's YAML, ready to copy and edit.",
            discussion: "With --resolved, every key is printed with the value the run would use."
        )
        @Argument(help: "A built-in scenario name or a YAML file.") var scenario: String
        @Flag(help: "Print every configuration key with its resolved value.") var resolved = false
        @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: "Override a key (PATH=VALUE) before resolving.")
        var overrides: [String] = []

        func run() throws {
            let s = try Scenario.named(scenario)
            // a scenario that would not run is not shown as if it would
            _ = try s.configuration()
            if !resolved && overrides.isEmpty {
                CLI.say(s.yaml.hasSuffix("\n") ? String(s.yaml.dropLast()) : s.yaml)
                return
            }
            let settings = try s.settings(with: overrides.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) })
            _ = try settings.configuration() // validates
            CLI.say(ScenarioYAML.resolved(name: s.name, description: s.description, settings: settings))
            
        }
    }
}

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List every configuration key with its default, the platforms that use it, and accepted values.",
        discussion: "A key of one platform set on a run of the other (os.platform) is bad input."
    )

    /// The width the listing keeps to (a 100-column terminal).
    static let columns = 100

    func run() throws {
        CLI.say(Self.listing())
    }

    /// Each key on a line of its own with its default and platforms, then
    /// what it is and the values it takes, indented and wrapped.
    static func listing(columns: Int = columns) -> String {
        var lines: [String] = []
        for k in ConfigurationKey.all {
            var defaults = k.defaultValue
            for (p, d) in k.platformDefaults.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { defaults += " (\(p.rawValue): \(d))" }
            let platforms = k.platforms.map { $0.map(\.rawValue).sorted().joined(separator: ", ") } ?? "both"
            lines += wrapped("\(k.path) = \(defaults)  [\(platforms)]", columns: columns, indent: "        ")
            lines += wrapped(k.summary, columns: columns, indent: "    ", first: "    ")
            lines += wrapped("accepts " + k.expected, columns: columns, indent: "      ", first: "    ")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most `columns` characters, broken at spaces
    /// (a word longer than a line keeps its own line).
    static func wrapped(_ text: String, columns: Int, indent: String, first: String = "") -> [String] {
        var out: [String] = [], line = first
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let lead = out.isEmpty ? first : indent
            if line.count > lead.count && line.count + 1 + word.count > columns {
                out.append(line)
                line = indent
            }
            line += (line.count > (out.isEmpty ? first : indent).count ? " " : "") + word
        }
        out.append(line)
        return out
    }
}
