@testable import FramePipeline
import SimKernel
import Testing

/// The measurement's shortcuts past a division (Docs/Engine.md, "Divisions
/// remembered"): each must give the division's answer, bit for bit,
/// whatever it is asked.
@Suite struct ExactShortcutTests {
    /// Milliseconds from nanoseconds, remembered: cycles of every length
    /// from 1 to 9 (a memo of four holds the short ones and misses the long
    /// ones), values a nanosecond apart, random values and extremes.
    @Test func rememberedMillisecondsAreTheDivisions() {
        var rng = SeededRandom(seed: 5, stream: 9)
        var sequence: [Int64] = [0, -1, 1, .max, .min, .min + 1, 999_999, 1_000_000, 1_000_001]
        for length in 1...9 {
            let cycle = (0..<length).map { _ in Int64(rng.next() % 40_000_000) }
            for _ in 0..<50 { sequence += cycle }
            sequence += (0..<length).map { Int64($0) + 16_666_667 }
        }
        for _ in 0..<5_000 { sequence.append(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 63)) }
        var memo = MillisecondsMemo()
        for n in sequence {
            #expect(memo.of(n).bitPattern == (Double(n) / 1e6).bitPattern, "n = \(n)")
        }
    }
}
