import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary file for what an output cannot hold in memory: made in
/// `$TMPDIR` (or `/tmp`) and unlinked at once, so it has no name and
/// nothing is left on disk whatever happens to the process. Bytes are
/// appended at its end and read back at offsets.
public final class SpillFile {
    private let descriptor: Int32
    private let directory: String
    /// The bytes appended so far.
    public private(set) var size = 0

    /// The directory spill files are made in.
    public static var directory: String {
        if let dir = ProcessInfo.processInfo.environment["TMPDIR"], !dir.isEmpty { return dir }
        return "/tmp"
    }

    /// A new, empty spill file in `dir`; an environment error when none can be made.
    public init(directory dir: String = SpillFile.directory) throws {
        var template = Array((dir + "/latsim-spill-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Self.failure(dir, "could not be made") }
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        descriptor = fd
        directory = dir
    }

    deinit { close(descriptor) }

    private static func failure(_ dir: String, _ what: String) -> LatsimError {
        let reason = String(cString: strerror(errno))
        return LatsimError(.environment, file: dir, problem: "a temporary file for a large output \(what) (\(reason))",
                           expected: "a writable directory with room in TMPDIR (or /tmp)")
    }

    /// Appends `bytes` at the end.
    public func append(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(size + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Self.failure(directory, "could not be written") }
            done += n
        }
        size += bytes.count
    }

    /// Reads `buffer.count` bytes (fewer at the end) from `offset`; the count read.
    public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var done = 0
        let wanted = min(buffer.count, size - offset)
        while done < wanted {
            let n = pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Self.failure(directory, "could not be read") }
            done += n
        }
        return done
    }
}

/// Records (runs of bytes) appended in order and read back in order: kept
/// in memory up to ``memoryLimit`` bytes, the rest in a ``SpillFile``.
/// Memory stays bounded by the limit whatever the number of records.
///
/// Appending does not throw, so that a trace's builders need not: a
/// failure to spill is kept and thrown by the next read.
public final class RecordLog: @unchecked Sendable {
    /// The bytes held in memory before they go to the file.
    public let memoryLimit: Int
    // one writer at a time: no run-time exclusivity check on every append
    @exclusivity(unchecked) private var pending = RawBytes()
    private var file: SpillFile?
    /// Where the file's records not taken yet (``take(_:into:)``) begin.
    private var fileStart = 0
    private var failure: (any Error)?
    /// The records appended.
    @exclusivity(unchecked) public private(set) var count = 0
    /// The records taken from the front (``take(_:into:)``): the log
    /// holds records `taken..<count`.
    public private(set) var taken = 0

    public init(memoryLimit: Int = 16 << 20) {
        self.memoryLimit = max(64, memoryLimit)
    }

    /// True once records went to a file.
    public var spilled: Bool { file != nil }

    /// Appends one record. The buffer is reserved once at the limit and
    /// written out before it would grow, so it never holds more.
    public func append(_ record: UnsafeRawBufferPointer) {
        if pending.capacity == 0 { pending.reserve(memoryLimit) }
        if pending.count + 4 + record.count > memoryLimit && pending.count > 0 { spill() }
        var length = UInt32(record.count).littleEndian
        withUnsafeBytes(of: &length) { pending.append($0) }
        pending.append(record)
        count += 1
    }

    /// Appends the record `encode` writes, encoded in place. A buffer
    /// within a few KiB of its limit is written out first; a record longer
    /// than that grows it.
    public func append(_ encode: (inout RawBytes) -> Void) {
        if pending.capacity == 0 { pending.reserve(memoryLimit) }
        if pending.count + 4 + min(4096, memoryLimit / 4) > memoryLimit && pending.count > 0 { spill() }
        let start = pending.count
        var length = UInt32(0)
        withUnsafeBytes(of: &length) { pending.append($0) }
        encode(&pending)
        pending.storeLength(UInt32(pending.count - start - 4), at: start)
        count += 1
    }

    private func spill() {
        guard failure == nil else { pending.removeAll(); return }
        do {
            if file == nil { file = try SpillFile() }
            try file!.append(pending.bytes)
        } catch {
            failure = error
        }
        pending.removeAll()
    }

