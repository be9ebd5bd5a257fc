import ArgumentParser
import Foundation
import Scenarios
import SimKernel
import Traces

/// `latsim import`: a device's recording as a scenario.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn an Android device's Perfetto trace or framestats dump into a scenario.",
        discussion: """
        FILE is an Android Perfetto trace (.perfetto-trace: FrameTimeline, the app's \
        Choreographer#doFrame and DrawFrame slices, SurfaceFlinger's composition) or \
        the output of `adb shell dumpsys gfxinfo PACKAGE framestats`. Writes a scenario \
        YAML with os.platform android, the display rate, FrameTimeline's work durations \
        where the recording has them, and each stage's measured durations as an \
        empirical distribution, every value with a comment saying where it came from \
        (Docs/TraceFormats.md). No recording holds the touch scan rate: it is set to \
        the display rate; every other key the recording cannot give is listed in the \
        file's comments with the value it keeps. `latsim run` and `latsim compare` take \
        the file.

        Examples:
          adb shell dumpsys gfxinfo com.example.app framestats > framestats.txt
          latsim import framestats.txt --out device.yaml
          latsim compare android-default device.yaml
          latsim import trace.perfetto-trace --out device.yaml --name pixel-scroll
        """
    )

    @Argument(help: "A Perfetto trace or a framestats dump.") var file: String
    @Option(help: ArgumentHelp("Write the scenario to PATH ('-' for stdout).", valueName: "PATH")) var out: String = "-"
    @Option(help: ArgumentHelp("The scenario's name, as every scenario name: letters, digits, '.', '_' and '-' (default: the file's name without its extension, other characters made '-').", valueName: "NAME"))
    var name: String?

    /// The largest recording read (a long device trace is a few hundred MiB).
    static let maximumBytes = 1 << 30

    func run() throws {
        let url = URL(fileURLWithPath: file)
        // a name is checked as every scenario name (it is written quoted)
        if let name, let problem = Identifier.problem(name) {
            throw LatsimError(file: "--name", value: name, problem: problem, expected: "a scenario name of " + Identifier.characters)
        }
        let scenarioName = name ?? Identifier.made(from: url.deletingPathExtension().lastPathComponent, fallback: "imported")
        // the recording is an input: `--out` naming it is refused before anything is read
        try CLI.preflight(files: [out], inputs: [file])
        let imported = try DeviceImport.read(path: file, expected: "a Perfetto trace or a framestats dump", maximumBytes: Self.maximumBytes)
        let yaml = imported.scenarioYAML(name: scenarioName, source: url.lastPathComponent)
        // what is written must run: read it back as a scenario first
        do {
            _ = try Scenario(yaml: yaml, file: out, defaultName: scenarioName).configuration()
        } catch {
            throw LatsimError(.internal, file: file, problem: "the scenario made from it does not load: \(error)")
        }
        try CLI.write(yaml, to: out)
        let written = out == "-" ? "the scenario" : out
        if out != "-" {
            let stages = imported.stages.map { "\($0.key) (\($0.durations.value.count))" }.joined(separator: ", ")
            CLI.warn("import: \(out) from \(imported.kind)\(stages.isEmpty ? "" : ": " + stages)")
        }
        if let d = imported.dispatchLatency { CLI.warn("import: android.dispatchLatency: \(d.origin)") }
        // what the recording could not give, said where it is seen: the scan
        // rate (it shapes every figure) by name, the rest counted
        let unread = imported.unreadKeys()
        if let scan = unread.first(where: { $0.key == "device.scanHz" }) {
            CLI.warn("import: device.scanHz is not in the recording: \(scan.value) Hz, \(scan.why ?? "the key's default")")
        }
        CLI.warn("import: \(unread.count) keys are not in the recording and keep the values listed in \(written)'s comments (Docs/TraceFormats.md)")
        for w in imported.warnings { CLI.warn("import: warning: \(w)") }
    }
}
