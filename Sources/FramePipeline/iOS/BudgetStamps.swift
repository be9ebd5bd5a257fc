import SimKernel

/// The instants the iOS stage budget needs that no stage keeps: when each
/// frame began its prepare, joined the GPU queue and ran on the GPU (the
/// delivery and commit instants travel with the commit, ``Commit``). Kept
/// beside the frames (a frame carries only what the pipeline needs to
/// run), only when the budget is, and forgotten as frames are latched:
/// frames are made in order and latched in order, so the ring stays as
/// short as the frames in flight. Each is a store into a ring (``Ring``):
/// the budget is built from them only when a frame is measured
/// (``IOSPipeline/splitBudget(_:_:latch:)``).
struct BudgetStamps {
    /// A frame's instants (-1 until they happen).
    struct Frame {
        var prepareStart: SimTime
        var submitted: SimTime = -1
        var gpuStart: SimTime = -1
        var gpuEnd: SimTime = -1
    }

    /// Whether the stamps are kept (the run keeps its stage budget).
    private(set) var isKept = false
    /// Frames not yet latched, by id from ``firstFrame`` on.
    private var frames = Ring<Frame>()
    private var firstFrame: Int64 = 0
    /// Frames latched whose instants were not found (an invariant: 0).
    private(set) var missing = 0

    /// Starts keeping the stamps.
    mutating func keep() { isKept = true }

    /// Frame `id` begins: its prepare starts at `prepareStart` (-1 for a
    /// Metal frame, which has none: it starts when it joins the GPU queue).
    mutating func began(_ id: Int64, prepareStart: SimTime) {
        if frames.isEmpty { firstFrame = id }
        guard id == firstFrame &+ Int64(frames.count) else {
            missing += 1
            return
        }
        frames.append(Frame(prepareStart: prepareStart))
    }

    @inline(__always)
    private func index(_ id: Int64) -> Int? {
        let i = Int(truncatingIfNeeded: id &- firstFrame)
        return i >= 0 && i < frames.count ? i : nil
    }

    /// Frame `id` joins the GPU queue now.
    @inline(__always)
    func submitted(_ id: Int64, at now: SimTime) {
        guard let i = index(id) else { return }
        let f = frames.pointer(i)
        if f.pointee.prepareStart < 0 { f.pointee.prepareStart = now }
        f.pointee.submitted = now
    }

    /// Frame `id`'s GPU job ran from `start` to `end`.
    @inline(__always)
    func gpuRan(_ id: Int64, from start: SimTime, to end: SimTime) {
        guard let i = index(id) else { return }
        let f = frames.pointer(i)
        f.pointee.gpuStart = start
        f.pointee.gpuEnd = end
    }

    /// Frame `id` is latched: returns its instants; it and the frames
    /// before it (dropped) are forgotten.
    mutating func latched(_ id: Int64) -> Frame? {
        guard let i = index(id) else {
            missing += 1
            return nil
        }
        let f = frames[i]
        frames.removeFirst(i + 1)
        firstFrame = id + 1
        return f
    }
}
