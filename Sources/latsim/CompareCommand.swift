import ArgumentParser
import Experiments
import Foundation
import FramePipeline
import LatsimOutput
import Measures
import Report
import Scenarios
import SimKernel

/// `latsim compare`: what a change buys.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two configurations: the settings that differ, every figure, and whether a difference is real.",
        discussion: """
        A and B are built-in scenarios or YAML files; with one scenario, B is A \
        changed by --b-set. --set applies to both sides, --a-set and --b-set to one. \
        Each side runs --seeds times (seeds S, S+1, ...; seed k of A beside seed k of \
        B). Every figure either side produces is compared (Docs/Figures.md), each \
        side's headline first: each side's mean over the seeds, the difference B − A \
        (for milliseconds also in display frames, when both sides have one display \
        rate; a figure counted in display frames of two rates is "not comparable"), \
        its 95% interval over the \
        seed pairs, and a verdict: "better" or "worse" (B against A, in the figure's \
        better direction) when the interval excludes 0, "differs" for a figure with \
        no better direction, "noise" when the interval includes 0, "same" when no \
        difference shows at the figure's precision, "one seed" with --seeds 1 and a \
        configuration that varies with the seed, "-" when a side measured nothing.

        --fail-if-worse FIGURE[:TOLERANCE] (repeatable) gates a change: exit 1 when B \
        is worse than A on FIGURE beyond the noise and by more than TOLERANCE, a \
        percentage of A (5%) or an amount in the figure's unit (2ms; a plain number \
        for counts and rates). Without a tolerance any real worsening fails; with \
        --seeds 1 nothing tells noise, so any worsening beyond the tolerance fails.

        Examples:
          latsim compare ios9-low-latency ios9-coalescing-120hz
          latsim compare ios9-coalescing-120hz --b-set gpu.render=9ms \\
              --set 'app.handler=lognormal(4ms,0.5)'
          latsim compare ios8 ios9-low-latency --seeds 10 --json compare.json
          latsim compare agawi-glkit --device iphone-5 \\
              --b-set device.touchDownDelay=50ms \\
              --fail-if-worse tapToPhotonP50:50ms
          latsim compare ios8 --b-set gpu.render=6ms --format markdown \\
              --fail-if-worse touchToPhotonP99:2ms
        """
    )

    /// How the comparison is printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, markdown, csv, json
    }

    @Argument(help: "Scenario A (and B): built-in names or YAML files.") var scenarios: [String]
    @Option(parsing: .unconditional, help: ArgumentHelp("Runs per side, with seeds S, S+1, ...", valueName: "N")) var seeds: Int = 5
    @Option(name: .customLong("a-set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Override a key on side A only.", valueName: "PATH=VALUE"))
    var aSet: [String] = []
    @Option(name: .customLong("b-set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Override a key on side B only.", valueName: "PATH=VALUE"))
    var bSet: [String] = []
    @OptionGroup var options: RunOptions
    @Option(help: ArgumentHelp("Write the comparison as JSON to PATH ('-' for stdout).", valueName: "PATH")) var json: String?
    @Option(help: ArgumentHelp("How to print the comparison: table, markdown (for a pull request), csv or json.", valueName: "F"))
    var format: Format = .table
    @Option(name: .customLong("fail-if-worse"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Exit 1 when B is worse than A on FIGURE beyond the noise and TOLERANCE (5% or an amount such as 2ms). Repeatable.", valueName: "FIGURE[:TOLERANCE]"))
    var failIfWorse: [String] = []

    func validate() throws {
        if scenarios.isEmpty || scenarios.count > 2 { throw ValidationError("name one or two scenarios (`latsim list` shows them)") }
        if !(1...1000).contains(seeds) { throw ValidationError("--seeds must be 1...1000, got \(seeds)") }
    }

    func run() throws {
        try CLI.preflight(files: [json])
        var gates: [WorseGate] = []
        for text in failIfWorse {
            do throws(LatsimError) { gates.append(try WorseGate(parsing: text)) } catch {
                var e = error
                e.file = "--fail-if-worse"
                throw e
            }
        }
        let common = try options.assignments()
        func side(_ name: String, _ extra: [String], flag: String, label: String) throws -> Comparison.Side {
            let s = try options.scenario(name)
            let settings = try s.settings(with: common + extra.map { try Assignment(parsing: $0, source: SettingSource(file: flag)) })
            let c = try settings.configuration()
            return Comparison.Side(name: label, settings: settings, configuration: c, headline: try Figure.headline(of: s, c))
        }
        let aName = scenarios[0], bName = scenarios.count == 2 ? scenarios[1] : scenarios[0]
        let sameName = aName == bName
        let a = try side(aName, aSet, flag: "--a-set", label: sameName ? "A" : aName)
        let b = try side(bName, bSet, flag: "--b-set", label: sameName ? "B" : bName)
        for g in gates where !g.figure.isProduced(by: a.configuration) && !g.figure.isProduced(by: b.configuration) {
            throw LatsimError(file: "--fail-if-worse", value: g.figure.rawValue, problem: "is produced by neither side",
                              expected: "a figure the compared runs produce (the comparison's rows; Docs/Figures.md)")
        }
        for g in gates where !Comparison.comparable(g.figure, a.configuration, b.configuration) {
            throw LatsimError(file: "--fail-if-worse", value: g.figure.rawValue,
                              problem: "counts display frames, and A and B run their displays at different rates (\(CompareOutput.rates(a.configuration, b.configuration))): a frame is a different length on each side, so the counts are not compared",
                              expected: "a figure in time for sides of different display rates, such as touchToPhotonP50 (Docs/Figures.md, \"in frames\")")
        }
        let c = try Comparison.run(a: a, b: b, seeds: seeds, jobs: Parallel.availableCPUs,
                                   maxEvents: options.maxEvents)
        let outcome = CompareOutput.gate(c, gates)
        if let json {
            try CLI.write(CompareOutput.json(c, gates: outcome).text() + "\n", to: json)
        }
        if json != "-" {
            switch format {
            case .table: CLI.say(CompareOutput.text(c, gates: outcome))
            case .markdown: CLI.say(CompareOutput.markdown(c, gates: outcome))
            case .csv: CLI.say(String(CompareOutput.csv(c).dropLast()))
            case .json: CLI.say(CompareOutput.json(c, gates: outcome).text())
            }
        }
        if outcome.contains(where: \.failed) { throw ExitCode(ExitStatus.checkFailed) }
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

/// The outputs of a comparison: a text table, Markdown, CSV and JSON, all
/// with the same rows (``Comparison/rows``) and verdicts.
enum CompareOutput {
    /// A gate and whether the comparison fails it.
    struct GateResult {
        var gate: WorseGate
        var row: Comparison.Row?
        var failed: Bool
    }

    static func gate(_ c: Comparison, _ gates: [WorseGate]) -> [GateResult] {
        gates.map { g in
            let row = c.rows.first { $0.figure == g.figure }
            return GateResult(gate: g, row: row, failed: row.map(g.fails) ?? false)
        }
    }

    /// The cells of a figure's row: A, B, B − A, B − A in frames, the
    /// interval, the verdict. A difference in time is also said in display
    /// frames only when both sides have one display rate (a frame of
    /// which?); a figure counted in frames of two rates has no difference.
    static func cells(_ c: Comparison, _ r: Comparison.Row) -> [String] {
        let frameMs = c.a.configuration.vsyncClock.periodNanos / 1e6
        let p = r.figure.places
        func f(_ x: Double?) -> String { x.map { formatDecimal($0, places: p, fixed: true) } ?? "-" }
        let d = r.difference.perSeed
        let v = r.verdict
        guard v != .notComparable else { return [r.figure.column, f(r.a.mean), f(r.b.mean), "-", "", "-", v.rawValue] }
        let frames = r.figure.inFrames && v != .same && c.sameDisplayRate
            ? d.mean.map { formatDecimal($0 / frameMs, places: 2, fixed: true) } ?? "-" : ""
        let interval = d.halfWidth95.map { "±" + formatDecimal($0, places: p, fixed: true) } ?? "-"
        let diff = d.mean.map { v == .same ? f(0) : ($0 > 0 ? "+" : "") + f($0) } ?? "-"
        return [r.figure.column, f(r.a.mean), f(r.b.mean), diff, frames, interval, v.rawValue]
    }

    /// The two sides' display rates, `60 Hz and 120.313 Hz`.
    static func rates(_ a: PipelineConfiguration, _ b: PipelineConfiguration) -> String {
        func hz(_ c: PipelineConfiguration) -> String { formatDecimal(c.displayHz.doubleValue, places: 3) + " Hz" }
        return "\(hz(a)) and \(hz(b))"
    }

    /// A setting as the table shows it: as written, but measured durations
    /// (an empirical distribution of many values, such as an imported
    /// device's) as their count, median and range: `empirical: 34 values,
    /// median 4.8ms, 4.262ms to 5.084ms`. The JSON keeps the text whole.
    static func summarised(_ text: String) -> String {
        let t = text.trimmedWhitespace
        // values in frames would need the side's period: such a list is shown as written
        guard t.hasPrefix("empirical("), !t.contains("@"), !t.contains("frame"),
              case .empirical(let values)? = try? DurationDistribution.parse(t, framePeriod: Rational(1)), values.count > 3 else { return text }
        let s = values.sorted(), n = s.count
        let median = n % 2 == 1 ? Double(s[n / 2]) : (Double(s[n / 2 - 1]) + Double(s[n / 2])) / 2
        func ms(_ ns: Double) -> String { formatDecimal(ns / 1e6, places: 3) + "ms" }
        return "empirical: \(n) values, median \(ms(median)), \(ms(Double(s[0]))) to \(ms(Double(s[n - 1])))"
    }

    static func header(_ c: Comparison) -> [String] {
        ["figure", c.a.name, c.b.name, "B − A", "B − A frames", "95% interval", "verdict"]
    }

    static func settingsLines(_ c: Comparison, markdown: Bool) -> [String] {
        let differing = c.settingDifferences.filter { $0.key != "seed" }
        if differing.isEmpty { return ["\(c.a.name) and \(c.b.name): the same settings"] }
        var t = TextTable(header: ["key", c.a.name, c.b.name])
        for d in differing { t.rows.append([d.key, summarised(d.a), summarised(d.b)]) }
        return ["settings that differ:", markdown ? "" : nil, markdown ? t.markdown() : t.render()].compactMap { $0 }
    }

    static func note(_ c: Comparison) -> String {
        ratesNote(c) + "Means over \(c.seeds) seed\(c.seeds == 1 ? "" : "s") per side, differences paired by seed\(c.seeds == 1 ? "; with one seed nothing tells the seed's own variation from a difference (use --seeds)" : "; a 95% interval that excludes 0 is a real difference, better or worse in the figure's direction (Docs/Figures.md)")."
    }

    /// What a comparison of two display rates leaves out, and why.
    static func ratesNote(_ c: Comparison) -> String {
        guard !c.sameDisplayRate else { return "" }
        return "A and B run their displays at different rates (\(rates(c.a.configuration, c.b.configuration))): "
            + "a figure counted in display frames is each side's count of its own frames, so it is not compared (compare its time, in ms), "
            + "and no difference is said in frames. "
    }

    static func gateLines(_ gates: [GateResult]) -> [String] {
        gates.map { g in
            let tol: String
            switch g.gate.tolerance {
            case .percent(let p): tol = formatDecimal(p, places: 3) + "%"
            case .absolute(let x): tol = formatDecimal(x, places: 6) + (g.gate.figure.unit == .milliseconds ? " ms" : "")
            }
            let d = g.row?.difference.perSeed.mean.map { ($0 > 0 ? "+" : "") + formatDecimal($0, places: g.gate.figure.places, fixed: true) } ?? "-"
            return "\(g.failed ? "FAIL" : "pass") \(g.gate.figure.rawValue): B − A \(d), \(g.row?.verdict.rawValue ?? "-"), tolerance \(tol)"
        }
    }

    static func text(_ c: Comparison, gates: [GateResult] = []) -> String {
        var out = settingsLines(c, markdown: false)
        out.append("")
        let t = TextTable(header: header(c), rows: c.rows.map { cells(c, $0) }, rightAligned: [1, 2, 3, 4, 5])
        out.append(t.render())
        out.append("")
        out.append(note(c))
        if !gates.isEmpty { out.append(""); out += gateLines(gates) }
        return out.joined(separator: "\n")
    }

    /// Markdown for a pull-request comment.
    static func markdown(_ c: Comparison, gates: [GateResult] = []) -> String {
        var out = ["### \(c.a.name) → \(c.b.name)", ""] + settingsLines(c, markdown: true)
        out.append("")
        out.append(TextTable(header: header(c), rows: c.rows.map { cells(c, $0) }, rightAligned: [1, 2, 3, 4, 5]).markdown())
        out.append("")
        out.append(note(c))
        if !gates.isEmpty { out.append(""); out += gateLines(gates).map { "- " + $0 } }
        return out.joined(separator: "\n")
    }

    /// One line per figure, numbers as POSIX decimals at the figure's
    /// precision (``Figure/text(_:)``, as the table shows them), empty when
    /// not measured or, for a figure not comparable, the difference.
    static func csv(_ c: Comparison) -> String {
        var lines = ["figure,column,unit,better,a,b,difference,halfWidth95,verdict"]
        for r in c.rows {
            func n(_ x: Double?) -> String { x.map(r.figure.text) ?? "" }
            let d = r.comparable ? r.difference.perSeed : SeedStatistic([])
            lines.append([r.figure.rawValue, SweepOutput.csvField(r.figure.column), r.figure.unit.rawValue, r.figure.better.rawValue,
                          n(r.a.mean), n(r.b.mean), n(d.mean), n(d.halfWidth95), r.verdict.rawValue].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ c: Comparison, gates: [GateResult] = []) -> JSONValue {
        let stat = SeedJSON.statistic
        return ResultHeader.document("compare", command: CLI.command, [
            ("a", .string(c.a.name)), ("b", .string(c.b.name)), ("seeds", .int(c.seeds)),
            ("settings", .array(c.settingDifferences.map { d in
                .object([("key", .string(d.key)), ("a", .string(d.a)), ("aFrom", .string(d.aSource)),
                         ("b", .string(d.b)), ("bFrom", .string(d.bSource))])
            })),
            ("figures", .array(c.rows.map { r in
                .object([("figure", .string(r.figure.rawValue)), ("column", .string(r.figure.column)),
                         ("unit", .string(r.figure.unit.rawValue)), ("better", .string(r.figure.better.rawValue)),
                         ("a", stat(r.a)), ("b", stat(r.b)), ("difference", r.comparable ? stat(r.difference.perSeed) : .null),
                         ("real", r.comparable ? r.difference.isReal.map { .bool($0) } ?? .null : .null), ("verdict", .string(r.verdict.rawValue))])
            })),
            ("gates", .array(gates.map { g in
                .object([("figure", .string(g.gate.figure.rawValue)), ("failed", .bool(g.failed))])
            })),
        ])
    }
}
