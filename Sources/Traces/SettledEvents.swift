import Foundation
import LatsimOutput
import SimKernel

/// Events of one section of a trace whose flows are settled, handed over
/// as the run goes (``ChromeTrace/settledEvents``): records `first..<first
/// + count` of the section, each as the trace keeps it (a little-endian
/// `UInt32` length, then an ``EventRecord``), with the marks of those in
/// a flow.
final class EventChunk: @unchecked Sendable {
    let section: Int
    let first: Int
    let count: Int
    // one thread at a time: no run-time exclusivity checks on every event
    @exclusivity(unchecked) var records = RawBytes()
    /// The marks, by event, in increasing event.
    @exclusivity(unchecked) var marks: [(index: Int, mark: ChromeTrace.FlowMark)] = []
    /// The trace's counter series, when new ones came since the last chunk.
    var counterSeries: [String]?
    /// What taking the records from the trace met (a spill file that could not be read).
    var failure: (any Error)?

    init(section: Int, first: Int, count: Int) {
        self.section = section
        self.first = first
        self.count = count
    }

    /// Calls `body` with each event, its mark and its place in its section.
    func forEach(_ body: (EventRecord, ChromeTrace.FlowMark?, Int) throws -> Void) throws {
        let b = records.bytes
        var at = 0, m = 0
        for j in first..<(first + count) {
            let n = Int(b.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
            var mark: ChromeTrace.FlowMark?
            if m < marks.count && marks[m].index == j {
                mark = marks[m].mark
                m += 1
            }
            try body(EventRecord(UnsafeRawBufferPointer(rebasing: b[(at + 4)..<(at + 4 + n)])), mark, j)
            at += 4 + n
        }
    }
}

/// Where a trace made as its run goes writes its events once their flows
/// are settled: the JSON's text of each section (``SettledJSON``) or the
/// track events' packets (``SettledPackets``), on a thread of its own while
/// the run goes on (`threaded`), or at once on the run's. The chunks are
/// written one at a time in the order given, so the output does not
/// depend on the thread. At most ``queueLimit`` chunks wait, so memory
/// stays bounded when the writing is slower than the run.
class SettledEvents: @unchecked Sendable {
    /// The chunks that may wait to be written.
    static let queueLimit = 4

    /// A chunk of events, or other work on what the events are written to.
    private enum Item {
        case chunk(EventChunk)
        case work(() throws -> Void)
        /// Signalled when reached, whatever failed before.
        case mark(DispatchSemaphore)
    }

    private let condition = NSCondition()
    private var queue: [Item] = []
    private var closed = false
    private var finished = false
    private let done = DispatchSemaphore(value: 0)
    private let threaded: Bool
    private var started = false
    private var failure: (any Error)?
    /// The largest thread id among the events written: those tracks must
    /// keep the places they were added in (``ChromeTrace/tidMap``).
    private(set) var largestTID = 0

    init(threaded: Bool) {
        self.threaded = threaded
    }

    /// Writes one chunk (a subclass's part).
    func write(_ chunk: EventChunk) throws {
        preconditionFailure("SettledEvents.write is a subclass's")
    }

    /// Notes an event's thread id (``largestTID``).
    final func note(tid: Int?) {
        if let tid, tid > largestTID { largestTID = tid }
    }

    /// Hands a chunk over: written now, or queued for the thread (waiting
    /// while the queue is full).
    final func add(_ chunk: EventChunk) { add(.chunk(chunk)) }

    /// Runs `work` in turn with the chunks: now, or on the thread.
    final func add(work: @escaping () throws -> Void) { add(.work(work)) }

    private func add(_ item: Item) {
        // with no thread, or once it has ended, at once
        guard threaded && !finished else { return process(item) }
        if !started {
            started = true
            guard startThread(stackSize: 1 << 20, { [self] in work() }) else {
                // no thread to be had (its stack refused under a memory
                // limit): everything is written here, at once, as without one
                finished = true
                return process(item)
            }
        }
        condition.lock()
        while queue.count >= Self.queueLimit { condition.wait() }
        queue.append(item)
        condition.broadcast()
        condition.unlock()
    }

