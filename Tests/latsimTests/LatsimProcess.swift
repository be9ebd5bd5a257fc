import Testing
import Foundation

/// Runs the built `latsim` binary, as a user would.
enum Latsim {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root (two levels above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The binary next to the test bundle, else the debug build.
    static let binary: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("latsim")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        for dir in [".build/debug", ".build/release"] {
            let u = packageRoot.appendingPathComponent(dir).appendingPathComponent("latsim")
            if FileManager.default.isExecutableFile(atPath: u.path) { return u }
        }
        return beside
    }()

    static func run(_ args: [String], in directory: URL? = nil, environment: [String: String]? = nil) throws -> Output {
        let p = Process()
        p.executableURL = binary
        p.arguments = args
        if let directory { p.currentDirectoryURL = directory }
        if let environment { p.environment = environment }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        try p.run()
        // read stderr on another thread so neither pipe can fill and block
        final class Box: @unchecked Sendable { var data = Data() }
        let errBox = Box()
        let group = DispatchGroup()
        group.enter()
        let errHandle = err.fileHandleForReading
        DispatchQueue.global().async { errBox.data = errHandle.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary directory.
    /// A result file's JSON (Docs/Results.md): its `latsim` header checked
    /// (this version, format 2, the kind of result), then the document.
    static func result(_ data: Data, kind: String) throws -> [String: Any] {
        let doc = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object")
        let header = try #require(doc["latsim"] as? [String: Any], "no header")
        #expect(header["result"] as? String == kind && header["format"] as? Int == 2)
        #expect((header["command"] as? String)?.hasPrefix("latsim ") == true)
        return doc
    }

    /// A result's `rows` (table, predict, validate), `runs` (run) or
    /// `points` (sweep).
    static func rows(_ data: Data, kind: String) throws -> [[String: Any]] {
        let key = ["run": "runs", "sweep": "points"][kind] ?? "rows"
        return try #require(try result(data, kind: kind)[key] as? [[String: Any]], "no \(key)")
    }

    /// The only run of a `run` result.
    static func onlyRun(_ text: String) throws -> [String: Any] {
        let runs = try rows(Data(text.utf8), kind: "run")
        #expect(runs.count == 1)
        return try #require(runs.first)
    }

    static func temporaryDirectory() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }
}
