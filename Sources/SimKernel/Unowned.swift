/// A reference to an object another owner keeps alive, used without
/// retaining or releasing it: for an object the event loop reaches at
/// every frame, where a retain and release per use would cost more than
/// the work. The owner must hold the object for as long as this is used.
@frozen
public struct Unowned<Object: AnyObject> {
    @usableFromInline let reference: Unmanaged<Object>

    /// `object`, kept alive by its owner.
    @inlinable
    public init(_ object: Object) { reference = .passUnretained(object) }

    /// Runs `body` with the object.
    @inlinable @inline(__always)
    public func with<R>(_ body: (Object) -> R) -> R {
        reference._withUnsafeGuaranteedRef(body)
    }
}

extension Unowned: @unchecked Sendable where Object: Sendable {}
