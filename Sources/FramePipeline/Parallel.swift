import Foundation

/// Runs independent simulations on several threads with results that do
/// not depend on how many: work is handed out by index and every result is
/// stored at its index.
public enum Parallel {
    /// Calls `body` for every index in `0..<count` on up to `jobs` threads,
    /// handing indices out in increasing order.
    public static func forEach(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let threads = min(jobs, count)
        if threads <= 1 {
            for i in 0..<count { body(i) }
            return
        }
        let next = IndexDispenser(count: count)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let i = next.take() { body(i) }
        }
    }
}

/// Results written by index from concurrent work.
final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private var storage: [T?]
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    subscript(i: Int) -> T? {
        get { lock.lock(); defer { lock.unlock() }; return storage[i] }
        set { lock.lock(); storage[i] = newValue; lock.unlock() }
    }

    /// Every slot, all of which must have been filled.
    var values: [T] {
        lock.lock(); defer { lock.unlock() }
        return storage.map { $0! }
    }
}

/// Hands out `0..<count` one index at a time to competing threads.
final class IndexDispenser: @unchecked Sendable {
    private var next = 0
    private let count: Int
    private let lock = NSLock()

    init(count: Int) { self.count = count }

    func take() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard next < count else { return nil }
        next += 1
        return next - 1
    }
}
