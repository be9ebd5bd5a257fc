import SimKernel

/// The app's BufferQueue (Docs/Android.md, "Buffers"): `android.buffers`
/// slots; the producer dequeues the free buffer released earliest (and
/// waits while every buffer is held); queued buffers wait, in order, for
/// SurfaceFlinger. A buffer is held from its dequeue until it is released:
/// when SurfaceFlinger latches the buffer after it (with a release fence
/// that signals at that buffer's present), or when it is dropped.
struct BufferQueue {
    let count: Int
    /// Free buffers in release order.
    private var free = Ring<Int32>()
    /// The release fence each buffer was released with.
    private var fences: [ReleaseFence]
    /// Bit i set: buffer i is held (there are at most 64).
    private var held: UInt64 = 0
    private(set) var heldCount = 0
    private(set) var maxHeld = 0
    /// Buffers dequeued while held, or released while free (an invariant).
    private(set) var conflicts = 0
    /// Queued buffers (their frames' numbers), not yet latched, oldest first.
    private(set) var queue = Ring<Int64>()
    private(set) var maxQueued = 0
    /// A dequeue waiting for a buffer (there is one producer).
    private(set) var dequeueWaiting = false
    private var waitingSince: SimTime = 0
    private(set) var dequeueWaits = 0
    private(set) var dequeueWaitTime: SimTime = 0

    init(count: Int) {
        self.count = count
        fences = Array(repeating: .signalled, count: count)
        for b in 0..<count { free.append(Int32(b)) }
    }

    /// dequeueBuffer now: the free buffer released earliest, with the
    /// release fence it had; nil when none is free (the dequeue waits, and
    /// ``release(_:fence:now:)`` hands it the next buffer).
    @inline(__always)
    mutating func dequeue(now: SimTime) -> (id: Int32, fence: ReleaseFence)? {
        guard let b = free.popFirst() else {
            dequeueWaiting = true
            waitingSince = now
            dequeueWaits += 1
            return nil
        }
        return take(b)
    }

    @inline(__always)
    private mutating func take(_ b: Int32) -> (id: Int32, fence: ReleaseFence) {
        let bit: UInt64 = 1 << UInt64(b)
        if held & bit != 0 { conflicts += 1 }
        held |= bit
        heldCount += 1
        maxHeld = Swift.max(maxHeld, heldCount)
        return (b, fences[Int(b)])
    }

    /// A buffer goes back to the free list now with `fence`; returns it
    /// when a waiting dequeue takes it at once.
    mutating func release(_ b: Int32, fence: ReleaseFence, now: SimTime) -> (id: Int32, fence: ReleaseFence)? {
        let bit: UInt64 = 1 << UInt64(b)
        if held & bit == 0 { conflicts += 1 }
        held &= ~bit
        heldCount -= 1
        fences[Int(b)] = fence
        guard dequeueWaiting else {
            free.append(b)
            return nil
        }
        dequeueWaiting = false
        dequeueWaitTime += now - waitingSince
        return take(b)
    }

    /// queueBuffer: frame `seq` waits for SurfaceFlinger.
    @inline(__always)
    mutating func enqueue(_ seq: Int64) {
        queue.append(seq)
        maxQueued = Swift.max(maxQueued, queue.count)
    }

    /// SurfaceFlinger takes the oldest queued buffer: returns its frame.
    mutating func acquire() -> Int64 { queue.removeFirst() }
}
