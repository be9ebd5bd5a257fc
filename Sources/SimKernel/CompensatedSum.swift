/// A running sum that keeps the rounding error of every addition
/// (Neumaier's improvement of Kahan summation), so that a mean over
/// millions of values is exact to the last bit for the values the model
/// produces.
public struct CompensatedSum: Sendable, Hashable {
    @usableFromInline var sum = 0.0
    @usableFromInline var compensation = 0.0

    /// An empty sum.
    @inlinable public init() {}

    /// Adds `x`.
    @inlinable
    public mutating func add(_ x: Double) {
        let t = sum + x
        if Swift.abs(sum) >= Swift.abs(x) { compensation += (sum - t) + x } else { compensation += (x - t) + sum }
        sum = t
    }

    /// Adds a rounding error made outside the sum (of a product it was
    /// given rounded) to the compensation.
    @inlinable
    public mutating func addError(_ e: Double) {
        compensation += e
    }

    /// Adds another sum: its running total, then its compensation together
    /// with the rounding error of that addition.
    @inlinable
    public mutating func add(_ other: CompensatedSum) {
        let t = sum + other.sum
        let error = Swift.abs(sum) >= Swift.abs(other.sum) ? (sum - t) + other.sum : (other.sum - t) + sum
        compensation += other.compensation + error
        sum = t
    }

    /// The sum.
    @inlinable public var value: Double { sum + compensation }
}