    private func process(_ item: Item) {
        if case .mark(let reached) = item {
            reached.signal()
            return
        }
        guard failure == nil else { return }  // the rest is not written
        do {
            switch item {
            case .chunk(let chunk):
                if let f = chunk.failure { throw f }
                try write(chunk)
            case .work(let work):
                try work()
            case .mark:
                break
            }
        } catch {
            failure = error
        }
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                break
            }
            let item = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            process(item)
        }
        done.signal()
    }

    /// Waits until every chunk and work given so far is done (the thread
    /// stays, for more) and throws what they met.
    final func drain() throws {
        if started && !finished {
            let drained = DispatchSemaphore(value: 0)
            add(.mark(drained))
            drained.wait()
        }
        if let failure { throw failure }
    }

    /// No more chunks: the thread ends once it has written those queued.
    final func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every chunk given is written and throws what writing
    /// met; after it, what was written may be read.
    final func finish() throws {
        if started && !finished {
            close()
            done.wait()
            finished = true
        }
        if let failure { throw failure }
    }
}

/// The JSON text of each section's settled events, in memory up to
/// ``memoryLimit`` bytes a section, the rest in one spill file, a section's
/// text there in its pieces' order; ``copy(section:to:)`` writes it out.
final class SettledJSON: SettledEvents, @unchecked Sendable {
    /// The bytes of text a section holds in memory before they go to its
    /// file, unless told fewer.
    static let memoryLimit = 256 << 10
    private let memoryLimit: Int

    /// A section's text: in memory, and its earlier pieces in a spill
    /// file of its own (two threads may write two sections).
    private final class Section {
        @exclusivity(unchecked) var text = JSONBytes()
        var file: SpillFile?
    }

    private let line: JSONEventText
    private var sections: [Section] = []
    /// The sections kept to the end (``RunTraceStream/keptSections``).
    var kept: [Int] = []
    /// True once the kept sections' text is made (a trace written twice
    /// makes it once).
    private var keptWritten = false

    init(_ t: ChromeTrace, threaded: Bool, memoryLimit: Int = SettledJSON.memoryLimit) {
        line = JSONEventText(t)
        self.memoryLimit = max(64, min(memoryLimit, Self.memoryLimit))
        super.init(threaded: threaded)
    }

    override func write(_ chunk: EventChunk) throws {
        let s = section(chunk.section)
        try chunk.forEach { r, mark, _ in
            note(tid: r.tid)
            try write(r, mark: mark, to: s)
        }
    }

    private func section(_ k: Int) -> Section {
        while sections.count <= k { sections.append(Section()) }
        return sections[k]
    }

    private func write(_ r: EventRecord, mark: ChromeTrace.FlowMark?, to s: Section) throws {
        line.write(r, mark: mark, into: &s.text)
        guard s.text.count >= memoryLimit else { return }
        if s.file == nil { s.file = try SpillFile() }
        try s.file!.append(s.text.bytes)
        s.text.removeAll()
    }

    /// Writes the JSON of `t`, whose settled events came here, to `sink`
    /// (``ChromeTrace/writeJSON(to:)``): each section's text, then its
    /// events not settled. The sections kept to the end are written on
    /// the thread while the others are copied, when there is a thread.
    func writeEvents(of t: ChromeTrace, tids: [Int]?, to sink: ByteSink) throws {
        _ = section(t.sectionCount)  // the sections, made before the thread may add to them
        let kept = Set(kept.filter { $0 < t.sectionCount })
        if !keptWritten {
            keptWritten = true
            add(work: { [self] in
                for k in kept.sorted() {
                    let s = sections[k]
                    try t.forEachEvent(section: k, tids: tids) { r, mark, _ in try write(r, mark: mark, to: s) }
                }
            })
        }
        var out = JSONBytes()
        for k in 0..<t.sectionCount {
            if kept.contains(k) {
                try out.flush(to: sink)
                try finish()
                try copy(sections[k], to: sink)
                continue
            }
            try copy(sections[k], to: sink)
            try t.forEachEvent(section: k, tids: tids) { r, mark, _ in
                line.write(r, mark: mark, into: &out)
                if out.count >= 1 << 16 { try out.flush(to: sink) }
            }
            try out.flush(to: sink)
        }
    }

