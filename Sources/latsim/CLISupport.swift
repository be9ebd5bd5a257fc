import ArgumentParser
import FramePipeline
import Foundation
import LatencyReport

/// Bad input: printed as one paragraph on stderr, exit status 2.
struct InputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum CLI {
    /// Runs `body`; turns input errors into a message on stderr and exit 2.
    static func guarded<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
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

    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data(("latsim: error: " + message + "\n").utf8))
        return ExitCode(2)
    }

    /// Writes text to a path, or to stdout for `-`; files are written
    /// atomically.
    static func write(_ text: String, to path: String) throws {
        if path == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
        } else {
            do {
                try AtomicFile.write(text, to: URL(fileURLWithPath: path))
            } catch {
                throw InputError("\(path): cannot write: \(error.localizedDescription)")
            }
        }
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
