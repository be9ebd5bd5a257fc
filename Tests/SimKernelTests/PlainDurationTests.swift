@testable import SimKernel
import Testing

/// The plainest durations (`4ms`, `1.01ms`) are read without rationals
/// (``DurationSyntax/plainNanoseconds(_:)``); every text it takes must get
/// the value the full reading gives, and the texts it leaves to the full
/// reading (signs, spaces, exponents, frames, inexact nanoseconds) must
/// read as before.
@Suite struct PlainDurationTests {
    static let period = Rational(1_000_000_000, 60)

    /// Reads `text` both ways: the value (or the error's problem) of each.
    static func both(_ text: String) -> (String, String) {
        func read(_ f: () throws(LatsimError) -> SimTime) -> String {
            do throws(LatsimError) { return "\(try f())" } catch { return "error: \(error.problem)" }
        }
        return (read { () throws(LatsimError) in try DurationSyntax.parse(text, framePeriod: period) },
                read { () throws(LatsimError) in try DurationSyntax.parseInFull(text, framePeriod: period) })
    }

    @Test func theShortcutGivesTheFullReadingsValue() {
        var rng = SeededRandom(seed: 11, stream: 4)
        var texts = ["4ms", "1.01ms", "0ms", "0.5ns", "1.5ns", "250us", "2s", "1.000000001s", "0.0000001ms", "99999999999999999ns",
                     "9223372036.854775807s", "9223372036.854775808s", "10000000000s", "00012ms", "1.ms", ".5ms", "1..5ms", "ms", "s",
                     "1e3ms", "-1ms", "+1ms", " 1ms", "1ms ", "1 ms", "1frames", "2frame", "1µs", "1.5µs", "1Ms", "1mS", "1.2.3ms"]
        let units = ["ns", "us", "ms", "s", "µs", "frames", "m", ""]
        for _ in 0..<20_000 {
            var t = String(rng.next() % 1_000_000)
            if rng.next() % 2 == 0 { t += "." + String(rng.next() % 100_000) }
            if rng.next() % 8 == 0 { t = String(rng.next() % 10) + t }
            t += units[Int(rng.next() % UInt64(units.count))]
            texts.append(t)
        }
        var shortcut = 0
        for t in texts {
            let (fast, full) = Self.both(t)
            #expect(fast == full, "\(t)")
            if let ns = DurationSyntax.plainNanoseconds(t) {
                shortcut += 1
                #expect("\(ns)" == full, "\(t)")
            }
        }
        // half the random texts have a plain unit (ns, us, ms, s), and of
        // those most are whole nanoseconds: the shortcut is taken, not
        // bypassed (6,565 times with this seed)
        #expect(shortcut > 5_000)
        #expect(DurationSyntax.plainNanoseconds("1.01ms") == 1_010_000)
        #expect(DurationSyntax.plainNanoseconds("0.5ns") == nil)
        #expect(DurationSyntax.plainNanoseconds(".5ms") == nil)
        #expect(DurationSyntax.plainNanoseconds("1e3ms") == nil)
    }
}
