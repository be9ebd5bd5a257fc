import Foundation
import SimKernel
import Testing
@testable import LatencyReport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `latsim report` never leaves half a report: staged beside the
/// destination, moved into place whole, unrelated files kept.
@Suite("Report staging")
struct ReportStagingTests {
    /// A report directory as an earlier run left it, with a committed
    /// baseline beside it and a chart the new report no longer draws.
    static func oldReport(in root: URL) throws -> URL {
        let dir = root.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let page = "# latsim report\n\nold text\n\n![retired chart](retired.png)\n\n![talk](talk-table.png)\n"
        for (name, text) in [("README.md", page), ("retired.png", "PNG"), ("retired.svg", "<svg/>"), ("retired.gp", "# gp"),
                             ("retired.dat", "1 2"), ("talk-table.png", "old"), ("prediction-baseline.json", "{\"entries\": []}")] {
            try text.write(to: dir.appendingPathComponent(name), atomically: false, encoding: .utf8)
        }
        return dir
    }

    @Test func previousReportFilesAreTheChartsItsPageShows() throws {
        let root = try makeTemporaryDirectory("report-old")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.oldReport(in: root)
        #expect(ReportWriter.previousReportFiles(in: dir) == [
            "README.md", "retired.png", "retired.svg", "retired.gp", "retired.dat",
            "talk-table.png", "talk-table.svg", "talk-table.gp", "talk-table.dat",
        ])
        // a README.md that is not a report owns nothing
        try "# My notes\n![x](x.png)\n".write(to: dir.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
        #expect(ReportWriter.previousReportFiles(in: dir).isEmpty)
    }

    @Test func aReportReplacesTheOldOneWholeAndKeepsUnrelatedFiles() throws {
        let root = try makeTemporaryDirectory("report-new")
        defer { try? FileManager.default.removeItem(at: root) }
        let tools = try makeTemporaryDirectory("report-tools")
        defer { try? FileManager.default.removeItem(at: tools) }
        let dir = try Self.oldReport(in: root)
        let baseline = dir.appendingPathComponent("prediction-baseline.json").path
        let baselineBefore = snapshot(dir)["prediction-baseline.json"]

        let writer = ReportWriter(directory: dir, duration: "200ms", gnuplot: try workingGnuplot(in: tools))
        // asked in another order, the sections still come in the one declared (ReportSection)
        let page = try writer.write(sections: [.scenarios, .diagrams, .talkTable])
        #expect(page.path == dir.appendingPathComponent("README.md").path)
        let text = try String(contentsOf: page, encoding: .utf8)
        let headings = ["## The talk's table", "## Pipeline diagrams", "## Every built-in scenario"].map { text.range(of: $0)?.lowerBound }
        #expect(headings.allSatisfy { $0 != nil } && headings == headings.sorted { $0! < $1! }, "\(headings)")
        #expect(ReportSection.allCases.prefix(3) == [.talkTable, .diagrams, .scenarios])

        let names = try entries(dir)
        #expect(names.contains("prediction-baseline.json"))
        #expect(snapshot(dir)["prediction-baseline.json"] == baselineBefore) // same inode, same bytes
        #expect(try String(contentsOfFile: baseline, encoding: .utf8) == "{\"entries\": []}")
        #expect(!names.contains { $0.hasPrefix("retired.") })
        #expect(!names.contains { $0.hasPrefix(".") })
        #expect(try String(contentsOf: dir.appendingPathComponent("talk-table.png"), encoding: .utf8) == "PNG")
        for chart in ["talk-table", "diagram-ios8", "latency-cdf"] {
            for ext in ["png", "svg", "gp", "dat"] { #expect(names.contains("\(chart).\(ext)"), "\(chart).\(ext)") }
        }
        #expect(try String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8).contains("## Every built-in scenario"))
        #expect(try entries(root) == ["Reports"])
    }

    @Test func aFailingGnuplotLeavesTheOldReportExactlyAsItWasAndNoTemporaryFiles() throws {
        let root = try makeTemporaryDirectory("report-fail")
        defer { try? FileManager.default.removeItem(at: root) }
        let tools = try makeTemporaryDirectory("report-tools")
        defer { try? FileManager.default.removeItem(at: tools) }
        _ = try Self.oldReport(in: root)
        let before = snapshot(root)

        let writer = ReportWriter(directory: root.appendingPathComponent("Reports"), duration: "200ms",
                                  gnuplot: try failingGnuplot(in: tools))
        let error = #expect(throws: LatsimError.self) { try writer.write() }
        #expect(error.map { "\($0)" }?.contains("fake gnuplot: broken") == true)
        #expect(snapshot(root) == before)
    }

    @Test func aFailedFirstReportLeavesNoDirectoryBehind() throws {
        let root = try makeTemporaryDirectory("report-first")
        defer { try? FileManager.default.removeItem(at: root) }
        let tools = try makeTemporaryDirectory("report-tools")
        defer { try? FileManager.default.removeItem(at: tools) }
        let writer = ReportWriter(directory: root.appendingPathComponent("out/Reports"), duration: "200ms",
                                  gnuplot: try failingGnuplot(in: tools))
        #expect(throws: LatsimError.self) { try writer.write() }
        #expect(try entries(root).isEmpty)
    }

    @Test func aReportIntoAFileIsBadInputAndChangesNothing() throws {
        let root = try makeTemporaryDirectory("report-file")
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("Reports")
        try "not a folder".write(to: file, atomically: false, encoding: .utf8)
        let writer = ReportWriter(directory: file, duration: "200ms", gnuplot: Gnuplot(executable: nil))
        #expect(throws: LatsimError(file: file.path, problem: "is a file", expected: "a directory")) { try writer.write() }
        #expect(try entries(root) == ["Reports"])
    }
}
