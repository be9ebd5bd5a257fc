/// The kinds of event a model declares, as an enum with `UInt8` raw values
/// `0, 1, 2, ...` in declaration order (Swift's default).
///
/// Identity and tie order are separate: the raw value says which kind an
/// event is (and where its count goes), ``tieRank`` says which of two events
/// at the same instant happens first. A model's handler switches over the
/// enum, so a new kind does not compile until it is handled.
public protocol SimulationEvent: CaseIterable, Hashable, Sendable, RawRepresentable where RawValue == UInt8 {
    /// The order at equal times: the smaller rank happens first, then the
    /// event scheduled first.
    var tieRank: UInt8 { get }
    /// The name used in JSON and traces.
    var name: String { get }
    /// True for a kind that is the model's own bookkeeping rather than a
    /// model event: a decision deferred to later in the same instant. It is
    /// scheduled and handled like any event but left out of the counts a
    /// run reports (``EventCounts``).
    var isBookkeeping: Bool { get }
}

extension SimulationEvent {
    /// Every kind is a model event unless the model says otherwise.
    public var isBookkeeping: Bool { false }
}

/// The future of a simulation: the events scheduled and not yet handled,
/// and the current instant.
///
/// A binary min-heap ordered by time, then tie rank, then the order of
/// scheduling. Each entry is two words (16 bytes): the time, and an order
/// word holding the tie rank (8 bits), the scheduling sequence (40 bits: a
/// trillion events), the kind (8 bits) and a payload (8 bits) the model
/// interprets. The storage is owned: the scheduler cannot be copied (a copy
/// would share or lose events), and once it has grown to the most events
/// pending at once it never allocates.
public struct EventScheduler<Event: SimulationEvent>: ~Copyable {
    /// One scheduled event.
    @frozen
    public struct Entry: Sendable {
        /// When it happens.
        public var time: SimTime
        @usableFromInline var order: UInt64

        @inlinable init(time: SimTime, order: UInt64) {
            self.time = time
            self.order = order
        }

        /// The event's kind (its raw value).
        @inlinable public var kindCode: UInt8 { UInt8(truncatingIfNeeded: order >> 8) }
        /// The model's payload.
        @inlinable public var payload: UInt8 { UInt8(truncatingIfNeeded: order) }
        /// The event's kind.
        @inlinable public var event: Event { Event(rawValue: kindCode).unsafelyUnwrapped }

        @inlinable static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            a.time < b.time || (a.time == b.time && a.order < b.order)
        }
    }

    /// The instant of the event being handled (0 before the first).
    @inlinable public var now: SimTime { current }
    @usableFromInline var current: SimTime = 0
    @usableFromInline var heap: UnsafeMutablePointer<Entry>
    @usableFromInline var capacity: Int
    @usableFromInline var size = 0
    @usableFromInline var nextSequence: UInt64 = 0

    /// An empty scheduler with room for `capacity` pending events (it grows
    /// when needed).
    public init(capacity: Int = 16) {
        self.capacity = Swift.max(4, capacity)
        heap = .allocate(capacity: self.capacity)
    }

    deinit { heap.deallocate() }

    /// The number of events pending.
    @inlinable public var count: Int { size }
    /// True when nothing is pending.
    @inlinable public var isEmpty: Bool { size == 0 }
    /// The next event, without removing it.
    @inlinable public var next: Entry? { size > 0 ? heap[0] : nil }

    /// Schedules `event` at `time` (which must not be before ``now``).
    ///
    /// Inlined, so that at a call site naming its event the tie rank is a
    /// constant; the heap insertion itself is shared.
    @inlinable @inline(__always)
    public mutating func schedule(_ event: Event, at time: SimTime, payload: UInt8 = 0) {
        let order = UInt64(event.tieRank) << 56 | (nextSequence & 0xFF_FFFF_FFFF) << 16
            | UInt64(event.rawValue) << 8 | UInt64(payload)
        nextSequence &+= 1
        insert(Entry(time: time, order: order))
    }

    /// Adds an entry to the heap (sift up).
    @inlinable
    mutating func insert(_ e: Entry) {
        if size == capacity { grow() }
        var i = size
        size &+= 1
        while i > 0 {
            let parent = (i &- 1) >> 1
            if !Entry.precedes(e, heap[parent]) { break }
            heap[i] = heap[parent]
            i = parent
        }
        heap[i] = e
    }

    /// Schedules `event` `delay` after ``now``.
    @inlinable @inline(__always)
    public mutating func schedule(_ event: Event, after delay: SimTime, payload: UInt8 = 0) {
        schedule(event, at: now &+ delay, payload: payload)
    }

    /// Removes the earliest event and makes its time ``now``; nil when none
    /// is left or the earliest is at or after `end` (it is then dropped).
    @inlinable
    public mutating func pop(before end: SimTime) -> Entry? {
        guard size > 0 else { return nil }
        let top = heap[0]
        size &-= 1
        let n = size
        if n > 0 {
            let last = heap[n]
            var i = 0
            while true {
                let l = 2 &* i &+ 1
                if l >= n { break }
                var c = l
                let r = l &+ 1
                if r < n && Entry.precedes(heap[r], heap[l]) { c = r }
                if !Entry.precedes(heap[c], last) { break }
                heap[i] = heap[c]
                i = c
            }
            heap[i] = last
        }
        guard top.time < end else { return nil }
        current = top.time
        return top
    }

    /// Drops every pending event: a run that cannot go on (its model met
    /// input it refuses) ends at the current event.
    public mutating func removeAll() { size = 0 }

    @usableFromInline
    mutating func grow() {
        let bigger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: heap, count: size)
        heap.deallocate()
        heap = bigger
        capacity *= 2
    }
}
