import Charts
import Foundation
@testable import LatsimOutput
import LatsimTestSupport
@testable import Report
import SimKernel
import Testing

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
        // the manifest the earlier report wrote of its own files
        let manifest = try ReportWriter.manifest(of: dir).split(separator: "\n")
            .filter { !$0.hasPrefix("prediction-baseline.json") }.joined(separator: "\n") + "\n"
        try manifest.write(to: dir.appendingPathComponent(ReportWriter.manifestName), atomically: false, encoding: .utf8)
        return dir
    }

    @Test func previousReportFilesAreThoseItsManifestLists() throws {
        let root = try makeTemporaryDirectory("report-old")
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try Self.oldReport(in: root)
        #expect(ReportWriter.previousReportFiles(in: dir) == [
            ReportWriter.manifestName, "README.md", "retired.png", "retired.svg", "retired.gp", "retired.dat", "talk-table.png",
        ])
        // a file changed since (another size) is no longer the report's
        try "measured by hand".write(to: dir.appendingPathComponent("retired.dat"), atomically: false, encoding: .utf8)
        #expect(!ReportWriter.previousReportFiles(in: dir).contains("retired.dat"))
        // without a manifest nothing is the report's, whatever README.md links to
        try FileManager.default.removeItem(at: dir.appendingPathComponent(ReportWriter.manifestName))
        #expect(ReportWriter.previousReportFiles(in: dir).isEmpty)
    }

    /// A README.md that looks like a report and links to a user's files no
    /// longer makes `report` delete them (they are in no manifest).
    @Test func aReportKeepsFilesItsOldPageLinksToButItNeverWrote() throws {
        let root = try makeTemporaryDirectory("report-links")
        defer { try? FileManager.default.removeItem(at: root) }
        let tools = try makeTemporaryDirectory("report-tools")
        defer { try? FileManager.default.removeItem(at: tools) }
        let dir = root.appendingPathComponent("Reports")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try "# latsim report\n\n![mine](measured.png)\n".write(to: dir.appendingPathComponent("README.md"), atomically: false, encoding: .utf8)
        for ext in ["png", "svg", "gp", "dat"] {
            try "my \(ext)".write(to: dir.appendingPathComponent("measured.\(ext)"), atomically: false, encoding: .utf8)
        }
        try ReportWriter(directory: dir, duration: "200ms", gnuplot: try workingGnuplot(in: tools)).write()
        for ext in ["png", "svg", "gp", "dat"] {
            #expect(try String(contentsOf: dir.appendingPathComponent("measured.\(ext)"), encoding: .utf8) == "my \(ext)")
        }
        let manifest = try String(contentsOf: dir.appendingPathComponent(ReportWriter.manifestName), encoding: .utf8)
        #expect(manifest.contains("README.md\t") && manifest.contains("talk-table.png\t") && !manifest.contains("measured."))
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
        #expect(!names.contains { $0.hasPrefix(".") && $0 != ReportWriter.manifestName })
        #expect(try Data(contentsOf: dir.appendingPathComponent("talk-table.png")) == minimalPNG)
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
