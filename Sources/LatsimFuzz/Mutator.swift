import SimKernel

/// Seeded mutations of an input, the kinds that found latsim's crashes:
/// bit flips, lines duplicated or deleted, numbers replaced by extremes
/// (0, -1, 1e308, 1e-17, 2^63-1, 2^64, NaN, inf, hex), units swapped, YAML
/// and XML special tokens, truncation and splicing with another input.
public struct Mutator: Sendable {
    var rng: SeededRandom

    /// A mutator whose choices follow from `seed`.
    public init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    static let numbers = ["0", "-1", "1e308", "-1e308", "1e-17", "9223372036854775807", "18446744073709551616",
                          "NaN", "inf", "-inf", "0x10", "1e13", "1e17", "9e18", "-0", "1e", ".", "00000000000000000000001"]
    static let units = ["ns", "us", "ms", "s", "frame", "frames", "Hz", "", "kg", "µs"]
    static let tokens = ["&a", "*a", "!!binary", "<<: *a", "{", "}", "[", "]", ":", "- ", "\t", "\"", "'", "#", "~", "null",
                         "<!--", "-->", "<![CDATA[", "]]>", "<Point", "/>", "=\"", "\r\n", "\u{FEFF}", "\u{0}", "..", "...", ",", "(", ")"]

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(rng.next() % UInt64(n)) }

    /// One to four mutations of `input`; `other` is spliced in sometimes.
    public mutating func mutate(_ input: [UInt8], other: [UInt8]) -> [UInt8] {
        var b = input
        for _ in 0...below(4) { b = once(b, other: other) }
        return b.count > 1 << 16 ? Array(b.prefix(1 << 16)) : b
    }

    mutating func once(_ b: [UInt8], other: [UInt8]) -> [UInt8] {
        var b = b
        switch below(8) {
        case 0 where !b.isEmpty:
            b[below(b.count)] ^= UInt8(1 << below(8))
        case 1:
            var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            guard !lines.isEmpty else { return b }
            let i = below(lines.count)
            if below(2) == 0 { lines.insert(lines[i], at: i) } else { lines.remove(at: i) }
            b = Array(lines.joined(separator: [0x0A]))
        case 2:
            b = replaceNumber(b, with: Mutator.numbers[below(Mutator.numbers.count)])
        case 3:
            b = replaceUnit(b)
        case 4:
            let t = Array(Mutator.tokens[below(Mutator.tokens.count)].utf8)
            b.insert(contentsOf: t, at: below(b.count + 1))
        case 5 where !b.isEmpty:
            b = Array(b.prefix(below(b.count)))
        case 6 where !other.isEmpty:
            let cut = below(b.count + 1), from = below(other.count)
            b = Array(b.prefix(cut)) + Array(other[from...])
        default:
            let line = Array("\n\(["duration", "device.scanHz", "app.handler", "app.animations", "t_ms"][below(5)]): \(Mutator.numbers[below(Mutator.numbers.count)])\n".utf8)
            b += line
        }
        return b
    }

    /// The bytes with one run of digits (and its sign, point, exponent)
    /// replaced.
    mutating func replaceNumber(_ b: [UInt8], with text: String) -> [UInt8] {
        let starts = b.indices.filter { isDigit(b[$0]) && ($0 == 0 || !isDigit(b[$0 - 1])) }
        guard !starts.isEmpty else { return b + Array(text.utf8) }
        let s = starts[below(starts.count)]
        var e = s
        while e < b.count, isDigit(b[e]) || b[e] == UInt8(ascii: ".") || b[e] == UInt8(ascii: "e") { e += 1 }
        return Array(b[..<s]) + Array(text.utf8) + Array(b[e...])
    }

    /// The bytes with one unit after a number swapped for another.
    mutating func replaceUnit(_ b: [UInt8]) -> [UInt8] {
        let text = String(decoding: b, as: UTF8.self)
        for unit in ["ms", "us", "frames", "frame", "s"].shuffledBy(&self) {
            guard let r = text.range(of: unit) else { continue }
            return Array((text.replacingCharacters(in: r, with: Mutator.units[below(Mutator.units.count)])).utf8)
        }
        return b
    }

    func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}

extension Array {
    func shuffledBy(_ m: inout Mutator) -> [Element] {
        var a = self
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, m.below(i + 1)) }
        return a
    }
}

import Foundation
