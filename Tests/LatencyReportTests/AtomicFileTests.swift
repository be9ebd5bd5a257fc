import Foundation
import Testing
@testable import LatencyReport

@Suite("AtomicFile")
struct AtomicFileTests {
    @Test func writesAndCreatesMissingParentDirectories() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("a/b/out.txt")
        try AtomicFile.write("hello\n", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "hello\n")
    }

    @Test func replacesExistingContentAndLeavesNoTemporaryFiles() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("report.json")
        try AtomicFile.write(Data(repeating: 0x41, count: 10_000), to: url)
        try AtomicFile.write("short", to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == "short")
        #expect(try entries(root) == ["report.json"])
    }

    @Test func failedWriteLeavesTheOldFileAndNoTemporaryFiles() throws {
        let root = try makeTemporaryDirectory("atomic")
        defer { try? FileManager.default.removeItem(at: root) }
        // The destination is a non-empty directory: the final rename fails.
        let blocked = root.appendingPathComponent("blocked")
        try FileManager.default.createDirectory(at: blocked.appendingPathComponent("x"), withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try AtomicFile.write("data", to: blocked) }
        #expect(try entries(root) == ["blocked"])
    }
}
