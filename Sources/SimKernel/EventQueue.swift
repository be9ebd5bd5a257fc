/// One scheduled event: when it happens, what kind it is, and a small
/// payload the model interprets (an index into its own tables).
///
/// The kernel knows nothing of touches: a kind is only a rank. At equal
/// times the event of the smaller rank comes first, then the one inserted
/// first (MODEL.md section 1).
@frozen
public struct ScheduledEvent: Sendable, Equatable {
    public var time: SimTime
    /// Rank at equal times (smaller first), in the top byte; insertion
    /// sequence number in the low 56 bits.
    @usableFromInline var order: UInt64
    public var payload: Int64

    @inlinable
    init(time: SimTime, order: UInt64, payload: Int64) {
        self.time = time
        self.order = order
        self.payload = payload
    }

    @inlinable public var kind: UInt8 { UInt8(truncatingIfNeeded: order >> 56) }
    /// Insertion sequence number (0 for the first event ever pushed).
    @inlinable public var sequence: UInt64 { order & 0x00FF_FFFF_FFFF_FFFF }

    @inlinable
    static func precedes(_ a: ScheduledEvent, _ b: ScheduledEvent) -> Bool {
        a.time < b.time || (a.time == b.time && a.order < b.order)
    }
}

/// A priority queue of events: a binary min-heap ordered by time, then kind
/// rank, then insertion order.
///
/// Its storage grows to the largest number of events pending at once and is
/// then reused: scheduling and popping never allocate after that.
public struct EventQueue: Sendable {
    @usableFromInline var heap: ContiguousArray<ScheduledEvent> = []
    @usableFromInline var nextSequence: UInt64 = 0

    public init(capacity: Int = 16) { heap.reserveCapacity(capacity) }

    @inlinable public var isEmpty: Bool { heap.isEmpty }
    @inlinable public var count: Int { heap.count }
    /// The next event, without removing it.
    @inlinable public var first: ScheduledEvent? { heap.first }

    /// Schedules an event. `kind` is its rank at equal times (0...255).
    @inlinable
    public mutating func schedule(at time: SimTime, kind: UInt8, payload: Int64 = 0) {
        let e = ScheduledEvent(time: time, order: UInt64(kind) << 56 | nextSequence, payload: payload)
        nextSequence &+= 1
        heap.append(e)
        heap.withUnsafeMutableBufferPointer { h in
            var i = h.count - 1
            while i > 0 {
                let parent = (i - 1) >> 1
                if !ScheduledEvent.precedes(e, h[parent]) { break }
                h[i] = h[parent]
                i = parent
            }
            h[i] = e
        }
    }

    /// Removes and returns the earliest event, or nil when none is left.
    @inlinable
    public mutating func pop() -> ScheduledEvent? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if heap.isEmpty { return top }
        heap.withUnsafeMutableBufferPointer { h in
            let n = h.count
            var i = 0
            while true {
                let l = 2 * i + 1
                if l >= n { break }
                var c = l
                let r = l + 1
                if r < n && ScheduledEvent.precedes(h[r], h[l]) { c = r }
                if !ScheduledEvent.precedes(h[c], last) { break }
                h[i] = h[c]
                i = c
            }
            h[i] = last
        }
        return top
    }

    /// Removes every event.
    public mutating func removeAll() { heap.removeAll(keepingCapacity: true) }
}
