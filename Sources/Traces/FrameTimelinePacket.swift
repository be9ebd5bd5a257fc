import PerfettoProtos
import SimKernel

extension PerfettoImport {
    /// A FrameTimeline event's fields read here (`FrameTimelineEvent`: a
    /// timeline's start with its cookie, vsync ids, process, layer and
    /// types, or a `FrameEnd` with its cookie).
    struct TimelineEventFields: Equatable {
        /// The timeline started, or nil for a `FrameEnd`.
        var start: Timeline.Kind?
        var hasCookie = false
        var cookie: Int64 = 0
        var token: Int64 = 0
        var displayToken: Int64 = 0
        var pid: Int32 = 0
        var layer = ""
        var presentType = 0
        var jankType: Int32 = 0

        init(start: Timeline.Kind?) { self.start = start }

        /// The fields of a decoded event; nil for an event with no case set.
        init?(_ event: Perfetto_Protos_FrameTimelineEvent) {
            switch event.event {
            case .expectedDisplayFrameStart(let s)?:
                self.init(start: .expectedDisplay)
                (hasCookie, cookie, token, displayToken, pid) = (s.hasCookie, s.cookie, s.token, s.token, s.pid)
            case .actualDisplayFrameStart(let s)?:
                self.init(start: .actualDisplay)
                (hasCookie, cookie, token, displayToken, pid) = (s.hasCookie, s.cookie, s.token, s.token, s.pid)
                (presentType, jankType) = (s.presentType.rawValue, s.jankType)
            case .expectedSurfaceFrameStart(let s)?:
                self.init(start: .expectedSurface)
                (hasCookie, cookie, token, displayToken, pid, layer) = (s.hasCookie, s.cookie, s.token, s.displayFrameToken, s.pid, s.layerName)
            case .actualSurfaceFrameStart(let s)?:
                self.init(start: .actualSurface)
                (hasCookie, cookie, token, displayToken, pid, layer) = (s.hasCookie, s.cookie, s.token, s.displayFrameToken, s.pid, s.layerName)
                (presentType, jankType) = (s.presentType.rawValue, s.jankType)
            case .frameEnd(let f)?:
                self.init(start: nil)
                (hasCookie, cookie) = (f.hasCookie, f.cookie)
            case nil:
                return nil
            }
        }
    }

    /// Reads a packet that holds a FrameTimeline event and no other field
    /// read here, straight from its bytes: its timestamp and the event's
    /// fields. Nil for any other packet and for anything the full decoder
    /// may read otherwise: an event field given twice (the decoder merges
    /// or replaces), a field read of the wrong wire type, a present type
    /// outside the enum (the decoder drops it), a layer name that is not
    /// ASCII, a length past the end. Fields not read are skipped unread,
    /// as the decoder's values of them are never used.
    static func frameTimelinePacket(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int)
        -> (timestamp: UInt64, event: TimelineEventFields)? {
        var event: TimelineEventFields?
        let header = packetFields(b, from: start, to: end, reading: timelineField) { i, eventEnd in
            guard event == nil else { return false }  // given twice: the decoder merges or replaces
            var i = i
            while i < eventEnd {
                guard let tag = varint(b, &i, end: eventEnd) else { return false }
                let field = tag >> 3, wire = tag & 7
                guard (1...5).contains(field) else {
                    guard skip(b, wire, &i, eventEnd) else { return false }
                    continue
                }
                let kind: Timeline.Kind? = switch field {
                case 1: .expectedDisplay
                case 2: .actualDisplay
                case 3: .expectedSurface
                case 4: .actualSurface
                default: nil  // FrameEnd
                }
                guard wire == 2, event == nil, let m = varint(b, &i, end: eventEnd), m <= UInt64(eventEnd - i),
                      let e = timelineEvent(b, from: i, to: i + Int(m), start: kind) else { return false }
                event = e
                i += Int(m)
            }
            return event != nil
        }
        guard let header, let event else { return nil }
        return (header.timestamp, event)
    }