    /// Moves the first `n` records held (those from ``taken``) to the end
    /// of `out`, each as the log keeps it (a little-endian `UInt32`
    /// length, then the bytes); the log forgets them.
    public func take(_ n: Int, into out: inout RawBytes) throws {
        if let failure { throw failure }
        precondition(n >= 0 && n <= count - taken, "more records taken than held")
        var left = n
        if let file, fileStart < file.size, left > 0 {
            var reader = RecordReader(file: file, from: fileStart, to: file.size, bufferSize: 256 << 10)
            while left > 0, let r = try reader.next() {
                var length = UInt32(r.count).littleEndian
                withUnsafeBytes(of: &length) { out.append($0) }
                out.append(r)
                fileStart += 4 + r.count
                left -= 1
            }
        }
        let b = pending.bytes
        var at = 0
        while left > 0 {
            at += 4 + Int(b.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
            left -= 1
        }
        out.append(UnsafeRawBufferPointer(rebasing: b[..<at]))
        pending.removeFirst(at)
        taken += n
    }

    /// Calls `body` with each record held, in the order appended (the
    /// bytes are valid during the call only).
    public func forEach(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let failure { throw failure }
        if let file {
            var reader = RecordReader(file: file, from: fileStart, to: file.size)
            while let r = try reader.next() { try body(r) }
        }
        let b = pending.bytes
        var at = 0
        while at < b.count {
            let n = Int(b.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
            try body(UnsafeRawBufferPointer(rebasing: b[(at + 4)..<(at + 4 + n)]))
            at += 4 + n
        }
    }

    /// Reads the records in the order appended, one call at a time
    /// (``RecordLog/Cursor/next()``), so that two logs can be read side by side.
    public func cursor() throws -> Cursor {
        if let failure { throw failure }
        return Cursor(log: self)
    }

    /// A reader of a ``RecordLog``'s records: the spill file's, then those
    /// in memory. The log must not be appended to while it reads.
    public struct Cursor {
        private let log: RecordLog
        private var file: RecordReader?
        private var at = 0

        init(log: RecordLog) {
            self.log = log
            if let f = log.file { file = RecordReader(file: f, from: log.fileStart, to: f.size, bufferSize: 64 << 10) }
        }

        /// The next record as `read` makes it (the bytes are valid during
        /// the call only); nil after the last.
        public mutating func next<R>(_ read: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
            if file != nil {
                if let r = try file!.next() { return try read(r) }
                file = nil
            }
            guard at < log.pending.count else { return nil }
            let b = log.pending.bytes
            let n = Int(b.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
            defer { at += 4 + n }
            return try read(UnsafeRawBufferPointer(rebasing: b[(at + 4)..<(at + 4 + n)]))
        }
    }

    /// A copy holding the same records, numbered as here (or this log's
    /// failure to spill, or the copy's, thrown by its first read).
    public func copy() -> RecordLog {
        let c = RecordLog(memoryLimit: memoryLimit)
        c.count = taken
        c.taken = taken
        do { try forEach { c.append($0) } } catch { c.failure = error }
        return c
    }
}

/// Reads length-prefixed records (a little-endian `UInt32` length, then
/// the bytes) from a region of a spill file through a bounded buffer; a
/// record longer than the buffer grows it.
public struct RecordReader {
    private let file: SpillFile
    private var offset: Int
    private let end: Int
    private var buffer: UnsafeMutableRawBufferPointer
    private var start = 0, filled = 0
    private let owner: Storage

    private final class Storage {
        var buffer: UnsafeMutableRawBufferPointer
        init(_ n: Int) { buffer = .allocate(byteCount: n, alignment: 8) }
        deinit { buffer.deallocate() }
    }

    /// A reader of the records in `from..<to` of `file`, `bufferSize` bytes at a time.
    public init(file: SpillFile, from: Int, to: Int, bufferSize: Int = 1 << 20) {
        self.file = file
        offset = from
        end = to
        owner = Storage(max(64, bufferSize))
        buffer = owner.buffer
    }

    /// The next record, valid until the next call; nil after the last.
    public mutating func next() throws -> UnsafeRawBufferPointer? {
        if filled - start < 4, try !fill(4) { return nil }
        let n = Int(UnsafeRawBufferPointer(buffer).loadUnaligned(fromByteOffset: start, as: UInt32.self).littleEndian)
        if filled - start < 4 + n, try !fill(4 + n) {
            throw LatsimError(.internal, problem: "a spilled record was cut (\(n) bytes wanted at the end of the file)")
        }
        let r = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[(start + 4)..<(start + 4 + n)])
        start += 4 + n
        return r
    }

    /// Makes at least `wanted` bytes available from `start`; false at the end.
    private mutating func fill(_ wanted: Int) throws -> Bool {
        let kept = filled - start
        if wanted > buffer.count {
            let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(wanted, 2 * buffer.count), alignment: 8)
            bigger.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[start..<filled]))
            owner.buffer.deallocate()
            owner.buffer = bigger
            buffer = bigger
        } else if kept > 0 {
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: kept)
        }
        start = 0
        filled = kept
        while filled < wanted && offset < end {
            let room = UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<min(buffer.count, filled + end - offset)])
            let n = try file.read(at: offset, into: room)
            guard n > 0 else { break }
            offset += n
            filled += n
        }
        return filled >= wanted
    }
}
