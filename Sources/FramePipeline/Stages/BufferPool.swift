import SimKernel

/// The display buffers (Docs/Model.md, "Buffers"): a frame holds one
/// from its prepare start (Metal direct frames: from submission) until the
/// frame after it is latched, or until it is dropped.
///
/// Buffers have identities 0, 1, 2 so diagrams can colour them; `adaptive`
/// starts with two and allocates the third when a render would otherwise
/// find none free, giving it back after `releaseFrames` consecutive vsyncs
/// with a buffer standing free.
struct BufferPool {
    let policy: BufferingPolicy
    let releaseFrames: Int
    /// Bit i set: buffer i exists.
    private(set) var allocatedMask: UInt8
    /// Bit i set: buffer i exists and is free.
    private(set) var freeMask: UInt8
    private(set) var streak = 0
    private(set) var tripleSince: SimTime?
    private(set) var tripleTime: SimTime = 0
    /// The most buffers ever held at once (for the invariant checks).
    private(set) var maxHeld = 0
    /// The most buffers ever allocated at once.
    private(set) var maxAllocated = 0
    /// Bit i set: buffer i is held by a frame. Kept apart from `freeMask` as
    /// an independent check: taking a held buffer or giving back a free one
    /// counts as a conflict.
    private(set) var heldMask: UInt8 = 0
    private(set) var conflicts = 0

    init(policy: BufferingPolicy, releaseFrames: Int) {
        self.policy = policy
        self.releaseFrames = releaseFrames
        allocatedMask = policy == .triple ? 0b111 : 0b011
        freeMask = allocatedMask
        tripleSince = policy == .triple ? 0 : nil
    }

    /// The most buffers the policy allows.
    var policyMaximum: Int { policy == .double ? 2 : 3 }
    var allocated: Int { allocatedMask.nonzeroBitCount }
    var free: Int { freeMask.nonzeroBitCount }
    var held: Int { allocated - free }

    /// Takes a free buffer, allocating the third under `adaptive` if none is
    /// free. Returns its identity, or nil when none can be had.
    mutating func acquire(at now: SimTime) -> Int8? {
        if freeMask == 0 {
            guard policy == .adaptive, allocatedMask != 0b111 else { return nil }
            let missing = ~allocatedMask & 0b111
            allocatedMask |= missing
            freeMask |= missing
            tripleSince = now
            streak = 0
        }
        let id = freeMask.trailingZeroBitCount
        freeMask &= ~(1 << id)
        if heldMask & (1 << id) != 0 { conflicts += 1 }
        heldMask |= 1 << id
        maxHeld = Swift.max(maxHeld, held)
        maxAllocated = Swift.max(maxAllocated, allocated)
        return Int8(id)
    }

    /// Gives a buffer back.
    @inline(__always)
    mutating func release(_ id: Int8) {
        if heldMask & (1 << UInt8(id)) == 0 { conflicts += 1 }
        heldMask &= ~(1 << UInt8(id))
        freeMask |= 1 << UInt8(id)
    }

    /// The adaptive give-back check, at each vsync after the latch and the
    /// render server's wake.
    mutating func atVsync(_ now: SimTime) {
        guard policy == .adaptive, allocatedMask == 0b111 else { return }
        guard freeMask != 0 else { streak = 0; return }
        streak += 1
        if streak >= releaseFrames {
            // give back a free buffer (the third if it is the free one)
            let id = freeMask & 0b100 != 0 ? 2 : freeMask.trailingZeroBitCount
            freeMask &= ~(1 << UInt8(id))
            allocatedMask &= ~(1 << UInt8(id))
            if let s = tripleSince { tripleTime += now - s }
            tripleSince = nil
            streak = 0
        }
    }

    /// Time with three buffers allocated, up to `end`.
    func tripleBufferedTime(until end: SimTime) -> SimTime {
        tripleTime + (tripleSince.map { end - $0 } ?? 0)
    }
}
