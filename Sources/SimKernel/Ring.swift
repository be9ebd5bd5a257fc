/// A first-in first-out queue for the event loop's hot path: a ring of a
/// power-of-two capacity that doubles when full, so once a run has held its
/// most elements at once it never allocates.
///
/// Unlike `Deque` it has no copy-on-write: its storage is a reference, and
/// copies of a ring share it. A ring belongs to one stage of one run (the
/// stages are prepared, moved into their run and never copied while it
/// runs), which is what makes an append a handful of instructions: no
/// uniqueness check, no segments. Its memory is its own: an element is
/// made in its slot (``append(_:)``, ``appendInPlace(_:)``) and read where
/// it is (``subscript(_:)``, ``inPlace(_:)``), and no pointer leaves it.
@frozen
public struct Ring<Element> {
    /// The elements' memory, shared by the copies of a ring. Its fields are
    /// read and written by the module that uses the ring, where the
    /// compiler cannot prove that no two accesses overlap: they are not
    /// checked at run time (a ring belongs to one stage of one run, on one
    /// thread; the checks cost more than the ring's work).
    @usableFromInline
    final class Storage {
        @usableFromInline @exclusivity(unchecked) var elements: UnsafeMutablePointer<Element>
        @usableFromInline @exclusivity(unchecked) var mask: Int
        @usableFromInline @exclusivity(unchecked) var head = 0
        @usableFromInline @exclusivity(unchecked) var count = 0

        @inlinable
        init(capacity: Int) {
            var c = 4
            while c < capacity { c <<= 1 }
            elements = rawAllocate(Element.self, capacity: c)
            mask = c - 1
        }

        deinit {
            for i in 0..<count { (elements + ((head + i) & mask)).deinitialize(count: 1) }
            rawFree(elements)
        }

        /// Doubles the capacity, keeping the order: specialised for the
        /// element where the ring is used, but kept out of line (it runs a
        /// few times a run).
        @inlinable @inline(never)
        func grow() {
            let c = (mask + 1) * 2
            let bigger = rawAllocate(Element.self, capacity: c)
            for i in 0..<count { (bigger + i).moveInitialize(from: elements + ((head + i) & mask), count: 1) }
            rawFree(elements)
            elements = bigger
            mask = c - 1
            head = 0
        }

        /// Where element `i` places from the oldest is stored.
        @inlinable @inline(__always)
        func address(_ i: Int) -> UnsafeMutablePointer<Element> { elements + ((head &+ i) & mask) }

        /// Takes the slot after the newest (growing first when full).
        @inlinable @inline(__always)
        func takeSlot() -> UnsafeMutablePointer<Element> {
            if count > mask { grow() }
            let slot = elements + ((head &+ count) & mask)
            count &+= 1
            return slot
        }
    }

    @usableFromInline let storage: Storage

    /// An empty ring with room for `capacity` elements before it grows.
    @inlinable
    public init(capacity: Int = 8) { storage = Storage(capacity: capacity) }

    @inlinable @inline(__always) public var count: Int { storage.count }
    @inlinable @inline(__always) public var isEmpty: Bool { storage.count == 0 }

    /// The element `i` places from the oldest.
    @inlinable
    public subscript(i: Int) -> Element {
        @inline(__always) get { storage.elements[(storage.head &+ i) & storage.mask] }
        @inline(__always) nonmutating set { storage.elements[(storage.head &+ i) & storage.mask] = newValue }
    }

    /// The element `i` places from the oldest, where it is stored: valid
    /// until the ring changes its count.
    @inlinable @inline(__always)
    public func inPlace(_ i: Int) -> InPlace<Element> { InPlace(storage.address(i)) }

    @inlinable @inline(__always) public var first: Element? { isEmpty ? nil : self[0] }
    @inlinable @inline(__always) public var last: Element? { isEmpty ? nil : self[storage.count &- 1] }

    /// Adds an element after the newest, made in its slot by `make` (which
    /// must initialise it, and neither read nor change the ring).
    @inlinable @inline(__always)
    public func appendInPlace<R>(_ make: (Uninitialized<Element>) -> R) -> R {
        make(Uninitialized(storage.takeSlot()))
    }

    /// Adds `e` after the newest.
    @inlinable @inline(__always)
    public func append(_ e: Element) { storage.takeSlot().initialize(to: e) }

    /// Removes and returns the oldest (the ring must not be empty).
    @inlinable @inline(__always) @discardableResult
    public func removeFirst() -> Element {
        let s = storage
        let e = (s.elements + s.head).move()
        s.head = (s.head &+ 1) & s.mask
        s.count &-= 1
        return e
    }

    /// Removes the `n` oldest.
    @inlinable @inline(__always)
    public func removeFirst(_ n: Int) {
        for _ in 0..<n { removeFirst() }
    }

    /// Removes and returns the oldest, nil when empty.
    @inlinable @inline(__always)
    public func popFirst() -> Element? { isEmpty ? nil : removeFirst() }

    /// Removes and returns the newest (the ring must not be empty).
    @inlinable @inline(__always) @discardableResult
    public func removeLast() -> Element {
        let s = storage
        s.count &-= 1
        return (s.elements + ((s.head &+ s.count) & s.mask)).move()
    }

    /// Removes every element, keeping the storage.
    @inlinable @inline(__always)
    public func removeAll() {
        while !isEmpty { removeFirst() }
        storage.head = 0
    }

    /// The element's bytes, `i` places from the oldest, copied into `target`
    /// (a plain-data element only: no reference is retained). Copying a
    /// large element as bytes avoids a copy through the stack in pieces.
    @inlinable @inline(__always)
    public func copyBytes(of i: Int, into target: inout Element) {
        precondition(_isPOD(Element.self), "an element copied as bytes holds a reference")
        let from = storage.address(i)
        withUnsafeMutableBytes(of: &target) { $0.baseAddress!.copyMemory(from: from, byteCount: MemoryLayout<Element>.size) }
    }
}

extension Ring: Sequence {
    public struct Iterator: IteratorProtocol {
        @usableFromInline let ring: Ring
        @usableFromInline var i = 0
        @inlinable init(ring: Ring) { self.ring = ring }
        @inlinable
        public mutating func next() -> Element? {
            guard i < ring.count else { return nil }
            defer { i += 1 }
            return ring[i]
        }
    }

    @inlinable public func makeIterator() -> Iterator { Iterator(ring: self) }
    @inlinable public var underestimatedCount: Int { count }
}

/// An element read where a container stores it, without copying it: a
/// view valid as long as the container says (a ring's, until its count
/// changes). Reading a field of ``value`` reads that field alone.
@frozen
public struct InPlace<Element> {
    @usableFromInline let address: UnsafePointer<Element>

    @inlinable @inline(__always)
    init(_ address: UnsafeMutablePointer<Element>) { self.address = UnsafePointer(address) }

    /// The element.
    @inlinable
    public var value: Element {
        @inline(__always) unsafeAddress { address }
    }
}

/// The slot of an element being made, before it holds one: a container
/// hands it to the code that makes the element in place, which initialises
/// it once (``initialize(to:)``).
@frozen
public struct Uninitialized<Element> {
    @usableFromInline let address: UnsafeMutablePointer<Element>

    @inlinable @inline(__always)
    init(_ address: UnsafeMutablePointer<Element>) { self.address = address }

    /// Puts `value` in the slot.
    @inlinable @inline(__always)
    public func initialize(to value: Element) { address.initialize(to: value) }
}
