import Charts
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

/// The output layer's guarantees beyond one file: several outputs
/// committed together, inputs never replaced, images checked whole,
/// leftovers of killed runs removed.
@Suite("Output safety")
struct OutputSafetyTests {
    /// Runs `body` on a thread of its own (a transaction belongs to its
    /// thread; tests run in parallel).
    func onOwnThread(_ body: @escaping @Sendable () throws -> Void) throws {
        final class Box: @unchecked Sendable { var error: Error? }
        let box = Box(), done = DispatchSemaphore(value: 0)
        let t = Thread { do { try body() } catch { box.error = error }; done.signal() }
        t.start()
        done.wait()
        if let e = box.error { throw e }
    }

    /// SIGINT about a second into writing several outputs once left one new
    /// file and the others old: they are held and renamed together.
    @Test func aTransactionCommitsEveryOutputOrNone() throws {
        let root = try makeTemporaryDirectory("transaction")
        defer { try? FileManager.default.removeItem(at: root) }
        let a = root.appendingPathComponent("a.json"), b = root.appendingPathComponent("sub/b.csv")
        try AtomicFile.write("old a", to: a)
        try onOwnThread {
            let t = OutputTransaction.begin()
            try AtomicFile.write("new a", to: a)
            try AtomicFile.write("new b", to: b)
            // nothing is in place yet, the old file is whole
            #expect(try String(contentsOf: a, encoding: .utf8) == "old a")
            #expect(!FileManager.default.fileExists(atPath: b.path))
            #expect(t.destinations == [a.path, b.path])
            try t.commit()
            #expect(OutputTransaction.current == nil)
        }
        #expect(try String(contentsOf: a, encoding: .utf8) == "new a")
        #expect(try String(contentsOf: b, encoding: .utf8) == "new b")
        #expect(try entries(root) == ["a.json", "sub"])
        try onOwnThread {
            let t = OutputTransaction.begin()
            try AtomicFile.write("newer a", to: a)
            try AtomicFile.write("c", to: root.appendingPathComponent("new/c.txt"))
            t.discard()
        }
        #expect(try String(contentsOf: a, encoding: .utf8) == "new a")
        #expect(try entries(root) == ["a.json", "sub"], "no temporary file, no folder made for the discarded output")
        #expect(CleanupRegistry.shared.paths.allSatisfy { !$0.hasPrefix(root.path) })
    }

    /// `run s.yaml --json s.yaml` once replaced the scenario: an output that
    /// is one of the command's inputs (by identity: a hard link too) is refused.
    @Test func anInputIsNeverReplaced() throws {
        let root = try makeTemporaryDirectory("input")
        defer { try? FileManager.default.removeItem(at: root) }
        let input = root.appendingPathComponent("s.yaml"), link = root.appendingPathComponent("same.yaml")
        try "name: mine\n".write(to: input, atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: input.path, toPath: link.path)
        _ = InputFiles.contents(input.path)
        defer { InputFiles.forget(input.path) }
        for path in [input.path, link.path, root.path + "/./s.yaml"] {
            let e = #expect(throws: LatsimError.self) { try AtomicFile.write("{}", to: URL(fileURLWithPath: path)) }
            #expect(e?.kind == .badInput && e?.description.contains("input") == true, "\(String(describing: e))")
            let p = #expect(throws: LatsimError.self) { try OutputDestination.preflight(files: [path]) }
            #expect(p?.kind == .badInput)
        }
        #expect(try String(contentsOf: input, encoding: .utf8) == "name: mine\n")
        #expect(try entries(root) == ["s.yaml", "same.yaml"])
    }

