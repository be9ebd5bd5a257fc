import Foundation
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
/// Every track is a thread of one process (named "latsim" by default),
/// ordered as created. Times are given in simulated nanoseconds and written
/// as `ts`/`dur` in microseconds with up to three decimals (16_666_667 ns is
/// `16666.667`), so nothing is rounded. The output is a JSON object
/// `{"traceEvents": [...], "displayTimeUnit": "ms"}` written by hand with a
/// fixed key order: the same calls give byte-identical files.
///
/// Events used (see the format's documentation): `M` metadata for process
/// and thread names and sort order, `X` complete events for slices, `i`
/// instant events (thread- or global-scoped), `C` counters, and `s`/`t`/`f`
/// flow events with binding point `"bp": "e"` so each arrow attaches to
/// the slice enclosing its timestamp on its track.
///
/// ```swift
/// var trace = ChromeTrace()
/// let digitizer = trace.track(named: "Multi-Touch")
/// let app = trace.track(named: "App")
/// trace.slice(digitizer, name: "scan", startNs: 0, durationNs: 16_666_667)
/// trace.slice(app, name: "touch handler", startNs: 16_666_667, durationNs: 8_000_000,
///             args: ["samples": 1, "phase": "moved"])
/// trace.instant(nil, name: "vsync", atNs: 16_666_667)
/// trace.counter("buffers", atNs: 0, values: ["in use": 2])
/// trace.flow(id: 1, steps: [(digitizer, 8_333_333), (app, 20_000_000)])
/// try AtomicFile.write(trace.json(), to: url)
/// ```
public struct ChromeTrace: Sendable {
    /// A track (a thread in the trace viewer).
    public struct TrackID: Hashable, Sendable {
        /// The thread id written as `tid` (1 for the first track).
        public let tid: Int
    }

    /// The process id written as `pid`.
    public let pid: Int
    /// The process name shown by the viewer.
    public let processName: String
    /// The category written as `cat` on slices, instants and counters.
    public let category: String
    private var trackNames: [String] = []
    private var events: [String] = []

    /// An empty trace for one process.
    public init(processName: String = "latsim", pid: Int = 1, category: String = "latsim") {
        self.processName = processName
        self.pid = pid
        self.category = category
    }

    /// The number of events added so far (metadata not counted).
    public var eventCount: Int { events.count }

    /// Adds a track; tracks are shown in the order they were added.
    public mutating func track(named name: String) -> TrackID {
        trackNames.append(name)
        return TrackID(tid: trackNames.count)
    }

    /// A span of work on a track (an `X` complete event); `color` is one of
    /// the trace viewers' reserved colour names (`cname`: `good`, `bad`,
    /// `terrible`, `yellow`, `olive`, `grey`, ...).
    public mutating func slice(_ track: TrackID, name: String, startNs: SimTime, durationNs: SimTime,
                               args: [String: TraceValue] = [:], color: String? = nil) {
        var e = Event(name: name, category: category, phase: "X", ts: startNs)
        e.dur = max(0, durationNs)
        e.tid = track.tid
        e.args = args
        e.color = color
        events.append(e.json(pid: pid))
    }

    /// An instant: on a track, or global (drawn across all tracks, as for a
    /// vsync) when `track` is `nil`.
    public mutating func instant(_ track: TrackID?, name: String, atNs: SimTime, args: [String: TraceValue] = [:]) {
        var e = Event(name: name, category: category, phase: "i", ts: atNs)
        if let track {
            e.tid = track.tid
            e.scope = "t"
        } else {
            e.tid = 0
            e.scope = "g"
        }
        e.args = args
        events.append(e.json(pid: pid))
    }

    /// A counter sample: each key of `values` is one series of the counter
    /// named `name` (e.g. "buffers" with ["in use": 3]). Non-finite values
    /// are left out.
    public mutating func counter(_ name: String, atNs: SimTime, values: [String: Double]) {
        var e = Event(name: name, category: category, phase: "C", ts: atNs)
        e.args = values.filter { $0.value.isFinite }.mapValues { .number($0) }
        events.append(e.json(pid: pid))
    }

    /// A flow: arrows joining the slices that enclose each step, in order
    /// (`s` on the first step, `t` on the middle ones, `f` on the last).
    /// Each step's time should fall strictly inside a slice on its track
    /// (viewers convert microseconds back to nanoseconds with rounding, so
    /// a step exactly on a slice's edge may miss it). `id` must be unique
    /// among this trace's flows. Fewer than two steps add nothing.
    public mutating func flow(id: UInt64, name: String = "touch", steps: [(track: TrackID, atNs: SimTime)]) {
        guard steps.count >= 2 else { return }
        for (i, step) in steps.enumerated() {
            let phase = i == 0 ? "s" : (i == steps.count - 1 ? "f" : "t")
            var e = Event(name: name, category: "flow", phase: phase, ts: step.atNs)
            e.tid = step.track.tid
            e.id = id
            e.bindEnclosing = true
            events.append(e.json(pid: pid))
        }
    }

    /// The trace as UTF-8 JSON text.
    public func json() -> Data {
        var lines: [String] = []
        lines.append(Self.metadata("process_name", pid: pid, tid: nil, key: "name", value: .string(processName)))
        lines.append(Self.metadata("process_sort_index", pid: pid, tid: nil, key: "sort_index", value: .integer(0)))
        for (i, name) in trackNames.enumerated() {
            lines.append(Self.metadata("thread_name", pid: pid, tid: i + 1, key: "name", value: .string(name)))
            lines.append(Self.metadata("thread_sort_index", pid: pid, tid: i + 1, key: "sort_index", value: .integer(Int64(i))))
        }
        lines += events
        let text = "{\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n],\n\"displayTimeUnit\":\"ms\"}\n"
        return Data(text.utf8)
    }

    /// Writes ``json()`` to `url` atomically.
    public func write(to url: URL) throws {
        try AtomicFile.write(json(), to: url)
    }

    /// An `M` metadata event.
    private static func metadata(_ name: String, pid: Int, tid: Int?, key: String, value: TraceValue) -> String {
        var s = "{\"name\":\(JSONText.string(name)),\"ph\":\"M\",\"ts\":0,\"pid\":\(pid)"
        if let tid { s += ",\"tid\":\(tid)" }
        s += ",\"args\":{\(JSONText.string(key)):\(JSONText.value(value))}}"
        return s
    }

    /// The fields of one event, written in a fixed order.
    private struct Event {
        var name: String
        var category: String
        var phase: String
        var ts: SimTime
        var dur: SimTime?
        var tid: Int?
        var id: UInt64?
        var bindEnclosing = false
        var scope: String?
        var color: String?
        var args: [String: TraceValue] = [:]

        init(name: String, category: String, phase: String, ts: SimTime) {
            self.name = name
            self.category = category
            self.phase = phase
            self.ts = ts
        }

        func json(pid: Int) -> String {
            var s = "{\"name\":\(JSONText.string(name)),\"cat\":\(JSONText.string(category)),\"ph\":\"\(phase)\""
            s += ",\"ts\":\(JSONText.microseconds(ts))"
            if let dur { s += ",\"dur\":\(JSONText.microseconds(dur))" }
            s += ",\"pid\":\(pid)"
            if let tid { s += ",\"tid\":\(tid)" }
            if let id { s += ",\"id\":\(id)" }
            if bindEnclosing { s += ",\"bp\":\"e\"" }
            if let scope { s += ",\"s\":\"\(scope)\"" }
            if let color { s += ",\"cname\":\(JSONText.string(color))" }
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
