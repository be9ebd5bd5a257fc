import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and standard error for the command line, written so that
/// a write that fails (`>/dev/full`, a full disk, a closed pipe) ends the
/// command cleanly instead of trapping: the registered temporary files and
/// staging folders are removed (with them the files an open
/// ``OutputTransaction`` holds: no output of the command appears), a one-line message goes to standard
/// error if it still works, and the process exits with status 3.
public enum Console {
    /// What happens after a failed write; the command line exits.
    nonisolated(unsafe) public static var onFailure: (LatsimError) -> Never = { e in
        // the transaction's files are registered: removing them discards it
        CleanupRegistry.shared.removeAll()
        _ = FileSystem.writeAll(2, Data(("latsim: error: " + e.description + "\n").utf8))
        exit(3)
    }

    /// The output (as its path was given: `-`, `/dev/stdout`, ...) that
    /// takes standard output, if one does. Then nothing else is printed
    /// there: what ``out(_:)`` is given goes to standard error, so that
    /// standard output holds the JSON, CSV, XML or trace alone.
    nonisolated(unsafe) public private(set) static var standardOutputTakenBy: String?

    /// Gives standard output to the output at `path` (the command line
    /// calls this once its outputs are checked, before anything is printed).
    public static func giveStandardOutput(to path: String) {
        standardOutputTakenBy = path
    }

    /// Writes `text` and a line end to standard output, or to standard
    /// error when an output has taken standard output.
    public static func out(_ text: String) {
        if standardOutputTakenBy != nil {
            write(2, text + "\n", name: "standard error")
        } else {
            write(1, text + "\n", name: "standard output")
        }
    }

    /// Writes what `produce` gives a sink to standard output (standard
    /// error when an output has taken it), in bounded memory; ``onFailure``
    /// on an error.
    public static func out(streaming produce: (ByteSink) throws -> Void) {
        let (descriptor, name): (Int32, String) = standardOutputTakenBy != nil ? (2, "standard error") : (1, "standard output")
        do {
            let sink = ByteSink(descriptor: descriptor, file: name)
            try produce(sink)
            try sink.flush()
        } catch {
            var e = error as? LatsimError ?? LatsimError(problem: "\(error)")
            e.kind = .environment
            onFailure(e)
        }
    }

    /// Writes `text` and a line end to standard error.
    public static func err(_ text: String) {
        write(2, text + "\n", name: "standard error")
    }

    /// Writes `text` as it is to standard error (a progress bar's `\r`).
    public static func errRaw(_ text: String) {
        write(2, text, name: "standard error")
    }

    /// Writes to a descriptor; ``onFailure`` on an error.
    public static func write(_ descriptor: Int32, _ text: String, name: String) {
        let code = FileSystem.writeAll(descriptor, Data(text.utf8))
        guard code != 0 else { return }
        var e = FileSystem.error(code, file: name)
        e.kind = .environment
        onFailure(e)
    }
}

/// Appending to a file that others append to as well (a CI job's step
/// summary): never replaced or truncated; checked before the work as any
/// output is (``OutputRequest/appended(_:label:)``), and again when written:
/// an input of the command is never appended to.
public enum AppendFile {
    /// Appends `text` to the file at `path` (created, as the shell's `>>`
    /// does, when its folder exists), named `label` in errors. A failed
    /// write is the environment's failure.
    public static func append(_ text: String, to path: String, label: String) throws(LatsimError) {
        let destination: OutputDestination
        do { destination = try OutputDestination(path) } catch { throw relabel(error, path, label) }
        if case .descriptor(let fd) = destination.kind {
            let code = FileSystem.writeAll(fd, Data(text.utf8))
            if code != 0 { throw environment(code, label) }
            return
        }
        do { try AtomicFile.refuseInput(destination.target, file: label) } catch { throw relabel(error, path, label) }
        let fd = open(destination.target, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0o644)
        guard fd >= 0 else { throw FileSystem.error(errno, file: label) }
        var code = FileSystem.writeAll(fd, Data(text.utf8))
        if close(fd) != 0 && code == 0 && errno != EINTR { code = errno }
        if code != 0 { throw environment(code, label) }
    }

    private static func relabel(_ error: any Error, _ path: String, _ label: String) -> LatsimError {
        guard var e = error as? LatsimError else { return LatsimError(.internal, file: label, problem: "\(error)") }
        if e.file == path { e.file = label }
        return e
    }

    private static func environment(_ code: Int32, _ label: String) -> LatsimError {
        var e = FileSystem.error(code, file: label)
        e.kind = .environment
        return e
    }
}
