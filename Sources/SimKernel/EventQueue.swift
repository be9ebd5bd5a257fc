/// One scheduled event: when it happens, what kind it is, and a small
/// payload the model interprets (an index into its own tables, 0...65535).
///
/// The kernel knows nothing of touches: a kind is only a rank. At equal
/// times the event of the smaller rank comes first, then the one inserted
/// first (MODEL.md section 1).
///
/// An event is 16 bytes, two words: the time, and the order word holding
/// the kind (8 bits), the insertion sequence (40 bits: a trillion events)
/// and the payload (16 bits). The heap moves and compares whole events.
@frozen
public struct ScheduledEvent: Sendable, Equatable {
    public var time: SimTime
    @usableFromInline var order: UInt64

    @inlinable
    init(time: SimTime, order: UInt64) {
        self.time = time
        self.order = order
    }

    @inlinable public var kind: UInt8 { UInt8(truncatingIfNeeded: order >> 56) }
    /// Insertion sequence number (0 for the first event ever pushed).
    @inlinable public var sequence: UInt64 { (order >> 16) & 0xFF_FFFF_FFFF }
    /// The model's payload.
    @inlinable public var payload: UInt16 { UInt16(truncatingIfNeeded: order) }

    @inlinable
    static func precedes(_ a: ScheduledEvent, _ b: ScheduledEvent) -> Bool {
        a.time < b.time || (a.time == b.time && a.order < b.order)
    }
}

/// A priority queue of events: a binary min-heap ordered by time, then kind
/// rank, then insertion order.
///
/// It is a reference type over storage it owns: scheduling and popping touch
/// no reference counts and, once the storage has grown to the largest number
/// of events pending at once, never allocate. A run owns its queue; share
/// one between threads only with your own locking.
public final class EventQueue: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var heap: UnsafeMutablePointer<ScheduledEvent>
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    @exclusivity(unchecked) @usableFromInline var size = 0
    @exclusivity(unchecked) @usableFromInline var nextSequence: UInt64 = 0

    public init(capacity: Int = 16) {
        self.capacity = Swift.max(4, capacity)
        heap = .allocate(capacity: self.capacity)
    }

    deinit { heap.deallocate() }

    @inlinable public var isEmpty: Bool { size == 0 }
    @inlinable public var count: Int { size }
    /// The next event, without removing it.
    @inlinable public var first: ScheduledEvent? { size > 0 ? heap[0] : nil }

    /// Schedules an event. `kind` is its rank at equal times (0...255).
    @inlinable
    public func schedule(at time: SimTime, kind: UInt8, payload: UInt16 = 0) {
        let e = ScheduledEvent(time: time, order: UInt64(kind) << 56 | (nextSequence & 0xFF_FFFF_FFFF) << 16 | UInt64(payload))
        nextSequence &+= 1
        if size == capacity { grow() }
        var i = size
        size &+= 1
        while i > 0 {
            let parent = (i &- 1) >> 1
            if !ScheduledEvent.precedes(e, heap[parent]) { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = e
    }

    /// Removes and returns the earliest event, or nil when none is left.
    @inlinable
    public func pop() -> ScheduledEvent? {
        guard size > 0 else { return nil }
        let top = heap[0]
        size &-= 1
        let n = size
        if n == 0 { return top }
        let last = heap[n]
        var i = 0
        while true {
            let l = 2 &* i &+ 1
            if l >= n { break }
            var c = l
            let r = l &+ 1
            if r < n && ScheduledEvent.precedes(heap[r], heap[l]) { c = r }
            if !ScheduledEvent.precedes(heap[c], last) { break }
            heap[i] = heap[c]
            i = c
        }
        heap[i] = last
        return top
    }

    @usableFromInline
    func grow() {
        let bigger = UnsafeMutablePointer<ScheduledEvent>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: heap, count: size)
        heap.deallocate()
        heap = bigger
        capacity *= 2
    }

    /// Removes every event.
    public func removeAll() { size = 0 }
}
