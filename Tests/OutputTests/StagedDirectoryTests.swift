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

@Suite("Staged directories")
struct StagedDirectoryTests {
    /// A destination folder holding an old output (README.md, old.png,
    /// stale.png) and things the output does not own.
    static func oldOutput(in root: URL) throws -> URL {
        let dir = root.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("notes"), withIntermediateDirectories: true)
        for (name, text) in [("README.md", "old page"), ("old.png", "old image"), ("stale.png", "stale image"),
                             ("prediction-baseline.json", "{\"baseline\": 1}"), ("notes/todo.txt", "keep me")] {
            try text.write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        #expect(symlink("prediction-baseline.json", dir.appendingPathComponent("baseline-link.json").path) == 0)
        return dir
    }

    static func previous(_ directory: URL) -> Set<String> { ["README.md", "old.png", "stale.png"] }

    @Test func anExistingDirectoryIsReplacedWholeKeepingWhatItDidNotWrite() throws {
        let root = try makeTemporaryDirectory("staged")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.oldOutput(in: root)
        let baselineInode = inode(dir.appendingPathComponent("prediction-baseline.json").path)
        let staged = try StagedDirectory(destination: dir, registry: CleanupRegistry(), previousOutput: Self.previous)
        #expect(!staged.inPlace)
        #expect(staged.url.deletingLastPathComponent().path == root.path)
        try "new page".write(to: staged.url.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
        try "new image".write(to: staged.url.appendingPathComponent("old.png"), atomically: false, encoding: .utf8)
        // nothing reaches the destination before the commit
        #expect(try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8) == "old page")
        try staged.commit()

        #expect(try entries(dir) == ["README.md", "baseline-link.json", "notes", "old.png", "prediction-baseline.json"])
        #expect(try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8) == "new page")
        #expect(try String(contentsOf: dir.appendingPathComponent("old.png"), encoding: .utf8) == "new image")
        #expect(try String(contentsOf: dir.appendingPathComponent("notes/todo.txt"), encoding: .utf8) == "keep me")
        #expect(inode(dir.appendingPathComponent("prediction-baseline.json").path) == baselineInode)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.appendingPathComponent("baseline-link.json").path)
            == "prediction-baseline.json")
        #expect(try entries(root) == ["Reports"]) // no staging or old folder left
    }

    @Test func discardingLeavesTheOldDirectoryExactlyAsItWas() throws {
        let root = try makeTemporaryDirectory("staged")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.oldOutput(in: root)
        let before = snapshot(root)
        do {
            let staged = try StagedDirectory(destination: dir, registry: CleanupRegistry(), previousOutput: Self.previous)
            try "half".write(to: staged.url.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
            staged.discard()
        }
        #expect(snapshot(root) == before)
        do {
            // dropped without a commit (an error thrown past it): the same
            let staged = try StagedDirectory(destination: dir, registry: CleanupRegistry(), previousOutput: Self.previous)
            try "half".write(to: staged.url.appendingPathComponent("a.png"), atomically: false, encoding: .utf8)
        }
        #expect(snapshot(root) == before)
    }

    @Test func aMissingDestinationAndItsParentsAreCreatedOnlyOnCommit() throws {
        let root = try makeTemporaryDirectory("staged")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent("out/Reports")
        let staged = try StagedDirectory(destination: dir, registry: CleanupRegistry())
        try "page".write(to: staged.url.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
        #expect(FileSystem.linkStatus(dir.path) == nil)
        try staged.commit()
        #expect(try entries(dir) == ["README.md"])
        #expect(try entries(root.appendingPathComponent("out")) == ["Reports"])

        let discarded = root.appendingPathComponent("other/deeper/Reports")
        try StagedDirectory(destination: discarded, registry: CleanupRegistry()).discard()
        #expect(try entries(root) == ["out"]) // the parents it made are gone again
    }

    @Test func aLinkToADirectoryStaysALinkAndItsTargetIsReplaced() throws {
        let root = try makeTemporaryDirectory("staged")
        defer { try? FileManager.default.removeItem(at: root) }
        let real = try Self.oldOutput(in: root.appendingPathComponent("elsewhere"))
        let link = root.appendingPathComponent("Reports")
        #expect(symlink(real.path, link.path) == 0)
        let staged = try StagedDirectory(destination: link, registry: CleanupRegistry(), previousOutput: Self.previous)
        try "new page".write(to: staged.url.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
        try staged.commit()
        #expect(fileType(link.path) == S_IFLNK)
        #expect(try String(contentsOf: real.appendingPathComponent("README.md"), encoding: .utf8) == "new page")
        #expect(try entries(real).contains("prediction-baseline.json"))
        #expect(try entries(root.appendingPathComponent("elsewhere")) == ["Reports"])
    }

    @Test func stagingInsideMovesEntriesInAndRemovesTheStaleOnes() throws {
        let root = try makeTemporaryDirectory("staged")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.oldOutput(in: root)
        let staged = try StagedDirectory(destination: dir, registry: CleanupRegistry(), previousOutput: Self.previous, inside: true)
        #expect(staged.inPlace)
        try "new page".write(to: staged.url.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
        try staged.commit()
        #expect(try entries(dir) == ["README.md", "baseline-link.json", "notes", "prediction-baseline.json"])
        #expect(try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8) == "new page")
    }

    @Test func aFileAsTheDestinationIsRefused() throws {
        let root = try makeTemporaryDirectory("staged")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("Reports")
        try "x".write(to: file, atomically: false, encoding: .utf8)
        #expect(throws: LatsimError(file: file.path, problem: "is a file", expected: "a directory")) {
            _ = try StagedDirectory(destination: file, registry: CleanupRegistry())
        }
        #expect(try entries(root) == ["Reports"])
    }

    @Test func theStagingFolderIsRegisteredForSignalCleanupUntilCommitted() throws {
        let root = try makeTemporaryDirectory("staged")
        defer { try? FileManager.default.removeItem(at: root) }
        let registry = CleanupRegistry()
        let staged = try StagedDirectory(destination: root.appendingPathComponent("Reports"), registry: registry)
        #expect(registry.paths == [staged.url.path])
        try staged.commit()
        #expect(registry.paths.isEmpty)
    }
}
