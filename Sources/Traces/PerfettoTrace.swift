import Foundation
import FramePipeline
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
        var packets: [Perfetto_Protos_TracePacket] = []
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
        packets.append(process)
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
            packets.append(p)
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
                packets.append(p)
            }
        }

        // the events, ordered so slices nest
        struct Item { var ts: SimTime; var rank: Int; var key: SimTime; var index: Int; var packet: Perfetto_Protos_TracePacket }
        var items: [Item] = []
        for (i, e) in events.enumerated() {
            var te = Perfetto_Protos_TrackEvent()
            te.categories = [e.category]
            switch e.phase {
            case "X":
                let dur = e.dur ?? 0
                te.type = .sliceBegin
                te.trackUuid = threadUUID(e.tid ?? pid)
                te.name = e.name
                te.debugAnnotations = Self.annotations(e.allArgs)
                if let id = e.bindID {
                    if e.flowOut { te.flowIds = [id] } else { te.terminatingFlowIds = [id] }
                }
                var begin = packet(e.ts)
                begin.trackEvent = te
                var endEvent = Perfetto_Protos_TrackEvent()
                endEvent.type = .sliceEnd
                endEvent.trackUuid = te.trackUuid
                var end = packet(e.ts + dur)
                end.trackEvent = endEvent
                if dur == 0 {
                    items.append(Item(ts: e.ts, rank: 1, key: 0, index: 2 * i, packet: begin))
                    items.append(Item(ts: e.ts, rank: 1, key: 0, index: 2 * i + 1, packet: end))
                } else {
                    items.append(Item(ts: e.ts, rank: 2, key: -(e.ts + dur), index: 2 * i, packet: begin))
                    items.append(Item(ts: e.ts + dur, rank: 0, key: -e.ts, index: -(2 * i + 1), packet: end))
                }
            case "i":
                te.type = .instant
                te.trackUuid = threadUUID(e.tid ?? pid)
                te.name = e.name
                te.debugAnnotations = Self.annotations(e.args)
                var p = packet(e.ts)
                p.trackEvent = te
                items.append(Item(ts: e.ts, rank: 3, key: 0, index: 2 * i, packet: p))
            case "C":
                for key in e.args.keys.sorted() {
                    guard case .number(let x) = e.args[key]!, let uuid = counterUUID["\(e.name) \(key)"] else { continue }
                    var c = Perfetto_Protos_TrackEvent()
                    c.type = .counter
                    c.trackUuid = uuid
                    c.doubleCounterValue = x
                    var p = packet(e.ts)
                    p.trackEvent = c
                    items.append(Item(ts: e.ts, rank: 4, key: 0, index: 2 * i, packet: p))
                }
            default:
                continue
            }
        }
        if let frameTimeline { items += Self.frameTimelineItems(frameTimeline, appPid: Int32(pid), packet: packet).map {
            Item(ts: $0.ts, rank: $0.rank, key: 0, index: $0.index, packet: $0.packet)
        } }
        items += InputEventTrace.items(inputEvents, packet: packet).map {
            Item(ts: $0.ts, rank: $0.rank, key: 0, index: $0.index, packet: $0.packet)
        }
        items.sort { ($0.ts, $0.rank, $0.key, $0.index) < ($1.ts, $1.rank, $1.key, $1.index) }
        if let frameTimeline {
            var sf = packet(0)
            var d = Perfetto_Protos_TrackDescriptor()
            d.uuid = 2
            d.process.pid = frameTimeline.surfaceFlingerPid
            d.process.processName = "/system/bin/surfaceflinger"
            sf.trackDescriptor = d
            packets.append(sf)
        }
        packets += items.map(\.packet)
        var trace = Perfetto_Protos_Trace()
        trace.packet = packets
        return try trace.serializedBytes()
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

    /// FrameTimeline's packets: each timeline a start event (with a cookie)
    /// at its start and a `FrameEnd` with that cookie at its end.
    static func frameTimelineItems(_ ft: FrameTimelineTracks, appPid: Int32,
                                   packet: (SimTime) -> Perfetto_Protos_TracePacket)
        -> [(ts: SimTime, rank: Int, index: Int, packet: Perfetto_Protos_TracePacket)] {
        var out: [(ts: SimTime, rank: Int, index: Int, packet: Perfetto_Protos_TracePacket)] = []
        var cookie: Int64 = 0
        func present(_ p: TimelineFrame.Present) -> Perfetto_Protos_FrameTimelineEvent.PresentType {
            switch p {
            case .onTime: return .presentOnTime
            case .late: return .presentLate
            case .early: return .presentEarly
            case .dropped: return .presentDropped
            case .unknown: return .presentUnknown
            }
        }
        func add(_ range: ClosedRange<SimTime>, _ event: Perfetto_Protos_FrameTimelineEvent) {
            cookie += 1
            var start = packet(range.lowerBound)
            start.frameTimelineEvent = event
            var end = packet(range.upperBound)
            var e = Perfetto_Protos_FrameTimelineEvent()
            e.frameEnd.cookie = cookie
            end.frameTimelineEvent = e
            out.append((range.lowerBound, 5, Int(cookie) * 2, start))
            out.append((range.upperBound, 5, Int(cookie) * 2 + 1, end))
        }
        for f in ft.frames.sorted(by: { $0.token < $1.token }) {
            let displayToken = f.token + 1_000_000_000
            if let r = f.expected {
                var e = Perfetto_Protos_FrameTimelineEvent()
                e.expectedSurfaceFrameStart.cookie = cookie + 1
                e.expectedSurfaceFrameStart.token = f.token
                e.expectedSurfaceFrameStart.displayFrameToken = displayToken
                e.expectedSurfaceFrameStart.pid = appPid
                e.expectedSurfaceFrameStart.layerName = ft.layerName
                add(r, e)
            }
            var a = Perfetto_Protos_FrameTimelineEvent.ActualSurfaceFrameStart()
            a.cookie = cookie + 1
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
            var e = Perfetto_Protos_FrameTimelineEvent()
            e.actualSurfaceFrameStart = a
            add(f.actual, e)
            if let r = f.displayExpected {
                var d = Perfetto_Protos_FrameTimelineEvent()
                d.expectedDisplayFrameStart.cookie = cookie + 1
                d.expectedDisplayFrameStart.token = displayToken
                d.expectedDisplayFrameStart.pid = ft.surfaceFlingerPid
                add(r, d)
            }
            if let r = f.displayActual {
                var d = Perfetto_Protos_FrameTimelineEvent.ActualDisplayFrameStart()
                d.cookie = cookie + 1
                d.token = displayToken
                d.pid = ft.surfaceFlingerPid
                d.presentType = present(f.displayPresent)
                d.onTimeFinish = f.displayPresent != .late
                d.gpuComposition = false
                d.jankType = f.jank == .surfaceFlingerDeadlineMissed ? JankClass.surfaceFlingerDeadlineMissed.perfettoJankBit
                    : JankClass.onTime.perfettoJankBit
                d.predictionType = .predictionValid
                var e = Perfetto_Protos_FrameTimelineEvent()
                e.actualDisplayFrameStart = d
                add(r, e)
            }
        }
        return out
    }
}
