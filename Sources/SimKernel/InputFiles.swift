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
/// spelling of the path is the same file) and by its absolute path.
public enum InputFiles {
    /// One input, as recorded.
    public struct Entry: Sendable, Hashable {
        /// The path as given.
        public var path: String
        /// Device and inode, when the file could be looked at.
        public var device: UInt64?, inode: UInt64?
    }

    private static let entries = Locked([Entry]())

    /// Records `path` as an input (call it when reading the file).
    public static func record(_ path: String) {
        var s = stat()
        let entry = stat(path, &s) == 0 ? Entry(path: path, device: UInt64(s.st_dev), inode: UInt64(s.st_ino))
                                        : Entry(path: path, device: nil, inode: nil)
        entries.withLock { list in
            if !list.contains(entry) { list.append(entry) }
        }
    }

    /// Reads a whole input file, recording it; nil when it cannot be read.
    public static func contents(_ path: String) -> Data? {
        record(path)
        return FileManager.default.contents(atPath: path)
    }

    /// The input that `path` is (the same file by device and inode), if any.
    public static func input(sameAs path: String) -> Entry? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        let device = UInt64(s.st_dev), inode = UInt64(s.st_ino)
        return entries.withLock { list in list.first { $0.device == device && $0.inode == inode } }
    }

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
