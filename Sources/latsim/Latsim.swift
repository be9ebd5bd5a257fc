import ArgumentParser
import Foundation
import LatsimOutput
import SimKernel

/// The `latsim` command line.
@main
struct Latsim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latsim",
        abstract: "Simulate the touch-to-display frame pipeline and measure its latency.",
        discussion: """
        latsim models the Multi-Touch digitizer, UIKit's touch delivery, the app's \
        handler, Core Animation's render server, the GPU, display buffers and vsync, \
        after the WWDC 2015 talk "Advanced Touch Input on iOS"; Android's pipeline \
        from InputConsumer to SurfaceFlinger; 3D Touch; and published devices.

        Start with `latsim table` (the talk's figures reproduced), `latsim list`, \
        `latsim run ios9-coalescing-120hz --budget` (where the milliseconds go), \
        `latsim compare A B` and `latsim devices`.

        \(ExitStatus.help)
        """,
        version: LatsimVersion.current,
        subcommands: [
            ReportCommand.self, TableCommand.self, ListCommand.self, ScenarioCommand.self, KeysCommand.self, DevicesCommand.self, RunCommand.self, ImportCommand.self, ValidateCommand.self,
            SweepCommand.self, CompareCommand.self, FiguresCommand.self, DiagramCommand.self, PredictCommand.self, RegressCommand.self,
        ]
    )

    /// Parses and runs a command, turning every failure into one paragraph
    /// on stderr and the exit status of ``ExitStatus``: argument errors are
    /// bad input (2) like any other.
    static func main() {
        // an interrupted command removes its temporary files (exit 130/143)
        SignalCleanup.install()
        let status: Int32
        // every output file of the command is renamed into place together at
        // the end: an interrupted or failed command leaves all old files
        let outputs = OutputTransaction.begin()
        if let help = groupHelp(Array(CommandLine.arguments.dropFirst())) {
            print(help)
            Foundation.exit(0)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
            try outputs.commit()
            status = 0
        } catch let e as LatsimError {
            status = CLI.report(e)
        } catch let e as ExitCode {
            // a command that ends with a status of its own (1: a check
            // failed) has written its reports: they are kept
            do { try outputs.commit(); status = e.rawValue } catch let failure as LatsimError { status = CLI.report(failure) } catch { status = ExitStatus.environment }
        } catch let error where latsimError(inside: error) != nil {
            // a LatsimError thrown by a validate() arrives wrapped by the
            // parser: it is the same error, with its own exit status
            status = CLI.report(latsimError(inside: error)!)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error) // --help, --version: printed, exit 0
            }
            let message = fullMessage(for: error)
            if code == .validationFailure {
                CLI.warn(message.hasPrefix("Error:") ? "latsim: error: " + message.dropFirst(7) : message)
                status = ExitStatus.badInput
            } else {
                CLI.warn("latsim: error: " + (message.isEmpty ? "\(error)" : message))
                status = ExitStatus.environment
            }
        }
        if OutputTransaction.current != nil { outputs.discard() }
        Foundation.exit(status)
    }

    /// The help of a command group that runs a default subcommand
    /// (`latsim sweep --help`, `latsim help sweep`): the group's own help,
    /// then the default subcommand's options, which `latsim sweep ...`
    /// takes; nil for any other arguments.
    static func groupHelp(_ arguments: [String], columns: Int? = nil) -> String? {
        let name: String
        switch arguments.count {
        case 2 where arguments[1] == "--help" || arguments[1] == "-h": name = arguments[0]
        case 2 where arguments[0] == "help": name = arguments[1]
        default: return nil
        }
        guard let group = configuration.subcommands.first(where: { $0._commandName == name }),
              let run = group.configuration.defaultSubcommand else { return nil }
        var detail = helpMessage(for: run, columns: columns)
        // the overview is the group's, printed above
        if let usage = detail.range(of: "USAGE:") { detail = String(detail[usage.lowerBound...]) }
        return helpMessage(for: group, columns: columns)
            + "\n\n`latsim \(name)` without a subcommand is `latsim \(name) \(run._commandName)`, which takes:\n\n" + detail
    }

    /// The ``LatsimError`` an argument parser's error wraps (a few levels
    /// deep at most), if any.
    static func latsimError(inside error: any Error) -> LatsimError? {
        func search(_ value: Any, depth: Int) -> LatsimError? {
            if let e = value as? LatsimError { return e }
            guard depth > 0 else { return nil }
            for child in Mirror(reflecting: value).children {
                if let found = search(child.value, depth: depth - 1) { return found }
            }
            return nil
        }
        return search(error, depth: 4)
    }
}
