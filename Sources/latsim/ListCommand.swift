import ArgumentParser
import FramePipeline

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the built-in scenarios.",
        discussion: "Each can be printed with `latsim scenario show NAME`, copied and edited; a YAML path works wherever a name does."
    )

    func run() throws {
        try CLI.guarded {
            var t = TextTable(header: ["scenario", "description"])
            for s in BuiltinScenarios.all() { t.rows.append([s.name, s.description]) }
            CLI.say(t.render())
        }
    }
}

struct ScenarioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: "Work with scenario files.",
        subcommands: [Show.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a scenario's YAML, ready to copy and edit.",
            discussion: "With --resolved, every key is printed with the value the run would use."
        )
        @Argument(help: "A built-in scenario name or a YAML file.") var scenario: String
        @Flag(help: "Print every configuration key with its resolved value.") var resolved = false
        @Option(name: .customLong("set"), help: "Override a key (PATH=VALUE) before resolving.") var overrides: [String] = []

        func run() throws {
            try CLI.guarded {
                let s = try Scenario.named(scenario)
                if !resolved && overrides.isEmpty {
                    CLI.say(s.yaml.hasSuffix("\n") ? String(s.yaml.dropLast()) : s.yaml)
                    return
                }
                _ = try s.configuration(overrides: overrides) // validates
                var settings = s.settings
                for o in overrides { try settings.apply(assignment: o) }
                CLI.say(ScenarioYAML.resolved(name: s.name, description: s.description, settings: settings))
            }
        }
    }
}

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "List every configuration key with its default and accepted values."
    )

    func run() throws {
        var t = TextTable(header: ["key", "default", "accepted values"])
        for k in ConfigurationKey.all { t.rows.append([k.path, k.defaultValue, k.expected]) }
        CLI.say(t.render())
    }
}
