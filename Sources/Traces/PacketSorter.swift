import LatsimOutput
import SimKernel

/// Where a native trace's packet goes in the file: by time, then by rank
/// (what sort of packet it is, so that slices nest), then by `key` and
/// `index` (``ChromeTrace/writePerfetto(to:frameTimeline:inputEvents:sortMemoryLimit:extraPackets:)``
/// says how), then in the order the packets were added.
struct PacketKey: Comparable {
    var ts: SimTime, key: Int64, index: Int64, seq: Int64
    var rank: UInt8

    static func < (a: PacketKey, b: PacketKey) -> Bool {
        if a.ts != b.ts { return a.ts < b.ts }
        if a.rank != b.rank { return a.rank < b.rank }
        if a.key != b.key { return a.key < b.key }
        if a.index != b.index { return a.index < b.index }
        return a.seq < b.seq
    }

    /// The bytes a key takes in a spilled run.
    static let encodedSize = 33

    func store(into b: UnsafeMutableRawPointer) {
        b.storeBytes(of: ts.littleEndian, toByteOffset: 0, as: Int64.self)
        b.storeBytes(of: key.littleEndian, toByteOffset: 8, as: Int64.self)
        b.storeBytes(of: index.littleEndian, toByteOffset: 16, as: Int64.self)
        b.storeBytes(of: seq.littleEndian, toByteOffset: 24, as: Int64.self)
        b.storeBytes(of: rank, toByteOffset: 32, as: UInt8.self)
    }

    init(ts: SimTime, key: Int64, index: Int64, seq: Int64, rank: UInt8) {
        self.ts = ts
        self.key = key
        self.index = index
        self.seq = seq
        self.rank = rank
    }

    init(loading b: UnsafeRawBufferPointer) {
        ts = Int64(littleEndian: b.loadUnaligned(fromByteOffset: 0, as: Int64.self))
        key = Int64(littleEndian: b.loadUnaligned(fromByteOffset: 8, as: Int64.self))
        index = Int64(littleEndian: b.loadUnaligned(fromByteOffset: 16, as: Int64.self))
        seq = Int64(littleEndian: b.loadUnaligned(fromByteOffset: 24, as: Int64.self))
        rank = b[32]
    }
}

/// A native trace's packets put in file order with bounded memory (an
/// external merge sort): packets are gathered with their keys up to
/// ``memoryLimit`` bytes; each time the limit is reached they are sorted
/// and written to a spill file as a run, and at the end the runs are
/// merged. A trace that fits is sorted in memory and never touches a file.
/// Ties are broken by the order of adding, so the order is the one a
/// stable sort of every packet gives.
final class PacketSorter {
    private struct Entry { var key: PacketKey; var offset: Int32; var length: Int32 }

    /// The bytes of packets and keys held before a run is written.
    let memoryLimit: Int
    // one writer (a sorter is not shared across threads): no run-time
    // exclusivity check on every packet
    @exclusivity(unchecked) private var entries: [Entry] = []
    @exclusivity(unchecked) private var arena: [UInt8] = []
    private var file: SpillFile?
    private var runs: [Range<Int>] = []
    @exclusivity(unchecked) private var seq: Int64 = 0  // the packets added so far

    init(memoryLimit: Int = 32 << 20) {
        self.memoryLimit = max(256, memoryLimit)
    }

    /// The runs written to the spill file so far.
    var runCount: Int { runs.count }

    /// Adds a packet whose bytes `write` appends to the buffer it is given.
    func add(ts: SimTime, rank: UInt8, key: Int64 = 0, index: Int64, _ write: (inout [UInt8]) throws -> Void) throws {
        if arena.capacity == 0 {
            arena.reserveCapacity(memoryLimit / 2)
            entries.reserveCapacity(memoryLimit / 2 / MemoryLayout<Entry>.stride)
        }
        let start = arena.count
        try write(&arena)
        entries.append(Entry(key: PacketKey(ts: ts, key: key, index: index, seq: seq, rank: rank),
                             offset: Int32(start), length: Int32(arena.count - start)))
        seq += 1
        // a run is written before either buffer would outgrow its half of the limit
        if arena.count + min(4096, memoryLimit / 8) > arena.capacity || entries.count == entries.capacity { try spillRun() }
    }

