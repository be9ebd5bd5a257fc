import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a streamed output goes: bytes are gathered in a bounded buffer
/// (``capacity``) and written to a descriptor each time it fills, or kept
/// in memory (``memory()``, for the in-memory forms of the same outputs).
/// An output written through a sink takes memory bounded by the buffer,
/// whatever its size.
public final class ByteSink {
    /// The bytes gathered before each write to the descriptor.
    public static let capacity = 1 << 20

    // one writer at a time (a sink is not shared across threads): no run-time
    // exclusivity check on every write
    @exclusivity(unchecked) private var buffer: RawBytes
    private let descriptor: Int32
    private let file: String
    /// Every byte taken so far.
    @exclusivity(unchecked) public private(set) var count = 0

    /// A sink writing to `descriptor`; `file` names it in messages.
    init(descriptor: Int32, file: String) {
        self.descriptor = descriptor
        self.file = file
        buffer = RawBytes(capacity: descriptor >= 0 ? Self.capacity : 4096)
    }

    /// A sink that keeps everything in memory (``bytes``).
    public static func memory() -> ByteSink { ByteSink(descriptor: -1, file: "") }

    /// The bytes of a memory sink.
    public var bytes: Data { Data(buffer.bytes) }

    /// Takes `text` as UTF-8.
    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Takes `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        count += bytes.count
        if descriptor >= 0 && buffer.count + bytes.count > buffer.capacity {
            try flush()
            // more than the buffer holds goes out at once
            if bytes.count >= buffer.capacity { return try send(bytes) }
        }
        buffer.append(bytes)
        if descriptor >= 0 && buffer.count >= buffer.capacity { try flush() }
    }

    /// Takes `data`.
    public func write(_ data: Data) throws {
        try data.withUnsafeBytes { try write($0) }
    }

    /// Takes one byte.
    public func write(byte: UInt8) throws {
        var byte = byte
        try withUnsafeBytes(of: &byte) { try write($0) }
    }

    /// Writes what is gathered to the descriptor.
    func flush() throws {
        guard descriptor >= 0, buffer.count > 0 else { return }
        defer { buffer.removeAll() }
        try send(buffer.bytes)
    }

    private func send(_ bytes: UnsafeRawBufferPointer) throws {
        let code = FileSystem.writeAll(descriptor, bytes)
        if code != 0 { throw FileSystem.error(code, file: file) }
    }
}

extension OutputDestination {
    /// Writes what `produce` gives a sink to `path`, as ``write(_:to:)-(Data,_)``
    /// writes bytes (a regular file replaced atomically at the end, a link
    /// written through, a device or FIFO in place, `-` to standard output),
    /// in bounded memory. When `produce` throws, a file is left as it was.
    /// Returns the number of bytes written.
    @discardableResult
    public static func stream(to path: String, _ produce: (ByteSink) throws -> Void) throws -> Int {
        try OutputDestination(path).stream(produce)
    }

    /// ``stream(to:_:)`` to this destination.
    @discardableResult
    public func stream(_ produce: (ByteSink) throws -> Void) throws -> Int {
        switch kind {
        case .file:
            var count = 0
            try AtomicFile.replace(target, file: path) { descriptor in
                let sink = ByteSink(descriptor: descriptor, file: path)
                try produce(sink)
                try sink.flush()
                count = sink.count
            }
            return count
        case .descriptor(let descriptor):
            let sink = ByteSink(descriptor: descriptor, file: path)
            try produce(sink)
            try sink.flush()
            return sink.count
        default:
            // a descriptor, device, FIFO or socket takes the bytes as they
            // come through the in-memory path's writer, chunk by chunk
            let sink = ByteSink.memory()
            try produce(sink)
            try write(sink.bytes)
            return sink.count
        }
    }
}

extension OutputDestination {
    /// ``stream(to:_:)`` to several paths at once: `produce` gets a sink
    /// for each path given (nil for nil), in order. Each file is replaced
    /// at the end only when `produce` returns; when it throws, every file
    /// is left as it was.
    public static func stream(to paths: [String?], _ produce: ([ByteSink?]) throws -> Void) throws {
        func open(_ i: Int, _ sinks: [ByteSink?]) throws {
            guard i < paths.count else { return try produce(sinks) }
            guard let path = paths[i] else { return try open(i + 1, sinks + [nil]) }
            try stream(to: path) { try open(i + 1, sinks + [$0]) }
        }
        try open(0, [])
    }
}
