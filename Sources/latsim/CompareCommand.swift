import ArgumentParser
import Experiments
import FramePipeline
import Foundation
import LatencyReport
import Scenarios
import SimKernel

/// `latsim compare`: what a change buys.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two configurations: the settings that differ, every figure, and whether a difference is real.",
        discussion: """
        A and B are built-in scenarios or YAML files; with one scenario, B is A \\
        changed by --b-set. --set applies to both sides, --a-set and --b-set to one. \\
        Each side runs --seeds times (seeds S, S+1, ...; seed k of A beside seed k of \\
        B). The table gives each figure's mean over the seeds on each side, the \\
        difference B − A (in ms and in display frames of A), its 95% interval over \\
        the seed pairs, and a verdict: "real" when the interval excludes 0, "noise" \\
        when it does not (with every seed alike, any difference is real).

        Examples:
          latsim compare ios9-low-latency ios9-coalescing-120hz
          latsim compare ios9-coalescing-120hz --b-set gpu.render=9ms \\
              --set 'app.handler=lognormal(4ms,0.5)'
          latsim compare ios8 ios9-low-latency --seeds 10 --json compare.json
        """
    )

    @Argument(help: "Scenario A (and B): built-in names or YAML files.") var scenarios: [String]
    @Option(parsing: .unconditional, help: ArgumentHelp("Runs per side, with seeds S, S+1, ...", valueName: "N")) var seeds: Int = 5
    @Option(name: .customLong("a-set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Override a key on side A only.", valueName: "PATH=VALUE"))
    var aSet: [String] = []
    @Option(name: .customLong("b-set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Override a key on side B only.", valueName: "PATH=VALUE"))
    var bSet: [String] = []
    @OptionGroup var options: RunOptions
    @Option(help: ArgumentHelp("Write the comparison as JSON to PATH ('-' for stdout).", valueName: "PATH")) var json: String?

    func validate() throws {
        if scenarios.isEmpty || scenarios.count > 2 { throw ValidationError("name one or two scenarios (`latsim list` shows them)") }
        if !(1...1000).contains(seeds) { throw ValidationError("--seeds must be 1...1000, got \(seeds)") }
    }

    func run() throws {
        try CLI.preflight(files: [json])
        let common = try options.assignments()
        func side(_ name: String, _ extra: [String], flag: String, label: String) throws -> Comparison.Side {
            let s = try options.scenario(name)
            let settings = try s.settings(with: common + extra.map { try Assignment(parsing: $0, source: SettingSource(file: flag)) })
            return Comparison.Side(name: label, settings: settings, configuration: try settings.configuration())
        }
        let aName = scenarios[0], bName = scenarios.count == 2 ? scenarios[1] : scenarios[0]
        let sameName = aName == bName
        let a = try side(aName, aSet, flag: "--a-set", label: sameName ? "A" : aName)
        let b = try side(bName, bSet, flag: "--b-set", label: sameName ? "B" : bName)
        let c = try Comparison.run(a: a, b: b, seeds: seeds, jobs: ProcessInfo.processInfo.activeProcessorCount,
                                   maxEvents: options.maxEvents)
        if let json {
            try CLI.write(CompareOutput.json(c).text() + "\n", to: json)
            if json == "-" { return }
        }
        CLI.say(CompareOutput.text(c))
    }
}

/// `latsim scenario diff`: the settings two scenarios differ in.
struct ScenarioDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "The settings two scenarios differ in, with where each value comes from."
    )
    @Argument(help: "Two built-in scenario names or YAML files.") var scenarios: [String]

    func validate() throws {
        if scenarios.count != 2 { throw ValidationError("name two scenarios") }
    }

    func run() throws {
        let a = try Scenario.named(scenarios[0]), b = try Scenario.named(scenarios[1])
        _ = try a.configuration()
        _ = try b.configuration()
        let d = SettingDifference.between(a.settings, b.settings)
        guard !d.isEmpty else {
            CLI.say("\(a.name) and \(b.name) have the same settings")
            return
        }
        var t = TextTable(header: ["key", a.name, "from", b.name, "from"])
        for x in d { t.rows.append([x.key, x.a, x.aSource, x.b, x.bSource]) }
        CLI.say(t.render())
    }
}

/// The readable table and the JSON of a comparison.
enum CompareOutput {
    static func text(_ c: Comparison) -> String {
        var out: [String] = []
        if c.settingDifferences.filter({ $0.key != "seed" }).isEmpty {
            out.append("\(c.a.name) and \(c.b.name): the same settings")
        } else {
            out.append("settings that differ:")
            var t = TextTable(header: ["key", c.a.name, c.b.name])
            for d in c.settingDifferences where d.key != "seed" { t.rows.append([d.key, d.a, d.b]) }
            out.append(t.render())
        }
        out.append("")
        let frameMs = c.a.configuration.vsyncClock.periodNanos / 1e6
        var t = TextTable(header: ["figure", c.a.name, c.b.name, "B − A", "B − A frames", "95% interval", "verdict"], rightAligned: [1, 2, 3, 4, 5])
        for r in c.rows {
            let p = r.figure.places
            func f(_ x: Double?) -> String { x.map { formatDecimal($0, places: p, fixed: true) } ?? "-" }
            let d = r.difference.perSeed
            let frames = r.figure.isMilliseconds ? d.mean.map { formatDecimal($0 / frameMs, places: 2, fixed: true) } ?? "-" : ""
            let interval = d.halfWidth95.map { "±" + formatDecimal($0, places: p, fixed: true) } ?? "-"
            // a difference below the shown precision is no difference
            let shownZero = d.mean.map { abs($0) < 0.5 * pow(10, -Double(p)) } ?? false
            let verdict: String
            switch r.difference.isReal {
            case nil where d.mean == nil: verdict = "-"
            case _ where shownZero && (d.halfWidth95 ?? 0) < 0.5 * pow(10, -Double(p)): verdict = "same"
            case true?: verdict = "real"
            case false?: verdict = "noise"
            case nil: verdict = "one seed"
            }
            let diff = d.mean.map { shownZero ? f(0) : ($0 > 0 ? "+" : "") + f($0) } ?? "-"
            t.rows.append([r.figure.column, f(r.a.mean), f(r.b.mean), diff, frames, interval, verdict])
        }
        out.append(t.render())
        out.append("")
        out.append("Means over \(c.seeds) seed\(c.seeds == 1 ? "" : "s") per side, differences paired by seed\(c.seeds == 1 ? "; with one seed nothing tells the seed's own variation from a difference (use --seeds)" : "; a 95% interval that excludes 0 is a real difference").")
        return out.joined(separator: "\n")
    }

    static func json(_ c: Comparison) -> JSONValue {
        let stat = SeedJSON.statistic
        return ResultHeader.document("compare", command: CLI.command, [
            ("a", .string(c.a.name)), ("b", .string(c.b.name)), ("seeds", .int(c.seeds)),
            ("settings", .array(c.settingDifferences.map { d in
                .object([("key", .string(d.key)), ("a", .string(d.a)), ("aFrom", .string(d.aSource)),
                         ("b", .string(d.b)), ("bFrom", .string(d.bSource))])
            })),
            ("figures", .array(c.rows.map { r in
                .object([("figure", .string(r.figure.rawValue)), ("column", .string(r.figure.column)),
                         ("a", stat(r.a)), ("b", stat(r.b)), ("difference", stat(r.difference.perSeed)),
                         ("real", r.difference.isReal.map { .bool($0) } ?? .null)])
            })),
        ])
    }
}
