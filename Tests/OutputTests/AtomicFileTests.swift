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

@Suite("AtomicFile")
struct AtomicFileTests {
    @Test func writesAndCreatesMissingParentDirectories() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("a/b/out.txt")
        try AtomicFile.write("hello\n", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "hello\n")
        #expect(try entries(root.appendingPathComponent("a/b")) == ["out.txt"])
    }

    @Test func replacesExistingContentWithANewFileAndLeavesNoTemporaryFiles() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("report.json")
        try AtomicFile.write(Data(repeating: 0x41, count: 10_000), to: url)
        let before = inode(url.path)
        try AtomicFile.write("short", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "short")
        // renamed into place, not rewritten: a reader holding the old file keeps it whole
        #expect(inode(url.path) != before)
        #expect(try entries(root) == ["report.json"])
    }

    @Test func keepsThePermissionsOfTheFileItReplaces() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("secret.json")
        try AtomicFile.write("old", to: url)
        chmod(url.path, 0o640)
        try AtomicFile.write("new", to: url)
        var s = stat()
        #expect(stat(url.path, &s) == 0 && s.st_mode & 0o7777 == 0o640)
    }

    @Test func failedWriteLeavesTheOldDirectoryAndNoTemporaryFiles() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        // The destination is a non-empty directory: nothing may be written.
        let blocked = root.appendingPathComponent("blocked")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("x"), withIntermediateDirectories: true)
        let before = snapshot(root)
        #expect(throws: LatsimError(.badInput, file: blocked.path, problem: "is a directory", expected: "a file")) {
            try AtomicFile.write("data", to: blocked)
        }
        #expect(snapshot(root) == before)
    }

    @Test func aPathThatBecameADirectoryAfterItWasResolvedIsNotReplaced() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent("new/out")
        let destination = try OutputDestination(target.path)
        #expect(destination.kind == .file)
        try FileManager.default.createDirectory(at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: LatsimError.self) { try destination.write(Data("x".utf8)) }
        #expect(try entries(target.deletingLastPathComponent()) == ["out"])
        #expect(try entries(target) == ["inside"])
    }
}
