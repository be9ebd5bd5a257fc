import Foundation
import LatsimOutput
import SimKernel

/// A value attached to a trace event's `args`.
public enum TraceValue: Sendable, Equatable {
    /// A text value.
    case string(String)
    /// An exact integer.
    case integer(Int64)
    /// A number, written with a `.` decimal point and at most 6 places.
    case number(Double)
}

extension TraceValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// A string value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer value from a literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A number value from a literal.
    public init(floatLiteral value: Double) { self = .number(value) }
}

/// An event's `args`, written as a dictionary literal (`["buffer": 2]`):
/// the pairs as given, each key once, put in key order when the event is
/// stored. A dictionary would hash every key three times an event, which
/// was a good part of writing a long trace.
public struct TraceArgs: ExpressibleByDictionaryLiteral, Sendable {
    /// The pairs, key first: the literal's own array, kept as given (a
    /// copy into labelled tuples was an array made and freed per event).
    var pairs: [(String, TraceValue)]

    /// The pairs of a literal (its keys distinct).
    public init(dictionaryLiteral elements: (String, TraceValue)...) {
        pairs = elements
        assert(Set(pairs.map(\.0)).count == pairs.count, "a trace event's args name a key twice")
    }

    /// The pairs of a dictionary.
    public init(_ dictionary: [String: TraceValue]) {
        pairs = dictionary.map { ($0.key, $0.value) }
    }

    /// Adds a pair whose key is not among the args (no search).
    mutating func append(_ key: String, _ value: TraceValue) {
        assert(!pairs.contains { $0.0 == key }, "a trace event's args name \(key) twice")
        pairs.append((key, value))
    }

    /// The value under `key`; setting one replaces it or adds the pair.
    public subscript(key: String) -> TraceValue? {
        get { pairs.first { $0.0 == key }?.1 }
        set {
            let i = pairs.firstIndex { $0.0 == key }
            switch (i, newValue) {
            case (let i?, let v?): pairs[i].1 = v
            case (let i?, nil): pairs.remove(at: i)
            case (nil, let v?): pairs.append((key, v))
            case (nil, nil): break
            }
        }
    }

    /// The number of pairs.
    public var count: Int { pairs.count }
}

/// Builds a trace in the Chrome Trace Event Format (the JSON that
/// chrome://tracing and the Perfetto UI open).
///
/// Every track is a thread of one process (named "latsim" by default).
/// Times are given in simulated nanoseconds and written as `ts`/`dur` in
/// microseconds with up to three decimals (16_666_667 ns is `16666.667`),
/// so nothing is rounded. The output is a JSON object
/// `{"traceEvents": [...], "displayTimeUnit": "ms"}` written by hand with a
/// fixed key order: the same calls give byte-identical files.
///
/// Events used (see the format's documentation): `M` metadata for process
/// and thread names and sort order, `X` complete events for slices, `i`
/// thread-scoped instant events, `C` counters. Flows are the format's
/// version 2: the slices themselves carry `bind_id` with `flow_out` (the
/// first), `flow_in` and `flow_out` (the middle ones) or `flow_in` (the
/// last), so an arrow joins exactly the slices named, whatever else sits
/// on their tracks at those instants (Perfetto's JSON importer binds a
/// version-2 flow to the slice that carries it; a version-1 `s`/`t`/`f`
/// step binds to whatever slice is innermost at its timestamp, which may
/// be a zero-length instant).
///
/// Track order: Perfetto's UI shows a process's threads by a priority (the
/// main thread, whose tid equals the pid, first; then names matching
/// `*RenderThread*`, `*GPU completion*` and a few Chrome thread names) and
/// then by ascending tid; it ignores `thread_sort_index` (its
/// `dev.perfetto.ProcessThreadGroups` plugin). So tids count up from
/// `pid + 1` in the order tracks are added, no track is the main thread,
/// and ``track(named:)`` refuses a name that would be promoted
/// (``perfettoPromotes(_:)``): the order added is the order shown in
/// Perfetto and in chrome://tracing (which follows `thread_sort_index`).
///
/// ```swift
/// var trace = ChromeTrace()
/// let vsync = trace.track(named: "vsync")
/// let digitizer = trace.track(named: "Multi-Touch")
/// let app = trace.track(named: "App")
/// let scan = trace.slice(digitizer, name: "scan", startNs: 0, durationNs: 16_666_667)
/// let handler = trace.slice(app, name: "touch handler", startNs: 16_666_667, durationNs: 8_000_000,
///                           args: ["samples": 1, "phase": "moved"])
/// trace.instant(vsync, name: "vsync", atNs: 16_666_667)
/// trace.counter("buffers", atNs: 0, values: ["in use": 2])
/// trace.flow(id: 1, through: [scan, handler])
/// try AtomicFile.write(trace.json(), to: url)
/// ```
public struct ChromeTrace: Sendable {
    /// A track (a thread in the trace viewer).
    public struct TrackID: Hashable, Sendable {
        /// The thread id written as `tid` (`pid + 1` for the first track).
        public let tid: Int
    }

    /// A slice added to the trace, for ``flow(id:name:through:)``.
    public struct SliceRef: Hashable, Sendable {
        /// The section it was added to (``section(_:)``) and its place there.
        let section: Int32
        let index: Int
    }

