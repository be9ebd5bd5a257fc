import SimKernel

/// The last three samples a predictor has seen, oldest first, in fixed
/// storage: keeping them never allocates.
struct SampleHistory: Sendable, Hashable {
    /// How many samples are kept.
    static let capacity = 3
    private(set) var s0 = TouchSample(time: 0, position: .zero)
    private(set) var s1 = TouchSample(time: 0, position: .zero)
    private(set) var s2 = TouchSample(time: 0, position: .zero)
    /// Samples held (0...3).
    private(set) var count = 0

    /// The newest sample (undefined when empty).
    var newest: TouchSample { self[count - 1] }

    /// The i-th sample held, 0 = oldest.
    subscript(i: Int) -> TouchSample {
        switch i {
        case 0: return s0
        case 1: return s1
        default: return s2
        }
    }

    /// Appends a sample, dropping the oldest when full.
    mutating func append(_ s: TouchSample) {
        switch count {
        case 0: s0 = s; count = 1
        case 1: s1 = s; count = 2
        case 2: s2 = s; count = 3
        default: s0 = s1; s1 = s2; s2 = s
        }
    }

    /// Replaces the newest sample (a report at the same timestamp).
    mutating func replaceNewest(_ s: TouchSample) {
        switch count {
        case 1: s0 = s
        case 2: s1 = s
        case 3: s2 = s
        default: append(s)
        }
    }

    /// Empties the history.
    mutating func removeAll() { count = 0 }
}
