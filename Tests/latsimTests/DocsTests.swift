import Foundation
import Testing

/// The documentation runs: every command of the README's, the guide's, the
/// command reference's and the engine page's examples and of each
/// `--help`'s "Examples:" is extracted and run, on shipped files only, in a
/// scratch folder that holds the repository's `Examples/` and a copy of
/// `Reports/prediction-baseline.json`. And the documentation stands on its
/// own: it cites sources, never a file outside the repository, and every
/// relative link resolves inside it.
@Suite(.serialized) struct DocsTests {
    /// The subcommands whose help may carry examples.
    static let subcommands = ["run", "compare", "sweep", "predict", "regress", "diagram", "devices", "validate", "table",
                              "list", "keys", "report"]

    /// Commands of a text: lines starting `latsim ` (or `$ latsim `), each
    /// joined with the lines its trailing `\` continues, comments cut.
    static func commands(in lines: [String]) -> [String] { documented(in: lines).map(\.command) }

    /// Commands of a text with the exit status the text gives each: 0,
    /// unless a `$ echo $?` line and a number follow the command.
    static func documented(in lines: [String]) -> [(command: String, status: Int32)] {
        var out: [(command: String, status: Int32)] = []
        var current: String?
        var i = 0
        while i < lines.count {
            defer { i += 1 }
            var line = lines[i].trimmingCharacters(in: .whitespaces)
            if current == nil {
                if line == "$ echo $?", !out.isEmpty, i + 1 < lines.count,
                   let status = Int32(lines[i + 1].trimmingCharacters(in: .whitespaces)) {
                    out[out.count - 1].status = status
                    i += 1
                    continue
                }
                if line.hasPrefix("$ ") { line.removeFirst(2) }
                guard line.hasPrefix("latsim ") || line == "latsim" else { continue }
            }
            let continued = line.hasSuffix("\\")
            if continued { line.removeLast() }
            current = (current.map { $0 + " " } ?? "") + line.trimmingCharacters(in: .whitespaces)
            if !continued, let c = current { out.append((Self.uncommented(c), 0)); current = nil }
        }
        return out
    }

    /// A command without its trailing `# comment` (a `#` outside quotes after a space).
    static func uncommented(_ command: String) -> String {
        var quote: Character?
        var previous: Character = " "
        for (i, ch) in command.enumerated() {
            if let q = quote { if ch == q { quote = nil } } else if ch == "'" || ch == "\"" { quote = ch } else if ch == "#", previous == " " {
                return String(command.prefix(i)).trimmingCharacters(in: .whitespaces)
            }
            previous = ch
        }
        return command.trimmingCharacters(in: .whitespaces)
    }

    /// True when every quote of `command` is closed.
    static func balanced(_ command: String) -> Bool {
        var quote: Character?
        for ch in command { if let q = quote { if ch == q { quote = nil } } else if ch == "'" || ch == "\"" { quote = ch } }
        return quote == nil
    }

