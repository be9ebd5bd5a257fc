import Foundation
import LatsimOutput
import SimKernel

/// Runs gnuplot as a child process with its three standard streams on pipes.
///
/// Standard input is closed at once (the script is passed as a file, so
/// gnuplot never waits for a terminal). Standard output and standard error
/// are drained on two threads until end of file, so neither pipe can fill up
/// and block gnuplot while this side waits for the other one.
enum GnuplotProcess {
    /// What a finished run printed and how it exited.
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Collects a pipe's bytes on a background queue.
    private final class Drain: Sendable {
        private let bytes = Locked(Data())

        func start(_ handle: FileHandle, group: DispatchGroup) {
            DispatchQueue.global().async(group: group) {
                let data = handle.readDataToEndOfFile()
                self.bytes.withLock { $0 = data }
            }
        }

        var text: String { String(decoding: bytes.current, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` in `directory` and waits for it.
    static func run(executable: URL, arguments: [String], directory: URL) throws -> Result {
        let process = Process()
        process.executableURL = executable
        // scripts are UTF-8; without a UTF-8 locale gnuplot warns about it
        var environment = ProcessInfo.processInfo.environment
        if environment["LC_ALL"] == nil && environment["LANG"] == nil { environment["LC_ALL"] = "C.UTF-8" }
        process.environment = environment
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw LatsimError.gnuplotLaunchFailed(executable: executable, reason: "\(error)")
        }
        try? input.fileHandleForWriting.close()
        // stopped if latsim is interrupted, so it writes nothing afterwards
        let token = CleanupRegistry.shared.register(process: process.processIdentifier)
        defer { CleanupRegistry.shared.unregister(token) }

        let group = DispatchGroup()
        let out = Drain(), err = Drain()
        out.start(output.fileHandleForReading, group: group)
        err.start(errors.fileHandleForReading, group: group)
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: out.text, stderr: err.text)
    }
}