    /// The process id written as `pid`.
    public let pid: Int
    /// The process name shown by the viewer.
    public let processName: String
    /// The category written as `cat` on slices, instants and counters.
    public let category: String
    /// The tracks' names in the order written: by group
    /// (``track(named:group:)``), then in the order added; track k of
    /// that order has tid `pid + 1 + k`.
    public var trackNames: [String] { trackOrder.map { added[$0].name } }
    /// The tracks in the order added, with their groups.
    private var added: [(name: String, group: Int)] = []
    /// The order written, as places in ``added``.
    private var trackOrder: [Int] {
        added.indices.sorted { (added[$0].group, $0) < (added[$1].group, $1) }
    }
    /// The events of each section in the order added, each encoded as one
    /// record (``EventRecord``): in memory up to a limit, the rest in a
    /// spill file, so a long run's trace does not hold its events in
    /// memory. The file lists section 0's events, then section 1's, ...
    private var stores: [RecordLog]
    /// The section events are added to.
    private var current = 0
    private let memoryLimit: Int
    /// Each slice's place in a flow, by section and event: in memory until
    /// settled (``settleMarks(section:below:)``), then written in event
    /// order to a record log (in memory up to a few KiB, the rest
    /// spilled), so a long trace's flows take no memory that grows with it.
    private var flowMarks: [MarkWindow] = [MarkWindow()]
    private var settledMarks: [RecordLog?] = [nil]
    /// A flow that reached a slice whose marks were settled.
    private var flowFailure: LatsimError?
    /// Where settled events go as the run goes, when set (a trace made as
    /// its run goes, ``SettledEvents``): a section's events, once their
    /// flows are settled, leave the trace with their marks.
    var settledEvents: SettledEvents?
    /// The counter series handed with the last settled events.
    private var seriesHanded = 0
    /// The counter series ("display buffers in use"), in order of first sample.
    private(set) var counterSeries: [String] = []
    private var counterSeriesSeen: Set<Series> = []
    /// The number of events added so far (metadata not counted).
    public var eventCount: Int { stores.reduce(0) { $0 + $1.count } }
    /// The sections made so far (``section(_:)``).
    var sectionCount: Int { stores.count }
    /// The events added to section `k` so far.
    func count(inSection k: Int) -> Int { k < stores.count ? stores[k].count : 0 }

    /// A slice's place in a flow: the flow's id and name, and whether the
    /// flow comes in (`flow_in`: not its first slice) and goes on
    /// (`flow_out`: not its last).
    struct FlowMark {
        var id: UInt64
        var name: String
        var flowIn, flowOut: Bool
    }

    /// The bytes of encoded events held in memory before they go to a spill file.
    public static let memoryLimit = 4 << 20

    /// An empty trace for one process; events past `memoryLimit` bytes
    /// (encoded) go to a spill file (``SpillFile``).
    public init(processName: String = "latsim", pid: Int = 1, category: String = "latsim", memoryLimit: Int = ChromeTrace.memoryLimit) {
        self.processName = processName
        self.pid = pid
        self.category = category
        self.memoryLimit = memoryLimit
        stores = [RecordLog(memoryLimit: memoryLimit)]
    }

    /// True once events went to a spill file.
    var spilled: Bool { stores.contains(where: \.spilled) }

    /// Adds the events that follow to section `k`: the file holds section
    /// 0's events (in the order added), then section 1's, and so on. A
    /// trace made as a run goes adds each kind of event to its section
    /// and comes out as if every event of one kind had been added before
    /// any of the next. Each section past the first holds an eighth of
    /// the trace's memory limit before it spills.
    public mutating func section(_ k: Int) {
        precondition(k >= 0 && k < 1 << 16, "a section from 0 to 65535")
        while stores.count <= k {
            stores.append(RecordLog(memoryLimit: max(256, memoryLimit / 8)))
            flowMarks.append(MarkWindow())
            settledMarks.append(nil)
        }
        current = k
    }

    /// True when Perfetto's UI would lift a thread of this name above the
    /// others of its process (it sorts `*RenderThread*` and `*GPU
    /// completion*` threads and Chrome's main, IO and compositor threads
    /// before the rest, then by tid).
    public static func perfettoPromotes(_ name: String) -> Bool {
        let exact: Set<String> = ["CrBrowserMain", "CrRendererMain", "CrGpuMain", "Chrome_ChildIOThread", "Chrome_IOThread",
                                  "Compositor", "VizCompositorThread"]
        return exact.contains(name) || name.contains("RenderThread") || name.contains("GPU completion")
    }

    /// Adds a track; tracks are shown in the order they were added, those
    /// of a higher `group` after every track of lower groups whenever they
    /// were added (a trace made as a run goes adds its tracks as they are
    /// needed). A name that Perfetto would promote (``perfettoPromotes(_:)``)
    /// is a programming error.
    public mutating func track(named name: String, group: Int = 0) -> TrackID {
        precondition(!Self.perfettoPromotes(name), "Perfetto would show a thread named \(name) out of order")
        added.append((name, group))
        return TrackID(tid: pid + added.count)
    }

    /// Encodes one event and appends it to the store.
    private mutating func add(phase: UInt8, ts: SimTime, dur: SimTime?, tid: Int?, name: TraceName, color: String?,
                              args: TraceArgs) {
        if !isKnownUniquelyReferenced(&stores[current]) { stores[current] = stores[current].copy() }
        stores[current].append { EventRecord.encode(phase: phase, ts: ts, dur: dur, tid: tid, name: name, color: color, args: args, into: &$0) }
    }

