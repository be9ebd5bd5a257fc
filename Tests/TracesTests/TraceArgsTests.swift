import SimKernel
import Testing
@testable import Traces

/// An event's args are given as pairs and stored in key order, each key
/// once, as a dictionary's sorted keys gave them.
@Suite struct TraceArgsTests {
    @Test func argsAreStoredInKeyOrderWhateverOrderTheyAreGiven() {
        var rng = SeededRandom(seed: 23, stream: 6)
        let keys = ["buffer", "Jank type", "class", "actual present ms", "expected present ms", "On time finish", "b", "a", "é", "z"]
        for _ in 0..<500 {
            var dictionary: [String: TraceValue] = [:]
            var args: TraceArgs = [:]
            for _ in 0..<Int(rng.next() % 7) {
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                let value = TraceValue.integer(Int64(rng.next() % 100))
                dictionary[key] = value
                args[key] = value
            }
            if let key = dictionary.keys.first, rng.next() % 3 == 0 {
                dictionary[key] = nil
                args[key] = nil
            }
            var t = ChromeTrace()
            let track = t.track(named: "t")
            t.slice(track, name: "s", startNs: 0, durationNs: 1, args: args)
            let stored = t.events[0].args
            #expect(stored == dictionary)
            #expect(args.count == dictionary.count)
            // the record's keys, in the order written
            var written: [String] = []
            try? t.forEachEvent { r, _, _ in r.forEachArg { key, _ in written.append(String(decoding: key, as: UTF8.self)) } }
            #expect(written == dictionary.keys.sorted())
        }
    }
}
