import Foundation
import FramePipeline
import LatsimOutput
import PerfettoProtos
import SimKernel

/// One app frame as Android's FrameTimeline reports it to Perfetto: the
/// app's expected and actual timelines (a SurfaceFrame) and
/// SurfaceFlinger's for the composition that showed it (a DisplayFrame).
public struct TimelineFrame: Sendable, Equatable {
    /// How a frame was presented against its expected present.
    public enum Present: Sendable, Equatable { case onTime, late, early, dropped, unknown }

    /// The frame's vsync id (FrameTimeline's token), unique in the trace.
    public var token: Int64
    /// The app's expected timeline; nil for a frame without a vsync id.
    public var expected: ClosedRange<SimTime>?
    /// The app's actual timeline: frame time to the end of its work.
    public var actual: ClosedRange<SimTime>
    /// SurfaceFlinger's expected and actual timeline; nil for a dropped frame.
    public var displayExpected, displayActual: ClosedRange<SimTime>?
    /// The app frame's present type and class; whether its work ended by its deadline.
    public var present: Present
    public var jank: JankClass
    public var onTimeFinish: Bool
    /// SurfaceFlinger's own present type for the display frame.
    public var displayPresent: Present

    public init(token: Int64, expected: ClosedRange<SimTime>?, actual: ClosedRange<SimTime>,
                displayExpected: ClosedRange<SimTime>?, displayActual: ClosedRange<SimTime>?,
                present: Present, jank: JankClass, onTimeFinish: Bool, displayPresent: Present) {
        self.token = token
        self.expected = expected
        self.actual = actual
        self.displayExpected = displayExpected
        self.displayActual = displayActual
        self.present = present
        self.jank = jank
        self.onTimeFinish = onTimeFinish
        self.displayPresent = displayPresent
    }
}

extension JankClass {
    /// FrameTimeline's jank-type bit for the class (`FrameTimelineEvent.JankType`).
    public var perfettoJankBit: Int32 {
        switch self {
        case .onTime: return 1               // JANK_NONE
        case .surfaceFlingerDeadlineMissed: return 16  // JANK_SF_CPU_DEADLINE_MISSED
        case .appDeadlineMissed: return 64   // JANK_APP_DEADLINE_MISSED
        case .bufferStuffing: return 128     // JANK_BUFFER_STUFFING
        case .unknown: return 256            // JANK_UNKNOWN
        case .dropped: return 1024           // JANK_DROPPED
        }
    }
}

/// Where the app's frames live in a native trace with FrameTimeline.
public struct FrameTimelineTracks: Sendable {
    /// The frames, in any order.
    public var frames: [TimelineFrame]
    /// The app layer's name (FrameTimeline's `layer_name`).
    public var layerName: String
    /// SurfaceFlinger's process id (its display frames live there).
    public var surfaceFlingerPid: Int32

    public init(frames: [TimelineFrame], layerName: String, surfaceFlingerPid: Int32 = 500) {
        self.frames = frames
        self.layerName = layerName
        self.surfaceFlingerPid = surfaceFlingerPid
    }
}

extension ChromeTrace {
    /// The trace in Perfetto's own format (a `perfetto.protos.Trace`, the
    /// `.perfetto-trace` files a device records): a process with a thread
    /// track per track (same pid, tids and names as ``json()``), each slice
    /// a `TrackEvent` begin/end pair with its args as debug annotations, a
    /// flow's slices carrying its id (`flow_ids`, `terminating_flow_ids`
    /// on the last), instants, one counter track per counter series
    /// ("display buffers in use"), and, with `frameTimeline`, Android's
    /// FrameTimeline packets (expected and actual surface and display
    /// frames) that fill Perfetto's `expected_frame_timeline_slice` and
    /// `actual_frame_timeline_slice` tables. All packets are on one
    /// sequence, in time order; nested slices are ordered so they nest on
    /// their track (ends before begins at one instant, inner ends first,
    /// outer begins first). With `inputEvents`, each touch's Android motion
    /// event and its dispatch to the app's window (``InputEventTrace``).
    /// Times before 0 are clamped to 0.
    public func perfetto(frameTimeline: FrameTimelineTracks? = nil, inputEvents: [InputEventTouch] = []) throws -> Data {
        let sink = ByteSink.memory()
        try writePerfetto(to: sink, frameTimeline: frameTimeline, inputEvents: inputEvents)
        return sink.bytes
    }

