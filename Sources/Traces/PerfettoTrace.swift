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

    /// The pid a trace gives SurfaceFlinger unless told otherwise.
    public static let defaultSurfaceFlingerPid: Int32 = 500

    public init(frames: [TimelineFrame], layerName: String, surfaceFlingerPid: Int32 = FrameTimelineTracks.defaultSurfaceFlingerPid) {
        self.frames = frames
        self.layerName = layerName
        self.surfaceFlingerPid = surfaceFlingerPid
    }
}

extension ChromeTrace {
    /// The uuid of counter series `k` (in order of first sample)'s track.
    static func counterUUID(_ k: Int) -> UInt64 { 100_000 + UInt64(k) }

    /// The trusted sequence id of every packet latsim writes.
    static let sequenceID: UInt32 = 1
    /// The bytes of packets held in memory while they are put in order
    /// (``writePerfetto(to:frameTimeline:inputEvents:sortMemoryLimit:extraPackets:)``).
    public static let sortMemoryLimit = 32 << 20

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

    /// Writes ``perfetto(frameTimeline:)``'s bytes packet by packet, each
    /// as the `Trace` message's field 1 (its tag, length and bytes, as the
    /// whole message's serialisation writes it). The track events' packets
    /// are encoded by hand (``TrackEventBytes``, the bytes SwiftProtobuf
    /// writes for the same message); the packets are put in time order by
    /// a ``PacketSorter`` holding at most `sortMemoryLimit` bytes, the rest
    /// in sorted runs in a spill file, so memory does not grow with the
    /// trace. `extraPackets`, when given, is called once after the
    /// descriptors with a function that writes a packet, for packets of
    /// other kinds.
    public func writePerfetto(to sink: ByteSink, frameTimeline: FrameTimelineTracks? = nil, inputEvents: [InputEventTouch] = [],
                              sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit,
                              extraPackets: (((Perfetto_Protos_TracePacket) throws -> Void) throws -> Void)? = nil) throws {
        let packets = NativePackets(sortMemoryLimit: sortMemoryLimit, pid: pid)
        if let frameTimeline {
            packets.frameTimeline(layerName: frameTimeline.layerName, surfaceFlingerPid: frameTimeline.surfaceFlingerPid)
            for frame in frameTimeline.frames.sortedIfNeeded(by: \.token) { try packets.add(frame) }
        }
        for touch in inputEvents { try packets.add(touch) }
        try writePerfetto(to: sink, packets: packets, extraPackets: extraPackets)
    }

