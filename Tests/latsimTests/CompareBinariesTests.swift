import Foundation
import Testing

/// `Benchmarks/compare-binaries.py`, which compares two builds' speed by
/// interleaved pairs of runs (Docs/Engine.md, "The share of the empty loop").
@Suite struct CompareBinariesTests {
    static let script = Latsim.packageRoot.appendingPathComponent("Benchmarks/compare-binaries.py").path

    static func compare(_ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", script] + args
        // its messages go to a file: read from a second pipe after the
        // first, they could fill it and stop the script
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("compare-binaries-\(UUID().uuidString).err")
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = try FileHandle(forWritingTo: errURL)
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let e = (try? Data(contentsOf: errURL)) ?? Data()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// The built binary against itself: each pair's ratio is printed as a
    /// median and quartiles, and the median lies between the quartiles.
    @Test(.enabled(if: GateCommandTests.hasPython, "python3 is not on PATH; skipped"))
    func aBinaryAgainstItselfGivesItsRatios() throws {
        let r = try Self.compare([Latsim.binary.path, Latsim.binary.path, "--pairs", "3", "--duration", "1s"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").first { $0.contains("new / old within a pair") })
        let numbers = line.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        #expect(numbers.count == 3, "\(line)")
        if numbers.count == 3 {
            let (median, q1, q3) = (numbers[0], numbers[1], numbers[2])
            #expect(q1 <= median && median <= q3 && q1 > 0)
        }
    }

    /// A binary that cannot run, and a run that fails, are bad input.
    @Test(.enabled(if: GateCommandTests.hasPython, "python3 is not on PATH; skipped"))
    func aBinaryThatCannotRunIsBadInput() throws {
        let missing = try Self.compare(["/nonexistent/latsim", Latsim.binary.path, "--pairs", "3"])
        #expect(missing.status == 2 && missing.stderr.contains("/nonexistent/latsim"))
        let failing = try Self.compare([Latsim.binary.path, Latsim.binary.path, "--pairs", "3", "--scenario", "no-such-scenario"])
        #expect(failing.status == 2 && failing.stderr.contains("no-such-scenario"))
    }
}
