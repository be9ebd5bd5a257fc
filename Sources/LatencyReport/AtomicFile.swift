import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes output files so that a reader never sees a half-written one.
///
/// The bytes go to a temporary file in the destination's own directory (so
/// the final step is a rename within one file system), are flushed to disk,
/// and the temporary file is then renamed over the destination with POSIX
/// `rename(2)`, which replaces an existing file atomically. An interrupted
/// run leaves either the old file or the new one, never a mixture; on any
/// error the temporary file is removed.
public enum AtomicFile {
    /// Writes `data` to `url`, creating missing parent directories and
    /// replacing any existing file.
    public static func write(_ data: Data, to url: URL) throws {
        let destination = url.standardizedFileURL
        let directory = destination.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = temporaryURL(for: destination)
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
            }
            let handle = try FileHandle(forWritingTo: temporary)
            do {
                try handle.write(contentsOf: data)
                try handle.synchronize()
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            try rename(temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes `text` as UTF-8 to `url`, exactly as the `Data` overload does.
    public static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// A hidden, unique name beside `destination`:
    /// `.<name>.<uuid>.tmp`.
    static func temporaryURL(for destination: URL) -> URL {
        let name = ".\(destination.lastPathComponent).\(UUID().uuidString).tmp"
        return destination.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Renames `source` over `destination` (atomic replace on POSIX systems).
    static func rename(_ source: URL, to destination: URL) throws {
        let status = source.withUnsafeFileSystemRepresentation { from in
            destination.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return Int32(-1) }
                #if canImport(Glibc)
                return Glibc.rename(from, to)
                #elseif canImport(Musl)
                return Musl.rename(from, to)
                #else
                return Darwin.rename(from, to)
                #endif
            }
        }
        if status != 0 {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            throw POSIXError(code, userInfo: [NSFilePathErrorKey: destination.path])
        }
    }
}
