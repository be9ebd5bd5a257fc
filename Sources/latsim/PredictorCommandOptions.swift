import ArgumentParser
import Experiments
import Foundation
import LatsimGate
import LatsimOutput
import PredictorProcess
import SimKernel

/// `--predictor-command` and `--predictor-timeout`: your own predictor in
/// another process, any language (Docs/Prediction.md, "Your own predictor").
struct PredictorCommandOptions: ParsableArguments {
    @Option(name: .customLong("predictor-command"),
            help: ArgumentHelp("Your own predictor: a command (run by /bin/sh) speaking latsim's predictor protocol, JSON Lines on its stdin and stdout (Docs/Prediction.md). A fresh process per run.", valueName: "CMD"))
    var predictorCommand: String?
    @Option(name: .customLong("predictor-timeout"), parsing: .unconditional,
            help: ArgumentHelp("With --predictor-command: how long to wait for each answer, the handshake included, in seconds (default 10).", valueName: "S"))
    var predictorTimeout: String?
    @Option(name: .customLong("predictor-timeout-total"), parsing: .unconditional,
            help: ArgumentHelp("With --predictor-command: how long one predictor process may take for its whole run, in seconds (default 600, at most 86400).", valueName: "S"))
    var predictorTimeoutTotal: String?

    /// The command, or nil without --predictor-command; its process groups
    /// are stopped if latsim is interrupted.
    func command() throws -> PredictorCommand? {
        guard let predictorCommand else {
            if predictorTimeout != nil { throw CLI.badFlag("--predictor-timeout", predictorTimeout, "needs --predictor-command CMD") }
            if predictorTimeoutTotal != nil { throw CLI.badFlag("--predictor-timeout-total", predictorTimeoutTotal, "needs --predictor-command CMD") }
            return nil
        }
        var timeout = PredictorProtocol.defaultTimeout
        if let t = predictorTimeout {
            guard let v = NumberSyntax.double(t), PredictorProtocol.timeouts.contains(v) else {
                throw CLI.badFlag("--predictor-timeout", t, "not a timeout", expected: "a number of seconds from 0.001 to 3600, e.g. 10")
            }
            timeout = v
        }
        var total = PredictorProtocol.defaultTotalTimeout
        if let t = predictorTimeoutTotal {
            guard let v = NumberSyntax.double(t), PredictorProtocol.totalTimeouts.contains(v) else {
                throw CLI.badFlag("--predictor-timeout-total", t, "not a total timeout", expected: "a number of seconds from 0.001 to 86400, e.g. 600")
            }
            total = v
        }
        let command: PredictorCommand
        do {
            command = try PredictorCommand(predictorCommand, timeout: timeout, watcher: CleanupWatcher.shared).bounded(total: total)
        } catch {
            throw error.located(file: "--predictor-command")
        }
        // a program that does not exist is said once, before any run starts
        try command.checkStartable()
        return command

    }
}

/// Registers predictor process groups with the signal cleanup, so that an
/// interrupted latsim stops them.
final class CleanupWatcher: PredictorProcessWatcher, @unchecked Sendable {
    static let shared = CleanupWatcher()
    private let tokens = Locked([Int32: CleanupRegistry.Token]())

    func whileStarting(_ body: () -> Void) {
        CleanupRegistry.shared.critical { body() }
    }

    func started(processGroup: Int32) {
        let token = CleanupRegistry.shared.register(processGroup: processGroup)
        tokens.withLock { $0[processGroup] = token }
    }

    func ended(processGroup: Int32) {
        if let token = tokens.withLock({ $0.removeValue(forKey: processGroup) }) { CleanupRegistry.shared.unregister(token) }
    }
}
