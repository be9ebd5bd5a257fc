/// A fixed ring of slots found by a number's low bits: the slot of number
/// `n` is `n mod count` (`count` a power of two), so a slot is reused once
/// the numbers move on by `count`. Made for records kept by number while
/// few are in flight (frames by sequence, frames by buffer): allocated and
/// filled once, read and written in place, never grown, no bounds check
/// (no number reads outside the ring). Copies share the slots; one run
/// uses them.
@frozen
public struct NumberedSlots<Element> {
    /// The slots' memory, freed with the last copy.
    @usableFromInline
    final class Storage {
        @usableFromInline let base: UnsafeMutablePointer<Element>
        @usableFromInline let count: Int

        @inlinable
        init(count: Int, filledWith value: Element) {
            self.count = count
            base = rawAllocate(Element.self, capacity: count)
            base.initialize(repeating: value, count: count)
        }

        deinit {
            base.deinitialize(count: count)
            rawFree(base)
        }
    }

    @usableFromInline let storage: Storage
    @usableFromInline let mask: Int

    /// At least `minimum` slots (rounded up to a power of two, at least 2),
    /// each holding `value`.
    @inlinable
    public init(atLeast minimum: Int, filledWith value: Element) {
        var n = 2
        while n < minimum { n *= 2 }
        storage = Storage(count: n, filledWith: value)
        mask = n - 1
    }

    /// The number of slots.
    @inlinable public var count: Int { storage.count }

    /// The slot of number `n`, read and written in place.
    @inlinable
    public subscript(n: Int64) -> Element {
        @inline(__always) unsafeAddress { UnsafePointer(storage.base + (Int(truncatingIfNeeded: n) & mask)) }
        @inline(__always) nonmutating unsafeMutableAddress { storage.base + (Int(truncatingIfNeeded: n) & mask) }
    }

    /// The slot of number `n`, where it is: valid as long as the slots are.
    @inlinable @inline(__always)
    public func inPlace(_ n: Int64) -> InPlace<Element> {
        InPlace(storage.base + (Int(truncatingIfNeeded: n) & mask))
    }
}
