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

    /// The touches of an Android run that kept its frame log, in the order
    /// they reached the app; empty for an iOS run.
    public static func touches(_ result: RunResult) -> [InputEventTouch] {
        guard let arrivals = result.frameLog?.android?.arrivals else { return [] }
        var down: SimTime?
        return arrivals.map { a in
            if a.down { down = a.ready }
            let action: InputEventTouch.Action = a.down ? .down : (a.lifted ? .up : .move)
            // a scan index past 2^32 wraps (a run of 2^32 scans is 7 weeks at 1 kHz)
            return InputEventTouch(eventID: UInt32(truncatingIfNeeded: a.scan), eventTime: a.ready, downTime: down,
                                   dispatch: a.arrival, action: action, x: a.position.x, y: a.position.y)
        }
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

    /// Every touch's packets with their place in the writer's order: at
    /// the dispatch, after the other packets of that instant, the motion
    /// event before its dispatch.
    static func items(_ touches: [InputEventTouch], packet: (SimTime) -> Perfetto_Protos_TracePacket)
        -> [(ts: SimTime, rank: Int, index: Int, packet: Perfetto_Protos_TracePacket)] {
        var out: [(ts: SimTime, rank: Int, index: Int, packet: Perfetto_Protos_TracePacket)] = []
        for (k, touch) in touches.enumerated() {
            for (j, p) in packets(for: touch, packet: packet).enumerated() {
                out.append((touch.dispatch, 6, 2 * k + j, p))
            }
        }
        return out
    }
}
