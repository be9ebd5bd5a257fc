import Foundation
import PerfettoProtos
import Scenarios
import SimKernel

/// Android's input events in a device's Perfetto trace (the
/// `android.input.inputevent` data source; TracePacket field 112,
/// `winscope_extensions`, extension 5, `android_input_event`): each motion
/// event's time and its first dispatch to a window give the device's
/// dispatch latency, `android.dispatchLatency` (Docs/TraceFormats.md,
/// "Android input events").
enum InputEventImport {
    /// `TracePacket.timestamp_clock_id` of CLOCK_MONOTONIC (Perfetto's
    /// `BUILTIN_CLOCK_MONOTONIC`), the clock of a motion event's
    /// `event_time_nanos` and of the packets Android's input data source writes.
    static let monotonic: UInt32 = 3

    /// What the packets held, gathered in time order.
    struct Collected: Sendable {
        /// Motion events by id, each until its first dispatch: its event time.
        var waiting: [UInt32: SimTime] = [:]
        /// Event time to first dispatch, per motion event dispatched.
        var latencies: [SimTime] = []
        /// Motion events read; those without an event time; packets whose
        /// time is on another clock than the event times'.
        var motionEvents = 0, withoutTime = 0, otherClock = 0
        /// Window dispatches read.
        var dispatches = 0
    }

    /// True for a packet whose time is on the motion events' clock: CLOCK_MONOTONIC
    /// by its clock id (`clock`), or no clock id (nil: the trace's own clock:
    /// latsim's traces, whose simulated clock is the only one).
    static func onEventClock(_ clock: UInt32?) -> Bool {
        clock == nil || clock == monotonic
    }

    /// An input event's fields read here: a motion event's id and time, or
    /// a window dispatch's event id.
    struct Fields: Equatable {
        enum Kind: Equatable { case motion, dispatch }
        var kind: Kind
        var eventID: UInt32 = 0
        /// A motion event's `event_time_nanos`; nil when it has none.
        var eventTime: SimTime?
    }

    /// The input event of a decoded packet; nil for a packet without one.
    static func fields(_ p: Perfetto_Protos_TracePacket) -> Fields? {
        guard p.winscopeExtensions.hasAndroidInputEvent, let event = p.winscopeExtensions.androidInputEvent.event else { return nil }
        switch event {
        case .dispatcherMotionEvent(let m), .dispatcherMotionEventRedacted(let m):
            return Fields(kind: .motion, eventID: m.eventID, eventTime: m.hasEventTimeNanos ? m.eventTimeNanos : nil)
        case .dispatcherWindowDispatchEvent(let d), .dispatcherWindowDispatchEventRedacted(let d):
            return Fields(kind: .dispatch, eventID: d.eventID)
        }
    }

    /// Reads an input event of a packet at `ts` on clock `clock` (nil: none given).
    static func add(_ e: Fields, at ts: SimTime, clock: UInt32?, to c: inout Collected) {
        switch e.kind {
        case .motion:
            c.motionEvents += 1
            guard let time = e.eventTime else { c.withoutTime += 1; return }
            c.waiting[e.eventID] = time
        case .dispatch:
            c.dispatches += 1
            // the first dispatch of the event (to any window) is its delivery
            guard let time = c.waiting.removeValue(forKey: e.eventID) else { return }
            guard onEventClock(clock) else { c.otherClock += 1; return }
            let (latency, overflow) = ts.subtractingReportingOverflow(time)
            c.latencies.append(overflow ? .max : latency)
        }
    }

    /// Reads a packet holding an input event (field 112) and no other field
    /// read by the importer straight from its bytes: its timestamp, its
    /// clock id (nil: none) and the event (nil: the packet holds none the
    /// importer reads, as a key event). Nil for any other packet and for
    /// anything the full decoder may read otherwise: a field given twice
    /// that the decoder would merge (field 112, its input event, the
    /// event's case), a field read of the wrong wire type, a length past
    /// the end. Fields not read (pointers, flags, a dispatch's window) are
    /// skipped unread, as the decoder's values of them are never used.
    static func packet(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int)
        -> (timestamp: UInt64, clock: UInt32?, event: Fields?)? {
        typealias P = PerfettoImport
        var event: Fields?, seen = false
        let header = P.packetFields(b, from: start, to: end, reading: 112) { i, extEnd in  // winscope_extensions
            guard !seen else { return false }  // given twice: the decoder merges them
            seen = true
            var i = i, inputSeen = false
            while i < extEnd {
                guard let tag = P.varint(b, &i, end: extEnd) else { return false }
                guard tag >> 3 == 5 else {  // android_input_event
                    guard P.skip(b, tag & 7, &i, extEnd) else { return false }
                    continue
                }
                guard tag & 7 == 2, !inputSeen, let m = P.varint(b, &i, end: extEnd), m <= UInt64(extEnd - i),
                      let read = inputEvent(b, from: i, to: i + Int(m)) else { return false }
                inputSeen = true
                if case .event(let e) = read { event = e }
                i += Int(m)
            }
            return true
        }
        guard let header else { return nil }
        return (header.timestamp, header.clock, event)
    }

