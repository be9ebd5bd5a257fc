import Foundation
import SimKernel
@testable import TouchModel

/// The recorded strokes the tests play (a fixture of the repository).
enum Fixtures {
    static let packageRoot: URL = {
        // Tests/TouchModelTests/TestSupport.swift -> package root (symbolic
        // links resolved, so a package that links these tests finds the real root)
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }()

    /// Subject s01 of the $1 gesture logs, the repository's fixture
    /// (Tests/Fixtures/dollar-unistroke/README.md).
    static let dollarDirectory: String = packageRoot.appendingPathComponent("Tests/Fixtures/dollar-unistroke").path

    /// A fresh temporary directory for files a test writes.
    static func temporaryDirectory(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("touchmodel-tests-\(name)-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }

    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// Samples of a motion every `interval` ns from `start`.
func samples(count: Int, start: SimTime = 0, interval: SimTime, _ f: (Double) -> TouchPoint) -> [TouchSample] {
    (0..<count).map { i in
        let t = start + SimTime(i) * interval
        return TouchSample(time: t, position: f(Double(t) / 1e9))
    }
}

/// Feeds all samples and predicts `horizon` ahead of the last.
func prediction(_ kind: PredictorKind, _ input: [TouchSample], horizon: SimTime) -> TouchPoint? {
    var p = BuiltinPredictor(kind: kind)
    for s in input { p.observe(s) }
    return p.predict(horizon: horizon)
}

func close(_ a: TouchPoint?, _ b: TouchPoint, within tolerance: Double) -> Bool {
    guard let a else { return false }
    return a.distance(to: b) <= tolerance
}
