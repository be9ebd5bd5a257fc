import SimKernel

/// The instants the iOS stage budget needs that no stage keeps: when each
/// frame began its prepare, joined the GPU queue and ran on the GPU (the
/// delivery and commit instants travel with the commit, ``Commit``). Kept
/// beside the frames (a frame carries only what the pipeline needs to
/// run), only when the budget is, and forgotten as frames are latched.
/// Frames are made in order and latched in order, so the frames kept are
/// consecutive numbers, `firstFrame ..< firstFrame + count`: frame `id` is
/// in slot `id & mask` of a power-of-two table, found without a search and
/// stored without a ring's bookkeeping (the table doubles when the frames
/// in flight fill it). The budget is built from them only when a frame is
/// measured (``IOSPipeline/splitBudget(_:_:latch:)``).
struct BudgetStamps {
    /// A frame's instants (-1 until they happen).
    struct Frame {
        var prepareStart: SimTime
        var submitted: SimTime = -1
        var gpuStart: SimTime = -1
        var gpuEnd: SimTime = -1
    }

    /// The table's memory (one run uses it; copies of the stamps share it).
    final class Table {
        var base: UnsafeMutablePointer<Frame>
        var mask: Int

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
            mask = capacity - 1
        }

        deinit { base.deallocate() }
    }

    /// Whether the stamps are kept (the run keeps its stage budget).
    private(set) var isKept = false
    private let table = Table(capacity: 16)
    /// The frames kept: `count` consecutive numbers from `firstFrame`.
    private var firstFrame: Int64 = 0
    private var count = 0
    /// Frames latched whose instants were not found (an invariant: 0).
    private(set) var missing = 0

    /// Starts keeping the stamps.
    mutating func keep() { isKept = true }

    /// Frame `id` begins: its prepare starts at `prepareStart` (-1 for a
    /// Metal frame, which has none: it starts when it joins the GPU queue).
    @inline(__always)
    mutating func began(_ id: Int64, prepareStart: SimTime) {
        let t = table
        if count == 0 { firstFrame = id }
        guard id == firstFrame &+ Int64(count) else {
            missing += 1
            return
        }
        if count > t.mask { grow(t) }
        (t.base + (Int(truncatingIfNeeded: id) & t.mask)).initialize(to: Frame(prepareStart: prepareStart))
        count &+= 1
    }

    /// Doubles the table, moving each frame kept to its slot in the new one.
    @inline(never)
    private func grow(_ t: Table) {
        let bigger = UnsafeMutablePointer<Frame>.allocate(capacity: 2 * (t.mask + 1))
        let newMask = 2 * (t.mask + 1) - 1
        for k in 0..<count {
            let id = Int(truncatingIfNeeded: firstFrame &+ Int64(k))
            (bigger + (id & newMask)).initialize(to: t.base[id & t.mask])
        }
        t.base.deallocate()
        t.base = bigger
        t.mask = newMask
    }

    /// Frame `id`'s stamps, when it is kept.
    @inline(__always)
    private func slot(_ id: Int64) -> UnsafeMutablePointer<Frame>? {
        let i = id &- firstFrame
        guard i >= 0 && i < Int64(count) else { return nil }
        return table.base + (Int(truncatingIfNeeded: id) & table.mask)
    }

    /// Frame `id` joins the GPU queue now.
    @inline(__always)
    func submitted(_ id: Int64, at now: SimTime) {
        guard let f = slot(id) else { return }
        if f.pointee.prepareStart < 0 { f.pointee.prepareStart = now }
        f.pointee.submitted = now
    }

    /// Frame `id`'s GPU job ran from `start` to `end`.
    @inline(__always)
    func gpuRan(_ id: Int64, from start: SimTime, to end: SimTime) {
        guard let f = slot(id) else { return }
        f.pointee.gpuStart = start
        f.pointee.gpuEnd = end
    }

    /// Frame `id` is latched: returns its instants; it and the frames
    /// before it (dropped) are forgotten.
    @inline(__always)
    mutating func latched(_ id: Int64) -> Frame? {
        guard let f = slot(id) else {
            missing += 1
            return nil
        }
        count -= Int(id &- firstFrame) &+ 1
        firstFrame = id &+ 1
        return f.pointee
    }
}
