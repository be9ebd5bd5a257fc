import SimKernel

/// The instants the iOS stage budget needs that no stage keeps: when each
/// frame began its prepare, joined the GPU queue and ran on the GPU (the
/// delivery and commit instants travel with the commit, ``Commit``). Kept
/// beside the frames (a frame carries only what the pipeline needs to
/// run), only when the budget is.
///
/// A frame holds its display buffer from its prepare start (a Metal frame
/// presented directly: from taking its drawable) until it is latched or
/// dropped, so the frames in flight hold distinct buffers (the buffer
/// pool counts any conflict): a frame's instants are kept in its buffer's
/// slot, found without a search or a bounds check, and the next frame to
/// take the buffer overwrites them. A latched frame whose slot holds
/// another frame's instants is counted missing (an invariant: 0). The
/// budget is built from them only when a frame is measured
/// (``IOSPipeline/splitBudget(_:_:latch:)``).
struct BudgetStamps {
    /// A frame's instants (-1 until they happen), and which frame they are.
    struct Frame {
        var id: Int64
        var prepareStart: SimTime
        var submitted: SimTime = -1
        var gpuStart: SimTime = -1
        var gpuEnd: SimTime = -1
    }

    /// Whether the stamps are kept (the run keeps its stage budget).
    private(set) var isKept = false
    /// The slots, one per buffer identity (copies of the stamps share
    /// them; one run uses them). Buffer identities are 0, 1 and 2; a slot
    /// is found by the low three bits, so no identity reads outside them.
    private let table = NumberedSlots(atLeast: 8, filledWith: Frame(id: -1, prepareStart: -1))
    /// Frames latched whose instants were not found (an invariant: 0).
    private(set) var missing = 0

    /// Starts keeping the stamps.
    mutating func keep() { isKept = true }

    /// Frame `id` took `buffer`: its prepare starts at `prepareStart` (-1
    /// for a Metal frame, which has none: it starts when it joins the GPU
    /// queue).
    @inline(__always)
    func began(_ id: Int64, buffer: Int8, prepareStart: SimTime) {
        table[Int64(buffer)] = Frame(id: id, prepareStart: prepareStart)
    }

    /// The frame holding `buffer` joins the GPU queue now.
    @inline(__always)
    func submitted(buffer: Int8, at now: SimTime) {
        let b = Int64(buffer)
        if table[b].prepareStart < 0 { table[b].prepareStart = now }
        table[b].submitted = now
    }

    /// The GPU job of the frame holding `buffer` ran from `start` to `end`.
    @inline(__always)
    func gpuRan(buffer: Int8, from start: SimTime, to end: SimTime) {
        let b = Int64(buffer)
        table[b].gpuStart = start
        table[b].gpuEnd = end
    }

    /// Frame `id`, holding `buffer`, is latched: where its instants are
    /// (read in place, until another frame takes the buffer), nil (and
    /// counted missing) when its buffer's slot holds another frame's.
    @inline(__always)
    mutating func latched(_ id: Int64, buffer: Int8) -> InPlace<Frame>? {
        let f = table.inPlace(Int64(buffer))
        guard f.value.id == id else {
            missing += 1
            return nil
        }
        return f
    }
}
