import SimKernel

/// Bytes gathered in raw memory that grows by doubling: appending is a
/// bounds check and a copy, where an array's `append(contentsOf:)` costs
/// about a hundred instructions more a call (a good part of writing a long
/// trace). The buffers of ``ByteSink``, ``RecordLog`` and the JSON trace's
/// text. It owns its memory and cannot be copied.
public struct RawBytes: ~Copyable {
    @usableFromInline var base: UnsafeMutableRawPointer?
    @usableFromInline var used = 0, reserved = 0

    /// Empty, with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        if capacity > 0 { reserve(capacity) }
    }

    deinit { base?.deallocate() }

    /// The bytes held.
    @inlinable public var count: Int { used }
    /// The bytes it holds before it grows.
    @inlinable public var capacity: Int { reserved }

    /// The bytes held (valid until the next change).
    @inlinable public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: used) }

    /// Makes room for `n` bytes in all.
    public mutating func reserve(_ n: Int) {
        guard n > reserved else { return }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 16)
        if let base {
            grown.copyMemory(from: base, byteCount: used)
            base.deallocate()
        }
        (base, reserved) = (grown, n)
    }

    /// Makes room for `n` more bytes, doubling.
    @inlinable mutating func room(_ n: Int) {
        if used + n > reserved { grow(n) }
    }

    @usableFromInline mutating func grow(_ n: Int) {
        var grown = max(reserved * 2, 64)
        while used + n > grown { grown *= 2 }
        reserve(grown)
    }

    @inlinable public mutating func append(_ byte: UInt8) {
        room(1)
        base!.storeBytes(of: byte, toByteOffset: used, as: UInt8.self)
        used += 1
    }

    @inlinable public mutating func append(_ b: UnsafeRawBufferPointer) {
        guard b.count > 0 else { return }
        room(b.count)
        (base! + used).copyMemory(from: b.baseAddress!, byteCount: b.count)
        used += b.count
    }

    /// Appends `n`'s decimal digits: made last first in a buffer of 20
    /// (the most a UInt64 has), then appended at once.
    @inlinable public mutating func appendDecimal(_ n: UInt64) {
        if n < 10 { return append(UInt8(ascii: "0") + UInt8(n)) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { d in
            var n = n, at = 24
            while n > 0 {
                at -= 1
                d[at] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            }
            append(UnsafeRawBufferPointer(UnsafeMutableRawBufferPointer(rebasing: d[at...])))
        }
    }

    /// Writes `n` little-endian over the four bytes held from `offset`.
    @inlinable public mutating func storeLength(_ n: UInt32, at offset: Int) {
        precondition(offset >= 0 && offset + 4 <= used, "a length stored outside the bytes held")
        base!.storeBytes(of: n.littleEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// Forgets the first `n` bytes, moving the rest to the front.
    public mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= used, "more bytes removed than held")
        guard n > 0 else { return }
        if n < used { base!.copyMemory(from: base! + n, byteCount: used - n) }
        used -= n
    }

    /// Appends `formatDecimal(_:places:fixed:)`'s digits of `x` (SimKernel).
    public mutating func appendDecimal(_ x: Double, places: Int, fixed: Bool = false) {
        withDecimalDigits(x, places: places, fixed: fixed) { append(UnsafeRawBufferPointer($0)) }
    }

    /// Appends `count` copies of `byte` (none when `count` is not positive).
    @inlinable public mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        room(count)
        (base! + used).initializeMemory(as: UInt8.self, repeating: byte, count: count)
        used += count
    }

    /// Forgets the bytes equal to `byte` at the end, but none of the first `start`.
    @inlinable public mutating func removeTrailing(_ byte: UInt8, downTo start: Int) {
        while used > Swift.max(start, 0) && base!.load(fromByteOffset: used - 1, as: UInt8.self) == byte { used -= 1 }
    }

    /// Forgets the bytes, keeping the memory.
    @inlinable public mutating func removeAll() { used = 0 }
}