    /// On a full disk gnuplot exits 0 after writing part of an image; the
    /// truncated image was moved into place.
    @Test func aCutShortImageIsAnEnvironmentErrorAndNotPlaced() throws {
        let dir = try makeTemporaryDirectory("cutshort")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tools = try makeTemporaryDirectory("cutshort-tools")
        defer { try? FileManager.default.removeItem(at: tools) }
        try minimalPNG.write(to: dir.appendingPathComponent("chart.png"))
        let e = #expect(throws: LatsimError.self) {
            try truncatingGnuplot(in: tools).render(GnuplotDriverTests.simple, directory: dir, basename: "chart")
        }
        #expect(e?.kind == .environment && e?.description.contains("cut short") == true, "\(String(describing: e))")
        #expect(try Data(contentsOf: dir.appendingPathComponent("chart.png")) == minimalPNG, "the old image stays")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("chart.svg").path))
        #expect(try entries(dir).allSatisfy { !$0.hasPrefix(".") }, "no temporary file")
    }

    @Test func theImageCheckKnowsWholeImages() {
        #expect(ImageCheck.problem(minimalPNG, format: .png) == nil)
        #expect(ImageCheck.problem(minimalPNG.dropLast(), format: .png) != nil)
        #expect(ImageCheck.problem(Data("PNG".utf8), format: .png) != nil)
        #expect(ImageCheck.problem(Data("<?xml version=\"1.0\"?>\n<svg width=\"1\">\n</svg>\n\n".utf8), format: .svg) == nil)
        #expect(ImageCheck.problem(Data("<?xml version=\"1.0\"?>\n<svg width=\"1\">\n<g>".utf8), format: .svg) != nil)
        #expect(ImageCheck.problem(Data(), format: .svg) != nil)
    }

    /// A chart name that could leave its folder trapped `diagram`
    /// (exit 132); it is refused as bad input.
    @Test(arguments: ["diagram-x/../../victim", "..", "", ".hidden"])
    func aChartNameOutsideItsFolderIsRefused(_ name: String) throws {
        let dir = try makeTemporaryDirectory("chartname")
        defer { try? FileManager.default.removeItem(at: dir) }
        let e = #expect(throws: LatsimError.self) { try Gnuplot(executable: nil).render(GnuplotDriverTests.simple, directory: dir, basename: name) }
        #expect(e?.kind == .badInput)
        #expect(try entries(dir).isEmpty)
    }

    /// SIGKILL left a `.tmp` file or a `.latsim-staging-*` folder that no
    /// later run removed: their names carry the process id, and a later run
    /// removes those of processes that are gone.
    @Test func leftoversOfDeadProcessesAreRemovedByTheNextWrite() throws {
        let root = try makeTemporaryDirectory("leftovers")
        defer { try? FileManager.default.removeItem(at: root) }
        // a process id that is gone: a child that exited and was reaped
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/true")
        try p.run()
        p.waitUntilExit()
        let dead = p.processIdentifier, alive = getpid(), host = LeftoverFiles.host
        let names = [".out.json.latsim-\(dead)-\(host)-abc123.tmp", ".Reports.latsim-staging-\(dead)-\(host)-k9", ".chart.latsim-\(dead)-\(host)-z.tmp.png",
                     ".out.json.latsim-\(alive)-\(host)-abc.tmp", ".notes.latsim-12x-\(host)-abc.tmp", "mine.latsim-\(dead)-\(host)-a.tmp", ".plain.tmp",
                     ".part-0.json.latsim-\(dead)-otherhost1-abc.tmp"]
        for name in names where !name.contains("staging") { try "x".write(to: root.appendingPathComponent(name), atomically: false, encoding: .utf8) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent(names[1] + "/inner"), withIntermediateDirectories: true)
        for name in names[0...2] { #expect(LeftoverFiles.owner(of: name)?.pid == dead && LeftoverFiles.owner(of: name)?.host == host, "\(name)") }
        for name in names[4...6] { #expect(LeftoverFiles.owner(of: name) == nil, "\(name)") }
        #expect(LeftoverFiles.owner(of: names[7])?.host == "otherhost1")
        try AtomicFile.write("new", to: root.appendingPathComponent("out.json"))
        // kept: a live process's, names not of the form, and another machine's (a shared folder)
        #expect(try entries(root) == [".notes.latsim-12x-\(host)-abc.tmp", ".out.json.latsim-\(alive)-\(host)-abc.tmp",
                                      ".part-0.json.latsim-\(dead)-otherhost1-abc.tmp", ".plain.tmp", "mine.latsim-\(dead)-\(host)-a.tmp", "out.json"])
    }
}
