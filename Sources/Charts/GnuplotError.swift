import Foundation
import SimKernel

/// Why gnuplot failed to render a chart: a failure of the environment
/// (exit status 3), naming the script and quoting gnuplot's own words.
extension LatsimError {
    /// gnuplot could not be started at all.
    static func gnuplotLaunchFailed(executable: URL, reason: String) -> LatsimError {
        LatsimError(.environment, file: executable.path, problem: "gnuplot could not be started: \(reason)",
                    expected: "a working gnuplot (apt-get install gnuplot-nox, or brew install gnuplot)")
    }

    /// gnuplot exited with a non-zero status; `stderr` is its own message
    /// (typically `"name.gp" line N: ...`).
    static func gnuplotFailed(script: URL, status: Int32, stderr: String) -> LatsimError {
        LatsimError(.environment, file: script.path,
                    problem: "gnuplot failed (exit status \(status)): " + quoted(stderr))
    }

    /// gnuplot exited successfully but an expected image is missing or empty.
    static func gnuplotMissingImage(script: URL, image: URL, stderr: String) -> LatsimError {
        var problem = "gnuplot ran the script but did not write \(image.lastPathComponent)"
        let said = quoted(stderr)
        if !said.isEmpty { problem += ": " + said }
        return LatsimError(.environment, file: script.path, problem: problem)
    }

    /// gnuplot exited successfully but an image is not a whole image (a full
    /// disk cuts it short while gnuplot still exits 0).
    static func gnuplotBrokenImage(script: URL, image: URL, problem: String, stderr: String) -> LatsimError {
        var text = "gnuplot exited successfully but \(image.lastPathComponent) is \(problem)"
        let said = quoted(stderr)
        if !said.isEmpty { text += ": " + said }
        return LatsimError(.environment, file: script.path, problem: text,
                           expected: "room on the disk for the image (is the file system full?)")
    }

    /// gnuplot's standard error on one line, at most a few hundred characters.
    static func quoted(_ stderr: String) -> String {
        let lines = stderr.split(whereSeparator: \.isNewline).map { $0.trimmedWhitespace }.filter { !$0.isEmpty }
        let text = lines.joined(separator: " | ")
        return text.count > 400 ? String(text.prefix(397)) + "..." : text
    }
}
