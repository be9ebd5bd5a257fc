import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's file-system calls used by the output code, with their
/// error numbers turned into one-line ``LatsimError``s that name the path.
///
/// Foundation's file errors print as `NSCocoaErrorDomain Code=... UserInfo=...`;
/// going through POSIX directly keeps every message short and lets the
/// output code tell a device node from a file before touching it.
package enum FileSystem {
    /// What an error number means to a user: whose fault it is, what is
    /// wrong and, when it helps, what would work instead.
    static func describe(_ code: Int32) -> (kind: LatsimError.Kind, problem: String, expected: String?) {
        switch code {
        case ENOSPC: return (.environment, "no space left on device", nil)
        case EDQUOT: return (.environment, "disk quota exceeded", nil)
        case EIO: return (.environment, "input/output error", nil)
        case EROFS: return (.environment, "read-only file system", "a path on a writable file system")
        case EACCES, EPERM: return (.badInput, "permission denied", "a path you can write to")
        case EISDIR: return (.badInput, "is a directory", "a file")
        case ENOTDIR: return (.badInput, "a part of the path is not a directory", "a path whose folders are directories")
        case ENAMETOOLONG: return (.badInput, "the name is too long", nil)
        case ELOOP: return (.badInput, "too many levels of symbolic links", "a link that ends at a file")
        case ENOENT: return (.badInput, "no such file or directory", nil)
        case EBADF: return (.badInput, "not an open file descriptor", nil)
        case EPIPE: return (.environment, "the reader closed the pipe", nil)
        case ECONNREFUSED: return (.environment, "nothing is listening on the socket", nil)
        case ENXIO, ENODEV: return (.environment, "no such device", nil)
        default:
            var text = String(cString: strerror(code))
            if let first = text.first { text = first.lowercased() + text.dropFirst() }
            return (.environment, text, nil)
        }
    }

    /// The error for `code` about the user's path `file`; `action` (such as
    /// `cannot create a file in out`) goes before the reason.
    package static func error(_ code: Int32, file: String, action: String? = nil) -> LatsimError {
        if code == ENOTDIR, let ancestor = nonDirectoryAncestor(of: file) {
            return LatsimError(.badInput, file: file, problem: "\(ancestor) is a file", expected: "a directory")
        }
        let (kind, problem, expected) = describe(code)
        return LatsimError(kind, file: file, problem: action.map { "\($0): \(problem)" } ?? problem, expected: expected)
    }

    /// The first folder of `path` (from the left) that exists but is not a
    /// directory, as spelled in `path`.
    static func nonDirectoryAncestor(of path: String) -> String? {
        var prefix = path.hasPrefix("/") ? "/" : ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for part in parts.dropLast() {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            guard let info = status(prefix) else { return nil }
            if !info.isDirectory { return prefix }
        }
        return nil
    }

    // MARK: paths

    /// The folder part of `path` (`.` for a bare name, `/` at the root).
    static func directory(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// The last component of `path`.
    static func name(of path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `name` inside `directory`.
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    // MARK: metadata

    /// What `lstat`/`stat` say about a path.
    package struct Info {
        package var mode: mode_t
        package var device: UInt64
        package var inode: UInt64
        package var owner: uid_t
        package var group: gid_t
        package var size: Int64
        package var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
        package var isRegular: Bool { mode & S_IFMT == S_IFREG }
        var isLink: Bool { mode & S_IFMT == S_IFLNK }
        var isCharacterDevice: Bool { mode & S_IFMT == S_IFCHR }
        var isBlockDevice: Bool { mode & S_IFMT == S_IFBLK }
        var isFIFO: Bool { mode & S_IFMT == S_IFIFO }
        var isSocket: Bool { mode & S_IFMT == S_IFSOCK }

        init(_ s: stat) {
            mode = s.st_mode
            device = UInt64(s.st_dev)
            inode = UInt64(s.st_ino)
            owner = s.st_uid
            group = s.st_gid
            size = Int64(s.st_size)
        }
    }

    /// `lstat(path)`: the link itself, not its target; `nil` with `errno` set.
    package static func linkStatus(_ path: String) -> Info? {
        var s = stat()
        return lstat(path, &s) == 0 ? Info(s) : nil
    }

    /// `stat(path)`, following links; `nil` with `errno` set.
    package static func status(_ path: String) -> Info? {
        var s = stat()
        return stat(path, &s) == 0 ? Info(s) : nil
    }

    /// The target of the symbolic link at `path`, made relative to the
    /// link's folder when it is relative; `nil` with `errno` set.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasPrefix("/") ? target : join(directory(of: path), target)
    }

    /// `path` with every symbolic link of its last component followed (its
    /// folders are left as they are): the file the bytes really go to.
    /// A dangling link gives the missing file it points at.
    static func followLinks(_ path: String, file: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            guard let info = linkStatus(current), info.isLink else { return current }
            guard let target = linkTarget(current) else { throw error(errno, file: file) }
            current = target
        }
        throw error(ELOOP, file: file)
    }

    /// The absolute, link-free spelling of `path`, for comparing two paths:
    /// the longest existing prefix is resolved with `realpath`, the rest
    /// (which does not exist yet) is normalized by its `.` and `..`.
    static func canonical(_ path: String) -> String {
        var current = path.hasPrefix("/") ? path : join(FileManager.default.currentDirectoryPath, path)
        var missing: [String] = []
        while true {
            if let resolved = realpath(current, nil) {
                var parts = String(cString: resolved).split(separator: "/").map(String.init)
                free(resolved)
                for part in missing.reversed() {
                    if part == "." || part.isEmpty { continue }
                    if part == ".." { _ = parts.popLast() } else { parts.append(part) }
                }
                return "/" + parts.joined(separator: "/")
            }
            if current == "/" || current.isEmpty { return path }
            missing.append(name(of: current))
            current = directory(of: current)
        }
    }

    // MARK: writing

    /// Writes every byte of `data` to `descriptor`, retrying after signals
    /// and waiting when the descriptor is non-blocking and full. Returns 0
    /// or the error number.
    static func writeAll(_ descriptor: Int32, _ data: Data) -> Int32 {
        data.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    /// ``writeAll(_:_:)-(_,Data)`` of bytes in place.
    static func writeAll(_ descriptor: Int32, _ raw: UnsafeRawBufferPointer) -> Int32 {
        guard let base = raw.baseAddress else { return 0 }
        var offset = 0
        while offset < raw.count {
            let n = write(descriptor, base + offset, raw.count - offset)
            if n > 0 { offset += n; continue }
            if n == 0 { return EIO }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
                continue
            }
            return code
        }
        return 0
    }

    /// `open(2)`, retried after signals; -1 with `errno` set.
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        while true {
            #if canImport(Glibc)
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            #elseif canImport(Musl)
            let fd = Musl.open(path, flags | O_CLOEXEC, mode)
            #else
            let fd = Darwin.open(path, flags | O_CLOEXEC, mode)
            #endif
            if fd >= 0 || errno != EINTR { return fd }
        }
    }

    /// Creates `path` and any missing folders above it (mode 0777 less the
    /// umask); returns the folders it created, outermost first.
    static func makeDirectories(_ path: String, file: String) throws -> [String] {
        var missing: [String] = []
        var current = path
        while true {
            if let info = status(current) {
                guard info.isDirectory else { throw LatsimError(.badInput, file: file, problem: "\(current) is a file", expected: "a directory") }
                break
            }
            guard errno == ENOENT else { throw error(errno, file: file) }
            missing.append(current)
            let parent = directory(of: current)
            if parent == current { break }
            current = parent
        }
        var created: [String] = []
        for folder in missing.reversed() {
            if mkdir(folder, 0o777) == 0 {
                created.append(folder)
            } else if errno != EEXIST || status(folder)?.isDirectory != true {
                let code = errno
                removeDirectories(created)
                throw error(code, file: file, action: "cannot create the directory \(folder)")
            }
        }
        return created
    }

    /// Removes the (empty) folders `makeDirectories` created, innermost first.
    static func removeDirectories(_ created: [String]) {
        for folder in created.reversed() { rmdir(folder) }
    }

    /// `rename(2)`: 0 or the error number.
    package static func move(_ source: String, to destination: String) -> Int32 {
        #if canImport(Glibc)
        return Glibc.rename(source, destination) == 0 ? 0 : errno
        #elseif canImport(Musl)
        return Musl.rename(source, destination) == 0 ? 0 : errno
        #else
        return Darwin.rename(source, destination) == 0 ? 0 : errno
        #endif
    }

    /// A short random suffix for temporary names.
    static func randomSuffix() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}

/// Paths as the output layer compares them.
public enum PathSpelling {
    /// The absolute, link-free spelling of `path` (its missing tail
    /// normalized by `.` and `..`).
    public static func canonical(_ path: String) -> String { FileSystem.canonical(path) }
}
