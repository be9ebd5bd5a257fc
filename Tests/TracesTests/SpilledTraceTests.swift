import Foundation
import FramePipeline
@testable import LatsimOutput
import PerfettoProtos
import SimKernel
import Testing
@testable import Traces

/// A trace too large for memory: its events go to a spill file, its
/// packets are sorted in runs merged at the end, and the files written are
/// the bytes of a trace held in memory.
@Suite("Spilled traces")
struct SpilledTraceTests {
    /// Every run of ``StreamedTraceTests/cases`` (iOS, Android,
    /// front-buffered ink, a display changing its rate), written with
    /// 512 bytes of events and 1 KiB of packets in memory, gives the bytes
    /// written with the defaults (which hold these short runs in memory).
    @Test(arguments: 0..<4)
    func aSpilledTraceWritesTheBytesOfAnInMemoryOne(k: Int) throws {
        let (name, device) = StreamedTraceTests.cases[k]
        let r = try StreamedTraceTests.run(name, device: device)
        let small = try #require(PipelineTraceExport.trace(r, scenario: name, memoryLimit: 512))
        let whole = try #require(PipelineTraceExport.trace(r, scenario: name))
        #expect(small.spilled)
        #expect(!whole.spilled)
        #expect(small.json() == whole.json())

        let spilledSink = ByteSink.memory(), wholeSink = ByteSink.memory()
        try PipelineTraceExport.writePerfetto(r, scenario: name, to: spilledSink, memoryLimit: 512, sortMemoryLimit: 1024)
        try PipelineTraceExport.writePerfetto(r, scenario: name, to: wholeSink)
        #expect(spilledSink.bytes == wholeSink.bytes)
        #expect(spilledSink.count > 10 * 1024)  // so the sort wrote ten runs or more
    }

