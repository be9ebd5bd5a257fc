/// A first-in first-out queue for the event loop's hot path: a ring of a
/// power-of-two capacity that doubles when full, so once a run has held its
/// most elements at once it never allocates.
///
/// Unlike `Deque` it has no copy-on-write: its storage is a reference, and
/// copies of a ring share it. A ring belongs to one stage of one run (the
/// stages are prepared, moved into their run and never copied while it
/// runs), which is what makes an append a handful of instructions: no
/// uniqueness check, no segments.
struct Ring<Element> {
    final class Storage {
        var elements: UnsafeMutablePointer<Element>
        var mask: Int
        var head = 0
        var count = 0

        init(capacity: Int) {
            var c = 4
            while c < capacity { c <<= 1 }
            elements = .allocate(capacity: c)
            mask = c - 1
        }

        deinit {
            for i in 0..<count { (elements + ((head + i) & mask)).deinitialize(count: 1) }
            elements.deallocate()
        }

        /// Doubles the capacity, keeping the order.
        func grow() {
            let c = (mask + 1) * 2
            let bigger = UnsafeMutablePointer<Element>.allocate(capacity: c)
            for i in 0..<count { (bigger + i).moveInitialize(from: elements + ((head + i) & mask), count: 1) }
            elements.deallocate()
            elements = bigger
            mask = c - 1
            head = 0
        }
    }

    let storage: Storage

    /// An empty ring with room for `capacity` elements before it grows.
    init(capacity: Int = 8) { storage = Storage(capacity: capacity) }

    @inline(__always) var count: Int { storage.count }
    @inline(__always) var isEmpty: Bool { storage.count == 0 }

    /// The element `i` places from the oldest.
    @inline(__always)
    subscript(i: Int) -> Element {
        get { storage.elements[(storage.head &+ i) & storage.mask] }
        nonmutating set { storage.elements[(storage.head &+ i) & storage.mask] = newValue }
    }

    /// Where element `i` is stored, to change it in place (valid until the
    /// ring changes its count).
    @inline(__always)
    func pointer(_ i: Int) -> UnsafeMutablePointer<Element> {
        storage.elements + ((storage.head &+ i) & storage.mask)
    }

    @inline(__always) var first: Element? { isEmpty ? nil : self[0] }
    @inline(__always) var last: Element? { isEmpty ? nil : self[storage.count &- 1] }

    /// Adds an element after the newest and returns where it goes, for the
    /// caller to initialise at once (before the ring is read or changed).
    @inline(__always)
    func appendUninitialized() -> UnsafeMutablePointer<Element> {
        let s = storage
        if s.count > s.mask { s.grow() }
        let slot = s.elements + ((s.head &+ s.count) & s.mask)
        s.count &+= 1
        return slot
    }

    /// Adds `e` after the newest.
    @inline(__always)
    func append(_ e: Element) { appendUninitialized().initialize(to: e) }

    /// Removes and returns the oldest (the ring must not be empty).
    @inline(__always) @discardableResult
    func removeFirst() -> Element {
        let s = storage
        let e = (s.elements + s.head).move()
        s.head = (s.head &+ 1) & s.mask
        s.count &-= 1
        return e
    }

    /// Removes the `n` oldest.
    @inline(__always)
    func removeFirst(_ n: Int) {
        for _ in 0..<n { removeFirst() }
    }

    /// Removes and returns the oldest, nil when empty.
    @inline(__always)
    func popFirst() -> Element? { isEmpty ? nil : removeFirst() }

    /// Removes and returns the newest (the ring must not be empty).
    @inline(__always) @discardableResult
    func removeLast() -> Element {
        let s = storage
        s.count &-= 1
        return (s.elements + ((s.head &+ s.count) & s.mask)).move()
    }

    /// Removes every element, keeping the storage.
    @inline(__always)
    func removeAll(keepingCapacity: Bool = true) {
        while !isEmpty { removeFirst() }
        storage.head = 0
    }
}

extension Ring: Sequence {
    struct Iterator: IteratorProtocol {
        let ring: Ring
        var i = 0
        mutating func next() -> Element? {
            guard i < ring.count else { return nil }
            defer { i += 1 }
            return ring[i]
        }
    }

    func makeIterator() -> Iterator { Iterator(ring: self) }
    var underestimatedCount: Int { count }
}
