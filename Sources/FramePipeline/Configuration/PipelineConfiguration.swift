import SimKernel
import TouchModel

/// Which platform's pipeline a run simulates (`os.platform`).
public enum Platform: String, Sendable, CaseIterable, Keyword {
    /// The iOS pipeline of the WWDC 2015 talk (Docs/Model.md).
    case ios
    /// The Android pipeline: InputConsumer, Choreographer, RenderThread,
    /// BufferQueue and SurfaceFlinger (Docs/Android.md).
    case android
}

/// Core Animation render-server behaviour (`os.renderServer`).
public enum RenderServerMode: String, Sendable, CaseIterable, Keyword {
    /// iOS 8: the render server starts work at a vsync.
    case vsync
    /// iOS 9: a commit starts the render server's work at once.
    case lowLatency
}

/// How UIKit hands touches to the app (`os.delivery`).
public enum DeliveryPolicy: String, Sendable, CaseIterable, Keyword {
    /// iOS 9: every ready touch at the next frame start, together.
    case coalesced
    /// Each touch as soon as it is ready (the no-coalescing counterfactual).
    case perScan
}

/// How many display buffers may exist (`os.buffering`).
public enum BufferingPolicy: String, Sendable, CaseIterable, Keyword, Codable {
    /// Two buffers.
    case double
    /// Three buffers.
    case triple
    /// Two, and a third while the render server would otherwise wait.
    case adaptive
}

/// Which completed frame a vsync latches (`os.present`).
public enum PresentPolicy: String, Sendable, CaseIterable, Keyword {
    /// The newest; older completed frames are dropped.
    case latest
    /// The oldest; the rest wait (a backlog adds latency).
    case fifo
}

/// Which touches the app draws from (`app.touches`).
public enum TouchUse: String, Sendable, CaseIterable, Keyword {
    /// The main touch of each delivery only.
    case main
    /// Every coalesced touch.
    case coalesced
}

/// How the app renders (`app.rendering`).
public enum RenderingPath: String, Sendable, CaseIterable, Keyword {
    /// Through Core Animation: commits rendered by the render server.
    case coreAnimation
    /// A Metal layer: GPU work encoded by the handler.
    case metal
}

/// Smoothing of predicted positions (`app.prediction.smoothing`).
public enum PredictionSmoothing: String, Sendable, CaseIterable, Keyword {
    /// Predictions drawn as predicted.
    case none
    /// A 1€ filter on the predicted positions: the same as `+1e` on the
    /// predictor's name (``PredictorSpec/withOneEuro``).
    case oneEuro
}

extension PredictorKind: Keyword {}

/// When UIKit or Core Animation animations are active (`app.animations`).
public enum AnimationSchedule: Sendable, Hashable, CustomStringConvertible {
    /// Never.
    case never
    /// For the whole run.
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

    /// `never`, `always`, or `2s..4s,6s..7s`.
    public var description: String {
        switch self {
        case .never: return "never"
        case .always: return "always"
        case .intervals(let rs):
            return rs.map { "\(DurationSyntax.format($0.lowerBound))..\(DurationSyntax.format($0.upperBound))" }.joined(separator: ",")
        }
    }
}

/// What makes the app draw (`app.updates`).
public enum AppUpdates: String, Sendable, CaseIterable, Keyword {
    /// Touches: the app draws what the finger does.
    case touch
    /// Google WALT's screen test (`ScreenResponseFragment`): the app
    /// changes its colour once, 100 ms after the start and then
    /// `app.blinkDelay` after a photodiode sees each change; nothing is
    /// drawn in between (Docs/Devices.md, "App models").
    case blink
}

/// What touches the glass (`input.tool`).
public enum InputTool: String, Sendable, CaseIterable, Keyword {
    /// A finger: the digitizer scans at `device.scanHz`.
    case finger
    /// An Apple Pencil: the digitizer scans at `device.pencilScanHz` when
    /// the device gives one, else at `device.scanHz`.
    case pencil
}

