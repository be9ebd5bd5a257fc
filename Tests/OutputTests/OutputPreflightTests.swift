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

@Suite("Output pre-flight")
struct OutputPreflightTests {
    @Test func acceptsWritableOutputsAndCreatesNothing() throws {
        let root = try makeTemporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: root) }
        let existing = root.appendingPathComponent("old.json")
        try "old".write(to: existing, atomically: false, encoding: .utf8)
        let before = snapshot(root)
        try OutputDestination.preflight([
            .file(existing.path),
            .file(root.appendingPathComponent("a/b/c/new.csv").path),
            .file("-"),
            .file("/dev/null"),
            .file("/dev/null"), // a character device may take several outputs
            .directory(root.appendingPathComponent("report/charts").path),
        ])
        #expect(snapshot(root) == before)
    }

    @Test func dashAndDevStdoutAreTheSameDestination() throws {
        #expect(throws: LatsimError(file: "/dev/stdout", problem: "the same destination as - (standard output)",
                                    expected: "a different destination for each output")) {
            try OutputDestination.preflight(files: ["-", nil, "/dev/stdout"])
        }
    }

    @Test func theSamePathSpelledTwoWaysIsRefused() throws {
        let root = try makeTemporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: root) }
        let plain = root.appendingPathComponent("out/result.json").path
        let dotted = root.path + "/out/../out/./result.json"
        #expect(throws: LatsimError.self) { try OutputDestination.preflight(files: [plain, dotted]) }
        #expect(throws: LatsimError.self) { try OutputDestination.preflight(files: [plain, plain]) }
        #expect(try entries(root).isEmpty)
    }

    @Test func aLinkAndItsTargetAreTheSameFile() throws {
        let root = try makeTemporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("real.json").path
        let link = root.appendingPathComponent("link.json").path
        #expect(symlink("real.json", link) == 0) // dangling: the file is new
        let error = #expect(throws: LatsimError.self) { try OutputDestination.preflight(files: [target, link]) }
        #expect(error?.description == "\(link): the same destination as \(target); expected a different destination for each output")
        // a folder reached through a link
        let folderLink = root.appendingPathComponent("via").path
        #expect(symlink(root.path, folderLink) == 0)
        #expect(throws: LatsimError.self) { try OutputDestination.preflight(files: [target, folderLink + "/real.json"]) }
    }

    @Test func hardLinksAreTheSameFile() throws {
        let root = try makeTemporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a.json").path, b = root.appendingPathComponent("b.json").path
        try "x".write(toFile: a, atomically: false, encoding: .utf8)
        #expect(link(a, b) == 0)
        #expect(throws: LatsimError.self) { try OutputDestination.preflight(files: [a, b]) }
    }

    @Test func aFIFOTwiceIsRefusedButTwoDifferentFilesAreFine() throws {
        let root = try makeTemporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: LatsimError.self) { try OutputDestination.preflight(files: [fifo, fifo]) }
        try OutputDestination.preflight(files: [fifo, root.appendingPathComponent("other").path])
    }

    @Test func aFileWhereADirectoryIsWantedAndTheReverse() throws {
        let root = try makeTemporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("notes.txt")
        try "n".write(to: file, atomically: false, encoding: .utf8)
        #expect(throws: LatsimError(file: file.path, problem: "is a file", expected: "a directory")) {
            try OutputDestination.preflight([.directory(file.path)])
        }
        #expect(throws: LatsimError(file: root.path, problem: "is a directory", expected: "a file")) {
            try OutputDestination.preflight([.file(root.path)])
        }
        let under = file.path + "/x/out.json"
        #expect(throws: LatsimError(file: under, problem: "\(file.path) is a file", expected: "a directory")) {
            try OutputDestination.preflight([.file(under)])
        }
        let folderUnder = file.path + "/report"
        #expect(throws: LatsimError(file: folderUnder, problem: "\(file.path) is a file", expected: "a directory")) {
            try OutputDestination.preflight([.directory(folderUnder)])
        }
    }

    @Test func aFileOutputThatIsTheReportDirectoryIsRefused() throws {
        let root = try makeTemporaryDirectory("preflight")
        defer { try? FileManager.default.removeItem(at: root) }
        let report = root.appendingPathComponent("Reports").path
        #expect(throws: LatsimError.self) {
            try OutputDestination.preflight([.directory(report), .file(root.path + "/./Reports")])
        }
        // a file inside the directory is a different destination
        try OutputDestination.preflight([.directory(report), .file(report + "/extra.json")])
    }

    @Test func aClosedDescriptorIsRefused() throws {
        #expect(throws: LatsimError(file: "/dev/fd/987", problem: "not an open file descriptor")) {
            try OutputDestination.preflight(files: ["/dev/fd/987"])
        }
    }
}