    /// What an `AndroidInputEvent` holds for the importer.
    private enum Read { case none, event(Fields) }

    /// An `AndroidInputEvent`'s case read here (``Read/none``: none read,
    /// as a key event); nil when the decoder must read it.
    private static func inputEvent(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Read? {
        typealias P = PerfettoImport
        var i = start, read = Read.none, cases = 0
        while i < end {
            guard let tag = P.varint(b, &i, end: end) else { return nil }
            let field = tag >> 3, wire = tag & 7
            let kind: Fields.Kind
            switch field {
            case 1, 2: kind = .motion  // dispatcher_motion_event, redacted or not
            case 5, 6: kind = .dispatch  // dispatcher_window_dispatch_event, redacted or not
            default:  // key events: not read
                guard P.skip(b, wire, &i, end) else { return nil }
                continue
            }
            cases += 1
            guard wire == 2, cases == 1, let n = P.varint(b, &i, end: end), n <= UInt64(end - i) else { return nil }
            let messageEnd = i + Int(n)
            var e = Fields(kind: kind)
            while i < messageEnd {
                guard let tag = P.varint(b, &i, end: messageEnd) else { return nil }
                let field = tag >> 3, wire = tag & 7
                if field == 1 {  // event_id, fixed32
                    guard wire == 5, messageEnd - i >= 4 else { return nil }
                    e.eventID = UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
                    i += 4
                } else if field == 2 && kind == .motion {  // event_time_nanos
                    guard wire == 0, let v = P.varint(b, &i, end: messageEnd) else { return nil }
                    e.eventTime = Int64(bitPattern: v)
                } else {
                    guard P.skip(b, wire, &i, messageEnd) else { return nil }
                }
            }
            read = .event(e)
        }
        return read
    }

    /// A sentence for a packet that does not decode when it holds an
    /// input event (field 112): nil when it holds none.
    static func corruption(_ packet: Data) -> String? {
        let holds: Bool = packet.withUnsafeBytes { b in
            var i = 0
            while i < b.count {
                guard let tag = PerfettoImport.varint(b, &i, end: b.count) else { return false }
                if tag >> 3 == 112 { return true }
                switch tag & 7 {
                case 0: guard PerfettoImport.varint(b, &i, end: b.count) != nil else { return false }
                case 1: i += 8
                case 5: i += 4
                case 2:
                    guard let n = PerfettoImport.varint(b, &i, end: b.count), n <= UInt64(b.count - i) else { return false }
                    i += Int(n)
                default: return false
                }
            }
            return false
        }
        return holds ? "its Android input event (TracePacket field 112, winscope_extensions, holding AndroidInputEvent as extension 5) does not decode" : nil
    }

    /// `n` dispatches, singular or plural.
    static func dispatches(_ n: Int, _ kind: String = "") -> String { "\(n) \(kind)dispatch\(n == 1 ? "" : "es")" }

    /// The dispatch latency of the events gathered, set into `result` with
    /// its origin, and notes on what was left out.
    static func figures(_ c: Collected, into result: inout DeviceImport) {
        guard c.motionEvents > 0 || c.dispatches > 0 else { return }
        var left: [String] = []
        if c.withoutTime > 0 { left.append("\(PerfettoImport.count(c.withoutTime, "motion events")) without an event time") }
        if !c.waiting.isEmpty { left.append("\(PerfettoImport.count(c.waiting.count, "motion events")) never dispatched to a window") }
        if c.otherClock > 0 {
            left.append("\(dispatches(c.otherClock)) timed on another clock than CLOCK_MONOTONIC (the event times')")
        }
        let kept = c.latencies.filter { DeviceImport.stageDurations.contains($0) }
        if kept.count < c.latencies.count {
            left.append("\(dispatches(c.latencies.count - kept.count)) with a latency below 0 or above an hour")
        }
        let read = "\(PerfettoImport.count(c.motionEvents, "motion events")) and \(dispatches(c.dispatches, "window "))"
        guard let median = DeviceImport.median(kept) else {
            result.notes.append("Android input events: \(read), no dispatch latency measured"
                                + (left.isEmpty ? "" : " (" + left.joined(separator: "; ") + ")") + ": android.dispatchLatency keeps its default")
            return
        }
        let sorted = kept.sorted()
        let origin = "median event time to first window dispatch of \(PerfettoImport.count(kept.count, "motion events")) (Android input events): "
            + "\(DeviceImport.milliseconds(median)), from \(DeviceImport.milliseconds(sorted.first!)) to \(DeviceImport.milliseconds(sorted.last!))"
        result.dispatchLatency = .init(value: median, origin: origin)
        result.notes.append("android.dispatchLatency \(DeviceImport.milliseconds(median)) from the trace's input events (\(read))"
                            + (left.isEmpty ? "" : "; left out: " + left.joined(separator: "; ")))
    }
}
