import SimKernel

/// A figure measured once per seed, and how sure its mean is: the 95%
/// confidence interval of the mean across seeds (Student's t), which says
/// how much of a number is the seed's.
public struct SeedStatistic: Sendable, Equatable {
    /// The value of each seed, in seed order (nil where a run measured nothing).
    public var values: [Double?]
    /// The mean over the seeds that measured something.
    public var mean: Double?
    /// Half the width of the 95% interval of the mean; 0 when every seed
    /// gave the same value, nil with fewer than two values.
    public var halfWidth95: Double?

    /// The statistic of per-seed values.
    public init(_ values: [Double?]) {
        self.values = values
        let xs = values.compactMap { $0 }
        guard !xs.isEmpty else { mean = nil; halfWidth95 = nil; return }
        var sum = CompensatedSum()
        for x in xs { sum.add(x) }
        let m = sum.value / Double(xs.count)
        mean = m
        guard xs.count >= 2 else { halfWidth95 = nil; return }
        var squares = CompensatedSum()
        for x in xs { squares.add((x - m) * (x - m)) }
        let sd = (squares.value / Double(xs.count - 1)).squareRoot()
        halfWidth95 = StudentT.critical95(degreesOfFreedom: xs.count - 1) * sd / Double(xs.count).squareRoot()
    }

    /// The 95% interval of the mean, when there is one.
    public var interval95: ClosedRange<Double>? {
        guard let mean, let h = halfWidth95 else { return nil }
        return (mean - h)...(mean + h)
    }
}

/// The difference of a figure between two configurations run with the same
/// seeds: `b − a` per seed (paired, so the seed's own variation largely
/// cancels), its mean and 95% interval, and whether the difference is
/// beyond the noise the seeds show.
public struct SeedDifference: Sendable, Equatable {
    /// `b − a`, per seed pair that both measured.
    public var perSeed: SeedStatistic
    /// True when the 95% interval of the mean difference excludes 0 (with
    /// every seed the same, when the difference is not 0); nil with one seed
    /// of a configuration that varies with the seed.
    public var isReal: Bool?

    /// The paired difference of `a` and `b` (seed k of each together).
    public init(a: SeedStatistic, b: SeedStatistic) {
        let pairs = zip(a.values, b.values).map { x, y -> Double? in
            guard let x, let y else { return nil }
            return y - x
        }
        perSeed = SeedStatistic(pairs)
        guard let mean = perSeed.mean else { isReal = nil; return }
        if let h = perSeed.halfWidth95 {
            isReal = h == 0 ? mean != 0 : abs(mean) > h
        } else {
            isReal = nil
        }
    }
}
