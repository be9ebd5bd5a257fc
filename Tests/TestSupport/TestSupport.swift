import Charts
import Foundation

// Helpers shared by the test suites of the output modules.

/// A fresh, empty temporary directory for one test.
public func makeTemporaryDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("latencyreport-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The directory to render charts into: `LATENCYREPORT_CHART_DIR` when set
/// (so the images can be inspected after the run; `keep` is then true),
/// else a temporary one for the caller to remove.
public func chartDirectory(_ label: String) throws -> (url: URL, keep: Bool) {
    if let kept = ProcessInfo.processInfo.environment["LATENCYREPORT_CHART_DIR"], !kept.isEmpty {
        let url = URL(fileURLWithPath: kept)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return (url, true)
    }
    return (try makeTemporaryDirectory(label), false)
}

/// Whether gnuplot can be found (the image tests need it).
public let gnuplotInstalled = Gnuplot.locate() != nil

/// The names of a directory's entries, sorted.
public func entries(_ directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
}
