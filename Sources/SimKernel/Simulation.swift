/// A model a ``Simulation`` runs: its event kinds, how it starts, and what
/// it does at each event.
///
/// The simulation is generic over the model, so the compiler specialises the
/// event loop for it: no existential, closure or allocation stands between
/// an event and the model's `switch` over its kinds.
public protocol SimulationModel {
    /// The model's event kinds.
    associatedtype Event: SimulationEvent
    /// Schedules the first events (at time 0 or later).
    mutating func start(_ scheduler: inout EventScheduler<Event>)
    /// Handles one event at `scheduler.now`, scheduling what follows from it.
    mutating func handle(_ event: Event, payload: UInt8, _ scheduler: inout EventScheduler<Event>)
    /// The run ends at `end`, its last event handled: the model handles
    /// what it keeps out of the scheduler and is due before `end` (events
    /// it handles when their results are needed, counted with
    /// ``EventScheduler/handledWithin(_:)``).
    mutating func finishEvents(before end: SimTime, _ scheduler: inout EventScheduler<Event>)
}

extension SimulationModel {
    /// A model that keeps every event in the scheduler has nothing to do.
    public mutating func finishEvents(before end: SimTime, _ scheduler: inout EventScheduler<Event>) {}
}

/// How many events of each kind a run handled. Bookkeeping kinds
/// (``SimulationEvent/isBookkeeping``) are handled but not counted here.
public struct EventCounts<Event: SimulationEvent>: Sendable {
    /// Model events handled, by kind in `Event.allCases` order.
    public let byKind: [(event: Event, count: Int)]
    /// Every model event handled.
    public let total: Int

    // inlinable, so made for the model's own event type: unspecialised,
    // the list cost a short run (a sweep point) some 20,000 instructions
    @inlinable
    init(_ counts: UnsafeMutablePointer<Int>) {
        var kinds: [(event: Event, count: Int)] = [], total = 0
        kinds.reserveCapacity(Event.allCases.count)
        for e in Event.allCases where !e.isBookkeeping {
            kinds.append((e, counts[Int(e.rawValue)]))
            total += counts[Int(e.rawValue)]
        }
        byKind = kinds
        self.total = total
    }

    /// The count of one kind.
    public subscript(event: Event) -> Int {
        byKind.first { $0.event == event }?.count ?? 0
    }
}

/// A discrete-event simulation in the vocabulary of SimPy: the current
/// instant (``now``), ``schedule(_:at:payload:)``, ``step()`` and
/// ``run(until:)``.
///
/// It owns its model and its future; it cannot be copied, and
/// ``run(until:)`` consumes it, so a simulation is run once.
public struct Simulation<Model: SimulationModel>: ~Copyable {
    /// The model, with all its state.
    public var model: Model
    @usableFromInline var scheduler: EventScheduler<Model.Event>
    /// Events handled, by kind: the scheduler's ``EventScheduler/handled``.
    @usableFromInline let counts: UnsafeMutablePointer<Int>
    @usableFromInline var started = false

    /// A simulation of `model`; nothing happens until it steps or runs.
    public init(model: Model) {
        self.model = model
        scheduler = EventScheduler()
        counts = scheduler.handled
    }

    /// A simulation of the model `make` makes, made in its place (a model
    /// of many KB is not moved into the simulation afterwards).
    @inlinable @inline(__always)
    public init(making make: () -> Model) {
        model = make()
        scheduler = EventScheduler()
        counts = scheduler.handled
    }

    /// The instant of the last event handled.
    @inlinable public var now: SimTime { scheduler.now }

    /// Schedules an event from outside the model (before or between steps).
    @inlinable
    public mutating func schedule(_ event: Model.Event, at time: SimTime, payload: UInt8 = 0) {
        scheduler.schedule(event, at: time, payload: payload)
    }

    @inlinable
    mutating func startIfNeeded() {
        if !started {
            started = true
            model.start(&scheduler)
        }
    }

    /// Handles the next event before `end`; false when there is none. What
    /// a model keeps out of the scheduler (``SimulationModel/finishEvents(before:_:)``)
    /// is handled only at the end of ``run(until:)``.
    @inlinable @discardableResult
    public mutating func step(before end: SimTime = .max) -> Bool {
        startIfNeeded()
        guard let e = scheduler.pop(before: end) else { return false }
        counts[Int(e.kindCode)] &+= 1
        model.handle(e.event, payload: e.payload, &scheduler)
        return true
    }

    /// Handles every event before `end`, in order, and returns the model
    /// and the events handled.
    @inlinable
    public consuming func run(until end: SimTime) -> (model: Model, events: EventCounts<Model.Event>) {
        let events = runToEnd(end)
        return (model, events)
    }

    /// ``run(until:)`` leaving the model in place (``model``): a large
    /// model is read where it is, not copied out. Call it once.
    @inlinable
    public mutating func runToEnd(_ end: SimTime) -> EventCounts<Model.Event> {
        startIfNeeded()
        while let e = scheduler.pop(before: end) {
            counts[Int(e.kindCode)] &+= 1
            model.handle(e.event, payload: e.payload, &scheduler)
        }
        model.finishEvents(before: end, &scheduler)
        for i in 0..<256 { counts[i] &+= scheduler.within[i] }
        return EventCounts(counts)
    }
}
