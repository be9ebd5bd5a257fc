import SimKernel

/// The haptic actuator (Docs/Force.md, "Haptics"): the tap the finger feels
/// when a force stage is recognised, `device.hapticLatency` after the
/// recogniser's decision. UIKit plays one tap at the peek and another at
/// the pop ("A Peek at 3D Touch", WWDC 2016).
struct HapticActuator: Sendable {
    let latency: SimTime
    /// Taps played so far.
    private(set) var taps = 0

    init(latency: SimTime) { self.latency = latency }

    /// A decision at `now` to play a tap: returns when the finger feels it.
    mutating func play(at now: SimTime) -> SimTime {
        taps += 1
        return now + latency
    }
}
