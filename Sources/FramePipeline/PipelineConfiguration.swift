import SimKernel
import TouchModel

/// Core Animation render-server behaviour (`os.renderServer`).
public enum RenderServerMode: String, Sendable, CaseIterable { case vsync, lowLatency }
/// How UIKit hands touches to the app (`os.delivery`).
public enum DeliveryPolicy: String, Sendable, CaseIterable { case coalesced, perScan }
/// How many display buffers may exist (`os.buffering`).
public enum BufferingPolicy: String, Sendable, CaseIterable { case double, triple, adaptive }
/// Which completed frame a vsync latches (`os.present`).
public enum PresentPolicy: String, Sendable, CaseIterable { case latest, fifo }
/// Which touches the app draws from (`app.touches`).
public enum TouchUse: String, Sendable, CaseIterable { case main, coalesced }
/// How the app renders (`app.rendering`).
public enum RenderingPath: String, Sendable, CaseIterable { case coreAnimation, metal }
/// Smoothing of predicted positions (`app.prediction.smoothing`).
public enum PredictionSmoothing: String, Sendable, CaseIterable { case none, oneEuro }

/// When UIKit or Core Animation animations are active (`app.animations`).
public enum AnimationSchedule: Sendable, Hashable, CustomStringConvertible {
    case never
    case always
    /// Half-open intervals [start, end), sorted.
    case intervals([Range<SimTime>])

    /// True when an animation is active at `t`.
    @inlinable
    public func isActive(at t: SimTime) -> Bool {
        switch self {
        case .never: return false
        case .always: return true
        case .intervals(let rs):
            for r in rs where r.contains(t) { return true }
            return false
        }
    }

    public var description: String {
        switch self {
        case .never: return "never"
        case .always: return "always"
        case .intervals(let rs):
            return rs.map { "\(DurationSyntax.format($0.lowerBound))..\(DurationSyntax.format($0.upperBound))" }.joined(separator: ",")
        }
    }
}

/// The photon row (`measure.row`).
public enum MeasureRow: Sendable, Hashable {
    /// A fixed fraction of the screen height, 0 (top) ... 1 (bottom).
    case fraction(Rational)
    /// The touch's own row.
    case touch
}

/// Every setting of a run, typed and validated (MODEL.md section 10).
public struct PipelineConfiguration: Sendable {
    public var duration: SimTime
    public var seed: UInt64
    public var displayHz: Rational
    public var scanHz: Rational
    public var scanPhase: SimTime
    public var sampleInstant: Rational
    public var digitizerDelay: SimTime
    public var panelResponse: SimTime
    public var pointsPerMM: Double
    public var widthPoints: Double
    public var heightPoints: Double
    public var noise: DigitizerNoise
    public var renderServer: RenderServerMode
    public var delivery: DeliveryPolicy
    public var dispatchDelay: SimTime
    public var buffering: BufferingPolicy
    public var present: PresentPolicy
    public var tripleReleaseFrames: Int
    public var handler: DurationDistribution
    public var commits: Int
    public var touches: TouchUse
    public var animations: AnimationSchedule
    public var rendering: RenderingPath
    public var appGPU: DurationDistribution
    public var presentsWithTransaction: Bool
    public var predictor: PredictorKind
    public var horizon: SimTime
    public var smoothing: PredictionSmoothing
    public var prepare: DurationDistribution
    public var gpuRender: DurationDistribution
    public var trajectory: String
    public var speed: Double
    public var liftOff: Bool
    public var row: MeasureRow

    /// The display period as an exact rational number of ns.
    public var framePeriod: Rational { Rational(Nanos.perSecond * displayHz.denominator, displayHz.numerator) }
    /// The display clock (vsync k).
    public var vsyncClock: PeriodicClock { PeriodicClock(hz: displayHz) }
    /// The digitizer's clock (scan window starts).
    public var scanClock: PeriodicClock { PeriodicClock(hz: scanHz, phase: scanPhase) }
    /// What the finger's trajectory needs to know.
    public var trajectoryParameters: TrajectoryParameters {
        TrajectoryParameters(speed: speed, widthPoints: widthPoints, heightPoints: heightPoints,
                             pointsPerMM: pointsPerMM, seed: seed, strokeLiftOff: liftOff)
    }
    /// True when Metal frames go straight to the display (MODEL.md section 2).
    public var metalDirect: Bool { rendering == .metal && renderServer == .lowLatency && !presentsWithTransaction }
    /// The predictor configuration, or nil when prediction is off.
    public var predictorConfiguration: PredictorConfiguration? {
        predictor == .none ? nil : PredictorConfiguration(kind: predictor, oneEuro: smoothing == .oneEuro ? OneEuroParameters() : nil)
    }

    /// Resolves settings into a configuration, checking every value.
    public init(settings: Settings) throws(ScenarioError) {
        var r = SettingReader(settings: settings)
        displayHz = try r.rate("device.displayHz")
        let frame = Rational(Nanos.perSecond * displayHz.denominator, displayHz.numerator)
        r.framePeriod = frame
        duration = try r.duration("duration", positive: true)
        seed = try r.unsigned("seed")
        scanHz = try r.rate("device.scanHz")
        scanPhase = try r.duration("device.scanPhase")
        sampleInstant = try r.fraction("device.sampleInstant")
        digitizerDelay = try r.duration("device.digitizerDelay")
        panelResponse = try r.duration("device.panelResponse")
        pointsPerMM = try r.number("device.pointsPerMM", positive: true)
        widthPoints = try r.number("device.widthPoints", positive: true)
        heightPoints = try r.number("device.heightPoints", positive: true)
        noise = DigitizerNoise(sigma: try r.number("device.noise", positive: false),
                               quantum: try r.number("device.quantization", positive: false))
        renderServer = try r.choice("os.renderServer")
        delivery = try r.choice("os.delivery")
        dispatchDelay = try r.duration("os.dispatchDelay")
        buffering = try r.choice("os.buffering")
        present = try r.choice("os.present")
        tripleReleaseFrames = try r.integer("os.tripleReleaseFrames", minimum: 1)
        handler = try r.distribution("app.handler")
        commits = try r.integer("app.commits", minimum: 1, maximum: 1000)
        touches = try r.choice("app.touches")
        animations = try r.animations("app.animations")
        rendering = try r.choice("app.rendering")
        appGPU = try r.distribution("app.gpu")
        presentsWithTransaction = try r.bool("app.presentsWithTransaction")
        predictor = try r.choice("app.prediction.predictor")
        horizon = try r.duration("app.prediction.horizon")
        smoothing = try r.choice("app.prediction.smoothing")
        prepare = try r.distribution("renderServer.prepare")
        gpuRender = try r.distribution("gpu.render")
        trajectory = try r.text("input.trajectory")
        speed = try r.number("input.speed", positive: true)
        liftOff = try r.bool("input.liftOff")
        row = try r.row("measure.row")
    }
}
