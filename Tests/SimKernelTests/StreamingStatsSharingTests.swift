import Testing
@testable import SimKernel

/// A stream's histograms live out of line, shared by copies of the stream
/// until one of them changes: a copy changed afterwards (values recorded,
/// another stream merged in) leaves the stream it was copied from as it was,
/// and each reads as a stream fed its own values from the start.
struct StreamingStatsSharingTests {
    /// More distinct values than the exact table holds, both signs: both histograms are made.
    static func values(_ seed: Int, count: Int = 500) -> [Double] {
        (0..<count).map { (k: Int) -> Double in
            let spread: Int = (k * 7_919 + seed * 104_729) % 10_007
            let shift: Double = k % 5 == 0 ? 300 : 0
            return Double(spread) / 37.0 - shift
        }
    }

    static func fed(_ xs: [Double]) -> StreamingStats {
        var s = StreamingStats(resolution: 1e3, highestValue: 100_000)
        for x in xs { s.record(x) }
        return s
    }

    /// What a stream reads as: count, extremes, percentiles, and its CDF's
    /// points (how many, and their values' sum and weighted sum).
    static func reading(_ s: StreamingStats) -> [Double?] {
        let cdf = s.distribution()
        let points: [Double?] = [Double(cdf.count), cdf.map(\.value).reduce(0, +), cdf.map { $0.value * $0.fraction }.reduce(0, +)]
        return [Double(s.count), s.min, s.max] + s.percentiles([1, 10, 25, 50, 75, 90, 99]) + points
    }

    @Test func aCopyChangedLeavesItsOriginal() {
        let a = Self.values(1), b = Self.values(2), c = Self.values(3)
        let original = Self.fed(a)
        #expect(original.histograms != nil, "the values spill into the histograms")
        let before = Self.reading(original)

        var recorded = original
        for x in b { recorded.record(x) }
        var merged = original
        merged.merge(Self.fed(c))

        #expect(Self.reading(original) == before)
        #expect(Self.reading(recorded) == Self.reading(Self.fed(a + b)))
        #expect(Self.reading(merged) == Self.reading(Self.fed(a + c)))
        // the copies no longer share what they changed
        #expect(recorded.histograms !== original.histograms && merged.histograms !== original.histograms)
    }

    @Test func anUnsharedStreamChangesInPlace() {
        var s = Self.fed(Self.values(4))
        let box = ObjectIdentifier(s.histograms!)  // no reference kept
        for x in Self.values(5) { s.record(x) }
        #expect(ObjectIdentifier(s.histograms!) == box)
    }
}
