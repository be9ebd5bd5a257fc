import ArgumentParser
import Charts
import Foundation
import FramePipeline
import LatsimOutput
import Measures
import Scenarios
import SimKernel
import TouchModel

/// The command line's exit statuses, stated in `latsim --help`.
enum ExitStatus {
    /// A check failed: a regression, a row of the talk's table.
    static let checkFailed: Int32 = 1
    /// Bad input of any kind, argument validation included.
    static let badInput: Int32 = 2
    /// A failure of the environment or of latsim itself.
    static let environment: Int32 = 3

    /// The paragraph `--help` shows.
    static let help = "Exit status: 0 success, 1 a check failed (a regression, a row of the talk's table), 2 bad input of any kind, 3 a failure of the environment or of latsim itself (gnuplot crashed, disk full)."
}

/// What the command line adds to the library: flag names, the listing
/// commands, output to stdout.
enum CLI {
    /// This invocation's canonical command line, as results record it
    /// (``ResultHeader/command(_:)``).
    static var command: String { ResultHeader.command(CommandLine.arguments) }

    /// Prints an error as one paragraph on stderr; returns its exit status.
    static func report(_ e: LatsimError) -> Int32 {
        var text = "latsim: error: " + e.description
        switch e.seeAlso {
        case .keys?: text += " (`latsim keys` lists them)"
        case .scenarios?: text += " (`latsim list` shows them)"
        case .devices?: text += " (`latsim devices` lists them)"
        case .workLimit?: text += " (or raise the limit with --max-events N)"
        case nil: break
        }
        warn(text)
        return e.kind == .badInput ? ExitStatus.badInput : ExitStatus.environment
    }

    /// Bad input about a command-line flag: `--flag VALUE: problem; expected ...`.
    static func badFlag(_ flag: String, _ value: String?, _ problem: String, expected: String? = nil) -> LatsimError {
        LatsimError(file: flag, value: value, problem: problem, expected: expected)
    }

    /// Writes text to a path as `OutputDestination` does: `-` and
    /// /dev/stdout are stdout, files are replaced atomically, links written
    /// through, devices and FIFOs written in place.
    static func write(_ text: String, to path: String) throws {
        try OutputDestination.write(text, to: path)
    }

    /// Checks every output path before any work runs (nothing is created).
    /// `inputs` are files the command will read (recorded now, so that an
    /// output naming one is refused before the work, not after it).
    ///
    /// At most one output may be standard output (`-`, `/dev/stdout`,
    /// `/dev/fd/1`, a link to one): once one is, everything the command
    /// would print there goes to standard error instead (``Console``).
    /// `appended` is a file appended to (the step summary), with how
    /// messages name it.
    static func preflight(files: [String?], directories: [String?] = [], inputs: [String] = [],
                          appended: (path: String, label: String)? = nil) throws {
        for input in inputs where FileManager.default.fileExists(atPath: input) { InputFiles.record(input) }
        try OutputDestination.preflight(files: files, directories: directories, appended: appended)
        for case let file? in files + [appended?.path] where (try? OutputDestination(file))?.kind == .descriptor(1) {
            Console.giveStandardOutput(to: file)
        }
    }

    /// The path of each run's own file when one output is asked of
    /// several runs: `trace.json` gives `trace-ios8.json`, ... Such a
    /// name is made only from a path of a file (missing or regular, or a
    /// link to one): standard output, a device or a FIFO takes one stream,
    /// and a name made from `-` or `/dev/null` is a file nobody asked for.
    static func perRun(_ path: String, flag: String, names: [String]) throws -> [String] {
        guard names.count > 1 else { return [path] }
        let destination = try OutputDestination(path)
        let what: String
        switch destination.kind {
        case .file: return names.map { RunCommand.insert($0, into: path) }
        case .descriptor(1): what = "standard output"
        case .descriptor(let fd): what = "descriptor \(fd)"
        case .characterDevice, .blockDevice: what = "a device"
        case .fifo: what = "a FIFO"
        case .socket: what = "a socket"
        }
        throw badFlag(flag, path, "is \(what), which takes one stream, and \(names.count) runs need a file each",
                      expected: "a file path from which each run's file is named (\(flag) out.ext gives out-\(names[0]).ext, ...), or one scenario")
    }

