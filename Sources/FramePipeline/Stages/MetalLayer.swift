import SimKernel

/// A Metal layer presented directly (Docs/Model.md, "Metal layers"): a
/// frame takes a drawable, a display buffer, at submission, and waits for
/// one when none is free; frames waiting are served in order.
struct MetalLayer {
    private var waiting = Ring<(frame: Frame, gpu: SimTime)>()

    /// A frame with `gpu` of work waits for a drawable.
    mutating func waitForDrawable(_ frame: Frame, gpu: SimTime) { waiting.append((frame, gpu)) }

    /// The frame that has waited longest for a drawable, if any.
    @inline(__always)
    mutating func nextWaiting() -> (frame: Frame, gpu: SimTime)? { waiting.popFirst() }
}
