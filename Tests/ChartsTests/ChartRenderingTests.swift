@testable import Charts
import Foundation
@testable import LatsimOutput
import LatsimTestSupport
import Testing

@Suite("Charts render")
struct ChartRenderingTests {
    /// Every registered chart type.
    static let names = ChartRegistry.charts.map { $0.kind }

    static func chart(_ name: String) throws -> any GnuplotChart {
        try #require(ChartRegistry.examples.first { $0.kind == name }?.chart)
    }

    /// The registry holds each type once, under a name of its own.
    @Test func everyChartTypeIsRegisteredOnce() {
        let types = ChartRegistry.charts.map { ObjectIdentifier($0) }
        #expect(Set(types).count == types.count)
        #expect(Set(Self.names).count == Self.names.count)
        #expect(Self.names.count == 13)
    }

    @Test(.enabled(if: gnuplotInstalled, "gnuplot is not installed (apt-get install gnuplot-nox): no images to check"),
          arguments: names)
    func everyChartRendersPNGAndSVGAndItsScriptReRunsStandalone(name: String) throws {
        let (dir, keep) = try chartDirectory("charts")
        defer { if !keep { try? FileManager.default.removeItem(at: dir) } }
        let output = try Gnuplot.system().render(try Self.chart(name), directory: dir, basename: name)
        #expect(output.rendered)
        #expect(output.hint == nil)
        #expect(output.warnings == "", "gnuplot warned: \(output.warnings)")

        let png = try Data(contentsOf: dir.appendingPathComponent("\(name).png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 5_000)
        let svg = try String(contentsOf: dir.appendingPathComponent("\(name).svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
        #expect(svg.contains("<svg"))
        #expect(svg.utf8.count > 5_000)

        // `gnuplot NAME.gp` in the directory regenerates both images.
        let copy = try makeTemporaryDirectory("standalone-\(name)")
        defer { try? FileManager.default.removeItem(at: copy) }
        for ext in ["gp", "dat"] {
            try FileManager.default.copyItem(at: dir.appendingPathComponent("\(name).\(ext)"),
                                             to: copy.appendingPathComponent("\(name).\(ext)"))
        }
        let executable: URL = try #require(Gnuplot.locate())
        let process = Process()
        process.executableURL = executable
        process.arguments = ["\(name).gp"]
        process.currentDirectoryURL = copy
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let again = try Data(contentsOf: copy.appendingPathComponent("\(name).png"))
        #expect(again.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(FileManager.default.fileExists(atPath: copy.appendingPathComponent("\(name).svg").path))
    }

    @Test(.enabled(if: gnuplotInstalled, "gnuplot is not installed (apt-get install gnuplot-nox): no images to check"),
          arguments: names)
    func everyChartWithNoDataStillRenders(name: String) throws {
        let dir = try makeTemporaryDirectory("empty")
        defer { try? FileManager.default.removeItem(at: dir) }
        let chart = try #require(ChartRegistry.empties.first { $0.kind == name }?.chart)
        let output = try Gnuplot.system().render(chart, directory: dir, basename: name, formats: [.png])
        // gnuplot may warn that a data block holds no point; it must draw
        #expect(output.rendered, "\(name)")
    }

    @Test(arguments: names)
    func everyChartWritesScriptAndDataWithoutGnuplot(name: String) throws {
        let dir = try makeTemporaryDirectory("charts-nognuplot")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try Gnuplot(executable: nil).render(try Self.chart(name), directory: dir, basename: name)
        #expect(!output.rendered)
        #expect(try entries(dir) == ["\(name).dat", "\(name).gp"])
        let data = try String(contentsOf: output.data, encoding: .utf8)
        #expect(data.hasPrefix("# "))
        // Number cells only: quoted text cells may hold any punctuation.
        let rows = data.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\"").enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined() }
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { !$0.contains(",") }, "the .dat file uses POSIX decimals")
    }
}

@Suite("Chart content")
struct ChartContentTests {
    @Test func diagramPlacesTheTalksIOS8StagesInFrames0To3() throws {
        let script = ChartFixtures.ios8Diagram().script
        let solid = try #require(script.tables.first { $0.name == "solid" })
        // x_lo, x_hi (in frames) per lane for the followed touch (scanned in frame 1).
        let spans = Dictionary(uniqueKeysWithValues: solid.rows.map { row -> (String, (Double, Double)) in
            guard case .text(let lane) = row[10], case .number(let lo) = row[2], case .number(let hi) = row[3] else {
                return ("?", (0, 0))
            }
            return (lane, (lo, hi))
        })
        #expect(spans["Multi-Touch"]?.0 == 1 && spans["Multi-Touch"]?.1 == 2)
        #expect(spans["App"]?.0 == 2)
        #expect(spans["Core Animation"]?.0 == 3)
        #expect(spans["Display"]?.0 == 4 && spans["Display"]?.1 == 5)
        #expect(script.setup.contains("\"Multi-Touch\" 4"))
        #expect(script.setup.contains("\"Display\" 0"))
    }

