import Foundation
import Testing

/// `scripts/install.sh`: what it installs works from any folder. The build
/// itself (a release build, minutes) is not run here; `--from` installs the
/// binary these tests run, with the resources SwiftPM put beside it, into a
/// temporary prefix, which exercises everything after the build: the
/// layout, the link on PATH and the resources found beside the binary's real
/// path.
@Suite(.serialized) struct InstallTests {
    static let script = Latsim.packageRoot.appendingPathComponent("scripts/install.sh")

    /// Runs `install.sh` with `arguments` from the package root.
    static func install(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [script.path] + arguments
        p.currentDirectoryURL = Latsim.packageRoot
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs the installed `latsim` in `dir`, by its path on PATH.
    static func installed(_ prefix: URL, _ arguments: [String], in dir: URL) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = prefix.appendingPathComponent("bin/latsim")
        p.arguments = arguments
        p.currentDirectoryURL = dir
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func anInstalledLatsimRunsFromAnyFolderWithItsOwnResources() throws {
        #if os(Linux)
        let prefix = try Latsim.temporaryDirectory()
        let elsewhere = try Latsim.temporaryDirectory()
        let r = try Self.install(["--from", Latsim.binary.deletingLastPathComponent().path, prefix.path])
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains("installed latsim"), "\(r.output)")
        let fm = FileManager.default
        let lib = prefix.appendingPathComponent("lib/latsim")
        #expect(try fm.destinationOfSymbolicLink(atPath: prefix.appendingPathComponent("bin/latsim").path) == "../lib/latsim/latsim")
        #expect(fm.fileExists(atPath: lib.appendingPathComponent("latsim_Scenarios.resources/Builtin/ios8.yaml").path))
        #expect(!fm.fileExists(atPath: lib.appendingPathComponent("latsim_FuzzTests.resources").path), "a test target's resources were installed")

        // ios8 as the talk draws it: 4 frames of 16.667 ms, 50 ms touch-to-photon
        let run = try Self.installed(prefix, ["run", "ios8", "--duration", "1s"], in: elsewhere)
        #expect(run.status == 0, "\(run.output)")
        let p50 = run.output.components(separatedBy: "\n").first { $0.hasPrefix("t2p p50 ms") }
        #expect(p50?.split(separator: " ").last == "50", "\(run.output)")

        // the scenario is read from the installed copy, not from the build
        let installedYAML = lib.appendingPathComponent("latsim_Scenarios.resources/Builtin/ios8.yaml")
        let handle = try FileHandle(forWritingTo: installedYAML)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("# the installed copy\n".utf8))
        try handle.close()
        let show = try Self.installed(prefix, ["scenario", "show", "ios8"], in: elsewhere)
        #expect(show.status == 0 && show.output.contains("# the installed copy"), "\(show.output)")

        // installing again replaces the install whole
        let again = try Self.install(["--from", Latsim.binary.deletingLastPathComponent().path, prefix.path])
        #expect(again.status == 0, "\(again.output)")
        let shown = try Self.installed(prefix, ["scenario", "show", "ios8"], in: elsewhere)
        #expect(!shown.output.contains("# the installed copy"), "\(shown.output)")
        #endif
    }

    /// Bad arguments exit 2 and install nothing; an unwritable prefix exits 3.
    @Test func badArgumentsInstallNothing() throws {
        let prefix = try Latsim.temporaryDirectory().appendingPathComponent("p")
        let missing = try Self.install(["--from", "/nonexistent-latsim-build", prefix.path])
        #expect(missing.status == 2 && missing.output.contains("/nonexistent-latsim-build holds no latsim binary"), "\(missing.output)")
        #expect(!FileManager.default.fileExists(atPath: prefix.path), "a refused install left \(prefix.path)")
        let flag = try Self.install(["--bogus"])
        #expect(flag.status == 2 && flag.output.contains("usage: scripts/install.sh"), "\(flag.output)")
        let two = try Self.install(["a", "b"])
        #expect(two.status == 2, "\(two.output)")
        let proc = try Self.install(["--from", Latsim.binary.deletingLastPathComponent().path, "/proc/latsim-cannot-write"])
        #expect(proc.status == 3 && proc.output.contains("cannot write into /proc/latsim-cannot-write/bin"), "\(proc.output)")
    }
}
