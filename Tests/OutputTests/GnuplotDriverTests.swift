@testable import Charts
import Foundation
@testable import LatsimOutput
import LatsimTestSupport
import SimKernel
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Gnuplot driver")
struct GnuplotDriverTests {
    static let simple = ChartScript(
        title: "simple",
        tables: [ChartTable(name: "line", columns: ["x", "y"], rows: [[0, 1], [1, 2.5], [2, 0.25]])],
        setup: "set xlabel \"x\"\n",
        plot: "plot $line using 1:2 with lines title \"y\"")

    @Test func withoutGnuplotWritesScriptAndDataAndAHintButNoImage() throws {
        let dir = try makeTemporaryDirectory("nognuplot")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try Gnuplot(executable: nil).render(Self.simple, directory: dir, basename: "simple")
        #expect(output.rendered == false)
        #expect(output.images.isEmpty)
        #expect(try entries(dir) == ["simple.dat", "simple.gp"])
        let hint = try #require(output.hint)
        #expect(hint.hasPrefix("gnuplot not found: install it (apt-get install gnuplot-nox, or brew install gnuplot)"))
        #expect(hint.contains("`gnuplot simple.gp` in \(dir.path)"))
    }

    @Test func scriptIsSelfContainedWithDatablocksAndBothTerminals() throws {
        let dir = try makeTemporaryDirectory("script")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try Gnuplot(executable: nil).render(Self.simple, directory: dir, basename: "simple")
        let script = try String(contentsOf: output.script, encoding: .utf8)
        #expect(script.contains("$line << EOD\n0 1\n1 2.5\n2 0.25\nEOD\n"))
        #expect(script.contains("set terminal pngcairo size 1200,700 enhanced font 'sans,12'"))
        #expect(script.contains("set terminal png size 1200,700"))
        #expect(script.contains("set terminal svg size 1200,700 dynamic enhanced font 'sans,12'"))
        #expect(script.contains("set output outbase.\".png\""))
        #expect(script.contains("if (!exists(\"outbase\")) outbase = \"simple\""))
    }

    @Test func dataFileHasHeaderAndPOSIXColumns() throws {
        let chart = ChartScript(
            title: "two tables",
            tables: [ChartTable(name: "a", columns: ["x", "latency ms"], rows: [[1, 16.666667], [2, .number(.nan)]]),
                     ChartTable(name: "b", columns: ["name", "v"], rows: [["ios8 \"base\"", 1234567.5]])],
            setup: "", plot: "plot $a using 1:2")
        let dir = try makeTemporaryDirectory("dat")
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = try Gnuplot(executable: nil).render(chart, directory: dir, basename: "t")
        let data = try String(contentsOf: output.data, encoding: .utf8)
        #expect(data == """
        # two tables: data
        # table a
        # x latency_ms
        1 16.666667
        2 NaN


        # table b
        # name v
        "ios8 'base'" 1234567.5

        """)
    }

    @Test(.enabled(if: gnuplotInstalled, "gnuplot is not installed (apt-get install gnuplot-nox)"))
    func brokenScriptSurfacesGnuplotsErrorText() throws {
        let dir = try makeTemporaryDirectory("broken")
        defer { try? FileManager.default.removeItem(at: dir) }
        let broken = ChartScript(title: "broken", tables: [], setup: "set frobnicate 3\n", plot: "plot x")
        let gnuplot = Gnuplot(executable: Gnuplot.locate())
        do {
            _ = try gnuplot.render(broken, directory: dir, basename: "broken")
            Issue.record("rendering a broken script should throw")
        } catch let error as LatsimError {
            #expect(error.kind == .environment)
            let text = "\(error)"
            #expect(text.contains("broken.gp"))
            #expect(text.contains("line"))
            #expect(text.contains("unrecognized option"))
        }
        // No image, complete or partial, is left behind.
        #expect(try entries(dir) == ["broken.dat", "broken.gp"])
    }

    @Test(.enabled(if: gnuplotInstalled, "gnuplot is not installed (apt-get install gnuplot-nox)"))
    func renderReplacesImagesAndLeavesNoTemporaryFiles() throws {
        let dir = try makeTemporaryDirectory("rerender")
        defer { try? FileManager.default.removeItem(at: dir) }
        let gnuplot = Gnuplot(executable: Gnuplot.locate())
        _ = try gnuplot.render(Self.simple, directory: dir, basename: "simple")
        let output = try gnuplot.render(Self.simple, directory: dir, basename: "simple", formats: [.png])
        #expect(output.rendered)
        #expect(output.images.map(\.lastPathComponent) == ["simple.png"])
        #expect(try entries(dir) == ["simple.dat", "simple.gp", "simple.png", "simple.svg"])
    }

    @Test func aFailingGnuplotLeavesNoImageAndNoTemporaryFile() throws {
        let dir = try makeTemporaryDirectory("fakefail")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tools = try makeTemporaryDirectory("faketools")
        defer { try? FileManager.default.removeItem(at: tools) }
        let error = #expect(throws: LatsimError.self) {
            _ = try failingGnuplot(in: tools).render(Self.simple, directory: dir, basename: "simple")
        }
        #expect(error.map { "\($0)" }?.contains("fake gnuplot: broken") == true)
        #expect(try entries(dir) == ["simple.dat", "simple.gp"])
        #expect(CleanupRegistry.shared.paths.allSatisfy { !$0.hasPrefix(dir.path) })
    }

    @Test func anImageThatIsASymlinkIsWrittenThroughNotReplaced() throws {
        let dir = try makeTemporaryDirectory("fakelink")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tools = try makeTemporaryDirectory("faketools")
        defer { try? FileManager.default.removeItem(at: tools) }
        let elsewhere = tools.appendingPathComponent("published.png")
        let link = dir.appendingPathComponent("simple.png")
        #expect(symlink(elsewhere.path, link.path) == 0)
        let output = try workingGnuplot(in: tools).render(Self.simple, directory: dir, basename: "simple")
        #expect(output.rendered)
        #expect(fileType(link.path) == S_IFLNK)
        #expect(try Data(contentsOf: elsewhere) == minimalPNG)
        #expect(try entries(dir) == ["simple.dat", "simple.gp", "simple.png", "simple.svg"])
    }

    @Test func locateFindsAnExecutableOrNothing() {
        if let url = Gnuplot.locate() {
            #expect(url.lastPathComponent == "gnuplot")
            #expect(FileManager.default.isExecutableFile(atPath: url.path))
        }
    }
}
