@testable import FramePipeline
import Foundation
import Scenarios
import SimKernel
import Testing

/// The measurement's shortcuts past a division (Docs/Engine.md, "Divisions
/// remembered or guessed"): each must give the division's answer, bit for
/// bit, whatever it is asked.
@Suite struct ExactShortcutTests {
    /// The row's scan-out time from `y * nanosPerPoint`, checked against
    /// the formula it stands for, on displays of several heights and rates,
    /// at random rows and at rows whose time lies a few units in the last
    /// place from a half nanosecond (where the guess must give way).
    @Test(arguments: [("ios9-coalescing-120hz", "667"), ("ios9-low-latency", "1366"), ("android-default", "2400"),
                      ("promotion-pencil", "1194"), ("ios9-coalescing-120hz", "7")])
    func aRowIsTheFormulasRow(_ scenario: String, _ height: String) throws {
        let c = try Scenario.named(scenario).configuration(overrides: ["device.heightPoints=\(height)"], duration: "1s")
        let g = FrameGeometry(c)
        let h = c.heightPoints, t = g.framePeriodNanos
        func formula(_ y: Double) -> SimTime { roundHalfUp(y / h * t) }
        var rng = SeededRandom(seed: 31, stream: 4)
        var rows: [Double] = [0, -0.0, h, h / 2, 1e-300, 0x1p-1074, -1, -h, 1e6, 1e12, -1e12]
        for _ in 0..<20_000 { rows.append((rng.nextUnit() * 1.2 - 0.1) * h) }
        // rows whose time is a half nanosecond give or take a few ulps
        for k in stride(from: 0.0, to: t, by: t / 997) {
            var y = (k.rounded(.down) + 0.5) / t * h
            for _ in 0..<8 { y = y.nextDown }
            for _ in 0..<16 {
                rows.append(y)
                y = y.nextUp
            }
        }
        var guessed = 0
        for y in rows {
            #expect(g.rowNanos(y) == formula(y), "y = \(y) on \(scenario), height \(height)")
            let r = y * g.nanosPerPoint + 0.5
            if r > 0 && r < 0x1p32 { guessed += 1 }
        }
        // the guess is taken for most rows on screen, not only the formula
        #expect(guessed > 20_000)
    }

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