    /// A packet's own fields as the fast paths read them: the varints any
    /// packet may carry (timestamp 8, trusted sequence id 10, sequence
    /// flags 13, clock id 58, trusted pid 79), and the one field a path
    /// reads (`field`, length-delimited), handed to `read` with the range
    /// of its bytes each time it comes (false: the decoder must read the
    /// packet). Nil when `field` never comes, `read` refuses it, another
    /// field the importer reads is there, a field read has the wrong wire
    /// type, or a length runs past the end. Other fields are skipped.
    static func packetFields(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int, reading field: UInt64,
                             _ read: (Int, Int) -> Bool) -> (timestamp: UInt64, clock: UInt32?)? {
        var i = start, timestamp: UInt64 = 0, clock: UInt32?, seen = false
        while i < end {
            guard let tag = varint(b, &i, end: end) else { return nil }
            let f = tag >> 3, wire = tag & 7
            switch f {
            case 8, 10, 13, 58, 79:
                guard wire == 0, let v = varint(b, &i, end: end) else { return nil }
                if f == 8 { timestamp = v }
                if f == 58 { clock = UInt32(truncatingIfNeeded: v) }
            case field:
                guard wire == 2, let n = varint(b, &i, end: end), n <= UInt64(end - i), read(i, i + Int(n)) else { return nil }
                seen = true
                i += Int(n)
            default:
                // another field read: the full decoder
                guard !isRead(f), skip(b, wire, &i, end) else { return nil }
            }
        }
        return seen ? (timestamp, clock) : nil
    }

    /// One case of a FrameTimeline event (`start` nil: a `FrameEnd`), its
    /// fields by the numbers of frame_timeline_event.proto.
    private static func timelineEvent(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int,
                                      start kind: Timeline.Kind?) -> TimelineEventFields? {
        var e = TimelineEventFields(start: kind)
        let surface = kind == .expectedSurface || kind == .actualSurface
        // the field numbers of the pid, the present type and the jank type (0: none)
        let (pidField, presentField, jankField): (UInt64, UInt64, UInt64) = switch kind {
        case .expectedDisplay?: (3, 0, 0)
        case .actualDisplay?: (3, 4, 7)
        case .expectedSurface?: (4, 0, 0)
        case .actualSurface?: (4, 6, 9)
        case nil: (0, 0, 0)
        }
        var i = start
        while i < end {
            guard let tag = varint(b, &i, end: end) else { return nil }
            let field = tag >> 3, wire = tag & 7
            if field == 5 && surface {  // layer_name
                guard wire == 2, let n = varint(b, &i, end: end), n <= UInt64(end - i) else { return nil }
                let nameEnd = i + Int(n)
                for j in i..<nameEnd where b[j] >= 0x80 { return nil }
                e.layer = String(decoding: UnsafeRawBufferPointer(rebasing: b[i..<nameEnd]), as: UTF8.self)
                i = nameEnd
                continue
            }
            let read = field == 1 || (kind != nil && (field == 2 || (surface && field == 3) || field == pidField
                                                      || field == presentField || field == jankField))
            guard read else {
                guard skip(b, wire, &i, end) else { return nil }
                continue
            }
            guard wire == 0, let v = varint(b, &i, end: end) else { return nil }
            switch field {
            case 1: (e.hasCookie, e.cookie) = (true, Int64(bitPattern: v))
            case 2:
                e.token = Int64(bitPattern: v)
                if !surface { e.displayToken = e.token }
            case 3 where surface: e.displayToken = Int64(bitPattern: v)
            case pidField: e.pid = Int32(truncatingIfNeeded: v)
            case presentField:
                let p = Int(Int32(truncatingIfNeeded: v))
                guard Perfetto_Protos_FrameTimelineEvent.PresentType(rawValue: p) != nil else { return nil }
                e.presentType = p
            default: e.jankType = Int32(truncatingIfNeeded: v)
            }
        }
        return e
    }

    /// Skips a field of wire type `wire` at `i`; false when it cannot.
    static func skip(_ b: UnsafeRawBufferPointer, _ wire: UInt64, _ i: inout Int, _ end: Int) -> Bool {
        switch wire {
        case 0: return varint(b, &i, end: end) != nil
        case 1: guard end - i >= 8 else { return false }; i += 8; return true
        case 5: guard end - i >= 4 else { return false }; i += 4; return true
        case 2:
            guard let n = varint(b, &i, end: end), n <= UInt64(end - i) else { return false }
            i += Int(n)
            return true
        default: return false
        }
    }
}