    /// Writes ``perfetto(frameTimeline:)``'s bytes packet by packet: each
    /// packet is built when its turn comes, serialised and written as the
    /// `Trace` message's field 1 (its tag, length and bytes, as the whole
    /// message's serialisation writes it), so the packets are never all in
    /// memory; what is kept is one small sort key per packet.
    /// `extraPackets`, when given, is called once after the descriptors
    /// with a function that writes a packet, for packets of other kinds.
    public func writePerfetto(to sink: ByteSink, frameTimeline: FrameTimelineTracks? = nil, inputEvents: [InputEventTouch] = [],
                              extraPackets: (((Perfetto_Protos_TracePacket) throws -> Void) throws -> Void)? = nil) throws {
        func emit(_ p: Perfetto_Protos_TracePacket) throws {
            let bytes: [UInt8] = try p.serializedBytes()
            try sink.write(byte: 0x0A)  // field 1 (packet), length-delimited
            var n = UInt64(bytes.count)
            while n >= 0x80 { try sink.write(byte: UInt8(n & 0x7F) | 0x80); n >>= 7 }
            try sink.write(byte: UInt8(n))
            try bytes.withUnsafeBytes { try sink.write($0) }
        }
        let sequence: UInt32 = 1
        func packet(_ ts: SimTime) -> Perfetto_Protos_TracePacket {
            var p = Perfetto_Protos_TracePacket()
            p.timestamp = UInt64(max(0, ts))
            p.trustedPacketSequenceID = sequence
            return p
        }
        let processUUID: UInt64 = 1
        var process = packet(0)
        process.sequenceFlags = 1  // SEQ_INCREMENTAL_STATE_CLEARED
        var pd = Perfetto_Protos_TrackDescriptor()
        pd.uuid = processUUID
        pd.process.pid = Int32(pid)
        pd.process.processName = processName
        process.trackDescriptor = pd
        try emit(process)
        func threadUUID(_ tid: Int) -> UInt64 { 1_000 + UInt64(tid) }
        for (i, name) in trackNames.enumerated() {
            var d = Perfetto_Protos_TrackDescriptor()
            let tid = pid + 1 + i
            d.uuid = threadUUID(tid)
            d.thread.pid = Int32(pid)
            d.thread.tid = Int64(tid)
            d.thread.threadName = name
            var p = packet(0)
            p.trackDescriptor = d
            try emit(p)
        }
        // one counter track per counter series, in order of first sample
        var counterUUID: [String: UInt64] = [:]
        for e in events where e.phase == "C" {
            for key in e.args.keys.sorted() where counterUUID["\(e.name) \(key)"] == nil {
                let name = "\(e.name) \(key)"
                let uuid = 100_000 + UInt64(counterUUID.count)
                counterUUID[name] = uuid
                var d = Perfetto_Protos_TrackDescriptor()
                d.uuid = uuid
                d.parentUuid = processUUID
                d.name = name
                d.counter.unit = .count
                var p = packet(0)
                p.trackDescriptor = d
                try emit(p)
            }
        }

        // the events' sort keys, ordered so slices nest; each packet is
        // built from its key when written
        enum Part: UInt8 { case begin, end, instant, counter, timelineStart, timelineEnd, input }
        struct Item {
            var ts: SimTime, key: SimTime, index: Int
            var source: Int32  // the event, or the FrameTimeline frame (in token order)
            var rank: UInt8, part: Part
            var which: UInt8   // the counter's series, or the frame's timeline (0...3)
        }
        var items: [Item] = []
        items.reserveCapacity(events.count * 2)
        for (i, e) in events.enumerated() {
            switch e.phase {
            case "X":
                let dur = e.dur ?? 0
                if dur == 0 {
                    items.append(Item(ts: e.ts, key: 0, index: 2 * i, source: Int32(i), rank: 1, part: .begin, which: 0))
                    items.append(Item(ts: e.ts, key: 0, index: 2 * i + 1, source: Int32(i), rank: 1, part: .end, which: 0))
                } else {
                    items.append(Item(ts: e.ts, key: -(e.ts + dur), index: 2 * i, source: Int32(i), rank: 2, part: .begin, which: 0))
                    items.append(Item(ts: e.ts + dur, key: -e.ts, index: -(2 * i + 1), source: Int32(i), rank: 0, part: .end, which: 0))
                }
            case "i":
                items.append(Item(ts: e.ts, key: 0, index: 2 * i, source: Int32(i), rank: 3, part: .instant, which: 0))
            case "C":
                for (k, key) in e.args.keys.sorted().enumerated() {
                    guard case .number = e.args[key]!, counterUUID["\(e.name) \(key)"] != nil else { continue }
                    items.append(Item(ts: e.ts, key: 0, index: 2 * i, source: Int32(i), rank: 4, part: .counter, which: UInt8(k)))
                }
            default:
                continue
            }
        }
        let timelineFrames = frameTimeline?.frames.sorted(by: { $0.token < $1.token }) ?? []
        if frameTimeline != nil {
            // each timeline a start (index 2 x cookie) and an end (2 x cookie + 1), cookies counting up
            var cookie = 0
            for (f, frame) in timelineFrames.enumerated() {
                for (which, range) in Self.timelines(frame).enumerated() {
                    guard let range else { continue }
                    cookie += 1
                    items.append(Item(ts: range.lowerBound, key: 0, index: cookie * 2, source: Int32(f), rank: 5,
                                      part: .timelineStart, which: UInt8(which)))
                    items.append(Item(ts: range.upperBound, key: 0, index: cookie * 2 + 1, source: Int32(f), rank: 5,
                                      part: .timelineEnd, which: UInt8(which)))
                }
            }
        }
        // each touch's motion event and dispatch (InputEventTrace.items's places), built when written
        for (k, touch) in inputEvents.enumerated() {
            for j in 0..<2 {
                items.append(Item(ts: touch.dispatch, key: 0, index: 2 * k + j, source: Int32(k), rank: 6, part: .input, which: UInt8(j)))
            }
        }
        items.sort { ($0.ts, $0.rank, $0.key, $0.index) < ($1.ts, $1.rank, $1.key, $1.index) }
        if let frameTimeline {
            var sf = packet(0)
            var d = Perfetto_Protos_TrackDescriptor()
            d.uuid = 2
            d.process.pid = frameTimeline.surfaceFlingerPid
            d.process.processName = "/system/bin/surfaceflinger"
            sf.trackDescriptor = d
            try emit(sf)
        }
        if let extraPackets { try extraPackets(emit) }
        for item in items {
            var p = packet(item.ts)
            switch item.part {
            case .begin:
                let e = events[Int(item.source)]
                var te = Perfetto_Protos_TrackEvent()
                te.categories = [e.category]
                te.type = .sliceBegin
                te.trackUuid = threadUUID(e.tid ?? pid)
                te.name = e.name
                te.debugAnnotations = Self.annotations(e.allArgs)
                if let id = e.bindID {
                    if e.flowOut { te.flowIds = [id] } else { te.terminatingFlowIds = [id] }
                }
                p.trackEvent = te
            case .end:
                let e = events[Int(item.source)]
                var te = Perfetto_Protos_TrackEvent()
                te.type = .sliceEnd
                te.trackUuid = threadUUID(e.tid ?? pid)
                p.trackEvent = te
            case .instant:
                let e = events[Int(item.source)]
                var te = Perfetto_Protos_TrackEvent()
                te.categories = [e.category]
                te.type = .instant
                te.trackUuid = threadUUID(e.tid ?? pid)
                te.name = e.name
                te.debugAnnotations = Self.annotations(e.args)
                p.trackEvent = te
            case .counter:
                let e = events[Int(item.source)]
                let key = e.args.keys.sorted()[Int(item.which)]
                guard case .number(let x) = e.args[key]!, let uuid = counterUUID["\(e.name) \(key)"] else { continue }
                var c = Perfetto_Protos_TrackEvent()
                c.type = .counter
                c.trackUuid = uuid
                c.doubleCounterValue = x
                p.trackEvent = c
            case .timelineStart:
                p.frameTimelineEvent = Self.timelineStart(timelineFrames[Int(item.source)], which: Int(item.which),
                                                          cookie: Int64(item.index / 2), ft: frameTimeline!, appPid: Int32(pid))
            case .timelineEnd:
                var e = Perfetto_Protos_FrameTimelineEvent()
                e.frameEnd.cookie = Int64(item.index / 2)
                p.frameTimelineEvent = e
            case .input:
                p = InputEventTrace.packets(for: inputEvents[Int(item.source)], packet: packet)[Int(item.which)]
            }
            try emit(p)
        }
    }