    /// Writes a section's text to `sink`.
    private func copy(_ s: Section, to sink: ByteSink) throws {
        if let file = s.file {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            var at = 0
            while at < file.size {
                let n = try file.read(at: at, into: buffer)
                try sink.write(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                at += n
            }
        }
        try sink.write(s.text.bytes)
    }
}

/// The packets of settled track events (``TrackEventPackets``), put in
/// the sorter of the trace's FrameTimeline and input-event packets
/// (``NativePackets``), which are made here too
/// (``SettledEvents/add(work:)``): the sorter has one user.
final class SettledPackets: SettledEvents, @unchecked Sendable {
    private let sorter: PacketSorter
    private var events: TrackEventPackets

    init(_ t: ChromeTrace, packets: NativePackets, threaded: Bool) {
        sorter = packets.sorter
        events = TrackEventPackets(category: t.category, pid: t.pid, counterSeries: t.counterSeries)
        super.init(threaded: threaded)
    }

    override func write(_ chunk: EventChunk) throws {
        if let series = chunk.counterSeries { events.series(series) }
        try chunk.forEach { r, mark, j in
            note(tid: r.tid)
            try events.add(r, mark: mark, index: ChromeTrace.eventIndex(section: chunk.section, j), to: sorter)
        }
    }
}

/// The JSON text of one event as ``ChromeTrace/writeJSON(to:)`` writes it,
/// after the metadata: `,` and a new line, then the event's object.
struct JSONEventText {
    private let head: [UInt8], cat: [UInt8], pidText: [UInt8]

    init(_ t: ChromeTrace) {
        head = Array("{\"name\":".utf8)
        cat = Array((",\"cat\":" + JSONText.string(t.category) + ",\"ph\":\"").utf8)
        pidText = Array(",\"pid\":\(t.pid)".utf8)
    }

    func write(_ r: EventRecord, mark: ChromeTrace.FlowMark?, into out: inout JSONBytes) {
        out.literal(",\n")  // the metadata came first
        out.append(head)
        out.string(r.name)
        out.append(cat)
        out.append(r.phase)
        out.literal("\",\"ts\":")
        out.microseconds(r.ts)
        if let dur = r.dur {
            out.literal(",\"dur\":")
            out.microseconds(dur)
        }
        out.append(pidText)
        if let tid = r.tid {
            out.literal(",\"tid\":")
            out.integer(Int64(tid))
        }
        var flowName: String?
        if let mark {
            out.literal(",\"bind_id\":")
            out.decimal(mark.id)
            if mark.flowIn { out.literal(",\"flow_in\":true") }
            if mark.flowOut { out.literal(",\"flow_out\":true") }
            flowName = mark.name
        }
        if r.phase == EventRecord.instant { out.literal(",\"s\":\"t\"") }
        if let color = r.color {
            out.literal(",\"cname\":")
            out.string(color)
        }
        var firstArg = true
        r.forEachArg(flowName: flowName) { key, value in
            out.literal(firstArg ? ",\"args\":{" : ",")
            firstArg = false
            out.string(key)
            out.append(UInt8(ascii: ":"))
            out.value(value)
        }
        if !firstArg { out.append(UInt8(ascii: "}")) }
        out.append(UInt8(ascii: "}"))
    }
}
