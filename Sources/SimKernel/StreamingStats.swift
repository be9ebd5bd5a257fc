import Histogram

/// Summary statistics of a stream of values, in constant memory: exact
/// count, mean (compensated sum), minimum and maximum; exact percentiles
/// while the stream holds at most ``exactLimit`` distinct values (a
/// fixed-duration pipeline's frames take a handful), and from HdrHistogram
/// at three significant digits (within 0.1%) beyond that.
///
/// Values are recorded at a fixed resolution (`resolution` values per unit,
/// e.g. 1e6 per millisecond = nanoseconds). Negative values are kept in a
/// second histogram of magnitudes, allocated only when one is recorded.
/// A reported percentile is clamped to the exact [min, max], so a stream of
/// identical values reports that value exactly.
public struct StreamingStats: Sendable {
    /// Recorded steps per unit of the value.
    public let resolution: Double
    @usableFromInline var _count: Int = 0
    @usableFromInline var _min: Double = .infinity
    @usableFromInline var _max: Double = -.infinity
    @usableFromInline var sum = CompensatedSum()
    /// Allocated at the first value, so a stream never fed costs nothing.
    @usableFromInline var positive: Histogram<UInt32>?
    @usableFromInline var negative: Histogram<UInt32>?
    @usableFromInline var negativeCount: UInt64 = 0
    @usableFromInline let highest: UInt64
    /// Repeats of the last value not yet in the histogram: a stream of equal
    /// values (the steady state of a fixed-duration pipeline) costs one
    /// comparison per value. ``flush()`` adds them.
    @usableFromInline var pendingValue: Double = .nan
    @usableFromInline var pendingCount: UInt32 = 0
    @usableFromInline var otherValue: Double = .nan
    @usableFromInline var otherCount: UInt32 = 0
    /// Distinct values and their counts, until there are too many.
    @usableFromInline var exactValues: [Double] = []
    @usableFromInline var exactCounts: [UInt64] = []
    /// True once the values went to the histograms instead.
    @usableFromInline var spilled = false

    /// How many distinct values are kept exactly before the histograms take over.
    public static let exactLimit = 64

    /// How many values were recorded.
    @inlinable public var count: Int { _count }
    /// The smallest value recorded (+infinity when none).
    @inlinable public var min: Double {
        Swift.min(_min, pendingCount > 0 ? pendingValue : .infinity, otherCount > 0 ? otherValue : .infinity)
    }
    /// The largest value recorded (-infinity when none).
    @inlinable public var max: Double {
        Swift.max(_max, pendingCount > 0 ? pendingValue : -.infinity, otherCount > 0 ? otherValue : -.infinity)
    }

    /// - Parameters:
    ///   - resolution: recorded steps per unit of the value.
    ///   - highestValue: the largest magnitude tracked precisely (larger
    ///     values count at this value in percentiles; mean, min, max stay exact).
    public init(resolution: Double, highestValue: Double) {
        self.resolution = resolution
        highest = UInt64(Swift.max(2, (highestValue * resolution).rounded(.up)))
    }

    /// Records one value. A repeat of the last value is counted where the
    /// value is recorded (inlined); any other goes through a call.
    @inlinable @inline(__always)
    public mutating func record(_ x: Double) {
        _count &+= 1
        if x == pendingValue && pendingCount < UInt32.max {
            pendingCount &+= 1
            return
        }
        recordNew(x)
    }

    /// ``record(_:)`` of a value other than the last (already counted).
    @usableFromInline
    mutating func recordNew(_ x: Double) {
        if x == otherValue && otherCount < UInt32.max {
            // two values taking turns (e.g. the two samples of a 120 Hz scan)
            otherCount &+= 1
            swap(&pendingValue, &otherValue)
            swap(&pendingCount, &otherCount)
            return
        }
        if otherCount > 0 { add(otherValue, count: otherCount) }
        otherValue = pendingValue
        otherCount = pendingCount
        pendingValue = x
        pendingCount = 1
    }