/// The photon row (`measure.row`).
public enum MeasureRow: Sendable, Hashable {
    /// A fixed fraction of the screen height, 0 (top) ... 1 (bottom).
    case fraction(Rational)
    /// The touch's own row.
    case touch
}

/// Every setting of a run, typed and checked (Docs/Model.md, "Configuration").
///
/// A configuration is made by the key table of the Scenarios module, which
/// declares each key's default, parser and range once; code that changes a
/// run (a sweep, a prediction study) sets these fields as values.
public struct PipelineConfiguration: Sendable {
    /// Simulated time (`duration`).
    public var duration: SimTime
    /// The seed of every random number of the run (`seed`).
    public var seed: UInt64
    /// Which pipeline (`os.platform`).
    public var platform: Platform
    /// Display refresh rate, Hz (`device.displayHz`).
    public var displayHz: Rational
    /// Digitizer scan rate, Hz (`device.scanHz`).
    public var scanHz: Rational
    /// Offset of scan window 0 from vsync 0 (`device.scanPhase`).
    public var scanPhase: SimTime
    /// Where in its window a sample is taken, 0...1 (`device.sampleInstant`).
    public var sampleInstant: Rational
    /// From a window's end to its sample being ready (`device.digitizerDelay`).
    public var digitizerDelay: SimTime
    /// Added to every photon time (`device.panelResponse`).
    public var panelResponse: SimTime
    /// The factor on the app's and the GPU's work durations while the
    /// clocks ramp up after idle (`device.idleRamp`, an unknown; 1: none).
    public var idleRamp: Double = 1
    /// How long the ramp lasts from the first work after a quiet stretch,
    /// and the quiet that makes one (`device.idleRampWindow`).
    public var idleRampWindow: SimTime = 10 * Nanos.perMillisecond
    /// Screen points per millimetre (`device.pointsPerMM`).
    public var pointsPerMM: Double
    /// Screen width, points (`device.widthPoints`).
    public var widthPoints: Double
    /// Screen height, points (`device.heightPoints`).
    public var heightPoints: Double
    /// Digitizer noise and quantisation (`device.noise`, `device.quantization`).
    public var noise: DigitizerNoise
    /// `os.renderServer`.
    public var renderServer: RenderServerMode
    /// `os.delivery`.
    public var delivery: DeliveryPolicy
    /// From a vsync to the frame start at which touches are delivered (`os.dispatchDelay`).
    public var dispatchDelay: SimTime
    /// `os.buffering`.
    public var buffering: BufferingPolicy
    /// `os.present`.
    public var present: PresentPolicy
    /// Vsyncs with a spare buffer before adaptive buffering gives the third back (`os.tripleReleaseFrames`).
    public var tripleReleaseFrames: Int
    /// The touch handler's time (`app.handler`).
    public var handler: DurationDistribution
    /// Transactions committed per handler run (`app.commits`).
    public var commits: Int
    /// `app.touches`.
    public var touches: TouchUse
    /// `app.animations`.
    public var animations: AnimationSchedule
    /// `app.rendering`.
    public var rendering: RenderingPath
    /// Metal GPU work encoded by the handler (`app.gpu`).
    public var appGPU: DurationDistribution
    /// `app.presentsWithTransaction`.
    public var presentsWithTransaction: Bool
    /// `app.prediction.predictor`: latsim's or a platform's predictor, as
    /// named (before `app.prediction.smoothing`; see ``appPredictor``).
    public var predictor: PredictorSpec
    /// How far ahead the app predicts (`app.prediction.horizon`).
    public var horizon: SimTime
    /// `app.prediction.smoothing`.
    public var smoothing: PredictionSmoothing
    /// Render-server prepare time (`renderServer.prepare`).
    public var prepare: DurationDistribution
    /// GPU time of a render-server frame (`gpu.render`).
    public var gpuRender: DurationDistribution
    /// The finger's motion: a synthetic kind or a trace path (`input.trajectory`).
    public var trajectory: String
    /// Finger speed, points per second (`input.speed`).
    public var speed: Double
    /// Whether `strokes` lifts the finger between strokes (`input.liftOff`).
    public var liftOff: Bool
    /// The photon row (`measure.row`).
    public var row: MeasureRow
    /// A touch with no new frame shown this long before it is a first touch
    /// after idle (`measure.quietGap`).
    public var quietGap: SimTime = 100 * Nanos.perMillisecond
    /// From a contact to its touch-down being ready (`device.touchDownDelay`):
    /// nil is `auto`, the end of the first scan window that begins at or
    /// after the contact plus the digitizer delay (Docs/Devices.md, "Taps").
    public var touchDownDelay: DurationDistribution?
    /// From a tap's lift to its lift-off being ready (`device.touchUpDelay`);
    /// nil is `auto`, as for the touch-down.
    public var touchUpDelay: DurationDistribution?
    /// Whether the app's touch handler responds to a tap's lift-off
    /// (touchesEnded, ACTION_UP) with a frame of its own (`app.liftResponse`).
    public var liftResponse: Bool
    /// Whether the app is a scroll view whose content follows the finger
    /// once a drag passes the touch slop (`app.scrolls`; Docs/Model.md,
    /// "Scrolling").
    public var scrolls: Bool
    /// The scroll view's touch slop in the model's points (`app.touchSlop`:
    /// dp on Android, points on iOS).
    public var touchSlop: Double
    /// What makes the app draw (`app.updates`).
    public var updates: AppUpdates
    /// WALT's screen test: from the photodiode seeing a change to the next
    /// change (`app.blinkDelay`).
    public var blinkDelay: DurationDistribution
    /// Taps: from one tap's slot to the next (`input.tapInterval`).
    public var tapInterval: SimTime
    /// Taps: how long the finger rests on the glass (`input.tapHold`).
    public var tapHold: SimTime
    /// Taps: each contact comes up to this long after its slot (`input.tapJitter`).
    public var tapJitter: SimTime
    /// Taps: taps per burst (`input.tapBurst`; 1: no bursts).
    public var tapBurst = 1
    /// Taps: from one burst's first slot to the next's (`input.tapBurstInterval`).
    public var tapBurstInterval: SimTime = 3 * Nanos.perSecond
    /// What makes the app draw (`app.updates`).
public enum AppUpdates: String, Sendable, CaseIterable, Keyword {
    /// Touches: the app draws what the finger does.
    case touch
    /// Google WALT's screen test (`ScreenResponseFragment`): the app
    /// changes its colour once, 100 ms after the start and then
    /// `app.blinkDelay` after a photodiode sees each change; nothing is
    /// drawn in between (Docs/Devices.md, "App models").
    case blink
}

/// What touches the glass (`input.tool`).
    public var tool: InputTool
    /// The digitizer's scan rate for the Pencil, Hz; nil when the device
    /// has none (`device.pencilScanHz`).
    public var pencilScanHz: Rational?
    /// The device preset the settings started from (Docs/Devices.md), for
    /// reports; nil for the generic device.
    public var devicePreset: String?
    /// The Android pipeline's own settings (`android.*`; Docs/Android.md).
    public var android: AndroidSettings
    /// 3D Touch: the press, force sensing, haptics and the app's force
    /// recognition (Docs/Force.md).
    public var force = ForceSettings()
    /// A display that changes its rate (Docs/Model.md, "Display rate").
    public var rate = DisplayRateSettings()
    /// The ink app: wet ink at the pen's row, unbuffered input, the front
    /// buffer's plane, the mid-frame read (Docs/Ink.md).
    public var ink = InkSettings()

