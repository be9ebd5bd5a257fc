import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes output files so that a reader never sees a half-written one, and
/// never replaces what is not a regular file.
///
/// ``write(_:to:)-(Data,_)`` goes through ``OutputDestination``: a regular
/// file (or a new one) is replaced atomically as described below; a
/// symbolic link is written through (its target is replaced, the link
/// stays); a device, FIFO or socket is written in place; `-` and
/// `/dev/stdout` are standard output.
///
/// The atomic replacement: the bytes go to a hidden temporary file
/// `.<name>.<random>.tmp` in the destination's own directory (so the final
/// step is a rename within one file system), are flushed to disk, and the
/// temporary file is renamed over the destination with POSIX `rename(2)`.
/// An interrupted run leaves either the old file or the new one, never a
/// mixture; on any error the temporary file is removed, and on SIGINT or
/// SIGTERM too once ``SignalCleanup`` is installed. A replaced file keeps
/// its permission bits (and, when run as root, its owner); hard links to
/// the old file keep the old contents. Missing parent directories are
/// created (and removed again if the write fails).
public enum AtomicFile {
    /// Writes `data` to `url` as ``OutputDestination`` describes.
    ///
    /// - Throws: ``LatsimError`` naming `url`'s path.
    public static func write(_ data: Data, to url: URL) throws {
        try OutputDestination(url.path).write(data)
    }

    /// Writes `text` as UTF-8 to `url`, exactly as the `Data` overload does.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// Replaces the regular file (or creates the file) at `target` with
    /// `data` through a temporary file and a rename; `file` is the path the
    /// user gave, for messages.
    static func replace(_ target: String, with data: Data, file: String,
                        registry: CleanupRegistry = .shared) throws {
        try replace(target, file: file, registry: registry) { descriptor in
            let code = FileSystem.writeAll(descriptor, data)
            if code != 0 { throw FileSystem.error(code, file: file) }
        }
    }

    /// ``replace(_:with:file:registry:)`` with the bytes written by
    /// `produce` to the temporary file's descriptor as they are made (a
    /// streamed output); when `produce` throws, the temporary file is
    /// removed and the target left as it was.
    static func replace(_ target: String, file: String, registry: CleanupRegistry = .shared,
                        produce: (Int32) throws -> Void) throws {
        let directory = FileSystem.directory(of: target)
        try refuseInput(target, file: file)
        let created = try FileSystem.makeDirectories(directory, file: file)
        do { try refuseInput(target, file: file) } catch { FileSystem.removeDirectories(created); throw error } // `new/../x` names x once new exists
        LeftoverFiles.clean(directory)
        var temporary: String?
        var token: CleanupRegistry.Token?
        var descriptor: Int32 = -1
        do {
            let existing = FileSystem.status(target)
            if let existing {
                guard !existing.isDirectory else { throw FileSystem.error(EISDIR, file: file) }
                guard access(target, W_OK) == 0 else { throw FileSystem.error(errno, file: file) }
            }
            // create and register in one step: a signal never leaves it behind
            try registry.critical {
                for _ in 0..<8 {
                    let name = FileSystem.join(directory, ".\(FileSystem.name(of: target)).\(LeftoverFiles.tag()).tmp")
                    descriptor = FileSystem.open(name, O_WRONLY | O_CREAT | O_EXCL, 0o666)
                    if descriptor >= 0 {
                        temporary = name
                        token = registry.register(path: name)
                        return
                    }
                    if errno != EEXIST { break }
                }
                let code = errno
                if code == ENOENT && FileSystem.status(directory)?.isDirectory == true {
                    // the folder exists but takes no new files (/proc, /sys)
                    throw LatsimError(.badInput, file: file, problem: "cannot create a file in \(directory): the file system does not allow it",
                                      expected: "a path on an ordinary file system")
                }
                throw FileSystem.error(code, file: file, action: "cannot create a file in \(directory)")
            }
            if let existing, existing.isRegular {
                _ = fchmod(descriptor, existing.mode & 0o7777)
                if geteuid() == 0 { _ = fchown(descriptor, existing.owner, existing.group) }
            }
            try produce(descriptor)
            var code: Int32 = 0
            if fsync(descriptor) != 0 && errno != EINVAL { code = errno }
            let closed = close(descriptor)
            descriptor = -1
            if code == 0 && closed != 0 { code = errno }
            if code != 0 { throw FileSystem.error(code, file: file) }
            if let transaction = OutputTransaction.current, registry === CleanupRegistry.shared, transaction.holds(target) {
                // renamed into place with the command's other outputs
                transaction.hold(temporary: temporary!, target: target, file: file, token: token!, createdFolders: created)
                return
            }
            try registry.critical {
                let moved = FileSystem.move(temporary!, to: target)
                if moved != 0 { throw FileSystem.error(moved, file: file) }
                registry.unregister(token!)
                token = nil
            }
        } catch {
            if descriptor >= 0 { close(descriptor) }
            if let temporary { unlink(temporary) }
            if let token { registry.unregister(token) }
            FileSystem.removeDirectories(created)
            throw error
        }
    }

    /// Refuses to replace a file this process read as input
    /// (``InputFiles``): bad input naming both paths.
    package static func refuseInput(_ target: String, file: String) throws {
        // by identity, and by spelling for a path whose folders do not exist
        // yet (`missing/../input.yaml` is the input once `missing` is made)
        let spelled = InputFiles.all.isEmpty ? nil : FileSystem.canonical(target)
        if let input = InputFiles.input(sameAs: target) ?? InputFiles.all.first(where: { FileSystem.canonical($0.path) == spelled }) {
            throw LatsimError(file: file, problem: input.path == file ? "is also an input of this command" : "is the same file as the input \(input.path)",
                              expected: "an output path that is none of the command's inputs")
        }
    }
}
