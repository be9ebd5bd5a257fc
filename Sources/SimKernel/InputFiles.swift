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

    /// The inputs in the order they were read, and the same as a set (so
    /// that recording the thousands of files of a dataset stays linear).
    private struct Inputs {
        var list: [Entry] = []
        var known: Set<Entry> = []
    }

    private static let entries = Locked(Inputs())

    /// Records `path` as an input (call it when reading the file).
    public static func record(_ path: String) {
        var s = stat()
        record(path, stat(path, &s) == 0 ? s : nil)
    }

    /// Records `path` as an input whose status (`stat`) is already known.
    private static func record(_ path: String, _ status: stat?) {
        var entry = Entry(path: path, device: nil, inode: nil, changed: nil)
        if let status { (entry.device, entry.inode, entry.changed) = identity(status) }
        entries.withLock { inputs in
            if inputs.known.insert(entry).inserted { inputs.list.append(entry) }
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
    /// The file is read into the `Data` itself (a recording of hundreds of
    /// MB is held once, not copied from an array).
    public static func read(_ path: String, expected: String, maximumBytes: Int = 1 << 30) throws(LatsimError) -> Data {
        try contents(path, expected: expected, maximumBytes: maximumBytes, as: Data.self)
    }

    /// ``read(_:expected:maximumBytes:)`` as bytes, with one open, one
    /// `fstat` and the reads (a dataset of thousands of small files is
    /// read at the speed of the file system, not of path lookups).
    public static func bytes(_ path: String, expected: String, maximumBytes: Int = 1 << 30) throws(LatsimError) -> [UInt8] {
        try contents(path, expected: expected, maximumBytes: maximumBytes, as: [UInt8].self)
    }

    /// An input file opened to be read piece by piece (a recording too
    /// large to hold whole): its size when opened, and reads at an offset.
    /// Closed when released.
    public final class Opened: @unchecked Sendable {
        /// The path as given.
        public let path: String
        /// Its size in bytes when it was opened (what is read of it).
        public let size: Int
        private let fd: Int32

        fileprivate init(path: String, size: Int, fd: Int32) {
            self.path = path
            self.size = size
            self.fd = fd
        }

        deinit { close(fd) }

        /// Reads `count` bytes at `offset` into `buffer`; false when they
        /// cannot all be read (the file shrank or a read failed).
        public func read(at offset: Int, count: Int, into buffer: UnsafeMutableRawPointer) -> Bool {
            var done = 0
            while done < count {
                let n = pread(fd, buffer + done, count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                if n == 0 { return false }
                done += n
            }
            return true
        }
    }

    /// Opens an input file that must be a regular file of at most
    /// `maximumBytes`, recording it, to be read piece by piece (the bad
    /// input of ``read(_:expected:maximumBytes:)``, said the same way).
    public static func open(_ path: String, expected: String, maximumBytes: Int = 1 << 30) throws(LatsimError) -> Opened {
        let (fd, s) = try openRegular(path, expected: expected, maximumBytes: maximumBytes)
        return Opened(path: path, size: Int(s.st_size), fd: fd)
    }

    /// Opens `path`, checks that it is a regular file of at most
    /// `maximumBytes` and records it; the caller closes the descriptor.
    private static func openRegular(_ path: String, expected: String, maximumBytes: Int) throws(LatsimError) -> (Int32, stat) {
        // O_NONBLOCK: opening a FIFO must not wait for a writer
        let fd = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let problem = switch errno {
            case ENOENT, ENOTDIR: "no such file"
            case EACCES: "cannot be read (permission denied)"
            default: "cannot be looked at"
            }
            throw LatsimError(file: path, problem: problem, expected: expected)
        }
        var s = stat()
        do throws(LatsimError) {
            guard fstat(fd, &s) == 0 else { throw LatsimError(file: path, problem: "cannot be looked at", expected: expected) }
            switch s.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw LatsimError(file: path, problem: "is a directory", expected: expected)
            default: throw LatsimError(file: path, problem: "is not a regular file (a device, pipe or socket)", expected: expected)
            }
            guard Int64(s.st_size) <= Int64(maximumBytes) else {
                throw LatsimError(file: path, problem: "has \(s.st_size) bytes", expected: "\(expected) of at most \(size(maximumBytes))")
            }
        } catch {
            close(fd)
            throw error
        }
        record(path, s)
        return (fd, s)
    }

    /// The bytes of a file read into `B` (an array or a `Data`).
    static func contents<B: ReadBuffer>(_ path: String, expected: String, maximumBytes: Int, as: B.Type) throws(LatsimError) -> B {
        let (fd, s) = try openRegular(path, expected: expected, maximumBytes: maximumBytes)
        defer { close(fd) }
        // the size may change while it is read: read to the end, one byte
        // past the limit at most
        var bytes = B.zeroed(count: Int(s.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= maximumBytes else { break }
                bytes.append(contentsOf: repeatElement(0, count: Swift.min(Swift.max(count, 4096), maximumBytes + 1 - count)))
            }
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw LatsimError(file: path, problem: "cannot be read", expected: expected)
            }
            if n == 0 { break }
            count += n
        }
        guard count <= maximumBytes else {
            throw LatsimError(file: path, problem: "has more than \(size(maximumBytes))", expected: "\(expected) of at most \(size(maximumBytes))")
        }
        bytes.truncate(to: count)
        return bytes
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
        return entries.withLock { inputs in inputs.list.first { $0.device == device && $0.inode == inode && $0.changed == changed } }
    }

    /// Every input recorded so far.
    public static var all: [Entry] { entries.current.list }

    /// Forgets `path` as an input: a command that reads the old version of
    /// the file it replaces (a baseline being recorded again) read no input.
    public static func forget(_ path: String) {
        var s = stat()
        let identity = stat(path, &s) == 0 ? (UInt64(s.st_dev), UInt64(s.st_ino)) : nil
        entries.withLock { inputs in
            inputs.list.removeAll { $0.path == path || (identity != nil && $0.device == identity!.0 && $0.inode == identity!.1) }
            inputs.known = Set(inputs.list)
        }
    }

    /// Forgets every input (tests that run several commands in one process).
    public static func reset() {
        entries.withLock { $0 = Inputs() }
    }
}

/// The C library's `open(2)` (InputFiles has an `open` of its own).
@inline(__always) private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    open(path, flags)
}

/// The C library's `read(2)` (InputFiles has a `read` of its own).
@inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

/// Where ``InputFiles`` reads a file: bytes it can grow and write into.
protocol ReadBuffer: RangeReplaceableCollection where Element == UInt8 {
    mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R
    /// `count` zero bytes, in a buffer of that size.
    static func zeroed(count: Int) -> Self
    /// Keeps the first `n` bytes, in place.
    mutating func truncate(to n: Int)
}

extension Array: ReadBuffer where Element == UInt8 {
    static func zeroed(count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }
    mutating func truncate(to n: Int) { removeLast(count - n) }
}

extension Data: ReadBuffer {
    // Data(count:) allocates a quarter more than asked, and `removeLast`
    // copies into a new buffer: a recording of 308 MB took 385 MB and a copy
    static func zeroed(count: Int) -> Data {
        guard count > 0, let p = calloc(count, 1) else { return Data(count: count) }
        return Data(bytesNoCopy: p, count: count, deallocator: .free)
    }
    mutating func truncate(to n: Int) { count = n }
}