    /// A span of work on a track (an `X` complete event); `color` is one of
    /// the trace viewers' reserved colour names (`cname`: `good`, `bad`,
    /// `terrible`, `yellow`, `olive`, `grey`, ...).
    @discardableResult
    public mutating func slice(_ track: TrackID, name: TraceName, startNs: SimTime, durationNs: SimTime,
                               args: TraceArgs = [:], color: String? = nil) -> SliceRef {
        add(phase: EventRecord.slice, ts: startNs, dur: max(0, durationNs), tid: track.tid, name: name, color: color, args: args)
        return SliceRef(section: Int32(current), index: stores[current].count - 1)
    }

    /// An instant on a track (a thread-scoped `i` event).
    public mutating func instant(_ track: TrackID, name: TraceName, atNs: SimTime, args: TraceArgs = [:]) {
        add(phase: EventRecord.instant, ts: atNs, dur: nil, tid: track.tid, name: name, color: nil, args: args)
    }

    /// A counter sample: each key of `values` is one series of the counter
    /// named `name` (e.g. "buffers" with ["in use": 3]; Perfetto names the
    /// series "buffers in use"). Non-finite values are left out.
    public mutating func counter(_ name: String, atNs: SimTime, values: [String: Double]) {
        var args: TraceArgs = [:]
        for (key, value) in values where value.isFinite { args.pairs.append((key, .number(value))) }
        // a series is named once, when first seen (no text made for a series seen before)
        if args.count > 0 && !args.pairs.allSatisfy({ counterSeriesSeen.contains(Self.Series(counter: name, key: $0.0)) }) {
            for key in args.pairs.map(\.0).sorted() where counterSeriesSeen.insert(Self.Series(counter: name, key: key)).inserted {
                counterSeries.append("\(name) \(key)")
            }
        }
        add(phase: EventRecord.counter, ts: atNs, dur: nil, tid: nil, name: TraceName(name), color: nil, args: args)
    }

    /// A counter's series, as ``counterSeries`` names it.
    struct Series: Hashable {
        var counter: String
        var key: String
    }

    /// A flow: arrows joining `slices` in order, carried by the slices
    /// themselves (each also gets the flow's `name` as its `flow` arg) (`bind_id`, `flow_out` on the first, `flow_in` on the
    /// last, both on the ones between). The slices should start in
    /// increasing time (viewers read the trace in time order). A slice
    /// carries one flow: when one of `slices` is already in a flow, or
    /// fewer than two are given, nothing is added and the result is false.
    /// `id` must be unique among this trace's flows.
    @discardableResult
    public mutating func flow(id: UInt64, name: String = "touch", through slices: [SliceRef]) -> Bool {
        // a handful of slices: each compared with those before it
        guard slices.count >= 2, !slices.indices.contains(where: { i in slices[..<i].contains(slices[i]) }) else { return false }
        for s in slices where s.index < flowMarks[Int(s.section)].base {
            flowFailure = flowFailure ?? LatsimError(.internal, problem: "flow \(id) joins a slice whose flows were settled")
            return false
        }
        guard !slices.contains(where: { flowMarks[Int($0.section)][$0.index] != nil }) else { return false }
        for (i, s) in slices.enumerated() {
            flowMarks[Int(s.section)][s.index] = FlowMark(id: id, name: name, flowIn: i > 0, flowOut: i < slices.count - 1)
        }
        return true
    }

    /// Settles section `k`'s flows on the events before `below` (a trace
    /// made as its run goes calls it for slices no flow can reach any
    /// more): their marks go to the section's settled log, in event order
    /// (varint place, flags 2 in and 1 out, varint id, the name's length
    /// and bytes), and a flow through one of those events is an internal
    /// error, thrown when the trace is written.
    /// Marks are settled 8,192 events at a time at least (512 when they go
    /// to ``settledEvents``; `force` for any number), so a stream reading
    /// its log often moves its window of marks rarely.
    mutating func settleMarks(section k: Int, below: Int, force: Bool = false) {
        // events handed over as the run goes go in smaller chunks: their
        // packets come to the sort in nearly the order of time
        let least = settledEvents == nil ? 8_192 : 512
        guard k < stores.count, below > flowMarks[k].base, force || below - flowMarks[k].base >= least else { return }
        if let settledEvents { return handOff(section: k, below: below, to: settledEvents) }
        if flowMarks[k].hasMarks(below: below) {
            if settledMarks[k] == nil { settledMarks[k] = RecordLog(memoryLimit: 16 << 10) }
            if !isKnownUniquelyReferenced(&settledMarks[k]!) { settledMarks[k] = settledMarks[k]!.copy() }
        }
        var bytes: [UInt8] = []
        let settled = settledMarks[k]
        flowMarks[k].settle(below: below) { index, m in
            bytes.removeAll(keepingCapacity: true)
            ProtoBytes.varint(UInt64(index), into: &bytes)
            bytes.append((m.flowIn ? 2 : 0) | (m.flowOut ? 1 : 0))
            ProtoBytes.varint(m.id, into: &bytes)
            ProtoBytes.varint(UInt64(m.name.utf8.count), into: &bytes)
            bytes.append(contentsOf: m.name.utf8)
            bytes.withUnsafeBytes { settled!.append($0) }
        }
    }