    /// Records `n` values `x` at once. The count, minimum, maximum and
    /// distribution (percentiles) are those of `n` calls of ``record(_:)``;
    /// the mean may differ from theirs in its last bits, since the sum is
    /// taken in another order.
    public mutating func record(_ x: Double, count n: Int) {
        guard n > 0 else { return }
        if n == 1 { return record(x) }
        _count &+= n
        var left = n
        while left > 0 {
            let c = Swift.min(left, Int(UInt32.max))
            add(x, count: UInt32(c))
            left -= c
        }
    }

    /// Adds the pending repeats of the last two values to the sums and histogram.
    @usableFromInline
    mutating func flush() {
        if otherCount > 0 { add(otherValue, count: otherCount); otherCount = 0 }
        if pendingCount > 0 { add(pendingValue, count: pendingCount); pendingCount = 0 }
    }

    @usableFromInline
    mutating func add(_ x: Double, count n: UInt32) {
        sum.add(x * Double(n))
        if x < _min { _min = x }
        if x > _max { _max = x }
        addToDistribution(x, count: UInt64(n))
    }

    /// Counts `n` values `x` in the exact table, or the histograms.
    @usableFromInline
    mutating func addToDistribution(_ x: Double, count n: UInt64) {
        if !spilled {
            if let i = exactValues.firstIndex(of: x) {
                exactCounts[i] += n
                return
            }
            if exactValues.count < Self.exactLimit {
                exactValues.append(x)
                exactCounts.append(n)
                return
            }
            spill()
        }
        var left = n
        while left > 0 {
            let c = UInt32(Swift.min(left, UInt64(UInt32.max)))
            left -= UInt64(c)
            if x >= 0 {
                Self.record(UInt64(Swift.min(Double(highest), x * resolution + 0.5)), count: c, into: &positive, highest: highest)
            } else {
                recordNegative(x, count: c)
            }
        }
    }

    /// Moves the exact table into the histograms.
    mutating func spill() {
        guard !spilled else { return }
        spilled = true
        let values = exactValues, counts = exactCounts
        exactValues = []
        exactCounts = []
        for (v, c) in zip(values, counts) { addToDistribution(v, count: c) }
    }

    /// The exact table as ascending (value, count) pairs.
    func exactTable() -> [(value: Double, count: UInt64)] {
        zip(exactValues, exactCounts).map { (value: $0, count: $1) }.sorted { $0.value < $1.value }
    }

    /// Adds every pending value, so reads need no temporary copy.
    public mutating func settle() { flush() }

    /// A copy with every pending value added (for reading).
    @usableFromInline var settled: StreamingStats {
        if pendingCount == 0 && otherCount == 0 { return self }
        var s = self
        s.flush()
        return s
    }

    @usableFromInline
    mutating func recordNegative(_ x: Double, count n: UInt32) {
        let v = UInt64(Swift.min(Double(highest), (Swift.abs(x) * resolution).rounded()))
        negativeCount += UInt64(n)
        Self.record(v, count: n, into: &negative, highest: highest)
    }

    /// Records `n` values `v` into a histogram made at its first value. The
    /// optional is tested by its case, in place: `h == nil` would copy the
    /// histogram on every value.
    @usableFromInline
    static func record(_ v: UInt64, count n: UInt32, into h: inout Histogram<UInt32>?, highest: UInt64) {
        switch h {
        case .some: h!.record(v, count: n)
        case .none:
            var made = makeHistogram(highest: highest)
            made.record(v, count: n)
            h = made
        }
    }

    /// The exact mean, or nil when nothing was recorded.
    public var mean: Double? {
        if pendingCount > 0 || otherCount > 0 { return settled.mean }
        return count == 0 ? nil : sum.value / Double(count)
    }

    @usableFromInline
    static func makeHistogram(highest: UInt64) -> Histogram<UInt32> {
        Histogram<UInt32>(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: .three)
    }

    /// The value reported for a bucket, as HdrHistogram reports it: the
    /// bucket's highest equivalent value, within the recorded range.
    static func representative(_ value: UInt64, in h: Histogram<UInt32>) -> UInt64 {
        Swift.max(Swift.min(h.highestEquivalentForValue(value), h.maxRecorded), h.min)
    }

    /// The value at percentile `p` (0...100), nearest rank, or nil when empty.
    public func percentile(_ p: Double) -> Double? {
        percentiles([p])[0]
    }

