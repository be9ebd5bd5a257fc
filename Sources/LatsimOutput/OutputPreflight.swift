import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One output a command will write, for ``OutputDestination/preflight(_:)``.
public enum OutputRequest: Sendable, Hashable {
    /// A file (or `-`, a device, a FIFO...) written with ``OutputDestination``.
    case file(String)
    /// A directory of outputs, such as the report's (created if missing).
    case directory(String)
    /// A file that others append to as well (a CI job's step summary),
    /// appended to with ``AppendFile``, named in messages by `label`
    /// (`GITHUB_STEP_SUMMARY=PATH`).
    case appended(String, label: String)

    /// The path as given.
    public var path: String {
        switch self {
        case .file(let p), .directory(let p), .appended(let p, _): return p
        }
    }

    /// How messages name the output.
    public var label: String {
        switch self {
        case .file(let p), .directory(let p): return p
        case .appended(_, let label): return label
        }
    }
}

extension OutputDestination {
    /// Checks, before any work runs, that every output can be written, so a
    /// command never leaves one output behind when a later one fails.
    ///
    /// Creates, opens and changes nothing. Each file must resolve (see
    /// ``init(_:)``: not a directory, not under a regular file), be writable
    /// (an existing file or node) and have a writable parent directory, or
    /// a nearest existing ancestor directory that is writable when folders
    /// are missing (they are created when writing). Each directory must be a
    /// directory (or be creatable) and be writable.
    ///
    /// No output may be a file the command has read as input
    /// (``InputFiles``, by device and inode), and no two outputs may be the
    /// same file: paths are compared after
    /// following symbolic links and resolving `.` and `..`, existing files
    /// also by device and inode (hard links are the same file), `-` and
    /// `/dev/stdout` are both standard output. The one exception is a
    /// character device, which may be named more than once (`/dev/null`
    /// for two outputs discards both); a FIFO or socket named twice is
    /// refused, since its reader would see two streams.
    ///
    /// - Throws: the first problem, as a ``LatsimError`` naming its path.
    public static func preflight(_ requests: [OutputRequest]) throws {
        var seen: [String: String] = [:]
        for request in requests {
            let keys: [String]
            switch request {
            case .file(let path): keys = try checkFile(path)
            case .directory(let path): keys = try checkDirectory(path)
            case .appended(let path, let label): keys = try checkAppended(path, label: label)
            }
            for key in keys {
                if let first = seen[key] {
                    throw LatsimError(file: request.label, problem: "the same destination as \(Self.spelled(first))",
                                      expected: "a different destination for each output")
                }
            }
            for key in keys { seen[key] = request.label }
        }
    }

    /// ``preflight(_:)`` for optional file and directory paths (a `nil`
    /// is an output the user did not ask for).
    public static func preflight(files: [String?], directories: [String?] = []) throws {
        try preflight(files.compactMap { $0.map(OutputRequest.file) } + directories.compactMap { $0.map(OutputRequest.directory) })
    }

    /// ``preflight(_:)`` for optional file and directory paths and a file
    /// appended to (its path and how messages name it).
    public static func preflight(files: [String?], directories: [String?] = [], appended: (path: String, label: String)?) throws {
        try preflight(files.compactMap { $0.map(OutputRequest.file) } + directories.compactMap { $0.map(OutputRequest.directory) }
                      + (appended.map { [OutputRequest.appended($0.path, label: $0.label)] } ?? []))
    }

    /// `'-'` and `/dev/stdout` say what they are.
    private static func spelled(_ path: String) -> String {
        descriptor(named: path) == 1 ? "\(path) (standard output)" : path
    }

