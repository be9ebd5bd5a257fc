import Foundation
import SimKernel
import Testing

/// Numbers read from bytes (trace files) are the numbers read from text:
/// the fast path (15 significant digits, a power of ten within ±22, one
/// correctly rounded multiplication or division) gives the same double as
/// a full decimal conversion, and refuses what the text path refuses.
@Suite struct NumberBytesTests {
    /// Reads `text` through the byte path.
    static func bytes(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { NumberSyntax.double($0, from: 0, to: $0.count) }
    }

    /// The reference: the standard library's conversion of the trimmed text
    /// (correctly rounded), after the same syntax check.
    static func reference(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard NumberSyntax.isDecimal(Substring(t)), let v = Double(t), v.isFinite else { return nil }
        return v
    }

    @Test(arguments: ["69", "-3.5", "+2", ".5", "5.", "1e3", "1E-3", "0.1", "0.3", "1363112", "1363112.0625", " 12 ",
                      "\t-0.000001\t", "123456789012345", "1234567890123456789", "0.30000000000000004",
                      "9007199254740993", "1e22", "1e23", "1e-22", "1e-23", "4.9e-324", "1.7976931348623157e308",
                      "-0", "00012.50", "2.2250738585072014e-308", "\u{00A0}7\u{00A0}", "1e400", "-1e400",
                      "", " ", "-", "+", ".", "e5", "1e", "1e+", "0x10", "inf", "nan", "1_000", "1.2.3", "12px", "٣", "1 2"])
    func theBytePathReadsWhatTheTextPathReads(_ text: String) {
        let r = Self.reference(text)
        #expect(Self.bytes(text).map(\.bitPattern) == r.map(\.bitPattern), "\(text)")
        #expect(NumberSyntax.double(text).map(\.bitPattern) == r.map(\.bitPattern), "\(text)")
    }

    @Test func randomDecimalsConvertExactlyAsTheStandardLibraryDoes() {
        // a fixed generator: every run checks the same 200,000 numbers, half
        // of them inside the fast path's limits and half beyond them
        var g = SplitMix(seed: 42)
        for k in 0..<200_000 {
            let digits = 1 + Int(g.next() % (k % 2 == 0 ? 15 : 20))
            var s = g.next() % 2 == 0 ? "" : "-"
            for d in 0..<digits { s += String(g.next() % 10); if d == Int(g.next() % UInt64(digits + 1)) { s += "." } }
            if g.next() % 3 == 0 { s += "e" + String(Int(g.next() % 61) - 30) }
            let r = Self.reference(s)
            #expect(Self.bytes(s).map(\.bitPattern) == r.map(\.bitPattern), "\(s)")
            if Self.bytes(s).map(\.bitPattern) != r.map(\.bitPattern) { return }
        }
    }
}

/// A small deterministic generator for the test (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
