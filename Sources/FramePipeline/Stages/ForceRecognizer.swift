import SimKernel

/// Where a peek-and-pop interaction stands.
public enum PreviewState: UInt8, Sendable {
    /// No preview: the force is on its way to the peek threshold, if anywhere.
    case idle
    /// Peeked: the preview is shown; the force is on its way to pop.
    case previewing
    /// Popped: the committed view is shown until the press ends.
    case committed
}

/// The app's force processing (Docs/Force.md, "Recognition"): the delivered
/// force of each touch, in order, moves a peek-and-pop interaction through
/// its stages, as UIKit's preview gesture does for `UIPreviewInteraction`.
///
/// Each threshold is a Schmitt trigger with a time condition. A touch at or
/// above the threshold *arms* it (remembering the touch's time); only a
/// touch below `threshold − hysteresis` disarms it, so a force hovering
/// around the threshold stays armed and never flickers. An armed threshold
/// is *recognised* at the first touch whose time is at least `intent` after
/// the arming touch's: a spike shorter than that (a tap's impact) is
/// disarmed before it counts, and is rejected. From a preview, a touch
/// below the peek's release level ends the interaction (the preview is
/// cancelled); after a pop, it ends the press. A new touch-down ends
/// whatever was under way.
struct ForceRecognizer: Sendable {
    let peek: Double
    let pop: Double
    let peekRelease: Double
    let popRelease: Double
    let intent: SimTime
    /// Where the interaction stands.
    private(set) var state = PreviewState.idle
    /// The time of the touch that armed the current target threshold.
    private(set) var armedAt: SimTime?

    init(_ s: ForceSettings) {
        peek = s.peek
        pop = s.pop
        peekRelease = s.peekRelease
        popRelease = s.popRelease
        intent = s.intent
    }

    /// What one touch did.
    struct Outcome: Sendable, Equatable {
        /// A stage recognised by this touch (`.previewing`: peek, `.committed`: pop).
        var recognised: PreviewState?
        /// The interaction ended: a preview cancelled (`.previewing`) or a
        /// popped press released (`.committed`).
        var ended: PreviewState?
        /// An armed threshold was disarmed before its intent time: a spike rejected.
        var rejected = false
    }

    /// The threshold the force is heading for now, and its release level.
    var target: (threshold: Double, release: Double)? {
        switch state {
        case .idle: return (peek, peekRelease)
        case .previewing: return (pop, popRelease)
        case .committed: return nil
        }
    }

    /// A delivered touch: its sample time, its force, whether it began a stroke.
    mutating func observe(time: SimTime, force f: Double, began: Bool) -> Outcome {
        var out = Outcome()
        if began {
            // a new touch-down: whatever was under way ended with the old touch
            if state != .idle { out.ended = state }
            if armedAt != nil { out.rejected = true }
            state = .idle
            armedAt = nil
        }
        if state != .idle && f < peekRelease {
            out.ended = state
            state = .idle
            armedAt = nil
        }
        guard let (threshold, release) = target else { return out }
        if f >= threshold {
            if armedAt == nil { armedAt = time }
        } else if f < release, armedAt != nil {
            armedAt = nil
            out.rejected = true
        }
        if let armed = armedAt, time - armed >= intent {
            armedAt = nil
            state = state == .idle ? .previewing : .committed
            out.recognised = state
        }
        return out
    }

    /// `UIPreviewInteraction`'s progress for a delivered force `f`, as the
    /// two stages' transitions report it: the preview stage's progress
    /// (0 to 1) and the commit stage's (0 to 1), summed (0 to 2).
    ///
    /// Before the peek the preview stage runs from an average touch (1.0)
    /// to the peek threshold; after it the commit stage runs from the peek
    /// threshold to the pop threshold. A recognised stage counts 1 whatever
    /// the force.
    func progress(_ f: Double) -> Double { Self.progress(f, state: state, peek: peek, pop: pop) }

    /// The progress of force `f` in `state`, for thresholds `peek` and `pop`.
    static func progress(_ f: Double, state: PreviewState, peek: Double, pop: Double) -> Double {
        func clamp(_ x: Double) -> Double { Swift.min(1, Swift.max(0, x)) }
        switch state {
        case .idle: return clamp((f - 1) / (peek - 1))
        case .previewing: return 1 + clamp((f - peek) / (pop - peek))
        case .committed: return 2
        }
    }
}
