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
    public private(set) var count: Int = 0
    public private(set) var min: Double = .infinity
    public private(set) var max: Double = -.infinity
    var sum: Double = 0
    var compensation: Double = 0
    var positive: Histogram<UInt32>
    var negative: Histogram<UInt32>?
    var negativeCount: UInt64 = 0
    let highest: UInt64

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
    public mutating func record(_ x: Double) {
        count += 1
        // Neumaier's compensated summation: the mean is exact to the last bit
        // for the sums the model produces.
        let t = sum + x
        if Swift.abs(sum) >= Swift.abs(x) { compensation += (sum - t) + x } else { compensation += (x - t) + sum }
        sum = t
        if x < min { min = x }
        if x > max { max = x }
        recordInHistogram(x)
    }

    mutating func recordInHistogram(_ x: Double) {
        let scaled = Swift.min(Double(highest), (Swift.abs(x) * resolution).rounded())
        let v = UInt64(scaled)
        if x >= 0 {
            _ = positive.record(v)
        } else {
            if negative == nil {
                negative = Histogram<UInt32>(lowestDiscernibleValue: 1, highestTrackableValue: highest, numberOfSignificantValueDigits: .three)
            }
            negativeCount += 1
            _ = negative!.record(v)
        }
    }

    /// The exact mean, or nil when nothing was recorded.
    public var mean: Double? { count == 0 ? nil : (sum + compensation) / Double(count) }

    /// The value at percentile `p` (0...100), nearest rank, or nil when empty.
    public func percentile(_ p: Double) -> Double? {
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

    /// Adds another stream's values to this one (same resolution).
    public mutating func merge(_ other: StreamingStats) {
        guard other.count > 0 else { return }
        count += other.count
        let t = sum + other.sum
        compensation += other.compensation + ((Swift.abs(sum) >= Swift.abs(other.sum)) ? (sum - t) + other.sum : (other.sum - t) + sum)
        sum = t
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
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