    /// A scenario by name or path, on a device preset when one is named.
    static func scenario(_ name: String, device: String?) throws -> Scenario {
        let s = try Scenario.named(name)
        guard let device else { return s }
        let preset: DevicePreset
        do { preset = try DevicePreset.named(device) } catch {
            var e = error
            if e.file == nil { e.file = "--device" }
            throw e
        }
        // the scenario's own keys win over the preset's: say which, never silently
        for k in s.keysOverriding(preset) {
            warn("--device \(preset.name): \(s.name) sets \(k.path)=\(k.ours.text) itself (\(k.ours.source.file ?? s.name)\(k.ours.source.line.map { ":\($0)" } ?? "")), which wins over the preset's \(k.preset); `--set \(k.path)=\(k.preset)` runs the preset's")
        }
        return try s.applying(device: preset)
    }

    /// A line on stdout.
    static func say(_ text: String) {
        Console.out(text)
    }

    /// A line on stderr.
    static func warn(_ text: String) {
        Console.err(text)
    }

    /// Says where a chart went, or how to render it without gnuplot.
    static func report(_ output: ChartOutput) {
        if output.rendered {
            say(output.images.map(\.path).joined(separator: "\n"))
        } else {
            say(output.script.path)
            if let hint = output.hint { warn(hint) }
        }
        if !output.warnings.isEmpty { warn("gnuplot: " + output.warnings) }
    }
}

/// Options shared by the commands that run scenarios.
struct RunOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Simulated time per run, e.g. 10s, 600frames (default: the scenario's, else 10s).")
    var duration: String?
    @Option(parsing: .unconditional, help: "Random seed, an unsigned integer (default: the scenario's, else 1).")
    var seed: String?
    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Override a configuration key, e.g. --set app.handler=uniform(2ms,6ms). Repeatable; `latsim keys` lists them.", valueName: "PATH=VALUE"))
    var overrides: [String] = []
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Run on a device preset (`latsim devices` lists them, or a preset YAML file); the scenario's own keys and --set still override it.", valueName: "NAME"))
    var device: String?
    @OptionGroup var limits: WorkLimitOptions

    /// A scenario by name or path, on `--device` when given.
    func scenario(_ name: String) throws -> Scenario {
        try CLI.scenario(name, device: device)
    }

    /// The most model events the command may handle (``WorkEstimate``).
    var maxEvents: Double { limits.maxEvents }

    /// The settings these options give, in order: `--set`, then
    /// `--duration`, then `--seed`.
    func assignments() throws -> [Assignment] {
        var out: [Assignment] = []
        for o in overrides { out.append(try Assignment(parsing: o, source: SettingSource(file: "--set"))) }
        if let duration { out.append(Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration"))) }
        if let seed { out.append(Assignment(path: "seed", value: seed, source: SettingSource(file: "--seed"))) }
        return out
    }
}

extension PredictionSmoothing: ExpressibleByArgument {
    /// The smoothing spelled `argument` (the one keyword rule).
    public init?(argument: String) { self.init(keyword: argument) }
}

extension PredictorKind: ExpressibleByArgument {
    /// The predictor spelled `argument` (the one keyword rule).
    public init?(argument: String) { self.init(keyword: argument) }
}

/// The limit on a command's work (Docs/Limits.md).
struct WorkLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-events"), parsing: .unconditional,
            help: ArgumentHelp("Refuse to start work of more model events than this (default \(WorkEstimate.scientific(WorkEstimate.defaultEventLimit)), about a minute; a run writing a --trace: \(WorkEstimate.scientific(WorkEstimate.defaultLogEventLimit)), a file of about \(WorkEstimate.fileText(events: WorkEstimate.defaultLogEventLimit))).", valueName: "N"))
    var maxEventsText: String?

    /// The limit on model events, checked as a number.
    var maxEvents: Double { maxEventsText.flatMap(NumberSyntax.double) ?? WorkEstimate.defaultEventLimit }
    /// The limit on a run that writes a trace.
    var maxLogEvents: Double { maxEventsText.flatMap(NumberSyntax.double) ?? WorkEstimate.defaultLogEventLimit }

    func validate() throws {
        if let t = maxEventsText, !(NumberSyntax.double(t).map { $0 > 0 } ?? false) {
            throw CLI.badFlag("--max-events", t, "not a positive number", expected: "a number of events such as 5e9")
        }
    }
}
