import Foundation

/// Why gnuplot failed to render a chart.
public enum GnuplotError: Error, CustomStringConvertible, LocalizedError {
    /// gnuplot could not be started at all.
    case launchFailed(executable: URL, reason: String)
    /// gnuplot exited with a non-zero status; `stderr` is its own message
    /// (typically `"name.gp" line N: ...`).
    case failed(script: URL, status: Int32, stderr: String)
    /// gnuplot exited successfully but an expected image is missing or empty.
    case missingImage(script: URL, image: URL, stderr: String)

    /// A message naming the script and quoting gnuplot's standard error.
    public var description: String {
        switch self {
        case .launchFailed(let executable, let reason):
            return "could not run gnuplot at \(executable.path): \(reason)"
        case .failed(let script, let status, let stderr):
            return "gnuplot failed on \(script.path) (exit status \(status)):\n"
                + stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        case .missingImage(let script, let image, let stderr):
            var text = "gnuplot ran \(script.path) but did not write \(image.lastPathComponent)"
            let trimmed = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { text += ":\n" + trimmed }
            return text
        }
    }

    /// Same as ``description``.
    public var errorDescription: String? { description }
}
