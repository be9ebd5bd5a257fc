#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One of the UMA histograms Chromium's prediction metrics fill
/// (ui/base/prediction/prediction_metrics_handler.cc):
/// `Histogram::FactoryGet(name, 1, 1000, 50)`, values in pixels (here
/// points).
///
/// UMA stores an integer sample: the value truncated toward zero (Chromium
/// passes a `double` to `Add(int)`), so 0.9 px lands in the first bucket,
/// [0, 1). The 50 buckets are Chromium's exponential ranges for 1…1000
/// (base/metrics/histogram.cc, `InitializeBucketRanges`): an underflow
/// bucket [0, 1), unit-wide buckets while the ratio is small, widening up to
/// [903, 1000), and an overflow bucket from 1000 up.
///
/// Besides the bucket counts, the exact values' count, sum and largest value
/// are kept, so that the mean is not limited by the buckets.
public struct ChromiumHistogram: Sendable, Hashable, Codable {
    /// The smallest and largest declared sample, and the bucket count.
    public static let minimum = 1, maximum = 1000, bucketCount = 50

    /// The lower bound of each bucket, points (integer samples):
    /// `[0, 1, 2, ..., 903, 1000]`.
    public static let lowerBounds: [Int] = {
        var ranges = [0, minimum]
        let logMax = log(Double(maximum))
        var current = minimum
        for index in 2..<bucketCount {
            let logCurrent = log(Double(current))
            let next = Int((exp(logCurrent + (logMax - logCurrent) / Double(bucketCount - index))).rounded())
            current = next > current ? next : current + 1
            ranges.append(current)
        }
        return ranges
    }()

    /// The bucket an integer sample falls in.
    public static func bucketIndex(of sample: Int) -> Int {
        var low = 0, high = bucketCount - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lowerBounds[mid] <= sample { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// A bucket that holds samples.
    public struct Bucket: Sendable, Hashable, Codable {
        /// The smallest integer sample of the bucket, points.
        public var lowerBound: Int
        /// Samples in it.
        public var count: Int
    }

    /// The histogram's suffix in Chromium, e.g. `OverPrediction`; the full
    /// name puts a prefix before it (`Event.InputEventPrediction.Scroll.` for
    /// scrolling, `Renderer.DelegatedInkTrail.Prediction.` for ink).
    public let name: String
    /// Samples per bucket, in the order of ``lowerBounds``.
    public private(set) var counts: [Int]
    /// Values recorded.
    public private(set) var count = 0
    /// Sum of the exact values, points.
    public private(set) var sum = 0.0
    /// Largest exact value, points; 0 when empty.
    public private(set) var largest = 0.0

    /// An empty histogram.
    public init(name: String) {
        self.name = name
        counts = Array(repeating: 0, count: ChromiumHistogram.bucketCount)
    }

    /// Mean of the exact values, points; nil when empty.
    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// The buckets that hold samples, lowest first (what Chromium's
    /// `HistogramTester::GetAllSamples` lists).
    public var nonEmptyBuckets: [Bucket] {
        counts.indices.filter { counts[$0] > 0 }.map { Bucket(lowerBound: ChromiumHistogram.lowerBounds[$0], count: counts[$0]) }
    }

    /// Adds a value (non-negative, points).
    mutating func record(_ value: Double) {
        let sample = !(value > 0) ? 0 : value >= Double(Int32.max - 1) ? Int(Int32.max - 1) : Int(value.rounded(.towardZero))
        counts[ChromiumHistogram.bucketIndex(of: sample)] += 1
        count += 1
        sum += value
        largest = Swift.max(largest, value)
    }
}