    /// ``writePerfetto(to:frameTimeline:inputEvents:sortMemoryLimit:extraPackets:)``
    /// with the FrameTimeline and input-event packets already put in
    /// `packets`' sorter (a run's trace made as the run goes adds them as
    /// its frames finish); the track events join them there.
    func writePerfetto(to sink: ByteSink, packets: NativePackets,
                       extraPackets: (((Perfetto_Protos_TracePacket) throws -> Void) throws -> Void)? = nil) throws {
        func emitBytes(_ bytes: UnsafeRawBufferPointer) throws {
            // field 1 (packet), length-delimited: the tag and the length's varint
            var head: (UInt64, UInt64) = (0, 0)
            let count = withUnsafeMutableBytes(of: &head) { h in
                h[0] = 0x0A
                var n = UInt64(bytes.count), at = 1
                while n >= 0x80 { h[at] = UInt8(n & 0x7F) | 0x80; n >>= 7; at += 1 }
                h[at] = UInt8(n)
                return at + 1
            }
            try withUnsafeBytes(of: &head) { try sink.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            try sink.write(bytes)
        }
        func emit(_ p: Perfetto_Protos_TracePacket) throws {
            let bytes: [UInt8] = try p.serializedBytes()
            try bytes.withUnsafeBytes { try emitBytes($0) }
        }
        func packet(_ ts: SimTime) -> Perfetto_Protos_TracePacket {
            var p = Perfetto_Protos_TracePacket()
            p.timestamp = UInt64(max(0, ts))
            p.trustedPacketSequenceID = Self.sequenceID
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
        for (i, name) in trackNames.enumerated() {
            var d = Perfetto_Protos_TrackDescriptor()
            let tid = pid + 1 + i
            d.uuid = TrackEventPackets.threadUUID(tid)
            d.thread.pid = Int32(pid)
            d.thread.tid = Int64(tid)
            d.thread.threadName = name
            var p = packet(0)
            p.trackDescriptor = d
            try emit(p)
        }
        // one counter track per counter series, in order of first sample
        for (k, name) in counterSeries.enumerated() {
            var d = Perfetto_Protos_TrackDescriptor()
            d.uuid = Self.counterUUID(k)
            d.parentUuid = processUUID
            d.name = name
            d.counter.unit = .count
            var p = packet(0)
            p.trackDescriptor = d
            try emit(p)
        }

        // every other packet, put in order so that slices nest
        var events = TrackEventPackets(category: category, pid: pid, counterSeries: counterSeries)
        let sorter = packets.sorter
        try forEachEvent { r, mark, index in try events.add(r, mark: mark, index: index, to: sorter) }
        if let surfaceFlingerPid = packets.surfaceFlingerPid {
            var sf = packet(0)
            var d = Perfetto_Protos_TrackDescriptor()
            d.uuid = 2
            d.process.pid = surfaceFlingerPid
            d.process.processName = "/system/bin/surfaceflinger"
            sf.trackDescriptor = d
            try emit(sf)
        }
        if let extraPackets { try extraPackets(emit) }
        try sorter.forEachSorted { try emitBytes($0) }
    }

    /// A frame's four FrameTimeline timelines in the order written (the
    /// app's expected and actual, SurfaceFlinger's expected and actual),
    /// nil for those it lacks.
    static func timelines(_ f: TimelineFrame) -> [ClosedRange<SimTime>?] {
        (0..<4).map { timeline(f, $0) }
    }

    /// Timeline `which` of ``timelines(_:)``.
    static func timeline(_ f: TimelineFrame, _ which: Int) -> ClosedRange<SimTime>? {
        switch which {
        case 0: f.expected
        case 1: f.actual
        case 2: f.displayExpected
        default: f.displayActual
        }
    }
}

/// A trace's events as track-event packets, put in a ``PacketSorter`` so
/// that slices nest: by time, then rank (ends, zero-length slices, begins,
/// instants, counters; FrameTimeline and input events come after), then
/// for a slice's begin the negated end (outer first) and for its end the
/// negated begin (inner first), then the event's place (begin 2i, end
/// 2i + 1 or, for a slice with a length, -(2i + 1), where i is the
/// event's ``ChromeTrace/eventIndex(section:_:)``).
struct TrackEventPackets {
    private let categoryBytes: [UInt8]
    private let pid: Int
    private var counterUUID: [String: UInt64] = [:]
    private var body: [UInt8] = []
    private var recentSeries: [(name: [UInt8], key: [UInt8], uuid: UInt64?)] = []

    init(category: String, pid: Int, counterSeries: [String]) {
        categoryBytes = Array(category.utf8)
        self.pid = pid
        series(counterSeries)
    }

    /// The counter series known so far, in order of first sample: series
    /// k is the counter track of uuid 100,000 + k.
    mutating func series(_ names: [String]) {
        for name in names.dropFirst(counterUUID.count) { counterUUID[name] = ChromeTrace.counterUUID(counterUUID.count) }
    }

    static func threadUUID(_ tid: Int) -> UInt64 { 1_000 + UInt64(tid) }

    /// Puts event `r`'s packets (with its flow `mark`) in `sorter`.
    mutating func add(_ r: EventRecord, mark: ChromeTrace.FlowMark?, index i: Int64, to sorter: PacketSorter) throws {
        let track = Self.threadUUID(r.tid ?? pid)
        switch r.phase {
        case EventRecord.slice:
            let dur = r.dur ?? 0
            let flow = mark.map { (id: $0.id, name: $0.name, out: $0.flowOut) }
            let category = categoryBytes
            func begin(_ out: inout [UInt8]) {
                TrackEventBytes.begin(r, track: track, category: category, flow: flow, body: &body)
                TrackEventBytes.packet(ts: r.ts, body: body, into: &out)
            }
            func end(_ out: inout [UInt8]) {
                TrackEventBytes.end(track: track, body: &body)
                TrackEventBytes.packet(ts: r.ts + dur, body: body, into: &out)
            }
            if dur == 0 {
                try sorter.add(ts: r.ts, rank: 1, index: 2 * i, begin)
                try sorter.add(ts: r.ts, rank: 1, index: 2 * i + 1, end)
            } else {
                try sorter.add(ts: r.ts, rank: 2, key: -(r.ts + dur), index: 2 * i, begin)
                try sorter.add(ts: r.ts + dur, rank: 0, key: -r.ts, index: -(2 * i + 1), end)
            }
        case EventRecord.instant:
            try sorter.add(ts: r.ts, rank: 3, index: 2 * i) { out in
                TrackEventBytes.instant(r, track: track, category: categoryBytes, body: &body)
                TrackEventBytes.packet(ts: r.ts, body: body, into: &out)
            }
        default:
            try r.forEachArg { key, value in
                guard case .number(let x) = value else { return }
                // a counter's samples come one after another: a series' uuid is looked
                // up by its name when not among the few series seen last
                let uuid: UInt64?
                if let seen = recentSeries.firstIndex(where: { r.name.elementsEqual($0.name) && key.elementsEqual($0.key) }) {
                    uuid = recentSeries[seen].uuid
                } else {
                    uuid = counterUUID["\(r.nameText) \(String(decoding: key, as: UTF8.self))"]
                    if recentSeries.count == 8 { recentSeries.removeFirst() }
                    recentSeries.append((Array(r.name), Array(key), uuid))
                }
                guard let uuid else { return }
                try sorter.add(ts: r.ts, rank: 4, index: 2 * i) { out in
                    TrackEventBytes.counter(x, track: uuid, body: &body)
                    TrackEventBytes.packet(ts: r.ts, body: body, into: &out)
                }
            }
        }
    }
}

/// A native trace's ``PacketSorter`` and the packets put in it before the
/// track events: an Android run's FrameTimeline and input-event packets,
/// added as they come (frames in increasing token, touches in order), so
/// that neither list is held. The track events join them when the trace
/// is written.
final class NativePackets {
    let sorter: PacketSorter
    let pid: Int
    /// The app layer's name and SurfaceFlinger's pid, once FrameTimeline's packets are written.
    private var tracks = FrameTimelineTracks(frames: [], layerName: "")
    private(set) var surfaceFlingerPid: Int32?
    // one thread makes the packets at a time (the run's, or the one that
    // writes settled events): no run-time exclusivity checks on every packet
    @exclusivity(unchecked) private var cookie: Int64 = 0
    @exclusivity(unchecked) private var touches: Int64 = 0
    /// The gesture's touch-down, for the arrivals' events.
    @exclusivity(unchecked) private var downTime: SimTime?
    @exclusivity(unchecked) private var start: [UInt8] = [], body: [UInt8] = []

    /// Where packets go while set (``batch(_:)``), instead of the sorter.
    @exclusivity(unchecked) private var batch: PacketBatch?

    init(sortMemoryLimit: Int, pid: Int) {
        sorter = PacketSorter(memoryLimit: sortMemoryLimit)
        self.pid = pid
    }

    private func place(ts: SimTime, rank: UInt8, index: Int64, _ write: (inout [UInt8]) throws -> Void) throws {
        if batch != nil { return try batch!.add(ts: ts, rank: rank, index: index, write) }
        try sorter.add(ts: ts, rank: rank, index: index, write)
    }

    /// The packets `work` makes, encoded and kept in order, for the sorter
    /// later (``PacketBatch/add(to:)``): a trace written as its run goes
    /// makes them on the run's thread and sorts them on the other.
    func batch(_ work: () throws -> Void) rethrows -> PacketBatch {
        batch = PacketBatch()
        defer { batch = nil }
        try work()
        return batch!
    }

    /// The packets of an Android run of `c`: with FrameTimeline (from
    /// Android 12) its timelines as well as the input events.
    convenience init(_ c: PipelineConfiguration, scenario: String, sortMemoryLimit: Int, pid: Int) {
        self.init(sortMemoryLimit: sortMemoryLimit, pid: pid)
        if c.android.version.hasFrameTimeline {
            frameTimeline(layerName: "latsim \(scenario)#0", surfaceFlingerPid: FrameTimelineTracks.defaultSurfaceFlingerPid)
        }
    }

    /// The FrameTimeline packets of frames logged in increasing vsync id
    /// (``AndroidTraceExport/timelineFrame(_:timing:)``).
    func add(_ frames: ArraySlice<AndroidFrameLog.Frame>, timing: AndroidTiming) throws {
        guard surfaceFlingerPid != nil else { return }
        for f in frames {
            if let frame = AndroidTraceExport.timelineFrame(f, timing: timing) { try add(frame) }
        }
    }

    /// Writes FrameTimeline's packets (``add(_:)-frame``) for `layerName`.
    func frameTimeline(layerName: String, surfaceFlingerPid: Int32) {
        tracks = FrameTimelineTracks(frames: [], layerName: layerName, surfaceFlingerPid: surfaceFlingerPid)
        self.surfaceFlingerPid = surfaceFlingerPid
    }

    /// A frame's timelines: each a start (index 2 x cookie) and an end
    /// (2 x cookie + 1), cookies counting up in the order added.
    func add(_ frame: TimelineFrame) throws {
        for which in 0..<4 {
            guard let range = ChromeTrace.timeline(frame, which) else { continue }
            cookie += 1
            start.removeAll(keepingCapacity: true)
            TimelineBytes.start(frame, which: which, cookie: cookie, ft: tracks, appPid: Int32(pid), into: &start, body: &body)
            let cookie = self.cookie
            try place(ts: range.lowerBound, rank: 5, index: cookie * 2) {
                TimelineBytes.packet(ts: range.lowerBound, event: start, into: &$0)
            }
            try place(ts: range.upperBound, rank: 5, index: cookie * 2 + 1) {
                TimelineBytes.end(ts: range.upperBound, cookie: cookie, into: &$0)
            }
        }
    }

    /// The packets of a sample's arrival at the app (``InputEventTrace/touch(_:downTime:)``).
    func add(arrival r: AndroidFrameLog.Arrival) throws {
        if r.down { downTime = r.ready }
        try add(InputEventTrace.touch(r, downTime: downTime))
    }

    /// A touch's motion event and then its dispatch, at the dispatch, after
    /// the other packets of that instant.
    func add(_ touch: InputEventTouch) throws {
        for j in 0..<2 {
            try place(ts: touch.dispatch, rank: 6, index: 2 * touches + Int64(j)) { InputEventBytes.packet(touch, which: j, into: &$0) }
        }
        touches += 1
    }
}

/// A track event's packet encoded by hand: the bytes SwiftProtobuf writes
/// for the same `TracePacket` (fields in number order, proto2 presence,
/// flow ids unpacked), without building the message. `TracePacket`:
/// timestamp (8), trusted_packet_sequence_id (10), track_event (11).
/// `TrackEvent`: debug_annotations (4), type (9), track_uuid (11),
/// categories (22), name (23), double_counter_value (44), flow_ids (47),
/// terminating_flow_ids (48). `DebugAnnotation`: int_value (4),
/// double_value (5), string_value (6), name (10).
enum TrackEventBytes {
    /// The packet at `ts` (clamped to 0) on latsim's sequence carrying
    /// `body` as its length-delimited field number `field`: the one packet
    /// header of every hand-encoded packet (track events, FrameTimeline,
    /// input events).
    static func packet(ts: SimTime, field: UInt64, body: [UInt8], into out: inout [UInt8]) {
        header(ts: ts, field: field, length: body.count, into: &out)
        out.append(contentsOf: body)
    }

    /// A packet's bytes up to its field's body, which is `length` bytes
    /// and comes next.
    static func header(ts: SimTime, field: UInt64, length: Int, into out: inout [UInt8]) {
        out.append(0x40)
        ProtoBytes.varint(UInt64(max(0, ts)), into: &out)
        out.append(0x50)
        ProtoBytes.varint(UInt64(ChromeTrace.sequenceID), into: &out)
        ProtoBytes.varint(field << 3 | 2, into: &out)
        ProtoBytes.varint(UInt64(length), into: &out)
    }

    /// The packet at `ts` carrying the track event `body` (field 11).
    static func packet(ts: SimTime, body: [UInt8], into out: inout [UInt8]) {
        packet(ts: ts, field: 11, body: body, into: &out)
    }

    /// A slice's begin: its args (and its flow's name) as annotations, its
    /// track, category and name, its flow id (`flow_ids` when the flow goes
    /// on from it, `terminating_flow_ids` on its last slice).
    static func begin(_ r: EventRecord, track: UInt64, category: [UInt8], flow: (id: UInt64, name: String, out: Bool)?,
                      body: inout [UInt8]) {
        body.removeAll(keepingCapacity: true)
        annotations(r, flowName: flow?.name, into: &body)
        body.append(contentsOf: [0x48, 1])  // TYPE_SLICE_BEGIN
        named(r, track: track, category: category, into: &body)
        if let flow {
            body.append(contentsOf: flow.out ? [0xF9, 0x02] : [0x81, 0x03])
            withUnsafeBytes(of: flow.id.littleEndian) { body.append(contentsOf: $0) }
        }
    }

    /// A slice's end on `track`.
    static func end(track: UInt64, body: inout [UInt8]) {
        body.removeAll(keepingCapacity: true)
        body.append(contentsOf: [0x48, 2])  // TYPE_SLICE_END
        body.append(0x58)
        ProtoBytes.varint(track, into: &body)
    }

    /// An instant with its args.
    static func instant(_ r: EventRecord, track: UInt64, category: [UInt8], body: inout [UInt8]) {
        body.removeAll(keepingCapacity: true)
        annotations(r, flowName: nil, into: &body)
        body.append(contentsOf: [0x48, 3])  // TYPE_INSTANT
        named(r, track: track, category: category, into: &body)
    }

    /// A counter's value on its track.
    static func counter(_ x: Double, track: UInt64, body: inout [UInt8]) {
        body.removeAll(keepingCapacity: true)
        body.append(contentsOf: [0x48, 4])  // TYPE_COUNTER
        body.append(0x58)
        ProtoBytes.varint(track, into: &body)
        body.append(contentsOf: [0xE1, 0x02])
        withUnsafeBytes(of: x.bitPattern.littleEndian) { body.append(contentsOf: $0) }
    }

    private static func named(_ r: EventRecord, track: UInt64, category: [UInt8], into body: inout [UInt8]) {
        body.append(0x58)
        ProtoBytes.varint(track, into: &body)
        body.append(contentsOf: [0xB2, 0x01])
        ProtoBytes.varint(UInt64(category.count), into: &body)
        body.append(contentsOf: category)
        body.append(contentsOf: [0xBA, 0x01])
        ProtoBytes.varint(UInt64(r.name.count), into: &body)
        body.append(contentsOf: r.name)
    }

    private static func annotations(_ r: EventRecord, flowName: String?, into body: inout [UInt8]) {
        r.forEachArg(flowName: flowName) { key, value in
            let valueSize: Int
            switch value {
            case .string(let b): valueSize = 1 + ProtoBytes.varintSize(UInt64(b.count)) + b.count
            case .integer(let n): valueSize = 1 + ProtoBytes.varintSize(UInt64(bitPattern: n))
            case .number: valueSize = 9
            }
            body.append(0x22)
            ProtoBytes.varint(UInt64(valueSize + 1 + ProtoBytes.varintSize(UInt64(key.count)) + key.count), into: &body)
            switch value {
            case .string(let b):
                body.append(0x32)
                ProtoBytes.varint(UInt64(b.count), into: &body)
                body.append(contentsOf: b)
            case .integer(let n):
                body.append(0x20)
                ProtoBytes.varint(UInt64(bitPattern: n), into: &body)
            case .number(let x):
                body.append(0x29)
                withUnsafeBytes(of: x.bitPattern.littleEndian) { body.append(contentsOf: $0) }
            }
            body.append(0x52)
            ProtoBytes.varint(UInt64(key.count), into: &body)
            body.append(contentsOf: key)
        }
    }
}

/// FrameTimeline's packets wrapped by hand: the bytes SwiftProtobuf writes
/// for a `TracePacket` of timestamp (8), trusted_packet_sequence_id (10)
/// and frame_timeline_event (76); a `FrameEnd` (event 5, cookie 1) is
/// encoded whole.
enum TimelineBytes {
    /// The packet at `ts` (clamped to 0) carrying the serialised `event`.
    static func packet(ts: SimTime, event: [UInt8], into out: inout [UInt8]) {
        TrackEventBytes.packet(ts: ts, field: 76, body: event, into: &out)  // frame_timeline_event
    }

    /// FrameTimeline's start event of timeline `which` (``ChromeTrace/timelines(_:)``)
    /// with its `cookie`: the bytes SwiftProtobuf writes for
    /// the same message (fields in number order, each set one written;
    /// `TimelineBytesTests` builds the message and compares). `FrameTimelineEvent`:
    /// expected_display_frame_start (1), actual_display_frame_start (2),
    /// expected_surface_frame_start (3), actual_surface_frame_start (4).
    /// A surface frame: cookie (1), token (2), display_frame_token (3),
    /// pid (4), layer_name (5), then for the actual one present_type (6),
    /// on_time_finish (7), gpu_composition (8), jank_type (9),
    /// prediction_type (10), is_buffer (11). A display frame: cookie (1),
    /// token (2), pid (3), then for the actual one present_type (4),
    /// on_time_finish (5), gpu_composition (6), jank_type (7),
    /// prediction_type (8).
    static func start(_ f: TimelineFrame, which: Int, cookie: Int64, ft: FrameTimelineTracks, appPid: Int32,
                      into out: inout [UInt8]) {
        var body: [UInt8] = []
        start(f, which: which, cookie: cookie, ft: ft, appPid: appPid, into: &out, body: &body)
    }

    /// ``start(_:which:cookie:ft:appPid:into:)`` with the event's body made
    /// in `body`, a buffer the caller keeps (emptied first).
    static func start(_ f: TimelineFrame, which: Int, cookie: Int64, ft: FrameTimelineTracks, appPid: Int32,
                      into out: inout [UInt8], body: inout [UInt8]) {
        func present(_ p: TimelineFrame.Present) -> UInt64 {
            switch p {
            case .onTime: return 1
            case .late: return 2
            case .early: return 3
            case .dropped: return 4
            case .unknown: return 5
            }
        }
        func int(_ field: UInt64, _ v: Int64, _ o: inout [UInt8]) {
            ProtoBytes.varint(field << 3, into: &o)
            ProtoBytes.varint(UInt64(bitPattern: v), into: &o)
        }
        let displayToken = f.token + 1_000_000_000
        body.removeAll(keepingCapacity: true)
        let field: UInt64
        switch which {
        case 0, 1:
            field = which == 0 ? 3 : 4
            int(1, cookie, &body)
            int(2, f.token, &body)
            int(3, displayToken, &body)
            int(4, Int64(appPid), &body)
            ProtoBytes.varint(5 << 3 | 2, into: &body)
            ProtoBytes.varint(UInt64(ft.layerName.utf8.count), into: &body)
            body.append(contentsOf: ft.layerName.utf8)
            if which == 1 {
                int(6, Int64(present(f.present)), &body)
                int(7, f.onTimeFinish ? 1 : 0, &body)
                int(8, 0, &body)
                int(9, Int64(f.jank.perfettoJankBit), &body)
                int(10, f.expected == nil ? 3 : 1, &body)
                int(11, 1, &body)
            }
        default:
            field = which == 2 ? 1 : 2
            int(1, cookie, &body)
            int(2, displayToken, &body)
            int(3, Int64(ft.surfaceFlingerPid), &body)
            if which == 3 {
                int(4, Int64(present(f.displayPresent)), &body)
                int(5, f.displayPresent != .late ? 1 : 0, &body)
                int(6, 0, &body)
                let jank = f.jank == .surfaceFlingerDeadlineMissed ? JankClass.surfaceFlingerDeadlineMissed : JankClass.onTime
                int(7, Int64(jank.perfettoJankBit), &body)
                int(8, 1, &body)
            }
        }
        ProtoBytes.varint(field << 3 | 2, into: &out)
        ProtoBytes.varint(UInt64(body.count), into: &out)
        out.append(contentsOf: body)
    }

    /// The `FrameEnd` of the timeline started with `cookie`, at `ts`.
    static func end(ts: SimTime, cookie: Int64, into out: inout [UInt8]) {
        // frame_end (5) { cookie (1) }, written in place
        let end = 1 + ProtoBytes.varintSize(UInt64(bitPattern: cookie))
        TrackEventBytes.header(ts: ts, field: 76, length: 1 + ProtoBytes.varintSize(UInt64(end)) + end, into: &out)
        out.append(0x2A)
        ProtoBytes.varint(UInt64(end), into: &out)
        out.append(0x08)
        ProtoBytes.varint(UInt64(bitPattern: cookie), into: &out)
    }
}

/// Packets encoded with their places in the file (``PacketSorter``'s
/// keys but the order of adding), put in a sorter later in the order made.
final class PacketBatch: @unchecked Sendable {
    // one thread at a time: no run-time exclusivity checks on every packet
    @exclusivity(unchecked) private var bytes: [UInt8] = []
    @exclusivity(unchecked) private var packets: [(ts: SimTime, rank: UInt8, index: Int64, end: Int)] = []

    func add(ts: SimTime, rank: UInt8, index: Int64, _ write: (inout [UInt8]) throws -> Void) throws {
        try write(&bytes)
        packets.append((ts, rank, index, bytes.count))
    }

    /// Puts the packets in `sorter`, in the order made.
    func add(to sorter: PacketSorter) throws {
        try bytes.withUnsafeBytes { b in
            var start = 0
            for p in packets {
                try sorter.add(ts: p.ts, rank: p.rank, index: p.index) { $0.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[start..<p.end])) }
                start = p.end
            }
        }
    }
}
