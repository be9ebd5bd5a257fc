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
        let index: Int
    }

    /// The process id written as `pid`.
    public let pid: Int
    /// The process name shown by the viewer.
    public let processName: String
    /// The category written as `cat` on slices, instants and counters.
    public let category: String
    /// The tracks' names, in the order added (track k has tid `pid + 1 + k`).
    public private(set) var trackNames: [String] = []
    /// The events, in the order added.
    private(set) var events: [Event] = []

    /// An empty trace for one process.
    public init(processName: String = "latsim", pid: Int = 1, category: String = "latsim") {
        self.processName = processName
        self.pid = pid
        self.category = category
    }

    /// The number of events added so far (metadata not counted).
    public var eventCount: Int { events.count }

    /// True when Perfetto's UI would lift a thread of this name above the
    /// others of its process (it sorts `*RenderThread*` and `*GPU
    /// completion*` threads and Chrome's main, IO and compositor threads
    /// before the rest, then by tid).
    public static func perfettoPromotes(_ name: String) -> Bool {
        let exact: Set<String> = ["CrBrowserMain", "CrRendererMain", "CrGpuMain", "Chrome_ChildIOThread", "Chrome_IOThread",
                                  "Compositor", "VizCompositorThread"]
        return exact.contains(name) || name.contains("RenderThread") || name.contains("GPU completion")
    }

    /// Adds a track; tracks are shown in the order they were added. A name
    /// that Perfetto would promote (``perfettoPromotes(_:)``) is a
    /// programming error.
    public mutating func track(named name: String) -> TrackID {
        precondition(!Self.perfettoPromotes(name), "Perfetto would show a thread named \(name) out of order")
        trackNames.append(name)
        return TrackID(tid: pid + trackNames.count)
    }

    /// A span of work on a track (an `X` complete event); `color` is one of
    /// the trace viewers' reserved colour names (`cname`: `good`, `bad`,
    /// `terrible`, `yellow`, `olive`, `grey`, ...).
    @discardableResult
    public mutating func slice(_ track: TrackID, name: String, startNs: SimTime, durationNs: SimTime,
                               args: [String: TraceValue] = [:], color: String? = nil) -> SliceRef {
        var e = Event(name: name, category: category, phase: "X", ts: startNs)
        e.dur = max(0, durationNs)
        e.tid = track.tid
        e.args = args
        e.color = color
        events.append(e)
        return SliceRef(index: events.count - 1)
    }

    /// An instant on a track (a thread-scoped `i` event).
    public mutating func instant(_ track: TrackID, name: String, atNs: SimTime, args: [String: TraceValue] = [:]) {
        var e = Event(name: name, category: category, phase: "i", ts: atNs)
        e.tid = track.tid
        e.scope = "t"
        e.args = args
        events.append(e)
    }

    /// A counter sample: each key of `values` is one series of the counter
    /// named `name` (e.g. "buffers" with ["in use": 3]; Perfetto names the
    /// series "buffers in use"). Non-finite values are left out.
    public mutating func counter(_ name: String, atNs: SimTime, values: [String: Double]) {
        var e = Event(name: name, category: category, phase: "C", ts: atNs)
        e.args = values.filter { $0.value.isFinite }.mapValues { .number($0) }
        events.append(e)
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
        guard slices.count >= 2, Set(slices).count == slices.count,
              slices.allSatisfy({ events[$0.index].bindID == nil }) else { return false }
        for (i, s) in slices.enumerated() {
            events[s.index].bindID = id
            events[s.index].flowIn = i > 0
            events[s.index].flowOut = i < slices.count - 1
            events[s.index].flowName = name
        }
        return true
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
        for e in events { try line(e.json(pid: pid)) }
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

    /// The fields of one event, written in a fixed order.
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

        func json(pid: Int) -> String {
            var s = "{\"name\":\(JSONText.string(name)),\"cat\":\(JSONText.string(category)),\"ph\":\"\(phase)\""
            s += ",\"ts\":\(JSONText.microseconds(ts))"
            if let dur { s += ",\"dur\":\(JSONText.microseconds(dur))" }
            s += ",\"pid\":\(pid)"
            if let tid { s += ",\"tid\":\(tid)" }
            if let bindID {
                s += ",\"bind_id\":\(bindID)"
                if flowIn { s += ",\"flow_in\":true" }
                if flowOut { s += ",\"flow_out\":true" }
            }
            if let scope { s += ",\"s\":\"\(scope)\"" }
            if let color { s += ",\"cname\":\(JSONText.string(color))" }
            let args = allArgs
            if !args.isEmpty {
                let fields = args.keys.sorted().map { "\(JSONText.string($0)):\(JSONText.value(args[$0]!))" }
                s += ",\"args\":{" + fields.joined(separator: ",") + "}"
            }
            return s + "}"
        }
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
