import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory of outputs (such as the report) built in a staging folder
/// and moved into place whole, so a reader never sees it half-written.
///
/// ``url`` is a hidden folder `.<name>.latsim-staging-<random>` beside the
/// destination (same file system); write everything there, then call
/// ``commit()``. Until then the destination is untouched; ``discard()``
/// (also run on deinit, and on SIGINT/SIGTERM through ``CleanupRegistry``)
/// removes the staging folder and any parent folders it created.
///
/// ``commit()`` makes the destination hold exactly the staged entries plus
/// the entries of the old destination that are neither staged nor part of
/// the previous output (as named by `previousOutput`): files the command
/// did not write, like a committed `prediction-baseline.json`, survive as
/// the same files (hard links; same inode and contents), sub-folders are
/// moved over. The staging folder and the destination are then exchanged
/// in one atomic step (`renameat2(RENAME_EXCHANGE)` on Linux,
/// `renamex_np(RENAME_SWAP)` on macOS; where the file system cannot, two
/// renames with a moment in which the destination is missing) and the old
/// contents removed. A symbolic link to a directory stays a link; its
/// target is replaced. A missing destination (and missing parents) is
/// created.
///
/// When the destination is a mount point, the current directory (or one
/// of its ancestors), or sits in a folder that cannot be written, it cannot
/// be exchanged: the staging folder is then made inside it and
/// ``commit()`` moves the entries in one by one (each atomically, the
/// whole not).
public final class StagedDirectory: @unchecked Sendable {
    /// The destination as given.
    public let destination: String
    /// The destination with symbolic links followed.
    public let target: String
    /// The staging folder to write into.
    public let url: URL
    /// Whether the staging folder is inside the destination (see the type).
    public let inPlace: Bool

    private let registry: CleanupRegistry
    private let previousOutput: (URL) -> Set<String>
    private let createdParents: [String]
    private var token: CleanupRegistry.Token?
    private var finished = false

    /// Creates the staging folder for `destination`.
    ///
    /// - Parameters:
    ///   - previousOutput: given the destination, the names in it that the
    ///     previous run wrote: left out of the new directory when not staged
    ///     again (so nothing stale stays mixed in).
    /// - Throws: ``LatsimError`` when `destination` is a file or cannot be
    ///   written.
    public convenience init(destination: URL, registry: CleanupRegistry = .shared,
                            previousOutput: @escaping (URL) -> Set<String> = { _ in [] }) throws {
        try self.init(destination: destination, registry: registry, previousOutput: previousOutput, inside: nil)
    }

    /// The same; `inside` forces staging inside the destination (or beside
    /// it) for an existing destination, instead of deciding as the type says.
    init(destination: URL, registry: CleanupRegistry, previousOutput: @escaping (URL) -> Set<String>, inside force: Bool?) throws {
        var path = destination.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        self.destination = path
        self.registry = registry
        self.previousOutput = previousOutput
        var target = try FileSystem.followLinks(path, file: path)
        if [".", ".."].contains(FileSystem.name(of: target)) { target = FileSystem.canonical(target) }
        self.target = target
        let existing = FileSystem.status(target)
        if existing == nil && errno != ENOENT { throw FileSystem.error(errno, file: path) }
        if let existing, !existing.isDirectory { throw LatsimError(file: path, problem: "is a file", expected: "a directory") }
        let parent = FileSystem.directory(of: target)
        createdParents = existing == nil ? try FileSystem.makeDirectories(parent, file: path) : []

        var inside = false
        if let existing {
            guard access(target, W_OK | X_OK) == 0 else { throw FileSystem.error(errno, file: path) }
            let here = FileSystem.canonical(".") + "/", there = FileSystem.canonical(target) + "/"
            inside = force ?? (FileSystem.status(parent)?.device != existing.device || access(parent, W_OK | X_OK) != 0
                || here.hasPrefix(there))
        }
        inPlace = inside
        let folder = inside ? target : parent
        LeftoverFiles.clean(folder)
        let staging = FileSystem.join(folder, (inside ? "" : ".\(FileSystem.name(of: target))") + "." + LeftoverFiles.tag("staging"))
        url = URL(fileURLWithPath: staging, isDirectory: true)
        var token: CleanupRegistry.Token?
        do {
            try registry.critical {
                guard mkdir(staging, 0o777) == 0 else {
                    throw FileSystem.error(errno, file: path, action: "cannot create a staging folder in \(folder)")
                }
                token = registry.register(path: staging)
            }
            Self.active.withLock { _ = $0.insert(URL(fileURLWithPath: staging, isDirectory: true).path) }
        } catch {
            FileSystem.removeDirectories(createdParents)
            throw error
        }
        self.token = token
        if let existing {
            _ = chmod(staging, existing.mode & 0o7777)
            if geteuid() == 0 { _ = chown(staging, existing.owner, existing.group) }
        }
    }

    deinit { discard() }

    /// The staging folders in use in this process.
    private static let active = Locked(Set<String>())

    /// True when `path` lies inside a staging folder in use (its files go
    /// into place with the folder, not one by one).
    static func isInsideStaging(_ path: String) -> Bool {
        active.withLock { folders in folders.contains { path.hasPrefix($0 + "/") } }
    }

