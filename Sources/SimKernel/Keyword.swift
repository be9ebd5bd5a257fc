/// An option written as a word (`vsync`, `lowLatency`, `oneEuro`): an enum
/// whose raw values are its spellings.
///
/// Every keyword in latsim is matched by one rule, here: exactly, else
/// ignoring case (`VSYNC` and `OneEuro` are accepted), so a scenario file,
/// `--set` and a command-line option read the same words the same way.
public protocol Keyword: CaseIterable, RawRepresentable, Sendable where RawValue == String {}

extension Keyword {
    /// The value spelled `text` (exactly, else ignoring case), or nil.
    public init?(keyword text: String) {
        let t = text.trimmedWhitespace
        if let v = Self(rawValue: t) {
            self = v
            return
        }
        let lower = t.lowercased()
        guard let v = Self.allCases.first(where: { $0.rawValue.lowercased() == lower }) else { return nil }
        self = v
    }

    /// The spellings, `a, b or c`.
    public static var spellings: String { listed(allCases.map { $0.rawValue }) }

    /// Parses `text`, or throws bad input listing the valid words.
    public static func parse(_ text: String) throws(LatsimError) -> Self {
        guard let v = Self(keyword: text) else {
            throw LatsimError(value: text, problem: "not a valid choice", expected: spellings)
        }
        return v
    }
}

/// `a`, `a or b`, `a, b or c`.
public func listed(_ words: [String], conjunction: String = "or") -> String {
    switch words.count {
    case 0: return ""
    case 1: return words[0]
    default: return words.dropLast().joined(separator: ", ") + " \(conjunction) " + words.last!
    }
}

import Foundation
