import Charts
import Foundation
@testable import LatsimOutput

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything in a directory tree, by relative path: each file's inode and
/// contents, each link's target, each folder's inode. Two equal snapshots
/// mean the tree was not touched (files not replaced, not rewritten).
func snapshot(_ directory: URL) -> [String: String] {
    var out: [String: String] = [:]
    func walk(_ folder: String, _ prefix: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            let path = folder + "/" + name, key = prefix + name
            var s = stat()
            guard lstat(path, &s) == 0 else { continue }
            switch s.st_mode & S_IFMT {
            case S_IFDIR:
                out[key] = "folder \(s.st_ino)"
                walk(path, key + "/")
            case S_IFLNK:
                out[key] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default:
                let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
                out[key] = "file \(s.st_ino) \(data.base64EncodedString())"
            }
        }
    }
    walk(directory.path, "")
    return out
}

/// The file type bits of `path` itself (`lstat`), or nil.
func fileType(_ path: String) -> mode_t? {
    var s = stat()
    return lstat(path, &s) == 0 ? s.st_mode & S_IFMT : nil
}

/// The inode of `path` itself.
func inode(_ path: String) -> UInt64? {
    var s = stat()
    return lstat(path, &s) == 0 ? UInt64(s.st_ino) : nil
}

/// Reads everything written to the FIFO or socket `path` on its own
/// thread; ``wait()`` returns the bytes once the writer has closed.
final class BackgroundReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var bytes = Data()

    /// Opens the FIFO at `path` for reading (blocks until a writer opens it).
    init(fifo path: String) {
        let thread = Thread {
            let fd = open(path, O_RDONLY)
            if fd >= 0 { self.bytes = Self.drain(fd); close(fd) }
            self.done.signal()
        }
        thread.start()
    }

    /// Accepts one connection on the listening socket `listener` and reads it.
    init(listener: Int32) {
        let thread = Thread {
            let fd = accept(listener, nil, nil)
            if fd >= 0 { self.bytes = Self.drain(fd); close(fd) }
            self.done.signal()
        }
        thread.start()
    }

    /// The bytes read, or nil if nothing arrived within a minute (a guard
    /// against hanging the suite, not a timing assumption).
    func wait() -> Data? {
        done.wait(timeout: .now() + 60) == .success ? bytes : nil
    }

    private static func drain(_ fd: Int32) -> Data {
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n > 0 { out.append(contentsOf: buffer[..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return out
    }
}

/// A Unix-domain stream socket listening at `path`; -1 on failure.
func listeningSocket(at path: String) -> Int32 {
    #if canImport(Glibc) || canImport(Musl)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(fd, 1) == 0 else { close(fd); return -1 }
    return fd
}

/// A stand-in for gnuplot: a shell script that, like gnuplot run by
/// ``Gnuplot``, gets `-e outbase="NAME" script.gp` and runs `body` with
/// `$base` set to NAME.
func fakeGnuplot(in folder: URL, _ body: String) throws -> URL {
    let url = folder.appendingPathComponent("gnuplot")
    let script = """
    #!/bin/sh
    base=${2#outbase=}; base=${base#\\"}; base=${base%\\"}
    \(body)

    """
    try script.write(to: url, atomically: false, encoding: .utf8)
    chmod(url.path, 0o755)
    return url
}

/// The smallest whole PNG as the image check sees it: the signature, then
/// the IEND chunk with its CRC.
let minimalPNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
/// `printf` text writing ``minimalPNG``.
let minimalPNGPrintf = #"\211PNG\r\n\032\n\000\000\000\000IEND\256B\140\202"#
/// A whole SVG as the image check sees it.
let minimalSVG = "<svg></svg>"

/// A fake gnuplot that writes small whole PNG and SVG files.
func workingGnuplot(in folder: URL) throws -> Gnuplot {
    Gnuplot(executable: try fakeGnuplot(in: folder, "printf '\(minimalPNGPrintf)' > \"$base.png\"; printf '\(minimalSVG)' > \"$base.svg\""))
}

/// A fake gnuplot that writes part of each image and exits 0, as gnuplot
/// does on a full disk.
func truncatingGnuplot(in folder: URL) throws -> Gnuplot {
    Gnuplot(executable: try fakeGnuplot(in: folder, "printf '\\211PNG\\r\\n\\032\\n\\000\\000' > \"$base.png\"; printf '<svg><g>' > \"$base.svg\"; exit 0"))
}

/// A fake gnuplot that writes half an image and fails.
func failingGnuplot(in folder: URL) throws -> Gnuplot {
    Gnuplot(executable: try fakeGnuplot(in: folder, "printf 'PN' > \"$base.png\"; echo 'fake gnuplot: broken' >&2; exit 1"))
}
