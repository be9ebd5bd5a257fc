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
    /// The clock of a kind that is never pending twice at once (a periodic
    /// source: its next tick is set when one is handled), numbered from 0;
    /// -1 for a kind kept in the heap. A clock's pending event is kept in a
    /// slot of its own beside the heap (``EventScheduler``).
    var clock: Int { get }
    /// How many clocks the kinds use (every ``clock`` is below it).
    static var clocks: Int { get }
}

extension SimulationEvent {
    /// Every kind is a model event unless the model says otherwise.
    public var isBookkeeping: Bool { false }
    /// Every kind goes through the heap unless the model says otherwise.
    public var clock: Int { -1 }
    /// No clocks unless the model says otherwise.
    public static var clocks: Int { 0 }
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
///
/// The periodic sources of a model (its ``SimulationEvent/clock`` kinds)
/// stay out of the heap: each has one slot holding its next event, and
/// ``pop(before:)`` takes the earlier of the heap's top and the earliest
/// slot. A slot's entry carries the same order word as a heap entry
/// (rank, then scheduling sequence), so the merge handles events in exactly
/// the order one heap would: clocks change the cost, never the order. A
/// clock scheduled while its slot is taken goes to the heap.
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
        /// The event's kind. Its raw value is its case's index (the kinds
        /// are numbered in declaration order, ``SimulationEvent``), which is
        /// how a one-byte enum without payloads is stored: the code is
        /// taken as the kind without the range check of `init(rawValue:)`.
        @inlinable public var event: Event {
            MemoryLayout<Event>.size == 1 ? unsafeBitCast(kindCode, to: Event.self) : Event(rawValue: kindCode).unsafelyUnwrapped
        }

