import FramePipeline
import PerfettoProtos
import SimKernel

/// One touch as Android's input tracing reports it: the motion event
/// InputDispatcher handled and its dispatch to the app's window
/// (Docs/TraceFormats.md, "Android input events").
public struct InputEventTouch: Sendable, Equatable {
    /// MotionEvent's masked actions (`AMOTION_EVENT_ACTION_*`).
    public enum Action: Int32, Sendable { case down = 0, up = 1, move = 2 }

    /// The event's id: the touch's scan index, so that `scan N` slices and
    /// `touch N` flows name the event whose id is N.
    public var eventID: UInt32
    /// The event's time (the evdev timestamp: when the digitizer reported it).
    public var eventTime: SimTime
    /// The event time of the gesture's touch-down; nil before any.
    public var downTime: SimTime?
    /// When it reached the app's input channel (InputDispatcher's delivery).
    public var dispatch: SimTime
    public var action: Action
    /// The reported position, latsim's points (written as the pointer's X and Y axes).
    public var x, y: Double

    public init(eventID: UInt32, eventTime: SimTime, downTime: SimTime?, dispatch: SimTime, action: Action, x: Double, y: Double) {
        self.eventID = eventID
        self.eventTime = eventTime
        self.downTime = downTime
        self.dispatch = dispatch
        self.action = action
        self.x = x
        self.y = y
    }
}

/// Android's input events in a native trace: for each touch that reached
/// the app, a `dispatcher_motion_event` and a `dispatcher_window_dispatch_event`
/// to the app's window, each in its own `TracePacket` under
/// `winscope_extensions` (TracePacket field 112) → `android_input_event`
/// (extension 5), as Android's `android.input.inputevent` data source writes
/// them. Perfetto reads them into `android_motion_events` and
/// `android_input_event_dispatch`.
public enum InputEventTrace {
    /// `AINPUT_SOURCE_TOUCHSCREEN` (0x1002).
    public static let touchscreen: UInt32 = 0x1002
    /// The input device's and the window's ids: one digitizer, one window.
    public static let deviceID: Int32 = 1
    public static let windowID: Int32 = 1
    /// `AMOTION_EVENT_TOOL_TYPE_FINGER`, `AMOTION_EVENT_AXIS_X`, `AMOTION_EVENT_AXIS_Y`.
    static let finger: Int32 = 1, axisX: Int32 = 0, axisY: Int32 = 1

    /// The event of one sample's arrival at the app, in a gesture that
    /// went down at `downTime` (a trace adds them in the order they
    /// arrived: ``NativePackets/add(arrival:)``).
    static func touch(_ a: AndroidFrameLog.Arrival, downTime: SimTime?) -> InputEventTouch {
        let action: InputEventTouch.Action = a.down ? .down : (a.lifted ? .up : .move)
        // a scan index past 2^32 wraps (a run of 2^32 scans is 7 weeks at 1 kHz)
        return InputEventTouch(eventID: UInt32(truncatingIfNeeded: a.scan), eventTime: a.ready, downTime: downTime,
                               dispatch: a.arrival, action: action, x: a.position.x, y: a.position.y)
    }

    /// The two packets of one touch, both at its dispatch (`packet` makes a
    /// packet at a time on the trace's sequence; times before 0 are written as 0): the motion event
    /// (InputDispatcher's, whose packet time is when it handled the event:
    /// latsim's dispatch latency does not split InputReader, InputDispatcher
    /// and the socket, so that is the delivery) and its dispatch to the
    /// app's window.
    public static func packets(for touch: InputEventTouch,
                               packet: (SimTime) -> Perfetto_Protos_TracePacket) -> [Perfetto_Protos_TracePacket] {
        var axisX = Perfetto_Protos_AndroidMotionEvent.Pointer.AxisValue()
        axisX.axis = Self.axisX
        axisX.value = Float(touch.x)
        var axisY = Perfetto_Protos_AndroidMotionEvent.Pointer.AxisValue()
        axisY.axis = Self.axisY
        axisY.value = Float(touch.y)
        var pointer = Perfetto_Protos_AndroidMotionEvent.Pointer()
        pointer.pointerID = 0
        pointer.toolType = finger
        pointer.axisValue = [axisX, axisY]

        var motion = Perfetto_Protos_AndroidMotionEvent()
        motion.eventID = touch.eventID
        motion.eventTimeNanos = max(0, touch.eventTime)
        if let d = touch.downTime { motion.downTimeNanos = max(0, d) }
        motion.source = touchscreen
        motion.action = touch.action.rawValue
        motion.deviceID = deviceID
        motion.displayID = 0
        motion.pointer = [pointer]
        var motionPacket = packet(touch.dispatch)
        motionPacket.winscopeExtensions.androidInputEvent.dispatcherMotionEvent = motion

        var dispatched = Perfetto_Protos_AndroidWindowInputDispatchEvent.DispatchedPointer()
        dispatched.pointerID = 0
        dispatched.xInDisplay = Float(touch.x)
        dispatched.yInDisplay = Float(touch.y)
        var dispatch = Perfetto_Protos_AndroidWindowInputDispatchEvent()
        dispatch.eventID = touch.eventID
        dispatch.windowID = windowID
        // the window fills the display: no axis changed by its transform
        dispatch.dispatchedPointer = [dispatched]
        var dispatchPacket = packet(touch.dispatch)
        dispatchPacket.winscopeExtensions.androidInputEvent.dispatcherWindowDispatchEvent = dispatch
        return [motionPacket, dispatchPacket]
    }
}

