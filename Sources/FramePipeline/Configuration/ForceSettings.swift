import SimKernel
import TouchModel

/// What the app does with the force of its touches (`app.force.interaction`).
public enum ForceInteraction: String, Sendable, CaseIterable, Keyword {
    /// Nothing: an app that does not adopt 3D Touch. Force still travels
    /// with every touch; nothing is recognised or measured.
    case none
    /// Peek and pop through UIKit's force processing, as
    /// `UIPreviewInteraction` reports it (Docs/Force.md): peek and pop
    /// thresholds, haptic taps, the preview and commit animations.
    case peekPop
    /// A force-sensitive stroke: the drawn width follows the delivered (or
    /// predicted) force.
    case drawing
}

/// The 3D Touch settings: the finger's press, the digitizer's force
/// sensing, the haptic actuator and the app's force recognition
/// (Docs/Force.md, "Keys"). Every number the talk leaves open is a key
/// here, with its default's reasoning in Docs/Force.md.
public struct ForceSettings: Sendable, Hashable {
    /// The synthetic press (`input.press`).
    public var press: PressProfile = .none
    /// The largest force the digitizer reports, UIKit's
    /// `maximumPossibleForce` (`device.maximumForce`).
    public var maximumForce: Double = PressProfile.defaultMaximumForce
    /// Gaussian noise on each force sample, sigma (`device.forceNoise`).
    public var noise: Double = 0
    /// Reported forces snap to multiples of this (`device.forceQuantization`; 0 = off).
    public var quantum: Double = 0
    /// From the recogniser's decision to the tap the finger feels (`device.hapticLatency`).
    public var hapticLatency: SimTime = 10 * Nanos.perMillisecond
    /// What the app does with force (`app.force.interaction`).
    public var interaction: ForceInteraction = .none
    /// The peek (preview) threshold (`app.force.peek`).
    public var peek: Double = 3
    /// The pop (commit) threshold (`app.force.pop`).
    public var pop: Double = 5
    /// How far below a threshold the force must fall to undo its arming,
    /// or to end a preview (`app.force.hysteresis`).
    public var hysteresis: Double = 0.5
    /// How long the delivered force must stay armed above a threshold
    /// before the stage is recognised (`app.force.intent`).
    public var intent: SimTime = 40 * Nanos.perMillisecond
    /// The preview (peek) animation (`app.force.peekAnimation`).
    public var peekAnimation: SimTime = 250 * Nanos.perMillisecond
    /// The commit (pop) animation (`app.force.popAnimation`).
    public var popAnimation: SimTime = 250 * Nanos.perMillisecond
    /// Stroke width per unit of force, points (`app.force.widthPerForce`).
    public var widthPerForce: Double = 2

    /// Defaults (Docs/Force.md, "The numbers").
    public init() {}

    /// True when the app uses force (recognition or drawing).
    public var isUsed: Bool { interaction != .none }

    /// True when a recognised stage can start an animation (which turns
    /// low latency off while it runs).
    public var animates: Bool { interaction == .peekPop && (peekAnimation > 0 || popAnimation > 0) }

    /// The level below which the peek's arming is undone and a preview ends.
    public var peekRelease: Double { peek - hysteresis }
    /// The level below which the pop's arming is undone.
    public var popRelease: Double { pop - hysteresis }
}