    /// Hands section `k`'s events before `below` (its first events held)
    /// and their marks to `settled`; the counter series too when there are
    /// new ones.
    private mutating func handOff(section k: Int, below: Int, to settled: SettledEvents) {
        let chunk = EventChunk(section: k, first: stores[k].taken, count: below - stores[k].taken)
        do {
            try stores[k].take(chunk.count, into: &chunk.records)
        } catch {
            chunk.failure = error
        }
        flowMarks[k].settle(below: below) { index, m in chunk.marks.append((index, m)) }
        if counterSeries.count > seriesHanded {
            chunk.counterSeries = counterSeries
            seriesHanded = counterSeries.count
        }
        settled.add(chunk)
    }

    /// ``tidMap``, once the settled events (``settledEvents``) are all
    /// written, and checked against them: their tracks, written with the
    /// tids they were added with, must keep their places.
    func settledTIDs() throws -> [Int]? {
        let map = tidMap
        guard let settledEvents else { return map }
        try settledEvents.drain()
        if let map, settledEvents.largestTID > pid,
           let moved = (pid + 1...settledEvents.largestTID).first(where: { writtenTID($0, map) != $0 }) {
            throw LatsimError(.internal, problem: "track \(moved) moved after its events were written as the run went")
        }
        return map
    }

    /// Event `j` of section `k`'s place among all events, for ordering:
    /// increasing with the section, then with the event (the order of
    /// ``forEachEvent(_:)``) whatever the sections' sizes.
    static func eventIndex(section k: Int, _ j: Int) -> Int64 { Int64(k) << 40 | Int64(j) }

    /// The tid an event of track `tid` (as added) is written with, given
    /// `map` (the written tids of tracks written in another order than
    /// added, by place added; nil when every track keeps its place).
    func writtenTID(_ tid: Int?, _ map: [Int]?) -> Int? {
        guard let map, let t = tid, t > pid, t - pid - 1 < map.count else { return tid }
        return map[t - pid - 1]
    }

    /// The written tid of each track by place added, when some track is
    /// written in another place than added.
    var tidMap: [Int]? {
        let order = trackOrder
        guard order != Array(order.indices) else { return nil }
        var map = [Int](repeating: 0, count: order.count)
        for (k, i) in order.enumerated() { map[i] = pid + 1 + k }
        return map
    }

    /// Calls `body` with each event held in the order added, its place in
    /// a flow, if any, and its ``eventIndex(section:_:)``.
    func forEachEvent(_ body: (EventRecord, FlowMark?, Int64) throws -> Void) throws {
        let tid = try settledTIDs()
        for k in stores.indices { try forEachEvent(section: k, tids: tid, body) }
    }

