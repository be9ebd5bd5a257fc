import SimKernel

/// A SurfaceFlinger work duration (`android.appDuration`,
/// `android.sfDuration`): AOSP's default for the display rate, or a given
/// duration (Docs/Android.md, "Clocks").
public enum WorkDuration: Sendable, Hashable, CustomStringConvertible {
    /// AOSP's default without device properties: `T` for the app, `T - 1ms`
    /// for SurfaceFlinger.
    case auto
    /// A given duration, ns.
    case fixed(SimTime)

    /// `auto` or the duration (`20.5ms`).
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .fixed(let v): return DurationSyntax.format(v)
        }
    }
}

/// How many buffers the app's BufferQueue has (`android.buffers`).
public enum BufferCount: Sendable, Hashable, CustomStringConvertible {
    /// HWUI's `maxAcquired + 2` (Docs/Android.md, "Buffers").
    case auto
    /// A given count (2 or more).
    case count(Int)

    /// `auto` or the count.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .count(let n): return String(n)
        }
    }
}

/// How the app's frames are made (`android.renderMode`).
public enum AndroidRenderMode: String, Sendable, CaseIterable, Keyword {
    /// Frames come from the Choreographer (the default).
    case onDemand
    /// GLSurfaceView's `RENDERMODE_CONTINUOUSLY`: a GL thread draws in a
    /// loop, unpaced by the Choreographer.
    case continuous
}

/// The Android pipeline's own settings, the `android.*` keys
/// (Docs/Android.md, "Configuration keys").
public struct AndroidSettings: Sendable, Hashable {
    /// The app's work duration: vsync-app comes `appDuration + sfDuration`
    /// before the vsync it targets.
    public var appDuration: WorkDuration = .auto
    /// SurfaceFlinger's work duration: vsync-sf comes this long before the
    /// vsync it targets; it is also the app's deadline.
    public var sfDuration: WorkDuration = .auto
    /// A device's app phase offset (`VSYNC_EVENT_PHASE_OFFSET_NS`), set
    /// together with ``sfPhaseOffset`` instead of the durations; nil when unset.
    public var appPhaseOffset: SimTime?
    /// A device's SurfaceFlinger phase offset (`SF_VSYNC_EVENT_PHASE_OFFSET_NS`); nil when unset.
    public var sfPhaseOffset: SimTime?
    /// From a sample's evdev timestamp to the app's input channel.
    public var dispatchLatency: SimTime = 2 * Nanos.perMillisecond
    /// Whether InputConsumer resamples (`ro.input.resampling`).
    public var resampling = true
    /// How far before the frame time the resampling target lies (`RESAMPLE_LATENCY`).
    public var resampleLatency: SimTime = 5 * Nanos.perMillisecond
    /// RenderThread's (or the GL thread's) command issue per frame.
    public var renderThread: DurationDistribution = .fixed(2 * Nanos.perMillisecond)
    /// SurfaceFlinger's composition per latch; every draw is below the display period.
    public var sfCompose: DurationDistribution = .fixed(Nanos.perMillisecond)
    /// The BufferQueue's buffer count.
    public var buffers: BufferCount = .auto
    /// AOSP's AutoSingleLayer: latch a buffer before its GPU work is done.
    public var latchUnsignaled = false
    /// On-demand (Choreographer) or continuous (GLSurfaceView) frames.
    public var renderMode: AndroidRenderMode = .onDemand

    /// The defaults of Docs/Android.md.
    public init() {}
}

/// The Android timing a configuration resolves to: the two work durations
/// and the buffer count, whichever way they were given (Docs/Android.md,
/// "Clocks" and "Buffers").
public struct AndroidTiming: Sendable, Hashable {
    /// `D_app`, ns.
    public let appDuration: SimTime
    /// `D_sf`, ns.
    public let sfDuration: SimTime
    /// SurfaceFlinger's `maxAcquired = max(1, ceil((D_app + D_sf) / T) - 1)`.
    public let maxAcquired: Int
    /// The BufferQueue's buffers: `android.buffers`, or `maxAcquired + 2`
    /// (at most ``maximumBuffers``).
    public let buffers: Int

