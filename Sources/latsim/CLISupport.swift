import ArgumentParser
import FramePipeline
import Foundation
import LatencyReport
import SimKernel

/// Bad input: printed as one paragraph on stderr, exit status 2.
struct InputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum CLI {
    /// Runs `body`; turns input errors into a message on stderr and exit 2
    /// (3 for an environment failure). On SIGINT/SIGTERM the temporary files
    /// and staging folders of outputs are removed (exit 130/143).
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        SignalCleanup.install()
        do {
            return try body()
        } catch let e as LatsimError {
            throw fail(e.description, status: e.kind == .badInput ? 2 : 3)
        } catch let e as ScenarioError {
            throw fail(e.description)
        } catch let e as InputError {
            throw fail(e.description)
        } catch let e as ExitCode {
            throw e
        } catch let e as CleanExit {
            throw e
        } catch {
            throw fail("\(error)")
        }
    }

    static func fail(_ message: String, status: Int32 = 2) -> ExitCode {
        FileHandle.standardError.write(Data(("latsim: error: " + message + "\n").utf8))
        return ExitCode(status)
    }

    /// Writes text to a path as `OutputDestination` does: `-` and
    /// /dev/stdout are stdout, files are replaced atomically, links written
    /// through, devices and FIFOs written in place.
    static func write(_ text: String, to path: String) throws {
        try OutputDestination.write(text, to: path)
    }

    /// Checks every output path before any work runs (nothing is created).
    static func preflight(files: [String?], directories: [String?] = []) throws {
        try OutputDestination.preflight(files: files, directories: directories)
    }

    static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func warn(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A plain-text table with aligned columns.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Columns aligned right (numbers).
    var rightAligned: Set<Int> = []

    func render() -> String {
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                let pad = String(repeating: " ", count: widths[i] - c.count)
                return rightAligned.contains(i) ? pad + c : c + pad
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        var out = [line(header), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")]
        out += rows.map(line)
        return out.joined(separator: "\n")
    }
}
