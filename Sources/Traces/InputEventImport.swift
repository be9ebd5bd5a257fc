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
    /// by its clock id, or no clock id (the trace's own clock: latsim's
    /// traces, whose simulated clock is the only one).
    static func onEventClock(_ p: Perfetto_Protos_TracePacket) -> Bool {
        !p.hasTimestampClockID || p.timestampClockID == monotonic
    }

    /// Reads the input event of a packet at `ts` that has one.
    static func add(_ p: Perfetto_Protos_TracePacket, at ts: SimTime, to c: inout Collected) {
        guard p.winscopeExtensions.hasAndroidInputEvent, let event = p.winscopeExtensions.androidInputEvent.event else { return }
        switch event {
        case .dispatcherMotionEvent(let m), .dispatcherMotionEventRedacted(let m):
            c.motionEvents += 1
            guard m.hasEventTimeNanos else { c.withoutTime += 1; return }
            c.waiting[m.eventID] = m.eventTimeNanos
        case .dispatcherWindowDispatchEvent(let d), .dispatcherWindowDispatchEventRedacted(let d):
            c.dispatches += 1
            // the first dispatch of the event (to any window) is its delivery
            guard let time = c.waiting.removeValue(forKey: d.eventID) else { return }
            guard onEventClock(p) else { c.otherClock += 1; return }
            let (latency, overflow) = ts.subtractingReportingOverflow(time)
            c.latencies.append(overflow ? .max : latency)
        }
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
