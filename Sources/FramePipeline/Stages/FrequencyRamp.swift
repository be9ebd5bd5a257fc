import SimKernel

/// The CPU's and GPU's frequencies ramping up after idle (Docs/Model.md,
/// "Idle"): an unpublished unknown. A governor lowers the clocks of a
/// quiet SoC and raises them again once work arrives; until it has, work
/// runs slower. Modelled as a factor (`device.idleRamp`, 1: no ramp) on
/// every work duration drawn within `device.idleRampWindow` of the first
/// work after a quiet stretch, a stretch being at least that window
/// without work: the governor is taken to respond as fast both ways.
///
/// One ramp is shared by every work stage of a pipeline (the touch
/// handler, the UI thread, RenderThread, the render server, SurfaceFlinger's
/// composition, the GPU): a reference, set up once, read at each draw.
final class FrequencyRamp {
    let factor: Double
    let window: SimTime
    /// The pipeline's current instant (set as each event is handled).
    var now: SimTime = 0
    /// When the running ramp began (.min: none yet).
    private(set) var rampStart: SimTime = .min
    /// When the last work drawn ends (.min: none yet).
    private var lastWorkEnd: SimTime = .min
    /// Work durations the ramp lengthened.
    private(set) var stretched = 0
    /// The time it added, ns.
    private(set) var added: SimTime = 0

    /// The ramp of `c`; nil without one (`device.idleRamp` 1). Asked
    /// before the object is made: a failable initialiser allocated it,
    /// then freed it, in every run without a ramp.
    static func of(_ c: borrowing PipelineConfiguration) -> FrequencyRamp? {
        c.idleRamp == 1 ? nil : FrequencyRamp(factor: c.idleRamp, window: c.idleRampWindow)
    }

    private init(factor: Double, window: SimTime) {
        self.factor = factor
        self.window = window
    }

    /// A work duration `d` drawn now, as the ramp leaves it.
    @inline(__always)
    func stretch(_ d: SimTime) -> SimTime {
        if lastWorkEnd == .min || now - lastWorkEnd >= window { rampStart = now }
        var out = d
        if now < rampStart + window {
            out = SimTime((Double(d) * factor).rounded())
            stretched += 1
            added += out - d
        }
        lastWorkEnd = Swift.max(lastWorkEnd, now + out)
        return out
    }
}