    private func sortEntries() {
        entries.sort { $0.key < $1.key }
    }

    /// Writes the gathered packets, sorted, as one run of the spill file.
    private func spillRun() throws {
        guard !entries.isEmpty else { return }
        sortEntries()
        if file == nil { file = try SpillFile() }
        let start = file!.size
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        var header = [UInt8](repeating: 0, count: 4 + PacketKey.encodedSize)
        try arena.withUnsafeBytes { a in
            for e in entries {
                header.withUnsafeMutableBytes { h in
                    h.storeBytes(of: UInt32(PacketKey.encodedSize + Int(e.length)).littleEndian, as: UInt32.self)
                    e.key.store(into: h.baseAddress! + 4)
                }
                out.append(contentsOf: header)
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: a[Int(e.offset)..<Int(e.offset + e.length)]))
                if out.count >= 1 << 20 {
                    try out.withUnsafeBytes { try file!.append($0) }
                    out.removeAll(keepingCapacity: true)
                }
            }
        }
        try out.withUnsafeBytes { try file!.append($0) }
        runs.append(start..<file!.size)
        entries.removeAll(keepingCapacity: true)
        arena.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each packet's bytes in file order (valid during
    /// the call only). Call once, after the last ``add(ts:rank:key:index:_:)``.
    func forEachSorted(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if runs.isEmpty {
            sortEntries()
            try arena.withUnsafeBytes { a in
                for e in entries { try body(UnsafeRawBufferPointer(rebasing: a[Int(e.offset)..<Int(e.offset + e.length)])) }
            }
            return
        }
        try spillRun()
        try Self.merge(runReaders(), body)
    }

    /// A reader of each run, its buffer a share of the memory limit; the
    /// gathering buffers are let go (not needed while the runs merge).
    private func runReaders() -> [RecordReader] {
        entries = []
        arena = []
        guard let file else { return [] }
        let bufferSize = min(1 << 20, max(4 << 10, memoryLimit / max(1, runs.count)))
        return runs.map { RecordReader(file: file, from: $0.lowerBound, to: $0.upperBound, bufferSize: bufferSize) }
    }

    /// Merges sorted runs (no two packets' keys are equal: they differ
    /// at least in their order of adding).
    private static func merge(_ readers: [RecordReader], _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var readers = readers
        var current: [UnsafeRawBufferPointer?] = []
        for i in readers.indices { current.append(try readers[i].next()) }
        var heap = RunHeap()
        for (i, r) in current.enumerated() {
            if let r { heap.push(PacketKey(loading: r), run: i) }
        }
        // a run's packets go out one after another while they come before
        // every other run's next one, without the heap: runs made as a
        // trace's events settle cover mostly distinct times
        while let (_, run) = heap.pop() {
            var r = current[run]!
            while true {
                try body(UnsafeRawBufferPointer(rebasing: r[PacketKey.encodedSize...]))
                guard let next = try readers[run].next() else { break }
                r = next
                let key = PacketKey(loading: next)
                if let top = heap.top, top < key {
                    current[run] = next
                    heap.push(key, run: run)
                    break
                }
            }
        }
    }
}

/// A binary min-heap of the runs' next keys.
private struct RunHeap {
    private var items: [(key: PacketKey, run: Int)] = []

    mutating func push(_ key: PacketKey, run: Int) {
        items.append((key, run))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].key < items[parent].key else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    /// The smallest key held.
    var top: PacketKey? { items.first?.key }

    mutating func pop() -> (PacketKey, Int)? {
        guard let top = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < items.count && items[l].key < items[smallest].key { smallest = l }
                if r < items.count && items[r].key < items[smallest].key { smallest = r }
                if smallest == i { break }
                items.swapAt(i, smallest)
                i = smallest
            }
        }
        return (top.key, top.run)
    }
}