/// A touch's two packets (``InputEventTrace/packets(for:packet:)``)
/// encoded by hand: the bytes SwiftProtobuf writes for them (fields in
/// number order, proto2 presence), without building the messages.
/// `TracePacket`: timestamp (8), trusted_packet_sequence_id (10),
/// winscope_extensions (112) → android_input_event (5) → the motion event
/// (1) or the dispatch (5). `AndroidMotionEvent`: event_id (1, fixed32),
/// event_time_nanos (2), source (3), action (4), device_id (5), display_id
/// (6, sint32), pointer (9: axis values (1: axis 1, value 2 as a float),
/// pointer_id 2, tool_type 3), down_time_nanos (17).
/// `AndroidWindowInputDispatchEvent`: event_id (1, fixed32), window_id (3),
/// dispatched_pointer (4: pointer_id 1, x 2 and y 3 in the display, floats).
enum InputEventBytes {
    /// Appends packet `which` (0 the motion event, 1 its dispatch) of `touch`.
    static func packet(_ touch: InputEventTouch, which: Int, into out: inout [UInt8]) {
        var w = ProtoWriter(bytes: [])
        w.message(5) { w in
            if which == 0 { motion(touch, &w) } else { dispatch(touch, &w) }
        }
        TrackEventBytes.packet(ts: touch.dispatch, field: 112, body: w.bytes, into: &out)  // android_input_event
    }

    private static func motion(_ t: InputEventTouch, _ w: inout ProtoWriter) {
        w.message(1) { w in
            w.fixed32(1, t.eventID)
            w.varint(2, UInt64(bitPattern: Int64(max(0, t.eventTime))))
            w.varint(3, UInt64(InputEventTrace.touchscreen))
            w.varint(4, UInt64(bitPattern: Int64(t.action.rawValue)))
            w.varint(5, UInt64(bitPattern: Int64(InputEventTrace.deviceID)))
            w.varint(6, 0)  // display_id, sint32 0
            w.message(9) { w in
                for axis in 0..<2 {
                    w.message(1) { w in
                        w.varint(1, UInt64(bitPattern: Int64(axis == 0 ? InputEventTrace.axisX : InputEventTrace.axisY)))
                        w.float(2, Float(axis == 0 ? t.x : t.y))
                    }
                }
                w.varint(2, 0)
                w.varint(3, UInt64(bitPattern: Int64(InputEventTrace.finger)))
            }
            if let d = t.downTime { w.varint(17, UInt64(bitPattern: Int64(max(0, d)))) }
        }
    }

    private static func dispatch(_ t: InputEventTouch, _ w: inout ProtoWriter) {
        w.message(5) { w in
            w.fixed32(1, t.eventID)
            w.varint(3, UInt64(bitPattern: Int64(InputEventTrace.windowID)))
            w.message(4) { w in
                w.varint(1, 0)
                w.float(2, Float(t.x))
                w.float(3, Float(t.y))
            }
        }
    }
}

/// Protocol-buffer fields written into a byte array; a message's length is
/// put in front of its bytes once they are written.
struct ProtoWriter {
    var bytes: [UInt8]

    private mutating func tag(_ field: Int, _ wire: Int) { ProtoBytes.varint(UInt64(field << 3 | wire), into: &bytes) }

    mutating func varint(_ field: Int, _ v: UInt64) {
        tag(field, 0)
        ProtoBytes.varint(v, into: &bytes)
    }

    mutating func fixed32(_ field: Int, _ v: UInt32) {
        tag(field, 5)
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func float(_ field: Int, _ v: Float) { fixed32(field, v.bitPattern) }

    mutating func message(_ field: Int, _ body: (inout ProtoWriter) -> Void) {
        tag(field, 2)
        let start = bytes.count
        body(&self)
        // the length's varint put in front of the body, in place
        var n = UInt64(bytes.count - start)
        bytes.insert(contentsOf: repeatElement(0, count: ProtoBytes.varintSize(n)), at: start)
        var at = start
        while n >= 0x80 {
            bytes[at] = UInt8(truncatingIfNeeded: n) | 0x80
            n >>= 7
            at += 1
        }
        bytes[at] = UInt8(n)
    }
}
