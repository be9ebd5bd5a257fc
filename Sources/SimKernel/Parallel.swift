import Foundation

/// Runs independent work (simulations, files to read) on several threads with results that do
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
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let i: Int? = next.withLock { n in
                    guard n < count else { return nil }
                    n += 1
                    return n - 1
                }
                guard let i else { break }
                body(i)
            }
        }
    }

    /// `body(i)` for every index, on up to `jobs` threads, the results in
    /// index order.
    public static func map<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        let slots = Locked([T?](repeating: nil, count: count))
        forEach(count, jobs: jobs) { i in
            let r = body(i)
            slots.withLock { $0[i] = r }
        }
        return slots.current.map { $0! }
    }
}
