import Foundation
import LatsimOutput
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders ``ChartScript``s with the system's gnuplot.
///
/// For a chart named `basename` in `directory`, ``render(_:directory:basename:formats:)``
/// always writes
/// - `basename.gp`: a self-contained script (data inline as datablocks, the
///   terminal and output lines included), so `gnuplot basename.gp` run in
///   `directory` re-renders the images without latsim;
/// - `basename.dat`: the same data as plain columns for other tools;
///
/// and then, if gnuplot is available, runs it to produce `basename.png` and
/// `basename.svg`. gnuplot writes to temporary names that are renamed into
/// place only when it succeeds, so a failed or interrupted render never
/// leaves a half-written image (the temporaries are registered with
/// ``CleanupRegistry/shared`` while gnuplot runs). Every file is written as
/// ``OutputDestination`` writes: a symbolic link is written through, never
/// replaced. Without gnuplot the script and data are
/// still written and ``ChartOutput/hint`` tells the user how to render them.
public struct Gnuplot: Sendable {
    /// The gnuplot executable, or `nil` when gnuplot is not installed.
    public let executable: URL?

    /// A driver for the given executable; `nil` writes scripts and data only.
    public init(executable: URL?) {
        self.executable = executable
    }

    /// A driver for the gnuplot found by ``locate()``.
    public static func system() -> Gnuplot {
        Gnuplot(executable: locate())
    }