    /// ``forEachEvent(_:)`` for section `k`'s events.
    func forEachEvent(section k: Int, tids: [Int]? = nil, _ body: (EventRecord, FlowMark?, Int64) throws -> Void) throws {
        if let flowFailure { throw flowFailure }
        let tid = tids ?? tidMap
        // the settled marks, then those in memory, in event order
        var settled = try settledMarks[k]?.cursor()
        func nextSettled() throws -> (index: Int, mark: FlowMark)? {
            try settled?.next { b in
                var at = 0
                let index = Int(ProtoBytes.readVarint(b, &at))
                let flags = b[at]
                at += 1
                let id = ProtoBytes.readVarint(b, &at)
                let n = Int(ProtoBytes.readVarint(b, &at))
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: b[at..<(at + n)]), as: UTF8.self)
                return (index, FlowMark(id: id, name: name, flowIn: flags & 2 != 0, flowOut: flags & 1 != 0))
            }
        }
        var pendingSettled = try nextSettled()
        let recent = flowMarks[k]
        let store = stores[k]
        var index = store.taken
        try store.forEach { bytes in
            var mark: FlowMark?
            if let p = pendingSettled, p.index == index {
                mark = p.mark
                pendingSettled = try nextSettled()
            } else {
                mark = recent[index]
            }
            var e = EventRecord(bytes)
            e.tid = writtenTID(e.tid, tid)
            try body(e, mark, Self.eventIndex(section: k, index))
            index += 1
        }
    }

    /// The events decoded, in the order added (for tests: a long trace's
    /// events are read back from its spill file whole).
    var events: [Event] {
        var all: [Event] = []
        try! forEachEvent { r, mark, _ in
            var e = Event(name: r.nameText, category: category, phase: String(UnicodeScalar(r.phase)), ts: r.ts)
            e.dur = r.dur
            e.tid = r.tid
            if r.phase == EventRecord.instant { e.scope = "t" }
            e.color = r.color.map { String(decoding: $0, as: UTF8.self) }
            r.forEachArg { key, value in e.args[String(decoding: key, as: UTF8.self)] = value.traceValue }
            if let mark {
                let f = mark
                e.bindID = f.id
                e.flowIn = mark.flowIn
                e.flowOut = mark.flowOut
                e.flowName = f.name
            }
            all.append(e)
        }
        return all
    }

    /// The trace as UTF-8 JSON text (what ``writeJSON(to:)`` writes).
    public func json() -> Data {
        let sink = ByteSink.memory()
        try! writeJSON(to: sink)  // a memory sink does not fail
        return sink.bytes
    }

    /// Writes the JSON text element by element: memory bounded by the
    /// sink's buffer, whatever the number of events.
    public func writeJSON(to sink: ByteSink) throws {
        try sink.write("{\"traceEvents\":[\n")
        var first = true
        func line(_ text: String) throws {
            try sink.write(first ? text : ",\n" + text)
            first = false
        }
        try line(Self.metadata("process_name", pid: pid, tid: nil, key: "name", value: .string(processName)))
        try line(Self.metadata("process_sort_index", pid: pid, tid: nil, key: "sort_index", value: .integer(0)))
        for (i, name) in trackNames.enumerated() {
            try line(Self.metadata("thread_name", pid: pid, tid: pid + 1 + i, key: "name", value: .string(name)))
            try line(Self.metadata("thread_sort_index", pid: pid, tid: pid + 1 + i, key: "sort_index", value: .integer(Int64(i))))
        }
        let tids = try settledTIDs()
        if let settled = settledEvents as? SettledJSON {
            try settled.writeEvents(of: self, tids: tids, to: sink)
            return try sink.write("\n],\n\"displayTimeUnit\":\"ms\"}\n")
        }
        var out = JSONBytes()
        let text = JSONEventText(self)
        for k in stores.indices {
            try forEachEvent(section: k, tids: tids) { r, mark, _ in
                text.write(r, mark: mark, into: &out)
                if out.count >= 1 << 16 { try out.flush(to: sink) }
            }
        }
        try out.flush(to: sink)
        try sink.write("\n],\n\"displayTimeUnit\":\"ms\"}\n")
    }

    /// Writes the JSON to `url` atomically, streamed.
    public func write(to url: URL) throws {
        try OutputDestination.stream(to: url.path) { try writeJSON(to: $0) }
    }

    /// An `M` metadata event.
    private static func metadata(_ name: String, pid: Int, tid: Int?, key: String, value: TraceValue) -> String {
        var s = "{\"name\":\(JSONText.string(name)),\"ph\":\"M\",\"ts\":0,\"pid\":\(pid)"
        if let tid { s += ",\"tid\":\(tid)" }
        s += ",\"args\":{\(JSONText.string(key)):\(JSONText.value(value))}}"
        return s
    }

    /// The fields of one event, as ``events`` reads them back.
    struct Event: Sendable {
        var name: String
        var category: String
        var phase: String
        var ts: SimTime
        var dur: SimTime?
        var tid: Int?
        var bindID: UInt64?
        var flowIn = false, flowOut = false
        var flowName: String?
        var scope: String?
        var color: String?
        var args: [String: TraceValue] = [:]

        init(name: String, category: String, phase: String, ts: SimTime) {
            self.name = name
            self.category = category
            self.phase = phase
            self.ts = ts
        }

        /// The args as written: the given ones and the flow's name.
        var allArgs: [String: TraceValue] {
            var all = args
            if let flowName { all["flow"] = .string(flowName) }
            return all
        }
    }
}

/// One trace event as ``ChromeTrace`` keeps it: a record of bytes read in
/// place. The layout: the phase (`X`, `i` or `C`); the time and, for a
/// slice, the duration (zigzag varints); the thread id (a varint, 0 for
/// none); the name (length and UTF-8 bytes); for a slice the colour (its
/// length plus one, 0 for none, then its bytes); the args' count and each
/// arg in key order: the key, a type byte (0 text, 1 integer, 2 number)
/// and the value (text; a zigzag varint; a double's 8 bytes).
struct EventRecord {
    static let slice = UInt8(ascii: "X"), instant = UInt8(ascii: "i"), counter = UInt8(ascii: "C")

    /// An arg's value, its text read in place.
    enum Value {
        case string(UnsafeRawBufferPointer), integer(Int64), number(Double)

        var traceValue: TraceValue {
            switch self {
            case .string(let b): return .string(String(decoding: b, as: UTF8.self))
            case .integer(let n): return .integer(n)
            case .number(let x): return .number(x)
            }
        }
    }

    let phase: UInt8
    let ts: SimTime
    let dur: SimTime?
    var tid: Int?
    let name: UnsafeRawBufferPointer
    let color: UnsafeRawBufferPointer?
    private let bytes: UnsafeRawBufferPointer
    private let argsAt: Int

    var nameText: String { String(decoding: name, as: UTF8.self) }

