import Foundation
import SimKernel

/// Where an imported trace's bytes are read from, piece by piece: a file
/// (never held whole: `latsim import` of a recording of hundreds of MB
/// keeps its packet index and what it gathers, not the recording), or
/// bytes already in memory (tests, the fuzz target), read the same way.
///
/// The first pass reads the trace in order, a chunk at a time
/// (``PerfettoImport/packets(_:file:)``); the second reads packets in time
/// order through a cache of fixed blocks (``withBytes(at:count:_:)``): a
/// trace written in time order is read once from start to end, and one whose
/// sequences are interleaved, as a device writes them, finds most packets
/// in a block it read a moment before.
final class TraceBytes {
    /// The bytes read: the size of the file when opened, or of the data.
    let size: Int
    /// The file's name as the user gave it (for what is said of it).
    let file: String
    private let opened: InputFiles.Opened?
    private let data: Data?

    /// The cache: `slots` blocks of `blockSize` bytes, block `b` in slot `b % slots`.
    private let blockSize: Int, slots: Int
    private let cache: UnsafeMutableRawBufferPointer
    private var cached: [Int]
    /// A packet that lies across two blocks, read whole.
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// The first pass's reads, bytes.
    let chunk: Int

    /// The default cache: 256 blocks of 64 KiB (16 MiB); the first pass
    /// reads 4 MiB at a time.
    static let defaultBlockSize = 1 << 16, defaultSlots = 256, defaultChunk = 1 << 22

    init(_ opened: InputFiles.Opened, chunk: Int = defaultChunk, blockSize: Int = defaultBlockSize, slots: Int = defaultSlots) {
        self.opened = opened
        self.chunk = chunk
        data = nil
        size = opened.size
        file = opened.path
        (self.blockSize, self.slots) = (blockSize, slots)
        cache = .allocate(byteCount: blockSize * slots, alignment: 16)
        cached = Array(repeating: -1, count: slots)
    }

    init(_ data: Data, file: String, chunk: Int = defaultChunk, blockSize: Int = defaultBlockSize, slots: Int = defaultSlots) {
        opened = nil
        self.chunk = chunk
        self.data = data
        size = data.count
        self.file = file
        (self.blockSize, self.slots) = (blockSize, slots)
        cache = .allocate(byteCount: blockSize * slots, alignment: 16)
        cached = Array(repeating: -1, count: slots)
    }

    deinit {
        cache.deallocate()
        scratch.deallocate()
    }

    /// Reads `count` bytes at `offset` (within ``size``) into `buffer`; a
    /// file that no longer holds them changed while it was read.
    func read(at offset: Int, count: Int, into buffer: UnsafeMutableRawPointer) throws(LatsimError) {
        guard count > 0 else { return }
        if let data {
            data.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
            return
        }
        guard opened!.read(at: offset, count: count, into: buffer) else {
            throw LatsimError(file: file, problem: "could not be read at byte \(offset) (it changed or shrank while it was read)",
                              expected: "a recording that stays as it is while it is imported")
        }
    }

    /// Calls `body` with the `count` bytes at `start` (valid only during
    /// the call).
    func withBytes<R>(at start: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws(LatsimError) -> R) throws(LatsimError) -> R {
        let first = start / blockSize
        if count > 0, (start + count - 1) / blockSize == first {
            let slot = first % slots
            let at = cache.baseAddress! + slot * blockSize
            if cached[slot] != first {
                cached[slot] = -1
                try read(at: first * blockSize, count: min(blockSize, size - first * blockSize), into: at)
                cached[slot] = first
            }
            return try body(UnsafeRawBufferPointer(start: at + (start - first * blockSize), count: count))
        }
        if scratch.count < count {
            scratch.deallocate()
            scratch = .allocate(byteCount: max(count, 2 * scratch.count), alignment: 16)
        }
        try read(at: start, count: count, into: scratch.baseAddress!)
        return try body(UnsafeRawBufferPointer(start: scratch.baseAddress, count: count))
    }

    /// The `count` bytes at `start` as data (a packet for the protobuf decoder).
    func data(at start: Int, count: Int) throws(LatsimError) -> Data {
        try withBytes(at: start, count: count) { b throws(LatsimError) in Data(b) }
    }
}

/// A trace's bytes in file order, a chunk at a time (the first pass):
/// ``ensure(_:)`` makes the bytes from ``position`` on available, moving
/// the unread ones to the front and reading more; the buffer grows only
/// for a packet longer than a chunk.
struct TraceChunks: ~Copyable {
    let bytes: TraceBytes
    private var buffer: UnsafeMutableRawBufferPointer
    /// The file offset of the buffer's first byte.
    private(set) var base = 0
    /// The bytes of the file in the buffer.
    private(set) var filled = 0
    /// Where the reader is, in the buffer.
    var position = 0

    init(_ bytes: TraceBytes, chunk: Int) {
        self.bytes = bytes
        buffer = .allocate(byteCount: max(chunk, 32), alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The file offset of ``position``.
    var offset: Int { base + position }

    /// The buffer's bytes (valid until the next ``ensure(_:)``).
    var view: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer.baseAddress, count: filled) }

    /// Makes `count` bytes from ``position`` available in ``view``, fewer
    /// only where the file ends. ``position`` may move (to the front).
    mutating func ensure(_ count: Int) throws(LatsimError) {
        guard position + count > filled, base + filled < bytes.size else { return }
        let keep = filled - position
        if keep > 0, position > 0 { memmove(buffer.baseAddress!, buffer.baseAddress! + position, keep) }
        base += position
        filled = keep
        position = 0
        if count > buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
            if keep > 0 { grown.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: keep) }
            buffer.deallocate()
            buffer = grown
        }
        let want = min(buffer.count - filled, bytes.size - (base + filled))
        try bytes.read(at: base + filled, count: want, into: buffer.baseAddress! + filled)
        filled += want
    }
}
