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

    /// Writes `text` and a line end to standard output.
    public static func out(_ text: String) {
        write(1, text + "\n", name: "standard output")
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
/// summary): never replaced, created only by its owner.
public enum AppendFile {
    /// Appends `text` to the existing file at `path`; nothing when there is
    /// no such file. A failed write is the environment's failure.
    public static func append(_ text: String, to path: String) throws(LatsimError) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let code = FileSystem.writeAll(fd, Data(text.utf8))
        guard code == 0 else {
            var e = FileSystem.error(code, file: path)
            e.kind = .environment
            throw e
        }
    }
}