    static func encode(phase: UInt8, ts: SimTime, dur: SimTime?, tid: Int?, name: TraceName, color: String?,
                       args: TraceArgs, into out: inout RawBytes) {
        out.append(phase)
        ProtoBytes.varint(ProtoBytes.zigzag(ts), into: &out)
        if phase == slice { ProtoBytes.varint(ProtoBytes.zigzag(dur ?? 0), into: &out) }
        ProtoBytes.varint(UInt64(tid ?? 0), into: &out)
        name.write(into: &out)
        if phase == slice {
            if let color {
                ProtoBytes.varint(UInt64(color.utf8.count + 1), into: &out)
                bytes(color) { out.append($0) }
            } else {
                out.append(0)
            }
        }
        ProtoBytes.varint(UInt64(args.count), into: &out)
        // in key order: an insertion sort of the pairs' places (an event has
        // a few args; the pairs are not copied), keys compared by their
        // UTF-8 bytes, the order of their scalars (as a String compares
        // text in normal form; the keys are ASCII)
        let pairs = args.pairs
        var order = (UInt64(0), UInt64(0))  // up to 16 places, a byte each
        let places = pairs.count
        func precedes(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
        func write(_ pair: (String, TraceValue)) {
            let (key, value) = pair
            text(key, into: &out)
            switch value {
            case .string(let s):
                out.append(0)
                text(s, into: &out)
            case .integer(let n):
                out.append(1)
                ProtoBytes.varint(ProtoBytes.zigzag(n), into: &out)
            case .number(let x):
                out.append(2)
                withUnsafeBytes(of: x.bitPattern.littleEndian) { out.append($0) }
            }
        }
        guard places > 1 else {
            if places == 1 { write(pairs[0]) }
            return
        }
        guard places <= 16 else {
            for pair in pairs.sorted(by: { precedes($0.0, $1.0) }) { write(pair) }
            return
        }
        withUnsafeMutableBytes(of: &order) { o in
            for i in 0..<places {
                var j = i
                while j > 0 && precedes(pairs[i].0, pairs[Int(o[j - 1])].0) {
                    o[j] = o[j - 1]
                    j -= 1
                }
                o[j] = UInt8(i)
            }
        }
        withUnsafeBytes(of: &order) { o in
            for k in 0..<places { write(pairs[Int(o[k])]) }
        }
    }

    /// Calls `body` with the UTF-8 bytes of `s` (in place when it is
    /// stored as UTF-8, as Swift's own strings are).
    @inline(__always) private static func bytes(_ s: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        if s.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) != nil { return }
        var s = s
        s.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// `s` as a record's text: its length (a varint) and its UTF-8 bytes.
    static func text(_ s: String, into out: inout RawBytes) {
        bytes(s) { b in
            ProtoBytes.varint(UInt64(b.count), into: &out)
            out.append(b)
        }
    }

    init(_ b: UnsafeRawBufferPointer) {
        bytes = b
        var at = 1
        phase = b[0]
        ts = ProtoBytes.unzigzag(ProtoBytes.readVarint(b, &at))
        dur = phase == Self.slice ? ProtoBytes.unzigzag(ProtoBytes.readVarint(b, &at)) : nil
        let t = Int(ProtoBytes.readVarint(b, &at))
        tid = t == 0 ? nil : t
        name = Self.readText(b, &at)
        if phase == Self.slice {
            let n = Int(ProtoBytes.readVarint(b, &at))
            if n == 0 {
                color = nil
            } else {
                color = UnsafeRawBufferPointer(rebasing: b[at..<(at + n - 1)])
                at += n - 1
            }
        } else {
            color = nil
        }
        argsAt = at
    }

    private static func readText(_ b: UnsafeRawBufferPointer, _ at: inout Int) -> UnsafeRawBufferPointer {
        let n = Int(ProtoBytes.readVarint(b, &at))
        defer { at += n }
        return UnsafeRawBufferPointer(rebasing: b[at..<(at + n)])
    }

    /// The number of args.
    var argCount: Int {
        var at = argsAt
        return Int(ProtoBytes.readVarint(bytes, &at))
    }

    /// Calls `body` with each arg in key order; with `flowName`, also the
    /// `flow` arg naming the flow, in its place (it replaces an arg of that name).
    func forEachArg(flowName: String? = nil, _ body: (UnsafeRawBufferPointer, Value) throws -> Void) rethrows {
        var at = argsAt
        let count = Int(ProtoBytes.readVarint(bytes, &at))
        var flowName = flowName
        func flowArg() throws {
            guard var name = flowName else { return }
            flowName = nil
            try name.withUTF8 { n in
                let key: StaticString = "flow"
                try body(UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), .string(UnsafeRawBufferPointer(n)))
            }
        }
        for _ in 0..<count {
            let key = Self.readText(bytes, &at)
            let type = bytes[at]
            at += 1
            let value: Value
            switch type {
            case 0: value = .string(Self.readText(bytes, &at))
            case 1: value = .integer(ProtoBytes.unzigzag(ProtoBytes.readVarint(bytes, &at)))
            default:
                value = .number(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self))))
                at += 8
            }
            if flowName != nil {
                // keys are ASCII: their bytes sort as the text does
                if key.elementsEqual("flow".utf8) { continue }  // the flow's name replaces it
                if "flow".utf8.lexicographicallyPrecedes(key) { try flowArg() }
            }
            try body(key, value)
        }
        try flowArg()
    }
}

/// Protocol-buffer varints, also used by ``EventRecord``.
enum ProtoBytes {
    @inline(__always) static func varint(_ v: UInt64, into out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    @inline(__always) static func varint(_ v: UInt64, into out: inout RawBytes) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    @inline(__always) static func varintSize(_ v: UInt64) -> Int {
        var n = 1, v = v
        while v >= 0x80 { n += 1; v >>= 7 }
        return n
    }

    @inline(__always) static func zigzag(_ n: Int64) -> UInt64 { UInt64(bitPattern: (n << 1) ^ (n >> 63)) }
    @inline(__always) static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }

