import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `latsim report` interrupted while gnuplot renders: the staging folder
/// goes, the old report stays exactly as it was, the exit status is
/// 128 + the signal.
@Suite struct InterruptTests {
    /// Every file under `directory` with its contents.
    static func contents(_ directory: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: directory.path)
        while let name = walker?.nextObject() as? String {
            out[name] = (try? Data(contentsOf: directory.appendingPathComponent(name))) ?? Data()
        }
        return out
    }

    /// Starts `latsim report` with a gnuplot that announces itself by
    /// creating `marker` and then waits for latsim to go away; returns once
    /// that gnuplot runs, i.e. while the report is half built. The report
    /// runs several gnuplots at once: one started as latsim died has been
    /// given to init (or a subreaper) from the start, so the wait also
    /// ends then, and after a minute at most.
    static func startReport(into out: URL, tools: URL, marker: URL) throws -> Process {
        let gnuplot = tools.appendingPathComponent("gnuplot")
        try """
        #!/bin/sh
        : > "\(marker.path)"
        n=0
        while [ "$PPID" != 1 ] && kill -0 $PPID 2>/dev/null && [ $n -lt 1200 ]; do sleep 0.05; n=$((n + 1)); done

        """.write(to: gnuplot, atomically: false, encoding: .utf8)
        chmod(gnuplot.path, 0o755)
        let p = Process()
        p.executableURL = Latsim.binary
        p.arguments = ["report", "--out", out.path, "--duration", "200ms"]
        p.environment = ["PATH": tools.path + ":/usr/bin:/bin"]
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        // wait for the fake gnuplot (a generous bound, not a timing assumption)
        var waited = 0
        while !FileManager.default.fileExists(atPath: marker.path) && p.isRunning && waited < 6000 {
            usleep(20_000)
            waited += 1
        }
        #expect(FileManager.default.fileExists(atPath: marker.path), "gnuplot never started")
        return p
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringTheReportRemovesTheStagingFolderAndKeepsTheOldReport(signal: Int32, status: Int32) throws {
        let root = try Latsim.temporaryDirectory()
        let tools = try Latsim.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: root)
            try? FileManager.default.removeItem(at: tools)
        }
        let out = root.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try "# latsim report\n\nold\n".write(to: out.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
        try "{}".write(to: out.appendingPathComponent("prediction-baseline.json"), atomically: false, encoding: .utf8)
        let before = Self.contents(root)

        let p = try Self.startReport(into: out, tools: tools, marker: tools.appendingPathComponent("started"))
        kill(p.processIdentifier, signal)
        // a bound against hanging the suite if the signal is not handled
        var waited = 0
        while p.isRunning && waited < 3000 { usleep(20_000); waited += 1 }
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()

        #expect(p.terminationReason == .exit)
        #expect(p.terminationStatus == status)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["Reports"])
        #expect(Self.contents(root) == before)
    }
}
