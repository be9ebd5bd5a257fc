import SimKernel
import TouchModel

/// The app's predictor: any predictor a ``PredictorSpec`` names (latsim's or
/// a platform's) as a ``ConfiguredPredictor``, with no existential, or a
/// user's own type behind one. It is called once per delivery, never per
/// event.
///
/// The configured predictor is kept unpacked, one optional stored property
/// per case of ``ConfiguredPredictor``, so that each call mutates it in
/// place: an enum's payload is copied out and back on every mutating call,
/// and a platform predictor's state (about 1.5 KB) made that copy cost a
/// fifth of the engine's speed on `ios9-prediction`.
struct PredictorSlot {
    private var builtin: BuiltinPredictor?
    private var platform: PlatformPredictor?
    /// A user's own predictor (a Swift type, or a process).
    private var custom: (any TouchPredictor)?

    /// One of latsim's predictors.
    static func builtin(_ p: BuiltinPredictor) -> PredictorSlot { PredictorSlot(.builtin(p)) }

    /// A user's own predictor behind an existential.
    static func custom(_ p: any TouchPredictor) -> PredictorSlot {
        var slot = PredictorSlot(.builtin(BuiltinPredictor(kind: .none)))
        slot.builtin = nil
        slot.custom = p
        return slot
    }

    /// A configured predictor.
    init(_ configured: ConfiguredPredictor) {
        switch configured {
        case .builtin(let b): builtin = b
        case .platform(let p): platform = p
        }
    }

    /// The predictor a spec names, for frames `frameInterval` ns apart.
    init(_ spec: PredictorSpec, frameInterval: SimTime) {
        self.init(spec.makePredictor(frameInterval: frameInterval))
    }

    /// Any predictor: a ``ConfiguredPredictor``, ``BuiltinPredictor`` or
    /// ``PlatformPredictor`` goes in without an existential.
    init(_ p: some TouchPredictor) {
        if let c = p as? ConfiguredPredictor {
            self.init(c)
        } else if let b = p as? BuiltinPredictor {
            self.init(.builtin(b))
        } else if let q = p as? PlatformPredictor {
            self.init(.platform(q))
        } else {
            self = .custom(p)
        }
    }

    /// The configured predictor as it stands; nil for a user's own.
    var configured: ConfiguredPredictor? {
        if let builtin { return .builtin(builtin) }
        if let platform { return .platform(platform) }
        return nil
    }

    /// A stroke begins.
    mutating func reset() {
        if builtin != nil { builtin!.reset() } else if platform != nil { platform!.reset() } else { custom!.reset() }
    }

    /// A delivered sample.
    mutating func observe(_ s: TouchSample) {
        if builtin != nil { builtin!.observe(s) } else if platform != nil { platform!.observe(s) } else { custom!.observe(s) }
    }

    /// The prediction `horizon` ahead; a platform predictor assumes the
    /// frame interval it was made with.
    mutating func predict(horizon: SimTime) -> TouchPoint? {
        if builtin != nil { return builtin!.predict(horizon: horizon) }
        if platform != nil { return platform!.predict(horizon: horizon) }
        return custom!.predict(horizon: horizon)
    }

    /// The prediction `horizon` ahead for frames `frameInterval` ns apart
    /// (latsim's predictors ignore the interval).
    mutating func predict(horizon: SimTime, frameInterval: SimTime) -> TouchPoint? {
        if builtin != nil { return builtin!.predict(horizon: horizon) }
        if platform != nil { return platform!.predict(horizon: horizon, frameInterval: frameInterval) }
        return custom!.predict(horizon: horizon, frameInterval: frameInterval)
    }

    /// The instant the last prediction stands for when it is not the target
    /// (``PlatformPredictor/predictedTime``); nil for the others.
    var predictedTime: SimTime? { platform?.predictedTime }
}
