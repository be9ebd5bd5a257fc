import Foundation
import Testing

@Suite struct ReportCommandTests {
    static let sections = ["## The talk's table, reproduced", "## Pipeline diagrams", "## Every built-in scenario", "## Sweeps", "## Touch prediction"]
    static let charts = ["talk-table", "diagram-ios8", "diagram-ios8-complex", "latency-cdf", "sweep-gpu", "sweep-handler",
                         "prediction-horizon", "prediction-motion"]

    @Test(.enabled(if: TraceAndDiagramTests.gnuplotInstalled, "gnuplot is not installed (apt-get install gnuplot-nox)"))
    func reportWritesThePageAndEveryChart() throws {
        let dir = try Latsim.temporaryDirectory()
        let o = try Latsim.run(["report", "--out", dir.path, "--duration", "2s"])
        #expect(o.status == 0, "\(o.stderr)")
        let page = try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8)
        for s in Self.sections { #expect(page.contains(s), "missing \(s)") }
        #expect(page.contains("| ios9-coalescing-120hz | 2.5 | 2.5 | 2.5 |"))
        for c in Self.charts {
            #expect(page.contains("](\(c).png)"))
            let png = try Data(contentsOf: dir.appendingPathComponent("\(c).png"))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "\(c).png")
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("\(c).svg").path))
        }
    }

    @Test func withoutGnuplotTheReportStillWritesNumbersScriptsAndOneHint() throws {
        let dir = try Latsim.temporaryDirectory()
        let o = try Latsim.run(["report", "--out", dir.path, "--duration", "1s"], environment: ["PATH": "/nonexistent"])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(o.stderr.components(separatedBy: "gnuplot not found").count == 2, "one hint line: \(o.stderr)")
        let page = try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(page.contains("| ios8 | 4 frames | 4 | 4 | 50 |"))
        for c in Self.charts {
            #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("\(c).gp").path))
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("\(c).png").path))
        }
    }
}
