#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory for `capacity` values of `T`, uninitialised, taken from `malloc`
/// where `malloc`'s own alignment (16 bytes) suffices; free it with
/// ``rawFree(_:)``. `UnsafeMutablePointer.allocate(capacity:)` asks the
/// runtime for the default alignment, which it serves through an aligned
/// allocation (`posix_memalign` with glibc) that costs nearly twice a
/// `malloc`: a run's rings make some ten of these.
@inlinable @inline(__always)
public func rawAllocate<T>(_: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
    guard MemoryLayout<T>.alignment <= 16 else { return .allocate(capacity: capacity) }
    guard let p = malloc(Swift.max(1, capacity) * MemoryLayout<T>.stride) else {
        fatalError("out of memory: \(capacity) values of \(MemoryLayout<T>.stride) bytes")
    }
    return p.bindMemory(to: T.self, capacity: capacity)
}

/// Frees what ``rawAllocate(_:capacity:)`` allocated (its values already
/// deinitialised).
@inlinable @inline(__always)
public func rawFree<T>(_ p: UnsafeMutablePointer<T>) {
    guard MemoryLayout<T>.alignment <= 16 else { return p.deallocate() }
    free(UnsafeMutableRawPointer(p))
}
