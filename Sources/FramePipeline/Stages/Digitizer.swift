import SimKernel
import TouchModel

/// The Multi-Touch digitizer (Docs/Model.md, "Digitizer"): it scans in
/// windows `[W_j, W_j+1)` at the scan rate; each window yields one touch
/// while the finger is down, its position taken at `sampleInstant` of the
/// window (plus noise) and ready at `W_j+1 + digitizerDelay`.
///
/// Shared by every platform.
public struct Digitizer: Sendable {
    let sampleInstant: Rational
    let delay: SimTime
    let noise: DigitizerNoise
    /// How the force is sensed (Docs/Force.md, "The digitizer").
    let forceSensor: ForceSensor
    var finger: TrajectoryCursor
    var noiseRNG: SeededRandom
    /// Force noise has a generator of its own, so that it never moves the
    /// position noise's draws.
    var forceRNG: SeededRandom
    /// The current scan window's start (and, advanced once, its end).
    var window: Ticker
    /// A window is one of two widths (the period rounded down or up): the
    /// sample instant's offset is computed once for each.
    var offsets: (width: SimTime, offset: SimTime, otherWidth: SimTime, otherOffset: SimTime) = (-1, 0, -1, 0)
    var fingerWasDown = false
    /// Touches made so far.
    public private(set) var touchesMade = 0
    /// The last scanned window, [start, end).
    public private(set) var lastWindow: Range<SimTime> = 0..<0

    /// A digitizer following `trajectory`.
    public init(configuration c: PipelineConfiguration, trajectory: Trajectory) {
        sampleInstant = c.sampleInstant
        delay = c.digitizerDelay
        noise = c.noise
        finger = TrajectoryCursor(trajectory)
        noiseRNG = SeededRandom(seed: c.seed, stream: 1)
        forceSensor = ForceSensor(c.force)
        forceRNG = SeededRandom(seed: c.seed, stream: ForceSensor.stream)
        window = c.scanClock.ticks(from: 0)
    }

    /// When the current window's touch is ready.
    public var nextReady: SimTime {
        var end = window
        return end.advance() + delay
    }

    /// Scans the current window, whose touch is ready `now`, and moves on to
    /// the next window. Returns the touch, or nil while the finger is up.
    public mutating func scan(readyAt now: SimTime) -> Touch? {
        let index = window.index
        let w0 = window.time
        let w1 = window.advance()
        lastWindow = w0..<w1
        let width = w1 - w0
        let offset: SimTime
        if width == offsets.width {
            offset = offsets.offset
        } else if width == offsets.otherWidth {
            offset = offsets.otherOffset
        } else {
            offset = Int64(roundHalfUp(Int128(sampleInstant.numerator) * Int128(width), Int128(sampleInstant.denominator)))
            offsets = (width, offset, offsets.width, offsets.offset)
        }
        let instant = w0 + offset
        let state = finger.state(at: instant)
        defer { fingerWasDown = state.isDown }
        guard state.isDown else { return nil }
        var position = state.position
        if !noise.isNone { position = noise.apply(position, rng: &noiseRNG) }
        touchesMade += 1
        var force = state.force
        if !forceSensor.isExact { force = forceSensor.apply(force, rng: &forceRNG) }
        return Touch(scan: index, time: instant, windowStart: w0, ready: now, position: position, began: !fingerWasDown,
                     force: force)
    }
}