    /// The most buffers a BufferQueue may have (AOSP's `NUM_BUFFER_SLOTS`).
    public static let maximumBuffers = 64

    /// The timing of `settings` on a display of `displayHz`. Every instant is
    /// derived exactly from the rational display period, then rounded half
    /// up to whole nanoseconds.
    public init(_ settings: AndroidSettings, displayHz: Rational) {
        let n = Int128(Nanos.perSecond) * Int128(displayHz.denominator) // T = n / d
        let d = Int128(displayHz.numerator)
        let app: Int128, sf: Int128
        if let appOffset = settings.appPhaseOffset, let sfOffset = settings.sfPhaseOffset {
            (app, sf) = Self.fromPhaseOffsets(app: appOffset, sf: sfOffset, periodNumerator: n, periodDenominator: d)
        } else {
            switch settings.appDuration {
            case .auto: app = roundHalfUp(n, d)
            case .fixed(let v): app = Int128(v)
            }
            switch settings.sfDuration {
            case .auto: sf = Swift.max(0, roundHalfUp(n - Int128(Nanos.perMillisecond) * d, d))
            case .fixed(let v): sf = Int128(v)
            }
        }
        appDuration = SimTime(app)
        sfDuration = SimTime(sf)
        // ceil((app + sf) * d / n), exactly
        let budget = (app + sf) * d
        let vsyncs = (budget + n - 1) / n
        maxAcquired = Int(Swift.max(1, Swift.min(vsyncs - 1, 1_000_000)))
        // the key table refuses more than 64; a configuration made in code is held to it
        switch settings.buffers {
        case .auto: buffers = Swift.min(Self.maximumBuffers, maxAcquired + 2)
        case .count(let c): buffers = Swift.min(Self.maximumBuffers, Swift.max(2, c))
        }
    }

    /// AOSP `VsyncConfiguration`'s conversion of phase offsets to work
    /// durations: `sfDuration = T - sfOffset`, `appDuration = T + sfOffset -
    /// appOffset`, plus `T` while that is below `T`. The period is `n / d` ns.
    static func fromPhaseOffsets(app appOffset: SimTime, sf sfOffset: SimTime,
                                 periodNumerator n: Int128, periodDenominator d: Int128) -> (Int128, Int128) {
        let sfScaled = Swift.max(0, n - Int128(sfOffset) * d)
        var appScaled = n + (Int128(sfOffset) - Int128(appOffset)) * d
        if appScaled < n {
            let periods = (n - appScaled + n - 1) / n
            appScaled += periods * n
        }
        return (roundHalfUp(appScaled, d), roundHalfUp(sfScaled, d))
    }

    /// The durations a pair of phase offsets stands for on a display of
    /// `displayHz` (for tests and messages).
    public static func durations(appPhaseOffset: SimTime, sfPhaseOffset: SimTime, displayHz: Rational) -> (app: SimTime, sf: SimTime) {
        let n = Int128(Nanos.perSecond) * Int128(displayHz.denominator)
        let (a, s) = fromPhaseOffsets(app: appPhaseOffset, sf: sfPhaseOffset, periodNumerator: n,
                                      periodDenominator: Int128(displayHz.numerator))
        return (SimTime(a), SimTime(s))
    }
}

extension PipelineConfiguration {
    /// The Android timing this configuration resolves to.
    public var androidTiming: AndroidTiming { AndroidTiming(android, displayHz: displayHz) }

    /// True when a draw of `d` ns reaches the display period `T` (SurfaceFlinger's
    /// composition must stay below it).
    public func reachesFramePeriod(_ d: SimTime) -> Bool {
        Int128(d) * Int128(displayHz.numerator) >= Int128(Nanos.perSecond) * Int128(displayHz.denominator)
    }
}
