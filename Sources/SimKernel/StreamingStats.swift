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
    /// The histograms, made when the exact table spills (``Histograms``).
    @usableFromInline var histograms: Histograms?
    /// The histogram of values at or above 0 (nil until one is recorded).
    @usableFromInline var positive: Histogram<UInt32>? { histograms?.positive }
    /// The histogram of negative values' magnitudes (nil until one is recorded).
    @usableFromInline var negative: Histogram<UInt32>? { histograms?.negative }
    @usableFromInline var negativeCount: UInt64 = 0
    @usableFromInline let highest: UInt64
    /// The values recorded lately and not yet added to the sums and the
    /// distribution, each with how often it was recorded since: a
    /// pipeline's steady state takes turns among a few values (two samples
    /// a frame, instants rounded to the nanosecond in a cycle of three
    /// frames), and a repeat of one costs a comparison or two.
    /// ``flush()`` adds them. An empty slot holds NaN, which no value
    /// equals.
    @usableFromInline var value0: Double = .nan
    @usableFromInline var value1: Double = .nan
    @usableFromInline var value2: Double = .nan
    @usableFromInline var value3: Double = .nan
    @usableFromInline var count0 = 0
    @usableFromInline var count1 = 0
    @usableFromInline var count2 = 0
    @usableFromInline var count3 = 0
    /// The slot a new value takes next (the slots are taken in turn).
    @usableFromInline var nextSlot = 0
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
        Swift.min(_min, count0 > 0 ? value0 : .infinity, count1 > 0 ? value1 : .infinity,
                  count2 > 0 ? value2 : .infinity, count3 > 0 ? value3 : .infinity)
    }
    /// The largest value recorded (-infinity when none).
    @inlinable public var max: Double {
        Swift.max(_max, count0 > 0 ? value0 : -.infinity, count1 > 0 ? value1 : -.infinity,
                  count2 > 0 ? value2 : -.infinity, count3 > 0 ? value3 : -.infinity)
    }

    /// - Parameters:
    ///   - resolution: recorded steps per unit of the value.
    ///   - highestValue: the largest magnitude tracked precisely (larger
    ///     values count at this value in percentiles; mean, min, max stay exact).
    ///
    /// Inlined, so that a stream is made in its place in the measurement
    /// that keeps it: called, each was made aside and copied in (161 bytes,
    /// some thirty streams a run).
    @inlinable @inline(__always)
    public init(resolution: Double, highestValue: Double) {
        self.resolution = resolution
        highest = UInt64(Swift.max(2, (highestValue * resolution).rounded(.up)))
    }

    /// Records one value. A repeat of a value held in the first two
    /// slots is counted where the value is recorded (inlined); any other
    /// goes through a call.
    @inlinable @inline(__always)
    public mutating func record(_ x: Double) {
        _count &+= 1
        if x == value0 {
            count0 &+= 1
        } else if x == value1 {
            count1 &+= 1
        } else {
            recordNew(x)
        }
    }

    /// ``record(_:)`` of a value not in the first two slots (already
    /// counted): a repeat of the other two, or a new value, which takes
    /// the next slot in turn after its value is added.
    @usableFromInline
    mutating func recordNew(_ x: Double) {
        if x == value2 {
            count2 &+= 1
            return
        }
        if x == value3 {
            count3 &+= 1
            return
        }
        switch nextSlot {
        case 0:
            if count0 > 0 { add(value0, count: count0) }
            value0 = x
            count0 = 1
        case 1:
            if count1 > 0 { add(value1, count: count1) }
            value1 = x
            count1 = 1
        case 2:
            if count2 > 0 { add(value2, count: count2) }
            value2 = x
            count2 = 1
        default:
            if count3 > 0 { add(value3, count: count3) }
            value3 = x
            count3 = 1
        }
        nextSlot = (nextSlot &+ 1) & 3
    }

    /// Records `n` values `x` at once. The count, minimum, maximum,
    /// distribution (percentiles) and mean are those of `n` calls of
    /// ``record(_:)`` (the sum is of the exact products, so the grouping of
    /// equal values does not show in it).
    public mutating func record(_ x: Double, count n: Int) {
        guard n > 0 else { return }
        if n == 1 { return record(x) }
        _count &+= n
        add(x, count: n)
    }

    /// Whether values wait in the slots.
    @usableFromInline var holds: Bool { count0 | count1 | count2 | count3 != 0 }

    /// Adds the values waiting in the slots to the sums and distribution.
    @usableFromInline
    mutating func flush() {
        if count0 > 0 { add(value0, count: count0); count0 = 0 }
        if count1 > 0 { add(value1, count: count1); count1 = 0 }
        if count2 > 0 { add(value2, count: count2); count2 = 0 }
        if count3 > 0 { add(value3, count: count3); count3 = 0 }
    }

    /// Adds `n` values `x` to the sum (the product and its rounding error,
    /// so the sum is that of `n` additions of `x`), extremes and
    /// distribution.
    @usableFromInline
    mutating func add(_ x: Double, count n: Int) {
        let times = Double(n)
        let product = x * times
        sum.add(product)
        sum.addError((-product).addingProduct(x, times))
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
                // borrowed from self in place: no retain a value
                if !isKnownUniquelyReferenced(&histograms) { makeOwnHistograms() }
                Self.record(UInt64(Swift.min(Double(highest), x * resolution + 0.5)), count: c,
                            into: &histograms!.positive, highest: highest)
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
    /// Inlined: a stream with nothing waiting (most of a short run's) costs
    /// a test.
    @inlinable public mutating func settle() { if holds { flush() } }

    /// A copy with every pending value added (for reading).
    @usableFromInline var settled: StreamingStats {
        if !holds { return self }
        var s = self
        s.flush()
        return s
    }

    @usableFromInline
    mutating func recordNegative(_ x: Double, count n: UInt32) {
        let v = UInt64(Swift.min(Double(highest), (Swift.abs(x) * resolution).rounded()))
        negativeCount += UInt64(n)
        if !isKnownUniquelyReferenced(&histograms) { makeOwnHistograms() }
        Self.record(v, count: n, into: &histograms!.negative, highest: highest)
    }

    /// This stream's histograms to change: made at the first spilled
    /// value, copied first when another stream shares them (a stream
    /// copied, then changed).
    @usableFromInline
    mutating func ownHistograms() -> Histograms {
        if !isKnownUniquelyReferenced(&histograms) { makeOwnHistograms() }
        return histograms!
    }

    /// Makes the histograms this stream's own (new, or a copy of those it shares).
    @usableFromInline
    mutating func makeOwnHistograms() {
        histograms = Histograms(positive: histograms?.positive, negative: histograms?.negative)
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
        if holds { return settled.mean }
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
        if holds { return settled.percentiles(ps) }
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
        if holds { return settled.distribution() }
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
            let h = ownHistograms()
            if h.positive == nil { h.positive = op } else { h.positive!.add(op) }
        }
        if let on = other.negative {
            let h = ownHistograms()
            if h.negative == nil { h.negative = on } else { h.negative!.add(on) }
            negativeCount += other.negativeCount
        }
    }

    /// A stream's two histograms, kept out of line: a stream holds a
    /// reference to them (8 bytes) instead of both inline (256 bytes), so
    /// a run's measurements (some forty streams) copy in about 4 KB, not
    /// 11 KB, and a run is set up and read with less copying. Shared by
    /// copies of a stream until one of them changes
    /// (``StreamingStats/ownHistograms()``).
    @usableFromInline final class Histograms: @unchecked Sendable {
        // changed only by its one owner (``StreamingStats/makeOwnHistograms()``),
        // so no access is checked at run time (a value a frame goes through here)
        @exclusivity(unchecked) @usableFromInline var positive: Histogram<UInt32>?
        @exclusivity(unchecked) @usableFromInline var negative: Histogram<UInt32>?

        @usableFromInline init(positive: Histogram<UInt32>?, negative: Histogram<UInt32>?) {
            self.positive = positive
            self.negative = negative
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
