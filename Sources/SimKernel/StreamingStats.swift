import Histogram

/// Summary statistics of a stream of values, in constant memory: exact
/// count, mean (compensated sum), minimum and maximum; percentiles from
/// HdrHistogram at three significant digits (within 0.1%).
///
/// Values are recorded at a fixed resolution (`resolution` values per unit,
/// e.g. 1e6 per millisecond = nanoseconds). Negative values are kept in a
/// second histogram of magnitudes, allocated only when one is recorded.
/// A reported percentile is clamped to the exact [min, max], so a stream of
/// identical values reports that value exactly.
public struct StreamingStats: Sendable {
    public let resolution: Double
    @usableFromInline var _count: Int = 0
    @usableFromInline var _min: Double = .infinity
    @usableFromInline var _max: Double = -.infinity
    @usableFromInline var sum: Double = 0
    @usableFromInline var compensation: Double = 0
    @usableFromInline var positive: Histogram<UInt32>
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
        positive = Histogram<UInt32>(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: .three)
    }

    /// Records one value.
    @inlinable
    public mutating func record(_ x: Double) {
        _count &+= 1
        if x == pendingValue && pendingCount < UInt32.max {
            pendingCount &+= 1
            return
        }
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

    /// Adds the pending repeats of the last two values to the sums and histogram.
    @usableFromInline
    mutating func flush() {
        if otherCount > 0 { add(otherValue, count: otherCount); otherCount = 0 }
        if pendingCount > 0 { add(pendingValue, count: pendingCount); pendingCount = 0 }
    }

    @usableFromInline
    mutating func add(_ x: Double, count n: UInt32) {
        let xn = x * Double(n)
        // Neumaier's compensated summation: the mean is exact to the last bit
        // for the sums the model produces.
        let t = sum + xn
        if Swift.abs(sum) >= Swift.abs(xn) { compensation += (sum - t) + xn } else { compensation += (xn - t) + sum }
        sum = t
        if x < _min { _min = x }
        if x > _max { _max = x }
        if x >= 0 {
            positive.record(UInt64(Swift.min(Double(highest), x * resolution + 0.5)), count: n)
        } else {
            recordNegative(x, count: n)
        }
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
        if negative == nil {
            negative = Histogram<UInt32>(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: .three)
        }
        negativeCount += UInt64(n)
        negative!.record(v, count: n)
    }

    /// The exact mean, or nil when nothing was recorded.
    public var mean: Double? {
        if pendingCount > 0 || otherCount > 0 { return settled.mean }
        return count == 0 ? nil : (sum + compensation) / Double(count)
    }

    /// The value at percentile `p` (0...100), nearest rank, or nil when empty.
    public func percentile(_ p: Double) -> Double? {
        if pendingCount > 0 || otherCount > 0 { return settled.percentile(p) }
        guard count > 0 else { return nil }
        if p >= 100 { return max }
        if p <= 0 { return min }
        let n = UInt64(count)
        let rank = Swift.max(1, UInt64((p / 100 * Double(n)).rounded(.up)))
        var v: Double
        if rank <= negativeCount, let neg = negative {
            // ascending order puts the largest magnitude first: the rank-th
            // value is the magnitude of rank (negativeCount - rank + 1)
            // counted from the smallest
            let fromSmallest = negativeCount - rank + 1
            let pct = 100.0 * Double(fromSmallest) / Double(negativeCount)
            v = -Double(neg.valueAtPercentile(Swift.min(100, pct))) / resolution
        } else {
            let r = rank - negativeCount
            let total = positive.totalCount
            let pct = 100.0 * Double(r) / Double(total)
            v = Double(positive.valueAtPercentile(Swift.min(100, pct))) / resolution
        }
        return Swift.min(max, Swift.max(min, v))
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
        if let neg = negative {
            // largest magnitudes first
            let values = neg.recordedValues().map { ($0.value, Double($0.count)) }.reversed()
            for (v, c) in values {
                below += c
                out.append((Swift.min(max, Swift.max(min, -Double(neg.lowestEquivalentForValue(v)) / resolution)), below / n))
            }
        }
        for v in positive.recordedValues() {
            below += Double(v.count)
            out.append((Swift.min(max, Swift.max(min, Double(positive.highestEquivalentForValue(v.value)) / resolution)), below / n))
        }
        return out
    }

    /// Adds another stream's values to this one (same resolution).
    public mutating func merge(_ other: StreamingStats) {
        flush()
        let other = other.settled
        guard other.count > 0 else { return }
        _count += other._count
        let t = sum + other.sum
        compensation += other.compensation + ((Swift.abs(sum) >= Swift.abs(other.sum)) ? (sum - t) + other.sum : (other.sum - t) + sum)
        sum = t
        _min = Swift.min(_min, other._min)
        _max = Swift.max(_max, other._max)
        positive.add(other.positive)
        if let on = other.negative {
            if negative == nil { negative = on } else { negative!.add(on) }
            negativeCount += other.negativeCount
        }
    }
}

/// Exact running sums for root-mean-square figures.
public struct RunningMoments: Sendable {
    public private(set) var count = 0
    var sumSquares = 0.0
    public init() {}
    public mutating func record(_ x: Double) { count += 1; sumSquares += x * x }
    public var rms: Double? { count == 0 ? nil : (sumSquares / Double(count)).squareRoot() }
    public mutating func merge(_ o: RunningMoments) { count += o.count; sumSquares += o.sumSquares }
}
