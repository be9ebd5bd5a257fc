import Foundation
@testable import LatsimOutput
import LatsimTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Cleanup registry")
struct CleanupRegistryTests {
    @Test func removesRegisteredFilesAndFoldersButNothingElse() throws {
        let root = try makeTemporaryDirectory("cleanup")
        defer { try? FileManager.default.removeItem(at: root) }
        let registry = CleanupRegistry()
        let folder = root.appendingPathComponent(".staging")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("deep"), withIntermediateDirectories: true)
        try "chart".write(to: folder.appendingPathComponent("deep/a.png"), atomically: false, encoding: .utf8)
        let temporary = root.appendingPathComponent(".out.json.x.tmp")
        try "half".write(to: temporary, atomically: false, encoding: .utf8)
        let kept = root.appendingPathComponent("kept.json")
        try "done".write(to: kept, atomically: false, encoding: .utf8)

        registry.register(folder)
        registry.register(temporary)
        let token = registry.register(kept)
        registry.unregister(token) // moved into place: no longer temporary
        #expect(registry.paths == [folder.path, temporary.path])

        #expect(registry.removeAll().isEmpty)
        #expect(try entries(root) == ["kept.json"])
        #expect(registry.paths.isEmpty)
    }

    @Test func aPathAlreadyGoneIsNoFailure() {
        let registry = CleanupRegistry()
        registry.register(path: "/nonexistent/\(UUID().uuidString)")
        #expect(registry.removeAll().isEmpty)
    }

    @Test func whileRegisteredForgetsThePathAfterwards() throws {
        let registry = CleanupRegistry()
        let url = URL(fileURLWithPath: "/nonexistent/x")
        let seen = registry.whileRegistered(url) { registry.paths }
        #expect(seen == [url.path])
        #expect(registry.paths.isEmpty)
    }

    @Test func stopsARegisteredChildProcess() throws {
        let registry = CleanupRegistry()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "while :; do sleep 1; done"]
        try child.run()
        registry.register(process: child.processIdentifier)
        registry.removeAll()
        child.waitUntilExit() // returns only because the registry stopped it
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)
    }

    @Test func exitStatusIs128PlusTheSignal() {
        #expect(SignalCleanup.exitStatus(for: SIGINT) == 130)
        #expect(SignalCleanup.exitStatus(for: SIGTERM) == 143)
        #expect(SignalCleanup.signals.contains(SIGINT) && SignalCleanup.signals.contains(SIGTERM))
    }
}