        @inlinable static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            a.time < b.time || (a.time == b.time && a.order < b.order)
        }

        /// An empty clock slot: after every event.
        @inlinable static var empty: Entry { Entry(time: .max, order: .max) }
    }

    /// The instant of the event being handled (0 before the first).
    @inlinable public var now: SimTime { current }
    @usableFromInline var current: SimTime = 0
    @usableFromInline var heap: UnsafeMutablePointer<Entry>
    @usableFromInline var capacity: Int
    @usableFromInline var size = 0
    @usableFromInline var nextSequence: UInt64 = 0
    /// One slot per clock; an empty slot holds ``Entry/empty``.
    @usableFromInline let slots: UnsafeMutablePointer<Entry>
    @usableFromInline let slotCount: Int
    /// The slot holding the earliest clock event (any slot when all are empty).
    @usableFromInline var earliestSlot = 0
    /// Events the model handled within another instead of popping them
    /// (``handledWithin(_:)``), by kind.
    @usableFromInline let within: UnsafeMutablePointer<Int>
    /// Events popped and handled, by kind, for the ``Simulation`` that owns
    /// this scheduler: freed with the scheduler, so the simulation needs no
    /// `deinit` of its own (one would move the whole simulation, a model of
    /// several KB with it, to destroy it).
    @usableFromInline let handled: UnsafeMutablePointer<Int>

    /// An empty scheduler with room for `capacity` pending events (it grows
    /// when needed).
    public init(capacity: Int = 16) {
        // ``Entry/event`` takes a kind's code for its case index: checked in
        // debug builds (the tests run every model), not at each run's start
        // (a sweep point's set-up)
        assert(Event.allCases.enumerated().allSatisfy { Int($0.element.rawValue) == $0.offset },
               "the event kinds' raw values are not 0, 1, 2, ... in declaration order")
        self.capacity = Swift.max(4, capacity)
        heap = .allocate(capacity: self.capacity)
        slotCount = Event.clocks
        slots = .allocate(capacity: Swift.max(1, slotCount))
        slots.initialize(repeating: .empty, count: Swift.max(1, slotCount))
        within = .allocate(capacity: 256)
        within.initialize(repeating: 0, count: 256)
        handled = .allocate(capacity: 256)
        handled.initialize(repeating: 0, count: 256)
    }

    deinit {
        heap.deallocate()
        slots.deallocate()
        within.deallocate()
        handled.deallocate()
    }

    /// The number of events pending.
    @inlinable public var count: Int {
        var n = size
        for i in 0..<slotCount where slots[i].time != .max { n += 1 }
        return n
    }
    /// True when nothing is pending.
    @inlinable public var isEmpty: Bool { count == 0 }
    /// The next event, without removing it.
    @inlinable public var next: Entry? {
        let clock = slots[earliestSlot]
        if size > 0 && (slotCount == 0 || !Entry.precedes(clock, heap[0])) { return heap[0] }
        return slotCount > 0 && clock.time != .max ? clock : nil
    }

    /// Whether an event is pending at `time` that would be handled before
    /// an event of tie rank `rank` scheduled now at `time`: one of a lower
    /// rank, or of the same rank (scheduled earlier, so first).
    ///
    /// A model that would schedule an event of rank `rank` at ``now`` may
    /// instead handle it at once, within the current event, when this is
    /// false for `now`: the event would then have been the next handled, so
    /// handling it at once changes no order. It says so with
    /// ``handledWithin(_:)``.
    @inlinable @inline(__always)
    public func waits(at time: SimTime, before rank: UInt8) -> Bool {
        // the rank is the order word's top byte; the heap's top and the
        // earliest clock are each the first of their events at an instant
        if size > 0 && heap[0].time == time && UInt8(truncatingIfNeeded: heap[0].order >> 56) <= rank { return true }
        let clock = slots[earliestSlot]
        if slotCount > 0 && clock.time == time && UInt8(truncatingIfNeeded: clock.order >> 56) <= rank { return true }
        return false
    }

    /// An event of kind `event` due at ``now``, after the current one: true
    /// when the caller is to handle it at once, within the current event
    /// (nothing that comes before it waits at this instant, so it would
    /// have been the next handled; it is counted as handled), false when an
    /// event that comes first waits, and it was scheduled at ``now``.
    ///
    /// ```swift
    /// if s.handleNow(.renderServerWake) { renderServerWake(now, &s) }
    /// ```
    @inlinable @inline(__always)
    public mutating func handleNow(_ event: Event) -> Bool {
        if waits(at: now, before: event.tieRank) {
            schedule(event, at: now)
            return false
        }
        handledWithin(event)
        return true
    }

    /// Counts an event of kind `event` that the model handled within the
    /// current one (``waits(at:before:)``), so the counts a run reports
    /// are those of handling it as its own event.
    @inlinable
    public mutating func handledWithin(_ event: Event) {
        within[Int(event.rawValue)] &+= 1
    }

    /// Schedules `event` at `time` (which must not be before ``now``).
    ///
    /// Inlined, so that at a call site naming its event the tie rank is a
    /// constant; the heap insertion itself is shared.
    @inlinable @inline(__always)
    public mutating func schedule(_ event: Event, at time: SimTime, payload: UInt8 = 0) {
        let order = UInt64(event.tieRank) << 56 | (nextSequence & 0xFF_FFFF_FFFF) << 16
            | UInt64(event.rawValue) << 8 | UInt64(payload)
        nextSequence &+= 1
        let e = Entry(time: time, order: order)
        let clock = event.clock
        if clock >= 0 && slots[clock].time == .max {
            slots[clock] = e
            if Entry.precedes(e, slots[earliestSlot]) { earliestSlot = clock }
        } else {
            insert(e)
        }
    }

    /// Moves the pending event of the clock kind `event` to `time` (at or
    /// after ``now``), scheduled anew (it comes after the events of its
    /// rank already scheduled at `time`). Returns false, and does nothing,
    /// when its slot holds none: the event is being handled, and its
    /// handler schedules the next. A display whose rate changes moves its
    /// periodic sources' next ticks so (Docs/Engine.md, "A display that
    /// changes its rate").
    @discardableResult
    public mutating func reschedule(_ event: Event, at time: SimTime) -> Bool {
        let c = event.clock
        precondition(c >= 0, "only a clock's event is moved")
        guard slots[c].time != .max, slots[c].kindCode == event.rawValue else { return false }
        precondition(time >= current, "an event moved into the past")
        slots[c] = .empty
        schedule(event, at: time)
        var best = 0
        for i in 1..<slotCount where Entry.precedes(slots[i], slots[best]) { best = i }
        earliestSlot = best
        return true
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
        if slotCount > 0 {
            let clock = slots[earliestSlot]
            if size == 0 || Entry.precedes(clock, heap[0]) {
                guard clock.time != .max else { return nil }
                slots[earliestSlot] = .empty
                // the model's clock count, a constant once specialised: the
                // scan unrolls
                var best = 0
                var bestEntry = slots[0]
                for i in 1..<Event.clocks {
                    let e = slots[i]
                    if Entry.precedes(e, bestEntry) { best = i; bestEntry = e }
                }
                earliestSlot = best
                guard clock.time < end else { return nil }
                current = clock.time
                return clock
            }
        }
        return popHeap(before: end)
    }

    /// ``pop(before:)`` from the heap.
    @inlinable
    mutating func popHeap(before end: SimTime) -> Entry? {
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
    public mutating func removeAll() {
        size = 0
        for i in 0..<slotCount { slots[i] = .empty }
        earliestSlot = 0
    }

    @usableFromInline
    mutating func grow() {
        let bigger = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
        bigger.moveInitialize(from: heap, count: size)
        heap.deallocate()
        heap = bigger
        capacity *= 2
    }
}