    /// Moves the staged directory into place (see the type); afterwards
    /// ``url`` no longer exists.
    ///
    /// - Throws: ``LatsimError``; the destination is then as it was.
    public func commit() throws {
        precondition(!finished, "a staged directory is committed or discarded once")
        try registry.critical {
            if inPlace { try commitInPlace() } else { try commitBeside() }
            finished = true
        }
        Self.active.withLock { _ = $0.remove(staging) }
    }

    /// Removes the staging folder and what it holds (nothing after
    /// ``commit()``), and the parent folders it created.
    public func discard() {
        Self.active.withLock { _ = $0.remove(staging) }
        guard !finished else { return }
        finished = true
        registry.critical {
            try? FileManager.default.removeItem(atPath: url.path)
            if let token { registry.unregister(token) }
        }
        FileSystem.removeDirectories(createdParents)
    }

    // MARK: committing (the caller holds the registry's lock)

    private var staging: String { url.path }

    private func failure(_ code: Int32) -> LatsimError {
        FileSystem.error(code, file: destination, action: "cannot move the new output into place")
    }

    private func entries(_ folder: String) throws -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: folder).sorted() } catch {
            throw FileSystem.error(errno == 0 ? EIO : errno, file: destination, action: "cannot list \(folder)")
        }
    }

    private func commitBeside() throws {
        if FileSystem.linkStatus(target) == nil {
            let code = FileSystem.move(staging, to: target)
            if code == 0 { return finishCommit(oldContents: nil) }
            guard code == ENOTEMPTY || code == EEXIST else { throw failure(code) }
        }
        // carry over what the previous output did not write
        let staged = Set(try entries(staging))
        let dropped = previousOutput(URL(fileURLWithPath: target, isDirectory: true))
        var movedFolders: [String] = []
        func moveFoldersBack() {
            for name in movedFolders { _ = FileSystem.move(FileSystem.join(staging, name), to: FileSystem.join(target, name)) }
        }
        for name in try entries(target) where !staged.contains(name) && !dropped.contains(name) {
            let from = FileSystem.join(target, name), to = FileSystem.join(staging, name)
            guard let info = FileSystem.linkStatus(from) else { continue }
            var code: Int32 = 0
            if info.isDirectory {
                code = FileSystem.move(from, to: to)
                if code == 0 { movedFolders.append(name) }
            } else if link(from, to) != 0 {
                code = errno
                // a file system without hard links: copy what can be copied
                if info.isLink, let raw = try? FileManager.default.destinationOfSymbolicLink(atPath: from) {
                    code = symlink(raw, to) == 0 ? 0 : errno
                } else if info.isRegular {
                    code = (try? FileManager.default.copyItem(atPath: from, toPath: to)) != nil ? 0 : code
                }
            }
            if code != 0 { moveFoldersBack(); throw failure(code) }
        }
        let swapped = Self.exchange(staging, target)
        if swapped == 0 { return finishCommit(oldContents: staging) }
        guard [ENOSYS, EINVAL, ENOTSUP, EOPNOTSUPP].contains(swapped) else { moveFoldersBack(); throw failure(swapped) }
        // no atomic exchange here: two renames
        let old = FileSystem.join(FileSystem.directory(of: target), ".\(FileSystem.name(of: target))." + LeftoverFiles.tag("old"))
        var code = FileSystem.move(target, to: old)
        if code == 0 {
            code = FileSystem.move(staging, to: target)
            if code == 0 { return finishCommit(oldContents: old) }
            _ = FileSystem.move(old, to: target)
        }
        moveFoldersBack()
        throw failure(code)
    }

    private func commitInPlace() throws {
        let staged = try entries(staging)
        let dropped = previousOutput(URL(fileURLWithPath: target, isDirectory: true)).subtracting(staged)
        for name in staged {
            let code = FileSystem.move(FileSystem.join(staging, name), to: FileSystem.join(target, name))
            if code != 0 { throw failure(code) }
        }
        for name in dropped where !name.isEmpty && !name.contains("/") {
            let path = FileSystem.join(target, name)
            if let info = FileSystem.linkStatus(path), !info.isDirectory { unlink(path) }
        }
        finishCommit(oldContents: staging)
    }

    /// Removes what was replaced and forgets the staging folder.
    private func finishCommit(oldContents: String?) {
        if let oldContents { try? FileManager.default.removeItem(atPath: oldContents) }
        if let token { registry.unregister(token) }
        token = nil
    }

    /// Exchanges two paths atomically: 0, or the error number (`ENOSYS`
    /// where the system has no such call).
    static func exchange(_ first: String, _ second: String) -> Int32 {
        #if os(Linux)
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else { return ENOSYS }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let exchangeFlag: UInt32 = 1 << 1 // RENAME_EXCHANGE
        return renameat2(AT_FDCWD, first, AT_FDCWD, second, exchangeFlag) == 0 ? 0 : errno
        #elseif canImport(Darwin)
        return renamex_np(first, second, UInt32(RENAME_SWAP)) == 0 ? 0 : errno
        #else
        return ENOSYS
        #endif
    }
}