    /// Finds an executable named `gnuplot` in the directories of `PATH`
    /// (in the usual Homebrew and system folders only when PATH is unset).
    public static func locate() -> URL? {
        // PATH decides; the usual install folders only when there is no PATH
        // at all (an emptied PATH means "no gnuplot")
        let env = ProcessInfo.processInfo.environment["PATH"]
        let directories = env.map { $0.split(separator: ":").map(String.init) } ?? ["/opt/homebrew/bin", "/usr/local/bin", "/usr/bin"]
        for directory in directories where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: directory).appendingPathComponent("gnuplot")
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        return nil
    }

    /// The hint given when gnuplot is missing.
    public static func notFoundHint(basename: String, directory: URL) -> String {
        "gnuplot not found: install it (apt-get install gnuplot-nox, or brew install gnuplot) "
            + "and run `gnuplot \(basename).gp` in \(directory.path) to render"
    }

    /// Writes `basename.gp` and `basename.dat` into `directory` (created if
    /// needed) and, when gnuplot is available, renders one image per format.
    ///
    /// - Throws: ``LatsimError`` (an environment failure) with gnuplot's own error text when it
    ///   fails; file-system errors from writing the outputs.
    public func render(
        _ chart: ChartScript,
        directory: URL,
        basename: String,
        formats: [ChartFormat] = [.png, .svg]
    ) throws -> ChartOutput {
        // the chart's files stay in `directory`: a name that could lead out
        // of it (a scenario name once could) is refused, never trusted
        if let problem = Identifier.problem(basename, maximumLength: 200) {
            throw LatsimError(file: directory.appendingPathComponent(basename).path, value: basename,
                              problem: "not a chart name: \(problem)", expected: "a chart name of " + Identifier.characters)
        }
        var seen = Set<ChartFormat>()
        let formats = formats.filter { seen.insert($0).inserted }
        let scriptURL = directory.appendingPathComponent(basename + ".gp")
        let dataURL = directory.appendingPathComponent(basename + ".dat")
        try AtomicFile.write(GnuplotScriptWriter.script(for: chart, basename: basename, formats: formats), to: scriptURL)
        try AtomicFile.write(chart.dataText, to: dataURL)

        guard let executable else {
            return ChartOutput(script: scriptURL, data: dataURL, images: [], rendered: false,
                               hint: Self.notFoundHint(basename: basename, directory: directory), warnings: "")
        }

        // gnuplot reads its own copy of the script and writes
        // `<temporary>.png` etc.; they are checked and moved into place (with
        // the command's other outputs when an OutputTransaction is open), and
        // removed on failure or on SIGINT/SIGTERM
        let temporaryBase = ".\(basename).\(LeftoverFiles.tag()).tmp"
        let temporaryScript = directory.appendingPathComponent("\(temporaryBase).gp")
        let temporaries = formats.map { directory.appendingPathComponent("\(temporaryBase).\($0.fileExtension)") }
        let finals = formats.map { directory.appendingPathComponent("\(basename).\($0.fileExtension)") }
        var tokens = temporaries.map { CleanupRegistry.shared.register($0) }
        tokens.append(CleanupRegistry.shared.register(temporaryScript))
        var adopted = Set<URL>()
        defer {
            for url in temporaries + [temporaryScript] where !adopted.contains(url) { unlink(url.path) }
            for token in tokens { CleanupRegistry.shared.unregister(token) }
        }
        let scriptText = GnuplotScriptWriter.script(for: chart, basename: basename, formats: formats)
        guard FileManager.default.createFile(atPath: temporaryScript.path, contents: Data(scriptText.utf8)) else {
            throw FileSystem.error(errno == 0 ? EIO : errno, file: scriptURL.path)
        }

        let result = try GnuplotProcess.run(
            executable: executable,
            arguments: ["-e", "outbase=\(GnuplotText.plain(temporaryBase))", temporaryScript.lastPathComponent],
            directory: directory)
        guard result.status == 0 else {
            throw LatsimError.gnuplotFailed(script: scriptURL, status: result.status, stderr: result.stderr)
        }
        // gnuplot's exit status is not trusted: on a full disk it exits 0
        // after writing part of an image, so every image is checked whole
        for (temporary, (final, format)) in zip(temporaries, zip(finals, formats)) {
            guard let info = FileSystem.status(temporary.path), info.isRegular, info.size > 0 else {
                throw LatsimError.gnuplotMissingImage(script: scriptURL, image: final, stderr: result.stderr)
            }
            if let problem = ImageCheck.problem(path: temporary.path, format: format) {
                throw LatsimError.gnuplotBrokenImage(script: scriptURL, image: final, problem: problem, stderr: result.stderr)
            }
        }
        for (temporary, final) in zip(temporaries, finals) {
            if try Self.place(temporary, at: final) { adopted.insert(temporary) }
        }
        return ChartOutput(script: scriptURL, data: dataURL, images: finals, rendered: true, hint: nil,
                           warnings: result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Moves a rendered image into place: renamed over a regular file (or
    /// into a free name), written through anything else (a link, a device)
    /// as ``OutputDestination`` does.
    /// Returns true when an open ``OutputTransaction`` took the temporary
    /// file (it is renamed at the commit, and must not be removed).
    @discardableResult
    static func place(_ temporary: URL, at final: URL) throws -> Bool {
        let destination = try OutputDestination(final.path)
        if destination.kind == .file && destination.target == final.path {
            try AtomicFile.refuseInput(final.path, file: final.path)
            if let transaction = OutputTransaction.current, transaction.holds(final.path) {
                let token = CleanupRegistry.shared.register(temporary)
                transaction.hold(temporary: temporary.path, target: final.path, file: final.path, token: token, createdFolders: [])
                return true
            }
            let code = FileSystem.move(temporary.path, to: final.path)
            if code != 0 { throw FileSystem.error(code, file: final.path) }
        } else {
            guard let image = try? Data(contentsOf: temporary) else { throw FileSystem.error(EIO, file: final.path) }
            try destination.write(image)
        }
        return false
    }

    /// Renders a chart value; see ``render(_:directory:basename:formats:)``.
    public func render(
        _ chart: some GnuplotChart,
        directory: URL,
        basename: String,
        formats: [ChartFormat] = [.png, .svg]
    ) throws -> ChartOutput {
        try render(chart.script, directory: directory, basename: basename, formats: formats)
    }
}

/// A chart that can be expressed as a gnuplot script.
public protocol GnuplotChart: Sendable {
    /// The chart's data, styling and plot command.
    var script: ChartScript { get }
}

/// Assembles the `.gp` file's text.
enum GnuplotScriptWriter {
    /// The full script: header comment, datablocks, chart setup, then for
    /// each format its terminal, output and plot lines.
    ///
    /// The output names derive from the variable `outbase`, which defaults to
    /// `basename`; the driver overrides it with `-e` to render to temporary
    /// names first.
    static func script(for chart: ChartScript, basename: String, formats: [ChartFormat]) -> String {
        var out = """
        # \(GnuplotText.comment(chart.title))
        # Generated by latsim. Re-render from this directory with:
        #   gnuplot \(basename).gp
        # which writes \(formats.map { "\(basename).\($0.fileExtension)" }.joined(separator: " and ")). \
        The same data, as plain columns: \(basename).dat
        if (!exists("outbase")) outbase = \(GnuplotText.plain(basename))

        """
        for table in chart.tables {
            out += "\n" + table.header.split(separator: "\n").map { $0 + "\n" }.joined()
            out += "$\(table.name) << EOD\n"
            out += table.body
            out += "EOD\n"
        }
        out += "\n# chart\n"
        out += chart.setup
        if !out.hasSuffix("\n") { out += "\n" }
        let plot = chart.plot.hasSuffix("\n") ? chart.plot : chart.plot + "\n"
        for format in formats {
            out += "\n# \(format.rawValue.uppercased())\n"
            out += format.terminalCommands + "\n"
            out += "set output outbase.\".\(format.fileExtension)\"\n"
            out += plot
            out += "set output\n"
        }
        return out
    }
}
