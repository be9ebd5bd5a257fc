/// Every error latsim shows a user: what is wrong, where (file, line,
/// column, configuration key, value), and what was expected, said in one
/// short paragraph with one grammar.
///
/// Library code never names command-line flags: a value given on the
/// command line carries its origin in ``file`` (the command line fills in
/// `--set`, `--duration`, ...), so the same mistake reads the same wherever
/// it was made.
///
/// ``kind`` decides the exit status of the command line: bad input (2) or a
/// failure of the environment or of latsim itself (3).
public struct LatsimError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whose fault an error is.
    public enum Kind: Sendable, Hashable {
        /// Something the user gave: a file, a value, an argument. Exit 2.
        case badInput
        /// The machine or a tool: a disk full, gnuplot crashing, a path that
        /// cannot be written. Exit 3.
        case environment
        /// latsim itself broke an invariant. Exit 3.
        case `internal`
    }

    /// Whose fault it is.
    public var kind: Kind
    /// The file (or the command-line origin, e.g. `--set`) at fault.
    public var file: String?
    /// The 1-based line in ``file``.
    public var line: Int?
    /// The 1-based column in ``file``.
    public var column: Int?
    /// The configuration key path, e.g. `app.handler`.
    public var key: String?
    /// The value as given (echoed shortened, see ``shortened(_:)``).
    public var value: String?
    /// What is wrong, as a sentence fragment (`a duration cannot be negative`).
    public var problem: String
    /// What was expected instead, when that helps (`a duration such as 4ms`).
    public var expected: String?
    /// A listing that helps: the command line names the command that prints it.
    public var seeAlso: Listing?

    /// A listing of valid values a user can print.
    public enum Listing: Sendable, Hashable {
        /// The configuration keys.
        case keys
        /// The built-in scenarios.
        case scenarios
        /// The device presets.
        case devices
        /// The limit on a command's work, which the command line can raise.
        case workLimit
    }

    /// An error from its parts; by default bad input.
    public init(_ kind: Kind = .badInput, file: String? = nil, line: Int? = nil, column: Int? = nil,
                key: String? = nil, value: String? = nil, problem: String, expected: String? = nil) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.value = value
        self.problem = problem
        self.expected = expected
    }

    /// The longest value echoed back, in characters.
    public static let echoLimit = 80

    /// `text` cut to ``echoLimit`` characters (with `...` and the full
    /// length when cut), on one line: a message never repeats a whole file.
    public static func shortened(_ text: String) -> String {
        var flat = ""
        for c in text.unicodeScalars {
            if c == "\n" || c == "\r" { flat += "\\n" } else if c.value < 0x20 { flat += "?" } else { flat.unicodeScalars.append(c) }
            if flat.count > echoLimit { break }
        }
        guard flat.count > echoLimit else { return flat }
        return String(flat.prefix(echoLimit - 3)) + "... (\(text.count) characters)"
    }

    /// `text` cut in its middle to at most `limit` characters: a path or a
    /// sentence that embeds one keeps its start and its end.
    static func clipped(_ text: String, _ limit: Int) -> String {
        guard text.count > limit else { return text }
        // no word is cut: the start ends after a separator, the end begins after one
        func separates(_ c: Character) -> Bool { c == " " || c == "," || c == "/" }
        var head = text.prefix(limit * 2 / 3), tail = text.suffix(limit / 3 - 3)
        if let i = head.lastIndex(where: separates), head.distance(from: head.startIndex, to: i) >= limit / 3 {
            head = head[...i]
        }
        if let i = tail.firstIndex(where: separates), tail.distance(from: i, to: tail.endIndex) >= limit / 6 {
            tail = tail[tail.index(after: i)...]
        }
        return String(head) + "..." + String(tail)
    }

    /// One paragraph: `FILE:LINE:COLUMN: KEY = 'VALUE': problem; expected ...`.
    /// Every part is bounded (a path to 200 characters, the problem to 400,
    /// the expectation to 300), so a message stays one short paragraph
    /// whatever it quotes.
    public var description: String {
        var place = Self.clipped(file ?? "", 200)
        if let line { place += (place.isEmpty ? "line " : ":") + "\(line)" }
        if let column, line != nil { place += ":\(column)" }
        var head = place.isEmpty ? "" : place + ": "
        if let key {
            head += value.map { "\(Self.clipped(key, 100)) = '\(Self.shortened($0))': " } ?? "\(Self.clipped(key, 100)): "
        } else if let value {
            head += "'\(Self.shortened(value))': "
        }
        var text = head + Self.clipped(problem, 400)
        if let expected, !expected.isEmpty { text += "; expected " + Self.clipped(expected, 300) }
        return text
    }

    /// The same error placed in a file (when it has no place yet).
    public func located(file: String?, line: Int? = nil, column: Int? = nil) -> LatsimError {
        var e = self
        if e.file == nil { e.file = file; e.line = line; e.column = column }
        return e
    }

    /// The same error about `key` (when it names no key yet).
    public func about(key: String, value: String? = nil) -> LatsimError {
        var e = self
        if e.key == nil { e.key = key; if e.value == nil { e.value = value } }
        return e
    }
}

extension LatsimError: LocalizedError {
    /// The same paragraph as ``description``.
    public var errorDescription: String? { description }
}

import Foundation
