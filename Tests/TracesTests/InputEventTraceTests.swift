import Foundation
import FramePipeline
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// Android's input events: what latsim writes for each touch (a motion event
/// and its dispatch to the app's window, TracePacket field 112 → extension
/// 5), read back; and what `latsim import` reads from Perfetto's own
/// input-event test trace (input_event_trace.textproto from google/perfetto,
/// encoded by protoc into Tests/Fixtures/import/input_event_trace.perfetto-trace
/// by the script beside it), whose rows Perfetto's tests_android_input_event.py
/// lists: 6 motion events (test_motion_events_table) and 30 window
/// dispatches (test_dispatch_table).
@Suite("Android input events")
struct InputEventTraceTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import/input_event_trace.perfetto-trace")

    /// The vector's motion events and their first dispatches, by hand from
    /// the textproto (every packet's `timestamp_clock_id` is 3, MONOTONIC,
    /// the clock of `event_time_nanos`): packet timestamp − event time.
    ///   330184796 (DOWN):     517481517002349 − 517481507875000 = 9127349
    ///   1327679296 (OUTSIDE): 517481517002349 − 517481507875000 = 9127349
    ///   557261353 (MOVE):     517481538183257 − 517481533371000 = 4812257
    ///   106022695 (MOVE):     517481543976511 − 517481540876000 = 3100511
    ///   313395000 (MOVE):     517481553353301 − 517481550152000 = 3201301
    ///   436499943 (UP):       517481558399200 − 517481557012000 = 1387200
    /// The two key events' 4 dispatches name no motion event. The median
    /// (the 4th of the 6 sorted) is 4812257 ns.
    @Test func perfettosInputEventTraceGivesItsDispatchLatency() throws {
        let data = try Data(contentsOf: Self.fixture)
        let c = try PerfettoImport.contents(data, file: "input_event_trace.perfetto-trace")
        #expect(c.input.motionEvents == 6, "Perfetto's android_motion_events has 6 rows")
        #expect(c.input.dispatches == 30, "Perfetto's android_input_event_dispatch has 30 rows")
        #expect(c.input.latencies.sorted() == [1_387_200, 3_100_511, 3_201_301, 4_812_257, 9_127_349, 9_127_349])
        let imported = try PerfettoImport.figures(c, file: "input_event_trace.perfetto-trace")
        #expect(imported.dispatchLatency?.value == 4_812_257)
        #expect(imported.dispatchLatency?.origin.contains("6 motion events") == true)
        #expect(imported.displayHz == nil && imported.stages.isEmpty, "the vector has no frames")
        // the scenario sets the key and says where it came from
        let yaml = imported.scenarioYAML(name: "x", source: "input_event_trace.perfetto-trace")
        #expect(yaml.contains("\n  dispatchLatency: 4.812257ms\n"), "\(yaml)")
        #expect(!imported.unreadKeys().contains { $0.key == "android.dispatchLatency" })
    }

    /// The field numbers on the wire, by hand from the vendored protos:
    /// TracePacket.winscope_extensions is field 112, length-delimited: tag
    /// (112 << 3) | 2 = 898 = varint 0x82 0x07; WinscopeExtensions'
    /// android_input_event is 5: tag 0x2A; AndroidInputEvent's
    /// dispatcher_motion_event is 1 (tag 0x0A) and
    /// dispatcher_window_dispatch_event 5 (tag 0x2A); AndroidMotionEvent's
    /// event_id is fixed32 field 1: tag 0x0D and 4 little-endian bytes.
    @Test func aTouchIsAMotionEventAndItsDispatchOnTheWire() throws {
        let touch = InputEventTouch(eventID: 0x0102_0304, eventTime: 1_000, downTime: 1_000, dispatch: 3_000, action: .down, x: 10, y: 20)
        let packets = InputEventTrace.packets(for: touch) { ts in
            var p = Perfetto_Protos_TracePacket()
            p.timestamp = UInt64(ts)
            return p
        }
        #expect(packets.count == 2)
        let motion: [UInt8] = Array(try packets[0].serializedBytes() as Data)
        let dispatch: [UInt8] = Array(try packets[1].serializedBytes() as Data)
        func after(_ bytes: [UInt8], _ tag: [UInt8]) -> ArraySlice<UInt8>? {
            guard let i = (0...(bytes.count - tag.count)).first(where: { Array(bytes[$0..<$0 + tag.count]) == tag }) else { return nil }
            return bytes[(i + tag.count)...]
        }
        // 0x82 0x07, a length, 0x2A, a length, then the event's own tag
        let m = try #require(after(motion, [0x82, 0x07]))
        #expect(m.dropFirst(1).first == 0x2A && m.dropFirst(3).first == 0x0A, "\(motion)")
        #expect(after(motion, [0x0D, 0x04, 0x03, 0x02, 0x01]) != nil, "event_id as fixed32")
        let d = try #require(after(dispatch, [0x82, 0x07]))
        #expect(d.dropFirst(1).first == 0x2A && d.dropFirst(3).first == 0x2A, "\(dispatch)")
        #expect(packets.allSatisfy { $0.timestamp == 3_000 }, "both at the dispatch")
        #expect(packets[0].winscopeExtensions.androidInputEvent.dispatcherMotionEvent.eventTimeNanos == 1_000)
    }

    /// A run's native trace holds one motion event and one dispatch per
    /// touch that reached the app, the event id its scan, the dispatch
    /// `android.dispatchLatency` (3.5 ms here) after the event time; the
    /// importer reads 3.5 ms back.
    @Test(arguments: ["android-default", "android-ink-front"])
    func aRunsTouchesReadBackToItsDispatchLatency(scenario: String) throws {
        let latency: SimTime = 3_500_000
        var c = try Scenario.named(scenario).configuration()
        c.duration = 1_000_000_000
        c.android.dispatchLatency = latency
        let r = try PipelineRun.run(c, keepLog: true)
        let arrivals = try #require(r.frameLog?.android?.arrivals)
        #expect(!arrivals.isEmpty)
        let data = try #require(try PipelineTraceExport.perfetto(r, scenario: scenario))
        let packets = try Perfetto_Protos_Trace(serializedBytes: data).packet.filter(\.hasWinscopeExtensions)
        var motions: [UInt32: Perfetto_Protos_AndroidMotionEvent] = [:], dispatches: [(UInt32, UInt64)] = []
        for p in packets {
            switch p.winscopeExtensions.androidInputEvent.event {
            case .dispatcherMotionEvent(let m)?:
                #expect(motions.updateValue(m, forKey: m.eventID) == nil, "one motion event per id")
            case .dispatcherWindowDispatchEvent(let d)?:
                #expect(d.windowID == InputEventTrace.windowID)
                dispatches.append((d.eventID, p.timestamp))
            default: Issue.record("unexpected input event")
            }
        }
        #expect(motions.count == arrivals.count && dispatches.count == arrivals.count)
        for (id, ts) in dispatches {
            let m = try #require(motions[id])
            #expect(Int64(ts) - m.eventTimeNanos == latency)
        }
        // the event id is the touch's scan; a touch-down is ACTION_DOWN with its own time as down time
        for a in arrivals {
            let m = try #require(motions[UInt32(a.scan)])
            #expect(m.eventTimeNanos == a.ready)
            #expect(m.action == (a.down ? 0 : a.lifted ? 1 : 2))
            if a.down { #expect(m.downTimeNanos == a.ready) }
            #expect(m.source == 4098 && m.pointer.count == 1 && m.pointer[0].axisValue.map(\.axis) == [0, 1])
            #expect(m.pointer[0].axisValue[0].value == Float(a.position.x))
        }
        let imported = try PerfettoImport.read(TraceBytes(data, file: "run.perfetto-trace"))
        #expect(imported.dispatchLatency?.value == latency)
        #expect(imported.notes.contains { $0.hasPrefix("android.dispatchLatency 3.5ms from the trace's input events") }, "\(imported.notes)")
    }

    /// One packet of a trace: field 1 of the Trace, length-delimited.
    static func record(_ packet: [UInt8]) -> [UInt8] {
        precondition(packet.count < 128)
        return [0x0A, UInt8(packet.count)] + packet
    }

    @Test func aCorruptInputEventIsRefusedNamingIt() throws {
        // timestamp 5 (field 8: 0x40 0x05), then field 112 holding 3 bytes: field 5
        // (0x2A) claiming 5 bytes of which 1 follows
        let trace = Data(Self.record([0x40, 0x05, 0x82, 0x07, 0x03, 0x2A, 0x05, 0x0A]))
        do {
            _ = try PerfettoImport.read(TraceBytes(trace, file: "bad.perfetto-trace"))
            Issue.record("a corrupt input event was read")
        } catch {
            let text = "\(error)"
            #expect(text.contains("bad.perfetto-trace") && text.contains("byte 2") && text.contains("Android input event"), "\(text)")
            #expect(text.contains("expected"), "\(text)")
        }
    }

    /// A dispatch before its event's time, or one on another clock, is no
    /// latency: left out and said in the notes; with none left the key
    /// keeps its default.
    @Test func impossibleDispatchesAreLeftOut() throws {
        func packet(_ ts: UInt64, clock: UInt32? = nil, _ fill: (inout Perfetto_Protos_AndroidInputEvent) -> Void) -> Perfetto_Protos_TracePacket {
            var p = Perfetto_Protos_TracePacket()
            p.timestamp = ts
            if let clock { p.timestampClockID = clock }
            fill(&p.winscopeExtensions.androidInputEvent)
            return p
        }
        var trace = Perfetto_Protos_Trace()
        trace.packet = [
            packet(1_000) { $0.dispatcherMotionEvent.eventID = 1; $0.dispatcherMotionEvent.eventTimeNanos = 2_000 },
            packet(1_000) { $0.dispatcherWindowDispatchEvent.eventID = 1 },  // before its event time
            packet(5_000) { $0.dispatcherMotionEvent.eventID = 2; $0.dispatcherMotionEvent.eventTimeNanos = 4_000 },
            packet(5_000, clock: 6) { $0.dispatcherWindowDispatchEvent.eventID = 2 },  // BOOTTIME
            packet(6_000) { $0.dispatcherMotionEvent.eventID = 3 },  // no event time
        ]
        var c = try PerfettoImport.contents(try trace.serializedBytes(), file: "t")
        var result = DeviceImport(kind: "Perfetto trace")
        InputEventImport.figures(c.input, into: &result)
        #expect(result.dispatchLatency == nil)
        let note = try #require(result.notes.first)
        #expect(note.contains("3 motion events and 2 window dispatches") && note.contains("keeps its default"), "\(note)")
        #expect(note.contains("1 motion event without an event time") && note.contains("1 dispatch timed on another clock")
                && note.contains("1 dispatch with a latency below 0"), "\(note)")
        // one good pair: 1 ms
        c.input.latencies.append(1_000_000)
        result = DeviceImport(kind: "Perfetto trace")
        InputEventImport.figures(c.input, into: &result)
        #expect(result.dispatchLatency?.value == 1_000_000)
    }
}