    /// A configuration whose every field the key table then sets; not a
    /// configuration to run as it is.
    package init() {
        duration = 0
        seed = 0
        platform = .ios
        displayHz = Rational(60)
        scanHz = Rational(60)
        scanPhase = 0
        sampleInstant = Rational(0)
        digitizerDelay = 0
        panelResponse = 0
        pointsPerMM = 1
        widthPoints = 1
        heightPoints = 1
        noise = .none
        renderServer = .lowLatency
        delivery = .coalesced
        dispatchDelay = 0
        buffering = .adaptive
        present = .latest
        tripleReleaseFrames = 1
        handler = .fixed(0)
        commits = 1
        touches = .coalesced
        animations = .never
        rendering = .coreAnimation
        appGPU = .fixed(0)
        presentsWithTransaction = false
        predictor = PredictorSpec(.none)
        horizon = 0
        smoothing = .none
        prepare = .fixed(0)
        gpuRender = .fixed(0)
        trajectory = ""
        speed = 1
        liftOff = false
        row = .fraction(Rational(0))
        touchDownDelay = nil
        touchUpDelay = nil
        liftResponse = false
        scrolls = false
        touchSlop = 0
        updates = .touch
        blinkDelay = .fixed(0)
        tapInterval = 1
        tapHold = 0
        tapJitter = 0
        tool = .finger
        pencilScanHz = nil
        devicePreset = nil
        android = AndroidSettings()
    }

