import Foundation
@testable import LatsimOutput
import SimKernel
import LatsimTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Output destinations")
struct OutputDestinationTests {
    @Test func dashAndDevStdoutAreStandardOutput() throws {
        #expect(try OutputDestination("-").kind == .descriptor(1))
        #expect(try OutputDestination("/dev/stdout").kind == .descriptor(1))
        #expect(try OutputDestination("/dev/stderr").kind == .descriptor(2))
        #expect(try OutputDestination("/dev/fd/7").kind == .descriptor(7))
        #expect(try OutputDestination("/proc/self/fd/1").kind == .descriptor(1))
    }

    @Test func aDescriptorPathWritesToThatDescriptor() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        try OutputDestination.write("through the pipe\n", to: "/dev/fd/\(fds[1])")
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 100)
        let n = read(fds[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[..<max(n, 0)], as: UTF8.self) == "through the pipe\n")
    }

    @Test func aSymlinkIsWrittenThroughAndStaysALink() throws {
        let root = try makeTemporaryDirectory("link")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data"), withIntermediateDirectories: true)
        let real = root.appendingPathComponent("data/real.json")
        try "old".write(to: real, atomically: false, encoding: .utf8)
        let link = root.appendingPathComponent("out.json")
        #expect(symlink("data/real.json", link.path) == 0) // relative to the link's folder
        let destination = try OutputDestination(link.path)
        #expect(destination.kind == .file)
        #expect(destination.target == real.path)
        try destination.write("new")
        #expect(fileType(link.path) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "data/real.json")
        #expect(try String(contentsOf: real, encoding: .utf8) == "new")
        #expect(try entries(root.appendingPathComponent("data")) == ["real.json"])
    }

    @Test func aDanglingSymlinkGetsItsTargetCreated() throws {
        let root = try makeTemporaryDirectory("dangling")
        defer { try? FileManager.default.removeItem(at: root) }
        let link = root.appendingPathComponent("out.json")
        let target = root.appendingPathComponent("later/made.json")
        #expect(symlink(target.path, link.path) == 0)
        try OutputDestination.write("made", to: link.path)
        #expect(fileType(link.path) == S_IFLNK)
        #expect(try String(contentsOf: target, encoding: .utf8) == "made")
    }

    @Test func aLinkLoopIsAClearError() throws {
        let root = try makeTemporaryDirectory("loop")
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a").path, b = root.appendingPathComponent("b").path
        #expect(symlink(b, a) == 0 && symlink(a, b) == 0)
        #expect(throws: LatsimError(.badInput, file: a, problem: "too many levels of symbolic links", expected: "a link that ends at a file")) {
            try OutputDestination.write("x", to: a)
        }
    }

    @Test func devNullIsWrittenInPlaceAndStaysACharacterDevice() throws {
        var before = stat()
        #expect(stat("/dev/null", &before) == 0 && before.st_mode & S_IFMT == S_IFCHR)
        let destination = try OutputDestination("/dev/null")
        #expect(destination.kind == .characterDevice)
        try destination.write(Data(repeating: 0x41, count: 100_000))
        var after = stat()
        #expect(lstat("/dev/null", &after) == 0)
        #expect(after.st_mode & S_IFMT == S_IFCHR)
        #expect(after.st_rdev == before.st_rdev && after.st_ino == before.st_ino)
    }

    @Test func aLinkToDevNullWritesToTheDevice() throws {
        let root = try makeTemporaryDirectory("nulllink")
        defer { try? FileManager.default.removeItem(at: root) }
        let link = root.appendingPathComponent("discard.json").path
        #expect(symlink("/dev/null", link) == 0)
        #expect(try OutputDestination(link).kind == .characterDevice)
        try OutputDestination.write("gone", to: link)
        #expect(fileType(link) == S_IFLNK)
        #expect(fileType("/dev/null") == S_IFCHR)
        #expect(try entries(root) == ["discard.json"])
    }

    @Test func devFullIsAnEnvironmentErrorAndStaysADevice() throws {
        #expect(throws: LatsimError(.environment, file: "/dev/full", problem: "no space left on device")) {
            try OutputDestination.write("{}\n", to: "/dev/full")
        }
        #expect(fileType("/dev/full") == S_IFCHR)
    }

    @Test func aFIFOIsWrittenInPlaceForItsReader() throws {
        let root = try makeTemporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = BackgroundReader(fifo: fifo)
        let payload = String(repeating: "frame,latency\n", count: 20_000) // more than a pipe buffer
        try OutputDestination.write(payload, to: fifo)
        #expect(reader.wait().map { String(decoding: $0, as: UTF8.self) } == payload)
        #expect(fileType(fifo) == S_IFIFO)
        #expect(try entries(root) == ["pipe"])
    }

    @Test func aSocketIsConnectedToAndWritten() throws {
        let root = URL(fileURLWithPath: "/tmp").appendingPathComponent("lr-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("s").path
        let listener = listeningSocket(at: path)
        #expect(listener >= 0)
        defer { close(listener) }
        let reader = BackgroundReader(listener: listener)
        #expect(try OutputDestination(path).kind == .socket)
        try OutputDestination.write("over the socket", to: path)
        #expect(reader.wait().map { String(decoding: $0, as: UTF8.self) } == "over the socket")
        #expect(fileType(path) == S_IFSOCK)
    }

    @Test func aDirectoryIsBadInputNamingThePath() throws {
        let root = try makeTemporaryDirectory("dir")
        defer { try? FileManager.default.removeItem(at: root) }
        let error = #expect(throws: LatsimError.self) { try OutputDestination.write("x", to: root.path) }
        #expect(error?.kind == .badInput)
        #expect(error?.description == "\(root.path): is a directory; expected a file")
    }

    @Test func aPathUnderARegularFileNamesThatFile() throws {
        let root = try makeTemporaryDirectory("underfile")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("notes.txt")
        try "notes".write(to: file, atomically: false, encoding: .utf8)
        let path = file.path + "/sub/out.json"
        let error = #expect(throws: LatsimError.self) { try OutputDestination.write("x", to: path) }
        #expect(error?.kind == .badInput)
        #expect(error?.description == "\(path): \(file.path) is a file; expected a directory")
        #expect(try String(contentsOf: file, encoding: .utf8) == "notes")
    }

    @Test func aTrailingSlashOnAMissingPathIsNotAFileName() throws {
        #expect(throws: LatsimError(file: "no-such-folder-here/", problem: "names a directory (it ends in /)", expected: "a file name")) {
            _ = try OutputDestination("no-such-folder-here/")
        }
    }

    @Test func errorNumbersBecomeOneLineMessagesOfTheRightKind() {
        let cases: [(Int32, LatsimError.Kind, String)] = [
            (ENOSPC, .environment, "out.json: no space left on device"),
            (EIO, .environment, "out.json: input/output error"),
            (EROFS, .environment, "out.json: read-only file system; expected a path on a writable file system"),
            (EDQUOT, .environment, "out.json: disk quota exceeded"),
            (EACCES, .badInput, "out.json: permission denied; expected a path you can write to"),
            (EISDIR, .badInput, "out.json: is a directory; expected a file"),
        ]
        for (code, kind, text) in cases {
            let error = FileSystem.error(code, file: "out.json")
            #expect(error.kind == kind)
            #expect(error.description == text)
            #expect(!error.description.contains("Domain") && !error.description.contains("UserInfo") && !error.description.contains("\n"))
        }
        #expect(FileSystem.error(EACCES, file: "r/out.json", action: "cannot create a file in r").description
            == "r/out.json: cannot create a file in r: permission denied; expected a path you can write to")
    }
}