    /// A random trace whose events hold everything a record can (escapes,
    /// non-ASCII text, negative and large integers, keys on either side of
    /// `flow` and `flow` itself, colours, no args, non-finite counter
    /// values), with flows through some of its slices.
    static func randomTrace(events: Int, seed: UInt64, memoryLimit: Int) -> ChromeTrace {
        var rng = SeededRandom(seed: seed)
        var t = ChromeTrace(processName: "random \"trace\"", memoryLimit: memoryLimit)
        let tracks = (0..<3).map { t.track(named: "track \($0)") }
        let keys = ["a", "flo", "flow", "flowz", "zeta", "é accent", "tab\there"]
        let texts = ["plain", "quote \" and \\ backslash", "new\nline", "ünïcödé ✓", ""]
        var slices: [ChromeTrace.SliceRef] = []
        for i in 0..<events {
            var args: [String: TraceValue] = [:]
            for _ in 0..<Int(rng.next() % 4) {
                let key = keys[Int(rng.next() % UInt64(keys.count))]
                switch rng.next() % 3 {
                case 0: args[key] = .string(texts[Int(rng.next() % UInt64(texts.count))])
                case 1: args[key] = .integer(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64))
                default: args[key] = .number(Double(Int64(rng.next() % 2_000_000)) / 1e3 - 1_000)
                }
            }
            let ts = SimTime(rng.next() % 1_000_000_000) - 1_000
            let track = tracks[Int(rng.next() % 3)]
            let name = "event \(i) \(texts[i % texts.count])"
            switch rng.next() % 4 {
            case 0, 1:
                let color: String? = rng.next() % 2 == 0 ? nil : "good"
                slices.append(t.slice(track, name: TraceName(name), startNs: ts, durationNs: SimTime(rng.next() % 50_000_000) - 10_000_000,
                                      args: TraceArgs(args), color: color))
            case 2:
                t.instant(track, name: TraceName(name), atNs: ts, args: TraceArgs(args))
            default:
                t.counter(rng.next() % 2 == 0 ? "buffers" : "rate", atNs: ts,
                          values: ["in use": Double(rng.next() % 4), "allocated": Double(rng.next() % 5), "bad": .nan])
            }
        }
        var id: UInt64 = 1
        var at = 0
        while at + 3 < slices.count {
            let n = 2 + Int(rng.next() % 3)
            t.flow(id: id, name: "touch \(id) ✓", through: Array(slices[at..<(at + n)]))
            id += 1
            at += n + Int(rng.next() % 3)
        }
        return t
    }

    /// The JSON of a random trace, spilled or not, is each event written
    /// by the plain definition of an event's line (``referenceLine(_:pid:)``),
    /// and the file is valid JSON.
    @Test(arguments: [UInt64(1), 2, 3])
    func randomEventsWriteTheirReferenceLines(seed: UInt64) throws {
        let spilled = Self.randomTrace(events: 3_000, seed: seed, memoryLimit: 700)
        let held = Self.randomTrace(events: 3_000, seed: seed, memoryLimit: ChromeTrace.memoryLimit)
        #expect(spilled.spilled)
        let json = spilled.json()
        #expect(json == held.json())
        #expect(try JSONSerialization.jsonObject(with: json) is [String: Any])
        let text = String(decoding: json, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let events = spilled.events
        let metadata = 2 + 2 * spilled.trackNames.count
        #expect(lines.count == 1 + metadata + events.count + 3)
        for (i, e) in events.enumerated() {
            var line = String(lines[1 + metadata + i])
            if line.hasSuffix(",") { line.removeLast() }
            #expect(line == Self.referenceLine(e, pid: spilled.pid), "event \(i)")
        }
    }

    /// The Perfetto trace of a random trace, spilled and sorted in runs or
    /// not, is the same bytes; decoded as a `Trace` message and serialised
    /// again by SwiftProtobuf it comes back (the hand-encoded packets are
    /// what SwiftProtobuf writes); each slice's begin carries its name,
    /// args (with the flow's name) and flow id as the events say.
    @Test(arguments: [UInt64(4), 5])
    func randomEventsEncodeAsSwiftProtobufDoes(seed: UInt64) throws {
        let spilled = Self.randomTrace(events: 2_000, seed: seed, memoryLimit: 500)
        let held = Self.randomTrace(events: 2_000, seed: seed, memoryLimit: ChromeTrace.memoryLimit)
        let small = ByteSink.memory()
        try spilled.writePerfetto(to: small, sortMemoryLimit: 4096)
        let bytes = try held.perfetto()
        #expect(small.bytes == bytes)
        let message = try Perfetto_Protos_Trace(serializedBytes: bytes)
        #expect(try message.serializedBytes() == [UInt8](bytes))

        let events = held.events
        var byName: [String: ChromeTrace.Event] = [:]
        for e in events where e.phase != "C" { byName[e.name] = e }
        var begins = 0, counters = 0
        var lastTime: UInt64 = 0
        for p in message.packet {
            guard case .trackEvent(let te)? = p.data else { continue }
            #expect(p.timestamp >= lastTime)
            lastTime = p.timestamp
            switch te.type {
            case .sliceBegin, .instant:
                let e = try #require(byName[te.name])
                if te.type == .sliceBegin { begins += 1 }
                #expect(p.timestamp == UInt64(max(0, e.ts)))
                #expect(te.categories == [held.category])
                let args = te.type == .sliceBegin ? e.allArgs : e.args
                #expect(te.debugAnnotations.map(\.name) == args.keys.sorted())
                for a in te.debugAnnotations {
                    switch args[a.name]! {
                    case .string(let s): #expect(a.stringValue == s)
                    case .integer(let n): #expect(a.intValue == n)
                    case .number(let x): #expect(a.doubleValue == x)
                    }
                }
                if let id = e.bindID, te.type == .sliceBegin {
                    #expect((e.flowOut ? te.flowIds : te.terminatingFlowIds) == [id])
                } else {
                    #expect(te.flowIds.isEmpty && te.terminatingFlowIds.isEmpty)
                }
            case .counter:
                counters += 1
            default:
                break
            }
        }
        #expect(begins == events.filter { $0.phase == "X" }.count)
        #expect(counters == 2 * events.filter { $0.phase == "C" }.count)
    }

    /// The sorter in runs of a few hundred bytes gives the order of a
    /// stable sort of every key, ties kept in the order added.
    @Test func runsMergeToTheOrderOfOneStableSort() throws {
        var rng = SeededRandom(seed: 9)
        let sorter = PacketSorter(memoryLimit: 300)
        var keys: [(ts: SimTime, rank: UInt8, key: Int64, index: Int64, n: Int)] = []
        for n in 0..<5_000 {
            let k = (ts: SimTime(rng.next() % 50), rank: UInt8(rng.next() % 3), key: Int64(rng.next() % 3) - 1,
                     index: Int64(rng.next() % 4), n: n)
            keys.append(k)
            try sorter.add(ts: k.ts, rank: k.rank, key: k.key, index: k.index) { out in
                var v = UInt32(n).littleEndian
                withUnsafeBytes(of: &v) { out.append(contentsOf: $0) }
                out.append(contentsOf: [UInt8](repeating: UInt8(n % 251), count: n % 7))  // packets of several lengths
            }
        }
        #expect(sorter.runCount > 100)
        var order: [Int] = []
        try sorter.forEachSorted { b in
            let n = Int(b.loadUnaligned(as: UInt32.self))
            #expect(b.count == 4 + n % 7)
            #expect(b.dropFirst(4).allSatisfy { $0 == UInt8(n % 251) })
            order.append(n)
        }
        let expected = keys.sorted { ($0.ts, $0.rank, $0.key, $0.index, $0.n) < ($1.ts, $1.rank, $1.key, $1.index, $1.n) }.map(\.n)
        #expect(order == expected)
    }

    /// Records of any length, some longer than the reader's buffer, read
    /// back in order from memory and from the spill file.
    @Test func recordsComeBackInOrder() throws {
        var rng = SeededRandom(seed: 3)
        let log = RecordLog(memoryLimit: 64)
        var records: [[UInt8]] = []
        for i in 0..<2_000 {
            let n = i % 97 == 0 ? 3_000 + Int(rng.next() % 3_000) : Int(rng.next() % 40)
            let r = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            records.append(r)
            r.withUnsafeBytes { log.append($0) }
        }
        #expect(log.spilled)
        #expect(log.count == records.count)
        var read: [[UInt8]] = []
        try log.forEach { read.append([UInt8]($0)) }
        #expect(read == records)
        // a copy reads the same
        var copied: [[UInt8]] = []
        try log.copy().forEach { copied.append([UInt8]($0)) }
        #expect(copied == records)
    }

    /// Records taken from the front (``RecordLog/take(_:into:)``), from
    /// the spill file, from memory and across the two, come out in order
    /// and are gone: what stays is read as before, appended to, and copied
    /// with its numbering.
    @Test func takenRecordsLeaveTheRest() throws {
        var rng = SeededRandom(seed: 9)
        let log = RecordLog(memoryLimit: 256)
        var records: [[UInt8]] = []
        func add(_ n: Int) {
            for _ in 0..<n {
                let r = (0..<Int(rng.next() % 30)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                records.append(r)
                if rng.next() % 2 == 0 {
                    r.withUnsafeBytes { log.append($0) }
                } else {
                    log.append { out in r.withUnsafeBytes { out.append($0) } }
                }
            }
        }
        func held() throws -> [[UInt8]] {
            var all: [[UInt8]] = []
            try log.forEach { all.append([UInt8]($0)) }
            return all
        }
        var taken: [[UInt8]] = []
        add(300)
        #expect(log.spilled)
        for n in [0, 1, 37, 150, 5] {
            var out = RawBytes()
            try log.take(n, into: &out)
            var at = 0
            let b = out.bytes
            while at < b.count {
                let length = Int(b.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
                taken.append([UInt8](UnsafeRawBufferPointer(rebasing: b[(at + 4)..<(at + 4 + length)])))
                at += 4 + length
            }
            #expect(log.taken == taken.count)
            #expect(try held() == Array(records[taken.count...]))
            add(20)
        }
        #expect(taken == Array(records[..<taken.count]))
        var cursor = try log.cursor()
        var read: [[UInt8]] = []
        while let r = try cursor.next({ [UInt8]($0) }) { read.append(r) }
        #expect(read == Array(records[taken.count...]))
        let copy = log.copy()
        #expect(copy.taken == log.taken && copy.count == log.count)
        var copied: [[UInt8]] = []
        try copy.forEach { copied.append([UInt8]($0)) }
        #expect(copied == read)
    }

    /// A trace copied and then changed leaves the original as it was.
    @Test func aCopiedTraceIsItsOwn() throws {
        let original = Self.randomTrace(events: 500, seed: 11, memoryLimit: 300)
        let before = original.json()
        var copy = original
        copy.instant(ChromeTrace.TrackID(tid: 2), name: "added", atNs: 5)
        #expect(original.json() == before)
        #expect(copy.eventCount == original.eventCount + 1)
        #expect(copy.json() != before)
    }

    /// No spill file in a directory that cannot take one: an environment
    /// error naming the directory.
    @Test func aSpillFileNeedsAWritableDirectory() {
        #expect {
            _ = try SpillFile(directory: "/nonexistent/latsim")
        } throws: { error in
            guard let e = error as? LatsimError else { return false }
            return e.kind == .environment && e.file == "/nonexistent/latsim" && e.description.contains("temporary file")
        }
    }

    /// The dense index reads back what a dictionary would, for keys that
    /// count up, keys far apart, negative keys, values overwritten and
    /// removed.
    @Test func aDenseIndexReadsAsADictionary() {
        var rng = SeededRandom(seed: 21)
        var dense = DenseIndex()
        var plain: [Int64: Int] = [:]
        for step in 0..<20_000 {
            let key: Int64
            switch rng.next() % 10 {
            case 0: key = -Int64(rng.next() % 100) - 1
            case 1: key = Int64(rng.next() % 1_000_000_000)
            default: key = Int64(step) * 3 + 200_000 + Int64(rng.next() % 7)
            }
            let value: Int? = rng.next() % 8 == 0 ? nil : Int(rng.next() % 1_000_000)
            dense[key] = value
            plain[key] = value
            if step % 1_000 == 0 {
                for (k, v) in plain { #expect(dense[k] == v) }
            }
        }
        for (k, v) in plain { #expect(dense[k] == v) }
        for k in Int64(0)..<Int64(300) where plain[k] == nil { #expect(dense[k] == nil) }
    }

    /// A touch's packets encoded by hand are the bytes SwiftProtobuf
    /// writes for ``InputEventTrace/packets(for:packet:)``: each action,
    /// with and without a touch-down, times before 0, ids past 2^31,
    /// negative and fractional positions.
    @Test func inputEventPacketsEncodeAsSwiftProtobufDoes() throws {
        var rng = SeededRandom(seed: 5)
        let actions: [InputEventTouch.Action] = [.down, .move, .up]
        for i in 0..<500 {
            let time = SimTime(Int64(rng.next() % 4_000_000_000_000)) - 1_000_000
            let touch = InputEventTouch(eventID: i == 0 ? .max : UInt32(truncatingIfNeeded: rng.next()), eventTime: time,
                                        downTime: i % 3 == 0 ? nil : time - SimTime(rng.next() % 1_000_000_000),
                                        dispatch: time + SimTime(rng.next() % 20_000_000), action: actions[i % 3],
                                        x: (rng.nextUnit() - 0.2) * 2_000, y: i == 1 ? 0 : rng.nextUnit() * 3_000)
            let reference = InputEventTrace.packets(for: touch) { ts in
                var p = Perfetto_Protos_TracePacket()
                p.timestamp = UInt64(max(0, ts))
                p.trustedPacketSequenceID = ChromeTrace.sequenceID
                return p
            }
            for j in 0..<2 {
                var bytes: [UInt8] = [7]  // appended after what the buffer holds
                InputEventBytes.packet(touch, which: j, into: &bytes)
                #expect(bytes == [7] + (try reference[j].serializedBytes() as [UInt8]), "touch \(i) packet \(j)")
            }
        }
    }

    /// FrameTimeline's packets wrapped by hand are the bytes SwiftProtobuf
    /// writes for the whole packet: each timeline of frames with and
    /// without their expected and display timelines, cookies and times
    /// small and large, times before 0.
    @Test func timelinePacketsEncodeAsSwiftProtobufDoes() throws {
        func packet(_ ts: SimTime, _ e: Perfetto_Protos_FrameTimelineEvent) throws -> [UInt8] {
            var p = Perfetto_Protos_TracePacket()
            p.timestamp = UInt64(max(0, ts))
            p.trustedPacketSequenceID = ChromeTrace.sequenceID
            p.frameTimelineEvent = e
            return try p.serializedBytes()
        }
        let ft = FrameTimelineTracks(frames: [], layerName: "latsim ünïcode#0")
        let times: [SimTime] = [-5, 0, 1, 16_666_667, 3_600_000_000_000, SimTime.max / 2]
        for (i, ts) in times.enumerated() {
            let f = TimelineFrame(token: Int64(i) * 1_000_003, expected: i % 2 == 0 ? nil : ts...(ts + 1), actual: ts...(ts + 5),
                                  displayExpected: i == 3 ? nil : ts...ts, displayActual: ts...(ts + 9),
                                  present: [.onTime, .late, .early, .dropped, .unknown][i % 5],
                                  jank: i % 2 == 0 ? .onTime : .surfaceFlingerDeadlineMissed, onTimeFinish: i % 3 == 0,
                                  displayPresent: i % 2 == 0 ? .onTime : .late)
            for which in 0..<4 {
                let cookie = Int64(i) << (8 * which)
                let event = ChromeTrace.timelineStart(f, which: which, cookie: cookie, ft: ft, appPid: 42)
                var start: [UInt8] = [1, 2]
                TimelineBytes.packet(ts: ts, event: try event.serializedBytes(), into: &start)
                #expect(start == [1, 2] + (try packet(ts, event)))
                var e = Perfetto_Protos_FrameTimelineEvent()
                e.frameEnd.cookie = cookie
                var end: [UInt8] = []
                TimelineBytes.end(ts: ts, cookie: cookie, into: &end)
                #expect(end == (try packet(ts, e)))
            }
        }
    }

    /// Numbers written as bytes are ``formatDecimal(_:places:fixed:)``'s
    /// text with 6 places: integers, millionths, halves of a millionth,
    /// numbers past 2^52 millionths and past 2^53, negative zero, tiny
    /// numbers, and random bit patterns.
    @Test func numbersAreWrittenAsFormatDecimalWritesThem() {
        var rng = SeededRandom(seed: 17)
        var xs: [Double] = [0, -0.0, 1, -1, 0.5, 1e-7, -1e-7, 4.9999995e-7, 5e-7, 1.0000005, 123.456789, -123.4567895,
                            4_000_000_000.000001, 4.5e9, 9.1e9, 1e15, 1e16, -1e17, 1e300, .greatestFiniteMagnitude,
                            .leastNonzeroMagnitude, .nan, .infinity, -.infinity, 16.666667, 0.1 + 0.2]
        for _ in 0..<20_000 {
            xs.append(Double(Int64(bitPattern: rng.next()) % 10_000_000_000) / 1_000_000)
            xs.append(Double(bitPattern: rng.next()))
            xs.append((rng.nextUnit() - 0.5) * pow(10, Double(rng.next() % 24)))
        }
        for x in xs {
            var out = JSONBytes()
            out.number(x)
            let expected = x.isFinite ? formatDecimal(x, places: 6) : "null"
            #expect(out.text == expected, "\(x.bitPattern)")
        }
    }

    /// Integers are written digit by digit as bytes: the text Swift's
    /// description gives, at every length and sign, and past the buffer's
    /// first size (it grows).
    @Test func integersAreTheirDescriptions() {
        var rng = SeededRandom(seed: 23)
        var ns: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1]
        for _ in 0..<20_000 { ns.append(Int64(bitPattern: rng.next()) >> (rng.next() % 64)) }
        var out = JSONBytes()
        var expected = ""
        for n in ns {
            out.integer(n)
            out.literal(",")
            expected += "\(n),"
        }
        out.decimal(UInt64.max)
        expected += "\(UInt64.max)"
        #expect(out.text == expected)
        #expect(expected.utf8.count > 1 << 17)
    }

    /// An event's name written from its parts is the text Swift's own
    /// interpolation makes: literals, one and two integers (every length
    /// and sign, the extremes), and the names made as text (three integers,
    /// a string, a number too large for 64 bits).
    @Test func namesAreTheirInterpolations() {
        func written(_ n: TraceName) -> String {
            var out = RawBytes()
            n.write(into: &out)
            var at = 0
            let length = Int(ProtoBytes.readVarint(out.bytes, &at))
            #expect(at + length == out.count)
            return String(decoding: UnsafeRawBufferPointer(rebasing: out.bytes[at...]), as: UTF8.self)
        }
        var rng = SeededRandom(seed: 31)
        var ns: [Int64] = [0, 1, -1, 9, 10, -10, Int64.max, Int64.min]
        for _ in 0..<2_000 { ns.append(Int64(bitPattern: rng.next()) >> (rng.next() % 64)) }
        for (i, a) in ns.enumerated() {
            let b = ns[(i * 7 + 3) % ns.count], c = ns[(i * 13 + 5) % ns.count]
            #expect(written("frame \(a) on screen") == "frame \(a) on screen" as String)
            #expect(written("\(a)") == "\(a)" as String)
            #expect(written("TE: \(a) then \(b)!") == "TE: \(a) then \(b)!" as String)
            #expect(written("\(a)\(b)\(c) three") == "\(a)\(b)\(c) three" as String)
            let name: TraceName = "frame \(a) x \(b)"
            #expect(name.text == "frame \(a) x \(b)" as String)
        }
        let s = "ünïcode \"quoted\""
        #expect(written("a \(s) b \(7)") == "a \(s) b 7" as String)
        #expect(written("plain") == "plain")
        #expect(written(TraceName(s)) == s)
        #expect(written("big \(UInt64.max)") == "big \(UInt64.max)" as String)
    }

    /// The word-at-a-time test for a byte a JSON string escapes agrees with
    /// the byte-by-byte one: every single byte at every place of a word and
    /// of the tail, and random texts of every length up to 40 whose bytes
    /// are drawn mostly from around the bounds (0x1F, 0x20, 0x22, 0x5C, 0x80).
    @Test func escapeTestIsTheByteByByteOne() {
        func plain(_ b: [UInt8]) -> Bool { b.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C } }
        for length in [1, 7, 8, 9, 16, 17] {
            for place in 0..<length {
                for byte in 0...255 {
                    var b = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    b[place] = UInt8(byte)
                    #expect(b.withUnsafeBytes { JSONBytes.needsEscapes($0) } == plain(b), "byte \(byte) at \(place) of \(length)")
                }
            }
        }
        var rng = SeededRandom(seed: 5)
        let near: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF]
        for _ in 0..<20_000 {
            let b = (0..<Int(rng.next() % 41)).map { _ in
                rng.next() % 4 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : near[Int(rng.next() % UInt64(near.count))]
            }
            #expect(b.withUnsafeBytes { JSONBytes.needsEscapes($0) } == plain(b))
        }
    }

    /// An event's JSON line as the format's plain definition writes it: the
    /// fields in a fixed order, the args (and the flow's name) by key.
    static func referenceLine(_ e: ChromeTrace.Event, pid: Int) -> String {
        var s = "{\"name\":\(JSONText.string(e.name)),\"cat\":\(JSONText.string(e.category)),\"ph\":\"\(e.phase)\""
        s += ",\"ts\":\(JSONText.microseconds(e.ts))"
        if let dur = e.dur { s += ",\"dur\":\(JSONText.microseconds(dur))" }
        s += ",\"pid\":\(pid)"
        if let tid = e.tid { s += ",\"tid\":\(tid)" }
        if let bindID = e.bindID {
            s += ",\"bind_id\":\(bindID)"
            if e.flowIn { s += ",\"flow_in\":true" }
            if e.flowOut { s += ",\"flow_out\":true" }
        }
        if let scope = e.scope { s += ",\"s\":\"\(scope)\"" }
        if let color = e.color { s += ",\"cname\":\(JSONText.string(color))" }
        let args = e.allArgs
        if !args.isEmpty {
            s += ",\"args\":{" + args.keys.sorted().map { "\(JSONText.string($0)):\(JSONText.value(args[$0]!))" }.joined(separator: ",") + "}"
        }
        return s + "}"
    }
}