    @inline(__always) static func readVarint(_ b: UnsafeRawBufferPointer, _ at: inout Int) -> UInt64 {
        var v: UInt64 = 0, shift: UInt64 = 0
        while true {
            let byte = b[at]
            at += 1
            v |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return v }
            shift += 7
        }
    }
}

/// JSON text written as bytes, with the escaping and number forms of
/// ``JSONText``.
struct JSONBytes: ~Copyable {
    private var raw = RawBytes(capacity: 1 << 17)
    /// The bytes gathered since the last ``flush(to:)``.
    var count: Int { raw.count }

    mutating func append(_ byte: UInt8) { raw.append(byte) }

    mutating func append(_ b: UnsafeRawBufferPointer) { raw.append(b) }

    mutating func append(_ a: [UInt8]) { a.withUnsafeBytes { append($0) } }

    /// The bytes gathered, as text.
    var text: String { String(decoding: raw.bytes, as: UTF8.self) }

    /// The bytes gathered (valid until the next change).
    var bytes: UnsafeRawBufferPointer { raw.bytes }

    /// Forgets the bytes gathered, keeping the memory.
    mutating func removeAll() { raw.removeAll() }

    mutating func literal(_ s: StaticString) {
        append(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Text made at run time (a literal goes to ``literal(_:)``, which
    /// copies its bytes at once).
    mutating func text(_ s: String) {
        var s = s
        s.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// A string literal of the UTF-8 text `b`.
    mutating func string(_ b: UnsafeRawBufferPointer) {
        if Self.needsEscapes(b) {
            text(JSONText.string(String(decoding: b, as: UTF8.self)))
            return
        }
        append(UInt8(ascii: "\""))
        append(b)
        append(UInt8(ascii: "\""))
    }

    /// True when `b` holds a byte a JSON string must escape (a control
    /// character, `"` or `\`): eight bytes at a time, with the bit tests
    /// for a byte below a bound and for a zero byte (Anderson's "Bit
    /// Twiddling Hacks", "Determine if a word has a byte less than n"),
    /// the rest one by one.
    static func needsEscapes(_ b: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZero(_ v: UInt64) -> Bool { (v &- ones) & ~v & highs != 0 }
        var at = 0
        while at + 8 <= b.count {
            let w = b.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            if (w &- ones &* 0x20) & ~w & highs != 0 || hasZero(w ^ (ones &* 0x22)) || hasZero(w ^ (ones &* 0x5C)) { return true }
            at += 8
        }
        while at < b.count {
            let c = b[at]
            if c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") { return true }
            at += 1
        }
        return false
    }

    mutating func integer(_ n: Int64) {
        if n < 0 { append(UInt8(ascii: "-")) }
        decimal(n.magnitude)
    }

    /// ``JSONText/microseconds(_:)``, as bytes.
    mutating func microseconds(_ ns: SimTime) {
        if ns < 0 { append(UInt8(ascii: "-")) }
        let magnitude = ns.magnitude
        decimal(magnitude / 1000)
        var fraction = Int(magnitude % 1000)
        guard fraction != 0 else { return }
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        append(UInt8(ascii: "."))
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// `n`'s decimal digits (``RawBytes/appendDecimal(_:)``).
    mutating func decimal(_ n: UInt64) { raw.appendDecimal(n) }

    mutating func value(_ v: EventRecord.Value) {
        switch v {
        case .string(let b): string(b)
        case .integer(let n): integer(n)
        case .number(let x): number(x)
        }
    }

    /// ``formatDecimal(_:places:fixed:)`` with 6 places, as bytes (`null`
    /// when not finite): its two common cases, an integer and a number
    /// whose millionths are exact below 2^52, are written here digit by
    /// digit; the others go to it.
    mutating func number(_ x: Double) {
        guard x.isFinite else { literal("null"); return }
        if Swift.abs(x) * 1e6 < 9_007_199_254_740_992 {
            let m = (x * 1e6).rounded()
            let r = m / 1e6
            if r == r.rounded() && Swift.abs(r) < 1e15 {
                integer(Int64(r))
                return
            }
            if Swift.abs(m) < 4_503_599_627_370_496 {
                let u = UInt64(Swift.abs(m))
                if m < 0 { append(UInt8(ascii: "-")) }
                decimal(u / 1_000_000)
                var fraction = u % 1_000_000, digits = 6  // not 0: r is not an integer
                while fraction != 0 && fraction % 10 == 0 { fraction /= 10; digits -= 1 }
                append(UInt8(ascii: "."))
                var divisor: UInt64 = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
                    divisor /= 10
                }
                return
            }
        }
        text(formatDecimal(x, places: 6))
    }

    mutating func flush(to sink: ByteSink) throws {
        try sink.write(raw.bytes)
        raw.removeAll()
    }
}

/// JSON text pieces written by hand, for a stable byte-for-byte output.
enum JSONText {
    /// `ns` as microseconds: the integer part, then up to three decimals
    /// with trailing zeros removed (exact; no floating point involved).
    static func microseconds(_ ns: SimTime) -> String {
        let negative = ns < 0
        let magnitude = ns.magnitude
        var s = String(magnitude / 1000)
        var fraction = Int(magnitude % 1000)
        if fraction != 0 {
            var digits = 3
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let text = String(fraction)
            s += "." + String(repeating: "0", count: digits - text.count) + text
        }
        return negative ? "-" + s : s
    }

    /// A JSON string literal (``JSONValue``'s escaping).
    static func string(_ text: String) -> String {
        var out = ""
        JSONValue.quote(text, into: &out)
        return out
    }

    /// A JSON value; non-finite numbers become `null`.
    static func value(_ value: TraceValue) -> String {
        switch value {
        case .string(let s): return string(s)
        case .integer(let n): return String(n)
        case .number(let x): return x.isFinite ? formatDecimal(x, places: 6) : "null"
        }
    }
}

/// Numbers looked up by a key that counts up from 0, such as a scan's
/// index or a frame's number: 4 bytes a key in an array where a dictionary
/// takes about 40, for the tables of a long run's trace. A key that would
/// leave the array mostly empty (past four times the values set, plus
/// 65,536) or a negative one goes to a dictionary.
struct DenseIndex {
    private var slots: [UInt32] = []  // the value plus one; 0 for none
    private var others: [Int64: Int] = [:]
    private var stored = 0

    subscript(key: Int64) -> Int? {
        get {
            if key >= 0 && key < Int64(slots.count), slots[Int(key)] != 0 { return Int(slots[Int(key)]) - 1 }
            return others.isEmpty ? nil : others[key]
        }
        set {
            guard key >= 0, key < Int64(max(slots.count, 4 * (stored + 65_536))), (newValue ?? 0) < Int(UInt32.max) - 1 else {
                others[key] = newValue
                return
            }
            if key >= Int64(slots.count) { slots.append(contentsOf: repeatElement(0, count: Int(key) - slots.count + 1)) }
            if newValue != nil { stored += 1 }
            slots[Int(key)] = newValue.map { UInt32($0 + 1) } ?? 0
            if !others.isEmpty { others[key] = nil }
        }
    }
}

/// The slices a flow may pass through, by a key that counts up (a frame,
/// a sample), for a trace made as its run goes: the keys from the oldest
/// a flow can still reach are held in an array, the rest forgotten
/// (``forget(below:)``); a key out of order is kept on the side.
struct SliceWindow {
    private var base: Int64 = 0
    private var slots: [ChromeTrace.SliceRef?] = []
    private var others: [Int64: ChromeTrace.SliceRef] = [:]

    subscript(key: Int64) -> ChromeTrace.SliceRef? {
        get {
            let i = key &- base
            if i >= 0 && i < Int64(slots.count), let ref = slots[Int(i)] { return ref }
            return others.isEmpty ? nil : others[key]
        }
        set {
            if slots.isEmpty && others.isEmpty { base = key }
            let i = key &- base
            guard i >= 0, i < Int64(slots.count) + 65_536 else {
                others[key] = newValue
                return
            }
            if i >= Int64(slots.count) { slots.append(contentsOf: repeatElement(nil, count: Int(i) - slots.count + 1)) }
            slots[Int(i)] = newValue
        }
    }

    /// The earliest event among the slices held: no flow through this
    /// table reaches an event before it (nil when none is held).
    var earliest: Int? {
        var first: Int?
        for case let ref? in slots { first = min(first ?? ref.index, ref.index) }
        for ref in others.values { first = min(first ?? ref.index, ref.index) }
        return first
    }

    /// Forgets the slices of keys below `key`.
    mutating func forget(below key: Int64) {
        let n = Int(min(max(0, key &- base), Int64(slots.count)))
        if n > 0 {
            slots.removeFirst(n)
            base += Int64(n)
        }
        if !others.isEmpty { others = others.filter { $0.key >= key } }
    }
}

/// A section's flow marks not yet settled, by event: the events from
/// ``base`` (those below are settled) to the last one marked, each with its
/// mark or none, so marking, settling in event order and reading back take
/// no hashing and no sorting.
struct MarkWindow {
    /// The first event not settled.
    private(set) var base = 0
    private var slots: [ChromeTrace.FlowMark?] = []

    /// The mark on event `index` (an event at or past ``base``).
    subscript(index: Int) -> ChromeTrace.FlowMark? {
        get {
            let i = index - base
            return i >= 0 && i < slots.count ? slots[i] : nil
        }
        set {
            let i = index - base
            precondition(i >= 0, "a mark on a settled event")
            if i >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: i - slots.count + 1))
            }
            slots[i] = newValue
        }
    }

    /// True when an event below `below` has a mark.
    func hasMarks(below: Int) -> Bool {
        slots.prefix(max(0, below - base)).contains { $0 != nil }
    }

    /// Hands `body` each mark on an event below `below`, in event order,
    /// and forgets them: ``base`` becomes `below`.
    mutating func settle(below: Int, _ body: (Int, ChromeTrace.FlowMark) -> Void) {
        guard below > base else { return }
        let n = min(below - base, slots.count)
        for i in 0..<n {
            if let m = slots[i] { body(base + i, m) }
        }
        slots.removeFirst(n)
        base = below
    }
}

/// The slices a flow may pass through, by a key that counts up from 0
/// (``DenseIndex``).
struct SliceTable {
    private var index = DenseIndex()

    subscript(key: Int64) -> ChromeTrace.SliceRef? {
        get { index[key].map { ChromeTrace.SliceRef(section: 0, index: $0) } }
        set {
            precondition(newValue?.section ?? 0 == 0, "a table of section 0's slices")
            index[key] = newValue?.index
        }
    }
}
