import Foundation

/// A value shared between threads, guarded by a lock: every read and write
/// goes through ``withLock(_:)``.
public final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    /// A guarded value.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}