    /// The display period as an exact rational number of ns.
    public var framePeriod: Rational { Rational(Nanos.perSecond * displayHz.denominator, displayHz.numerator) }
    /// The display clock (vsync k).
    public var vsyncClock: PeriodicClock { PeriodicClock(hz: displayHz) }
    /// The digitizer's clock (scan window starts).
    public var scanClock: PeriodicClock { PeriodicClock(hz: scanHz, phase: scanPhase) }
    /// What the finger's trajectory needs to know.
    public var trajectoryParameters: TrajectoryParameters {
        var timing = TapTiming(interval: tapInterval, hold: tapHold, jitter: tapJitter)
        timing.burst = Int64(tapBurst)
        timing.burstInterval = tapBurstInterval
        var p = TrajectoryParameters(speed: speed, widthPoints: widthPoints, heightPoints: heightPoints,
                                     pointsPerMM: pointsPerMM, seed: seed, strokeLiftOff: liftOff,
                                     taps: timing)
        p.press = force.press
        p.maximumForce = force.maximumForce
        return p
    }
    /// True when Metal frames go straight to the display (Docs/Model.md, "Metal layers").
    public var metalDirect: Bool { rendering == .metal && renderServer == .lowLatency && !presentsWithTransaction }
    /// The predictor the app runs, or nil when prediction is off (`none`).
    /// `app.prediction.smoothing: oneEuro` adds the predictor family's 1€
    /// filter, as `+1e` on its name does (once: `kalman+1e` with `oneEuro`
    /// is `kalman+1e`); `androidx.kalman` has no filter and stays unsmoothed
    /// (a scenario that asks for both is refused when it is read).
    /// `androidx.kalman` with no tool written takes the input's: a pencil
    /// is a stylus (``PredictorSpec/forInput(stylus:)``).
    public var appPredictor: PredictorSpec? {
        if predictor.isNone { return nil }
        let p = predictor.forInput(stylus: tool == .pencil)
        guard smoothing == .oneEuro else { return p }
        return p.withOneEuro ?? p
    }

    /// True when the finger taps (`input.trajectory: taps`): the run
    /// measures tap-to-photon instead of the drag figures.
    public var taps: Bool { trajectory == Trajectory.tapsName }

    /// True when a run measures first touches after idle against steady
    /// ones: a finger that comes and goes (taps, drags, strokes with
    /// lift-offs), or any finger on a display that changes its rate.
    public var measuresFirstTouch: Bool {
        !noFinger && (taps || trajectory == "drags" || liftOff || rate.switches)
    }

    /// True when nothing touches the glass (`input.trajectory: none`).
    public var noFinger: Bool { trajectory == Trajectory.noneName }

    /// True for WALT's screen test (`app.updates: blink`).
    public var blinks: Bool { updates == .blink }

    /// The display period rounded to whole ns: the frame interval the app
    /// gives its predictor.
    public var frameInterval: SimTime { framePeriod.scaledRounded(by: Rational(1)) ?? 16_666_667 }
}