    /// A slice's args as debug annotations, by name.
    static func annotations(_ args: [String: TraceValue]) -> [Perfetto_Protos_DebugAnnotation] {
        args.keys.sorted().map { key in
            var a = Perfetto_Protos_DebugAnnotation()
            a.name = key
            switch args[key]! {
            case .string(let s): a.stringValue = s
            case .integer(let n): a.intValue = n
            case .number(let x): a.doubleValue = x
            }
            return a
        }
    }

    /// A frame's four FrameTimeline timelines in the order written (the
    /// app's expected and actual, SurfaceFlinger's expected and actual),
    /// nil for those it lacks.
    static func timelines(_ f: TimelineFrame) -> [ClosedRange<SimTime>?] {
        [f.expected, f.actual, f.displayExpected, f.displayActual]
    }

    /// FrameTimeline's start event of timeline `which` of ``timelines(_:)``
    /// with its `cookie` (its `FrameEnd` carries the same cookie).
    static func timelineStart(_ f: TimelineFrame, which: Int, cookie: Int64, ft: FrameTimelineTracks, appPid: Int32)
        -> Perfetto_Protos_FrameTimelineEvent {
        func present(_ p: TimelineFrame.Present) -> Perfetto_Protos_FrameTimelineEvent.PresentType {
            switch p {
            case .onTime: return .presentOnTime
            case .late: return .presentLate
            case .early: return .presentEarly
            case .dropped: return .presentDropped
            case .unknown: return .presentUnknown
            }
        }
        let displayToken = f.token + 1_000_000_000
        var e = Perfetto_Protos_FrameTimelineEvent()
        switch which {
        case 0:
            e.expectedSurfaceFrameStart.cookie = cookie
            e.expectedSurfaceFrameStart.token = f.token
            e.expectedSurfaceFrameStart.displayFrameToken = displayToken
            e.expectedSurfaceFrameStart.pid = appPid
            e.expectedSurfaceFrameStart.layerName = ft.layerName
        case 1:
            var a = Perfetto_Protos_FrameTimelineEvent.ActualSurfaceFrameStart()
            a.cookie = cookie
            a.token = f.token
            a.displayFrameToken = displayToken
            a.pid = appPid
            a.layerName = ft.layerName
            a.presentType = present(f.present)
            a.onTimeFinish = f.onTimeFinish
            a.gpuComposition = false
            a.jankType = f.jank.perfettoJankBit
            a.predictionType = f.expected == nil ? .predictionUnknown : .predictionValid
            a.isBuffer = true
            e.actualSurfaceFrameStart = a
        case 2:
            e.expectedDisplayFrameStart.cookie = cookie
            e.expectedDisplayFrameStart.token = displayToken
            e.expectedDisplayFrameStart.pid = ft.surfaceFlingerPid
        default:
            var d = Perfetto_Protos_FrameTimelineEvent.ActualDisplayFrameStart()
            d.cookie = cookie
            d.token = displayToken
            d.pid = ft.surfaceFlingerPid
            d.presentType = present(f.displayPresent)
            d.onTimeFinish = f.displayPresent != .late
            d.gpuComposition = false
            d.jankType = f.jank == .surfaceFlingerDeadlineMissed ? JankClass.surfaceFlingerDeadlineMissed.perfettoJankBit
                : JankClass.onTime.perfettoJankBit
            d.predictionType = .predictionValid
            e.actualDisplayFrameStart = d
        }
        return e
    }
}
