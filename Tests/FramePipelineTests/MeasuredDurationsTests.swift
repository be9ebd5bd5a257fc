import Experiments
import FramePipeline
import Foundation
import Scenarios
import SimKernel
import Testing

/// Durations measured on a device, read from a CSV column into an
/// `empirical` distribution.
@Suite struct MeasuredDurationsTests {
    static func folder() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-measured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    @Test func aColumnOfACSVFileIsTheDistribution() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // quoted header (Perfetto), CR LF lines (spreadsheets), an empty cell, units by column name and by cell
        try "\"frame\",\"handler_ms\",\"gpu_us\"\r\n1,4,4000\r\n2,5.5,4.5ms\r\n3,,3000\r\n".write(to: dir.appendingPathComponent("frames.csv"), atomically: true, encoding: .utf8)
        try "app:\n  handler: {empirical: {file: frames.csv, column: handler_ms}}\ngpu:\n  render: empirical(@frames.csv:gpu_us)\n"
            .write(to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
        let c = try Scenario.load(file: dir.appendingPathComponent("s.yaml").path).configuration()
        #expect(c.handler == .empirical([4_000_000, 5_500_000]))
        #expect(c.gpuRender == .empirical([4_000_000, 4_500_000, 3_000_000]))
    }

    @Test func aFileOfOneValueGivesTheFixedRun() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("h.csv").path
        try "handler_ms\n4\n4\n4\n".write(toFile: file, atomically: true, encoding: .utf8)
        let measured = try runScenario("ios9-low-latency", ["app.handler=empirical(@\(file):handler_ms)"], duration: "2s")
        let fixed = try runScenario("ios9-low-latency", duration: "2s")
        #expect(measured.measurements.touchToPhotonMs.mean == fixed.measurements.touchToPhotonMs.mean)
    }

    @Test func badFilesNameTheFileTheLineAndTheKey() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.csv").path
        try "a,handler_ms\n1,4\n2,soon\n3,5000000\n".write(toFile: file, atomically: true, encoding: .utf8)
        let cases: [(String, [String])] = [
            ("empirical(@\(file):nope)", ["no such column", "a, handler_ms"]),
            ("empirical(@\(dir.path)/missing.csv:x)", ["no such file"]),
            ("empirical(@\(file))", ["no column named"]),
        ]
        for (value, words) in cases {
            #expect {
                _ = try Scenario.named("ios8").configuration(overrides: ["app.handler=\(value)"])
            } throws: { e in
                let text = "\(e)"
                return words.allSatisfy { text.contains($0) }
            }
        }
        try "handler_ms\n4\nsoon\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect { _ = try Scenario.named("ios8").configuration(overrides: ["app.handler=empirical(@\(file):handler_ms)"]) } throws: { e in
            "\(e)".contains("bad.csv:3") && "\(e)".contains("app.handler")
        }
        try "handler_ms\n4\n5000000\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect { _ = try Scenario.named("ios8").configuration(overrides: ["app.handler=empirical(@\(file):handler_ms)"]) } throws: { e in
            "\(e)".contains("bad.csv:3") && "\(e)".contains("outside the range")
        }
    }
}