    /// The pages whose code blocks' commands are run: the README and every
    /// page of Docs/.
    static let runPages: [String] = ["README.md"] + ((try? FileManager.default.contentsOfDirectory(
        atPath: Latsim.packageRoot.appendingPathComponent("Docs").path)) ?? [])
        .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }

    /// Lines of Docs/ that look like commands and are not run, each with the
    /// reason; every one must still be on its page (so the list cannot rot).
    static let notRun: [(page: String, command: String, why: String)] = [
        ("Docs/Architecture.md", "latsim (the command line)", "a box of the modules' drawing"),
        ("Docs/TraceFormats.md", "latsim import FILE [--out PATH] [--name NAME]", "the command's synopsis"),
        ("Docs/MeasuredDurations.md", "latsim run ios9-low-latency --set 'app.handler=empirical(@frames.csv:handler_ms)'",
         "frames.csv is the reader's own export, made by the steps the page gives"),
        ("Docs/MeasuredDurations.md", "latsim run android-default --set 'app.handler=empirical(@frames.csv:frame_ms)'",
         "frames.csv is the reader's own export, made by the steps the page gives"),
        ("Docs/Prediction.md", "latsim regress --baseline mine.json --update --predictor-command ./linear",
         "./linear is Examples/predictors/linear.c compiled by the reader (CIExampleTests compiles and runs it)"),
    ]

    /// A page's commands (code blocks only), with their documented exit status.
    static func pageCommands(_ page: String) throws -> [(command: String, status: Int32)] {
        let text = try String(contentsOf: Latsim.packageRoot.appendingPathComponent(page), encoding: .utf8)
        var inBlock = false
        var lines: [String] = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            if inBlock { lines.append(line) }
        }
        return documented(in: lines)
    }

    /// A help's example lines: the block after `Examples:`, to the first blank line.
    static func helpExamples(_ subcommand: String) throws -> [String] {
        let o = try Latsim.run([subcommand, "--help"])
        let lines = o.stdout.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "Examples:" }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
    }

    /// A scratch folder holding `Examples/` and the shipped baseline, as the
    /// repository root does.
    static func scratch() throws -> URL {
        let dir = try Latsim.temporaryDirectory()
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("Examples"),
                                                   withDestinationURL: Latsim.packageRoot.appendingPathComponent("Examples"))
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Reports"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Latsim.packageRoot.appendingPathComponent("Reports/prediction-baseline.json"),
                                         to: dir.appendingPathComponent("Reports/prediction-baseline.json"))
        return dir
    }

    /// Runs `command` through the shell in `dir`, `latsim` being the built one.
    static func run(_ command: String, in dir: URL) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        p.currentDirectoryURL = dir
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = Latsim.binary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// The examples of the README, the guide, the command reference and the
    /// engine page all name shipped files and exit as the page says (0, or
    /// the status its `$ echo $?` shows).
    @Test(arguments: runPages) func everyDocumentedCommandRuns(page: String) throws {
        let commands = try Self.pageCommands(page).filter { c in !Self.notRun.contains { $0.page == page && $0.command == c.command } }
        guard !commands.isEmpty else { return }
        let dir = try Self.scratch()
        for (c, status) in commands {
            #expect(Self.balanced(c), "\(page): unbalanced quotes: \(c)")
            #expect(!c.contains("../"), "\(page): a file outside the repository: \(c)")
            let r = try Self.run(c, in: dir)
            #expect(r.status == status, "\(page): \(c)\nexit \(r.status), documented \(status)\n\(r.output.suffix(1500))")
        }
    }

    /// The pages hold the examples they held as one README: at least 25
    /// commands, the compare gate's failing one among them with its status;
    /// the README shows the first run, a benchmark, a chart and the gate.
    @Test func thePagesHoldEveryExample() throws {
        let all = try Self.runPages.flatMap { try Self.pageCommands($0) }
        #expect(all.count >= 25, "\(all.count) commands found")
        #expect(all.contains { $0.status == 1 }, "the compare gate's failing example is found with its status")
        #expect(try !Self.pageCommands("README.md").isEmpty && !Self.pageCommands("Docs/Guide.md").isEmpty
                && !Self.pageCommands("Docs/Commands.md").isEmpty)
        for skipped in Self.notRun {
            #expect(try Self.pageCommands(skipped.page).contains { $0.command == skipped.command },
                    "\(skipped.page) no longer holds a command the tests leave out: \(skipped.command)")
        }
        let readme = try Self.pageCommands("README.md").map(\.command)
        for job in ["latsim run ", "latsim compare ", "latsim diagram ", "latsim regress "] {
            #expect(readme.contains { $0.hasPrefix(job) }, "the README shows no `\(job)...`")
        }
    }

    /// Each `--help` example is printed whole (no line wraps inside a
    /// quoted argument), names shipped files, and runs with exit 0.
    @Test func everyHelpExampleRuns() throws {
        let dir = try Self.scratch()
        var total = 0
        for sub in Self.subcommands {
            let lines = try Self.helpExamples(sub)
            // every line is a command or the continuation of one ending in `\`
            var continues = false
            for line in lines {
                let t = line.trimmingCharacters(in: .whitespaces)
                #expect(continues || t.hasPrefix("latsim "), "\(sub) --help: a wrapped example line: \(line)")
                continues = t.hasSuffix("\\")
            }
            for c in Self.commands(in: lines) {
                total += 1
                #expect(Self.balanced(c), "\(sub) --help: unbalanced quotes: \(c)")
                let r = try Self.run(c, in: dir)
                #expect(r.status == 0, "\(sub) --help: \(c)\nexit \(r.status)\n\(r.output.suffix(1500))")
            }
        }
        #expect(total >= 20, "\(total) help examples")
    }

    /// A percentage takes its sign: `regress --tolerance 5%` is 5 percent;
    /// a malformed one is bad input naming the flag.
    @Test func aToleranceTakesAPercentSign() throws {
        let dir = try Self.scratch()
        let ok = try Self.run("latsim regress --baseline Reports/prediction-baseline.json --tolerance 5%", in: dir)
        #expect(ok.status == 0, "\(ok.output.suffix(800))")
        let bad = try Self.run("latsim regress --baseline Reports/prediction-baseline.json --tolerance 5%%", in: dir)
        #expect(bad.status == 2 && bad.output.contains("--tolerance") && bad.output.contains("'5%%'")
                && bad.output.contains("is not a percentage"), "\(bad.output.suffix(800))")
    }

    /// The extraction itself: continuation lines join, comments go, quotes count.
    @Test func commandsAreExtractedWhole() {
        let c = Self.commands(in: ["text", "$ latsim run a \\", "    --set 'x=#1' # note", "latsim list"])
        #expect(c == ["latsim run a --set 'x=#1'", "latsim list"])
        let d = Self.documented(in: ["$ latsim compare a --fail-if-worse x", "...", "$ echo $?", "1", "latsim list"])
        #expect(d.map(\.command) == ["latsim compare a --fail-if-worse x", "latsim list"] && d.map(\.status) == [1, 0])
        #expect(!Self.balanced("latsim run --set 'x=lognormal(4ms,"))
    }
}
