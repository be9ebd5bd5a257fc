import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files this process has read as input (scenarios, device presets,
/// tables, measured durations, traces, part files, baselines), by identity:
/// the output layer refuses to replace any of them, so
/// `latsim run s.yaml --json s.yaml` or `sweep merge p0.json --json p0.json`
/// is bad input, not a lost input file.
///
/// A file is known by its device and inode (so a hard link or another
/// spelling of the path is the same file), together with its status-change
/// time when read: an inode freed and reused by a new file later is not
/// taken for the input.
public enum InputFiles {
    /// One input, as recorded.
    public struct Entry: Sendable, Hashable {
        /// The path as given.
        public var path: String
        /// Device and inode, when the file could be looked at.
        public var device: UInt64?, inode: UInt64?
        /// The status-change time when it was read, nanoseconds.
        public var changed: Int64?
    }

    private static func identity(_ s: stat) -> (UInt64, UInt64, Int64) {
        #if canImport(Darwin)
        let c = s.st_ctimespec
        #else
        let c = s.st_ctim
        #endif
        return (UInt64(s.st_dev), UInt64(s.st_ino), Int64(c.tv_sec) &* 1_000_000_000 &+ Int64(c.tv_nsec))
    }

    private static let entries = Locked([Entry]())

    /// Records `path` as an input (call it when reading the file).
    public static func record(_ path: String) {
        var s = stat()
        var entry = Entry(path: path, device: nil, inode: nil, changed: nil)
        if stat(path, &s) == 0 { (entry.device, entry.inode, entry.changed) = identity(s) }
        entries.withLock { list in
            if !list.contains(entry) { list.append(entry) }
        }
    }

    /// Reads a whole input file, recording it; nil when it cannot be read.
    public static func contents(_ path: String) -> Data? {
        record(path)
        return FileManager.default.contents(atPath: path)
    }

    /// Reads a whole input file that must be a regular file of at most
    /// `maximumBytes`, recording it: a missing file, a directory, a device
    /// or pipe, an oversized or unreadable file is bad input saying which,
    /// with `expected` (what the command reads there).
    public static func read(_ path: String, expected: String, maximumBytes: Int = 1 << 30) throws(LatsimError) -> Data {
        var s = stat()
        guard stat(path, &s) == 0 else {
            throw LatsimError(file: path, problem: errno == ENOENT ? "no such file" : "cannot be looked at", expected: expected)
        }
        switch s.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw LatsimError(file: path, problem: "is a directory", expected: expected)
        default: throw LatsimError(file: path, problem: "is not a regular file (a device, pipe or socket)", expected: expected)
        }
        guard Int64(s.st_size) <= Int64(maximumBytes) else {
            throw LatsimError(file: path, problem: "has \(s.st_size) bytes", expected: "\(expected) of at most \(size(maximumBytes))")
        }
        guard let data = contents(path) else {
            throw LatsimError(file: path, problem: access(path, R_OK) == 0 ? "cannot be read" : "cannot be read (permission denied)",
                              expected: expected)
        }
        return data
    }

    /// A size limit as people write it: whole GiB, MiB or KiB, else bytes.
    public static func size(_ bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift) \(unit)"
        }
        return "\(bytes) bytes"
    }

    /// The input that `path` is (the same file by device and inode), if any.
    public static func input(sameAs path: String) -> Entry? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        let (device, inode, changed) = identity(s)
        return entries.withLock { list in list.first { $0.device == device && $0.inode == inode && $0.changed == changed } }
    }

    /// Every input recorded so far.
    public static var all: [Entry] { entries.current }

    /// Forgets `path` as an input: a command that reads the old version of
    /// the file it replaces (a baseline being recorded again) read no input.
    public static func forget(_ path: String) {
        var s = stat()
        let identity = stat(path, &s) == 0 ? (UInt64(s.st_dev), UInt64(s.st_ino)) : nil
        entries.withLock { list in
            list.removeAll { $0.path == path || (identity != nil && $0.device == identity!.0 && $0.inode == identity!.1) }
        }
    }

    /// Forgets every input (tests that run several commands in one process).
    public static func reset() {
        entries.withLock { $0.removeAll() }
    }
}
