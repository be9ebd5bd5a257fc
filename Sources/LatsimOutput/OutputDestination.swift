import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an output file goes, decided by what is at its path, and how it is
/// written there without destroying anything.
///
/// | the path is                         | written by                                         |
/// |-------------------------------------|----------------------------------------------------|
/// | `-`, `/dev/stdout`                  | writing to standard output (descriptor 1)          |
/// | `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N` | writing to that open descriptor          |
/// | missing, or a regular file          | a temporary file beside it, flushed, renamed over it (``AtomicFile``) |
/// | a symbolic link                     | following it: its target as above (the link stays a link; a dangling link's target is created) |
/// | a character or block device, a FIFO | opening it and writing in place: never renamed, never unlinked |
/// | a Unix-domain socket                | connecting to it and writing                       |
/// | a directory                         | nothing: an error                                  |
///
/// A FIFO with no reader blocks until one opens it, as the shell's `>` does.
/// Missing parent directories of a file are created. Every failure is a
/// one-line ``LatsimError`` whose ``LatsimError/file`` is the path as given:
/// bad input for a path that cannot work (a directory, a path under a file,
/// no permission), an environment error for the machine (no space left, an
/// input/output error, a read-only file system).
public struct OutputDestination: Sendable, Hashable, CustomStringConvertible {
    /// What is at the path, after following symbolic links.
    public enum Kind: Sendable, Hashable {
        /// An open file descriptor: 1 for `-` and `/dev/stdout`.
        case descriptor(Int32)
        /// A regular file, or nothing yet: replaced atomically.
        case file
        /// A character device such as `/dev/null`: written in place.
        case characterDevice
        /// A block device: written in place.
        case blockDevice
        /// A named pipe: written in place (waits for a reader).
        case fifo
        /// A Unix-domain socket: connected to and written.
        case socket
    }

    /// The path as given.
    public let path: String
    /// What is there.
    public let kind: Kind
    /// The path the bytes go to once symbolic links are followed (the given
    /// path when it is no link; empty for a descriptor).
    public let target: String

    /// Resolves `path` without changing anything.
    ///
    /// - Throws: ``LatsimError`` when `path` is empty, ends in `/`, is a
    ///   directory, lies under a regular file, or loops through links.
    public init(_ path: String) throws {
        self.path = path
        if path.isEmpty { throw LatsimError(file: path, problem: "an empty path", expected: "a file name or - for standard output") }
        var current = path
        for _ in 0..<40 {
            if let descriptor = Self.descriptor(named: current) {
                kind = .descriptor(descriptor)
                target = ""
                return
            }
            guard let info = FileSystem.linkStatus(current) else {
                let code = errno
                guard code == ENOENT else { throw FileSystem.error(code, file: path) }
                if current.hasSuffix("/") {
                    throw LatsimError(file: path, problem: "names a directory (it ends in /)", expected: "a file name")
                }
                // a missing file; a missing parent folder is created when writing
                kind = .file
                target = current
                return
            }
            if info.isLink {
                guard let next = FileSystem.linkTarget(current) else { throw FileSystem.error(errno, file: path) }
                current = next
                continue
            }
            target = current
            if info.isRegular { kind = .file; return }
            if info.isCharacterDevice { kind = .characterDevice; return }
            if info.isBlockDevice { kind = .blockDevice; return }
            if info.isFIFO { kind = .fifo; return }
            if info.isSocket { kind = .socket; return }
            throw FileSystem.error(EISDIR, file: path)
        }
        throw FileSystem.error(ELOOP, file: path)
    }

    /// The descriptor a path stands for: `-`, `/dev/stdout` (1),
    /// `/dev/stderr` (2), `/dev/fd/N`, `/proc/self/fd/N` and
    /// `/proc/<this process>/fd/N`.
    public static func descriptor(named path: String) -> Int32? {
        switch path {
        case "-", "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/\(getpid())/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }

    /// `path`, and how it will be written.
    public var description: String {
        switch kind {
        case .descriptor(1): return "\(path) (standard output)"
        case .descriptor(let fd): return "\(path) (descriptor \(fd))"
        case .file: return target == path ? path : "\(path) -> \(target)"
        case .characterDevice, .blockDevice: return "\(path) (device)"
        case .fifo: return "\(path) (FIFO)"
        case .socket: return "\(path) (socket)"
        }
    }

    /// Writes `data` to `path`, however `path` resolves (see the type).
    public static func write(_ data: Data, to path: String) throws {
        try OutputDestination(path).write(data)
    }

    /// Writes `text` as UTF-8 to `path`.
    public static func write(_ text: String, to path: String) throws {
        try OutputDestination(path).write(Data(text.utf8))
    }

    /// Writes `text` as UTF-8.
    public func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    /// Writes `data` the way ``kind`` calls for.
    ///
    /// - Throws: ``LatsimError``; the destination is left as it was unless
    ///   it is a device, FIFO, socket or descriptor that took some bytes.
    public func write(_ data: Data) throws {
        switch kind {
        case .descriptor(let descriptor):
            let code = FileSystem.writeAll(descriptor, data)
            if code != 0 { throw FileSystem.error(code, file: path) }
        case .file:
            try AtomicFile.replace(target, with: data, file: path)
        case .characterDevice, .blockDevice, .fifo:
            try writeInPlace(data)
        case .socket:
            try writeToSocket(data)
        }
    }

    /// Opens the node without creating or truncating anything and writes.
    private func writeInPlace(_ data: Data) throws {
        let descriptor = FileSystem.open(target, O_WRONLY | O_NOCTTY | O_NOFOLLOW)
        guard descriptor >= 0 else { throw FileSystem.error(errno, file: path) }
        var info = stat()
        if fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG {
            // the node was replaced by a file since it was looked at: never
            // overwrite a file in place
            close(descriptor)
            try AtomicFile.replace(target, with: data, file: path)
            return
        }
        var code = FileSystem.writeAll(descriptor, data)
        if close(descriptor) != 0 && code == 0 && errno != EINTR { code = errno }
        if code != 0 { throw FileSystem.error(code, file: path) }
    }

    /// Connects to a Unix-domain stream socket and writes.
    private func writeToSocket(_ data: Data) throws {
        #if canImport(Glibc) || canImport(Musl)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw FileSystem.error(errno, file: path) }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(target.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw FileSystem.error(ENAMETOOLONG, file: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw FileSystem.error(errno, file: path) }
        let code = FileSystem.writeAll(descriptor, data)
        if code != 0 { throw FileSystem.error(code, file: path) }
    }
}