    /// Several percentiles in one pass over the histogram (nearest rank,
    /// each clamped to the exact [min, max]); nil entries when empty.
    public func percentiles(_ ps: [Double]) -> [Double?] {
        if pendingCount > 0 || otherCount > 0 { return settled.percentiles(ps) }
        guard count > 0 else { return ps.map { _ in nil } }
        let n = Double(count)
        // ranks wanted, in ascending order, remembering where each goes
        let wanted = ps.enumerated().map { i, p in
            (i, p >= 100 ? UInt64(count) : Swift.max(1, UInt64((p / 100 * n).rounded(.up))))
        }.sorted { $0.1 < $1.1 }
        var out = [Double?](repeating: nil, count: ps.count)
        var next = 0
        var below: UInt64 = 0
        func take(_ value: Double, _ c: UInt64) {
            below += c
            while next < wanted.count && wanted[next].1 <= below {
                out[wanted[next].0] = Swift.min(max, Swift.max(min, value))
                next += 1
            }
        }
        if !spilled {
            for e in exactTable() { take(e.value, e.count) }
        }
        if let neg = negative {
            for v in neg.recordedValues().reversed() {
                take(-Double(Self.representative(v.value, in: neg)) / resolution, UInt64(v.count))
            }
        }
        if let pos = positive, next < wanted.count {
            for v in pos.recordedValues() {
                take(Double(Self.representative(v.value, in: pos)) / resolution, UInt64(v.count))
                if next == wanted.count { break }
            }
        }
        for (i, p) in ps.enumerated() where p <= 0 { out[i] = min }
        for (i, p) in ps.enumerated() where p >= 100 { out[i] = max }
        return out
    }

    /// The distribution as (value, fraction of values at or below it), one
    /// point per distinct recorded bucket, in ascending order, each value
    /// clamped to the exact [min, max] — the points of a CDF chart.
    public func distribution() -> [(value: Double, fraction: Double)] {
        if pendingCount > 0 || otherCount > 0 { return settled.distribution() }
        guard count > 0 else { return [] }
        let n = Double(count)
        var out: [(value: Double, fraction: Double)] = []
        var below = 0.0
        if !spilled {
            for e in exactTable() {
                below += Double(e.count)
                out.append((e.value, below / n))
            }
        }
        if let neg = negative {
            // largest magnitudes first
            for v in neg.recordedValues().reversed() {
                below += Double(v.count)
                out.append((Swift.min(max, Swift.max(min, -Double(Self.representative(v.value, in: neg)) / resolution)), below / n))
            }
        }
        if let pos = positive {
            for v in pos.recordedValues() {
                below += Double(v.count)
                out.append((Swift.min(max, Swift.max(min, Double(Self.representative(v.value, in: pos)) / resolution)), below / n))
            }
        }
        return out
    }

    /// Adds another stream's values to this one (same resolution).
    public mutating func merge(_ other: StreamingStats) {
        flush()
        let other = other.settled
        guard other.count > 0 else { return }
        _count += other._count
        sum.add(other.sum)
        _min = Swift.min(_min, other._min)
        _max = Swift.max(_max, other._max)
        if other.spilled { spill() }
        for (v, c) in zip(other.exactValues, other.exactCounts) { addToDistribution(v, count: c) }
        if let op = other.positive {
            if positive == nil { positive = op } else { positive!.add(op) }
        }
        if let on = other.negative {
            if negative == nil { negative = on } else { negative!.add(on) }
            negativeCount += other.negativeCount
        }
    }
}

/// Exact running sums for root-mean-square figures.
public struct RunningMoments: Sendable {
    /// Values recorded.
    public private(set) var count = 0
    var sumSquares = 0.0
    /// No value yet.
    public init() {}
    /// Records one value.
    public mutating func record(_ x: Double) { count += 1; sumSquares += x * x }
    /// The root mean square, or nil when nothing was recorded.
    public var rms: Double? { count == 0 ? nil : (sumSquares / Double(count)).squareRoot() }
    /// Adds another stream's values.
    public mutating func merge(_ o: RunningMoments) { count += o.count; sumSquares += o.sumSquares }
}