    @Test func diagramClipsBoxesToTheWindow() {
        let chart = PipelineDiagramChart(
            framePeriodNs: 10, startNs: 100, endNs: 200, vsyncNs: [100, 110],
            boxes: [DiagramBox(lane: .gpu, startNs: 90, endNs: 105), DiagramBox(lane: .app, startNs: 0, endNs: 50)])
        let faint = chart.script.tables.first { $0.name == "faint" }
        #expect(faint?.rows.count == 1)
        #expect(faint?.rows.first?[2] == .number(0))
        #expect(faint?.rows.first?[3] == .number(0.5))
    }

    @Test func doubleBufferingShowsTwoBufferColoursAndTripleThree() {
        #expect(ChartFixtures.ios8Diagram().script.plot.components(separatedBy: "keyentry with boxes fs solid").count - 1 == 2)
        #expect(ChartFixtures.ios8TripleDiagram().script.plot.components(separatedBy: "keyentry with boxes fs solid").count - 1 == 3)
    }

    @Test func userTextIsEscapedForEnhancedMode() {
        #expect(GnuplotText.enhanced("ios9_120hz") == "\"ios9\\\\_120hz\"")
        #expect(GnuplotText.enhanced("a \"b\" {c}") == "\"a \\\"b\\\" \\\\{c\\\\}\"")
        #expect(GnuplotText.plain("it's \"x\"") == "\"it's \\\"x\\\"\"")
        let script = TalkTableChart.example.script
        #expect(script.setup.contains("ios8\\\\_heavy\\\\_gpu"))
    }

    @Test func cdfStartsEachSeriesAtZeroFraction() {
        let script = LatencyCDFChart(series: [(name: "a", points: [(valueMs: 5, fraction: 0.5), (valueMs: 3, fraction: 0.25)])]).script
        #expect(script.tables[0].rows == [[3, 0], [3, 0.25], [5, 0.5]])
        #expect(script.plot.contains("with steps"))
    }

    @Test func motionChartKeepsEqualScaleAndScreenYDown() {
        let script = MotionChart.example.script
        #expect(script.setup.contains("set size ratio -1"))
        // yrange is written high:low, so y grows downwards.
        let line = script.setup.split(separator: "\n").first { $0.hasPrefix("set yrange") } ?? ""
        let bounds = line.dropFirst("set yrange [".count).dropLast().split(separator: ":").compactMap { Double($0) }
        #expect(bounds.count == 2 && bounds[0] > bounds[1])
    }

    @Test func sweepPutsFrameRateOnTheRightAxisAndDrawsAnnotations() {
        let script = SweepChart.example.script
        #expect(script.plot.contains("axes x1y2"))
        #expect(script.setup.contains("set y2label"))
        #expect(script.setup.contains("adaptive buffering goes triple"))
    }
}