    /// Checks one file; returns the keys that identify it (none for a
    /// character device, which may repeat).
    private static func checkFile(_ path: String) throws -> [String] {
        let destination = try OutputDestination(path)
        switch destination.kind {
        case .descriptor(let fd):
            let flags = fcntl(fd, F_GETFL)
            guard flags >= 0 else { throw FileSystem.error(EBADF, file: path) }
            if flags & O_ACCMODE == O_RDONLY {
                throw LatsimError(file: path, problem: "descriptor \(fd) is open for reading only", expected: "an output")
            }
            return ["descriptor \(fd)"]
        case .characterDevice:
            guard access(destination.target, W_OK) == 0 else { throw FileSystem.error(errno, file: path) }
            return []
        case .blockDevice, .fifo, .socket:
            guard access(destination.target, W_OK) == 0 else { throw FileSystem.error(errno, file: path) }
            return identity(destination.target).map { [$0] } ?? []
        case .file:
            let target = destination.target
            if FileSystem.status(target) != nil {
                try AtomicFile.refuseInput(target, file: path)
                guard access(target, W_OK) == 0 else { throw FileSystem.error(errno, file: path) }
                try checkWritableFolder(FileSystem.directory(of: target), file: path)
                return ["path " + FileSystem.canonical(target)] + (identity(target).map { [$0] } ?? [])
            }
            try AtomicFile.refuseInput(target, file: path)
            try checkCreatable(FileSystem.directory(of: target), file: path)
            return ["path " + FileSystem.canonical(target)]
        }
    }

    /// Checks a file to append to: as a file, except that it is never
    /// replaced, and a missing one is created only in an existing folder
    /// (no folder is made for it). Errors name it by `label`.
    private static func checkAppended(_ path: String, label: String) throws -> [String] {
        func located(_ e: LatsimError) -> LatsimError {
            var e = e
            if e.file == path { e.file = label }
            return e
        }
        do {
            let destination = try OutputDestination(path)
            if destination.kind == .file, FileSystem.status(destination.target) == nil {
                let folder = FileSystem.directory(of: destination.target)
                guard let info = FileSystem.status(folder), info.isDirectory else {
                    throw LatsimError(file: label, problem: "its folder \(folder) does not exist",
                                      expected: "a file in an existing folder (a step summary's folder is made by the CI runner)")
                }
            }
            return try checkFile(path)
        } catch let e as LatsimError {
            throw located(e)
        }
    }

    /// Checks one directory; returns its key.
    private static func checkDirectory(_ path: String) throws -> [String] {
        if path.isEmpty { throw LatsimError(file: path, problem: "an empty path", expected: "a directory") }
        let target = try FileSystem.followLinks(path, file: path)
        if let info = FileSystem.status(target) {
            guard info.isDirectory else { throw LatsimError(file: path, problem: "is a file", expected: "a directory") }
            guard access(target, W_OK | X_OK) == 0 else { throw FileSystem.error(errno, file: path) }
            return ["path " + FileSystem.canonical(target)]
        }
        guard errno == ENOENT else { throw FileSystem.error(errno, file: path) }
        try checkCreatable(FileSystem.directory(of: target), file: path)
        return ["path " + FileSystem.canonical(target)]
    }

    /// An existing folder in which files can be created.
    private static func checkWritableFolder(_ folder: String, file: String) throws {
        guard access(folder, W_OK | X_OK) == 0 else {
            throw FileSystem.error(errno, file: file, action: "cannot create files in \(folder)")
        }
    }

    /// `folder` exists and is writable, or its nearest existing ancestor is
    /// a writable directory (so the missing folders can be created).
    private static func checkCreatable(_ folder: String, file: String) throws {
        var current = folder
        while true {
            if let info = FileSystem.status(current) {
                guard info.isDirectory else { throw LatsimError(file: file, problem: "\(current) is a file", expected: "a directory") }
                try checkWritableFolder(current, file: file)
                return
            }
            guard errno == ENOENT || errno == ENOTDIR else { throw FileSystem.error(errno, file: file) }
            let parent = FileSystem.directory(of: current)
            if parent == current { return }
            current = parent
        }
    }

    /// Device and inode of an existing file (`nil` when it does not exist).
    private static func identity(_ path: String) -> String? {
        FileSystem.status(path).map { "inode \($0.device):\($0.inode)" }
    }
}
