import SimKernel

/// A SurfaceFlinger work duration (`android.appDuration`,
/// `android.sfDuration`): AOSP's default for the display rate, or a given
/// duration (Docs/Android.md, "Clocks").
public enum WorkDuration: Sendable, Hashable, CustomStringConvertible {
    /// AOSP's default without device properties: both `auto`, the
    /// PhaseOffsets configuration's defaults (`T` and `T - 1ms`, or below a
    /// 15 ms period `2T - 1ms` and `T - 1ms`); one given, WorkDuration's
    /// (`T` for the app, `T - 1ms` for SurfaceFlinger).
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
    /// androidx.graphics.lowlatency's front-buffered renderer
    /// (`GLFrontBufferedRenderer`, `CanvasFrontBufferedRenderer`, API 29):
    /// the wet stroke is drawn into the single buffer being scanned out,
    /// and on pen-up the dry stroke is committed through the BufferQueue
    /// and SurfaceFlinger (Docs/Ink.md).
    case frontBuffered
}

/// The Android release whose SurfaceFlinger timing rules a run follows
/// (`os.androidVersion`; Docs/Android.md, "Timing by Android version"). The
/// release decides three things, each from AOSP's history
/// (`frameworks/native`, with the commits named below):
/// - the timing rule: up to Android 11 the legacy DispSync offsets
///   (SurfaceFlinger latches at its first wake-up after a buffer is queued;
///   a frame has no target vsync); from 12 work durations with a target
///   vsync (AOSP 8287e859da and ce4adf1b97, `frameIsEarly`);
/// - the phase offsets a device that sets none runs with: 0 through 7.0,
///   1 ms from 7.1 (AOSP 28ffe198bf, "Update default DispSync offsets");
/// - whether SurfaceFlinger latches a buffer before its GPU fence: up to
///   7.0 it does (AOSP 1ce6581ac7, first in 7.1, made it wait).
public enum AndroidVersion: String, Sendable, CaseIterable, Keyword, Comparable {
    case v4_4 = "4.4", v5_0 = "5.0", v5_1 = "5.1", v6_0 = "6.0", v7_0 = "7.0", v7_1 = "7.1"
    case v8_0 = "8.0", v8_1 = "8.1", v9 = "9", v10 = "10", v11 = "11"
    case v12 = "12", v12L = "12L", v13 = "13", v14 = "14", v15 = "15"

    /// The release order.
    public static func < (a: AndroidVersion, b: AndroidVersion) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// True from Android 12: work durations and a target vsync per frame.
    public var targetsVsync: Bool { self >= .v12 }

    /// The app and SurfaceFlinger phase offset of a device that sets none,
    /// ns, at a rate that takes the default offsets.
    public var unsetPhaseOffset: SimTime { self >= .v7_1 ? Nanos.perMillisecond : 0 }

    /// The app and SurfaceFlinger phase offsets of a device that sets none,
    /// ns: ``unsetPhaseOffset`` for both, or from Android 10 at a high
    /// rate (``usesHighFpsOffsets(displayHz:peakOfSeveral:)``) the
    /// high-fps defaults, app 2 ms and SurfaceFlinger 1 ms
    /// (`debug.sf.high_fps_late_app_phase_offset_ns` and `..._sf_...`:
    /// AOSP PhaseOffsets.cpp from Android 10, VsyncConfiguration.cpp from
    /// 12; Docs/Android.md, "Clocks").
    public func unsetPhaseOffsets(highFps: Bool) -> (app: SimTime, sf: SimTime) {
        highFps ? (2 * Nanos.perMillisecond, Nanos.perMillisecond) : (unsetPhaseOffset, unsetPhaseOffset)
    }

    /// True when PhaseOffsets takes its high-fps offsets at `displayHz`:
    /// from 12 when the period is below 15 ms (`PhaseOffsets::constructOffsets`);
    /// on 11 above 65 Hz (`PhaseOffsets::getPhaseOffsets`, `fps > 65.0f`);
    /// on 10 for the higher rate of a display that switches between two
    /// (`RefreshRateType::PERFORMANCE`, `peakOfSeveral`); never before 10.
    public func usesHighFpsOffsets(displayHz: Rational, peakOfSeveral: Bool) -> Bool {
        switch self {
        case .v10: return peakOfSeveral
        case .v11: return Int128(displayHz.numerator) > 65 * Int128(displayHz.denominator)
        case .v12, .v12L, .v13, .v14, .v15:
            // T < 15 ms: 1e9 q / p < 15e6, i.e. 200 p > 3 q (in whole numbers: 1e9 q < 15e6 p)
            return Int128(Nanos.perSecond) * Int128(displayHz.denominator) < 15 * Int128(Nanos.perMillisecond) * Int128(displayHz.numerator)
        default: return false
        }
    }

    /// True up to 7.0: SurfaceFlinger latches a buffer whose GPU fence has
    /// not signalled (the present still waits for it).
    public var latchesBeforeFence: Bool { self < .v7_1 }

    /// Whether SurfaceFlinger of this release latches the app's buffer
    /// before its GPU fence has signalled, by default, with a hardware
    /// composer of version `hwc` (Docs/Android.md, "Timing by Android
    /// version"): up to 7.0 it never checks (AOSP 1ce6581ac7 added the
    /// check in 7.1); from 7.1 to 8.1 `Layer::headFenceHasSignaled` checks
    /// only in builds with `USE_HWC2` (`TARGET_USES_HWC2`), so an HWC1
    /// build still latches before the fence; 9 to 12 always check
    /// (`debug.sf.latch_unsignaled` defaults to false); from 13
    /// `debug.sf.auto_latch_unsignaled` defaults to true
    /// (`SurfaceFlinger::getLatchUnsignaledConfig`, AutoSingleLayer): a
    /// single layer's simple buffer update, the only transaction ready, is
    /// latched unsignalled, which the model's one app layer always is.
    public func latchesBeforeFence(hwc: HWCVersion) -> Bool {
        if self < .v7_1 { return true }
        if self < .v9 { return hwc == .hwc1 }
        return self >= .v13
    }

    /// True from Android 12: SurfaceFlinger has FrameTimeline, the jank
    /// classes and Perfetto's expected and actual frame timelines (Perfetto,
    /// `docs/data-sources/frametimeline.md`: "requires Android 12+").
    /// Before it a run reports no
    /// FrameTimeline classes, packets or tracks (Docs/Android.md,
    /// "FrameTimeline before Android 12").
    public var hasFrameTimeline: Bool { self >= .v12 }

    /// Why a run of this release has no FrameTimeline; nil from 12.
    public var noFrameTimelineReason: String? {
        hasFrameTimeline ? nil : "Android \(rawValue) has no FrameTimeline (introduced in Android 12): no jank classes"
    }
}

/// The hardware composer HAL a device's SurfaceFlinger is built for
/// (`android.hwc`): from Android 7.1 to 8.1 it decides whether the latch
/// waits for the GPU fence (``AndroidVersion/latchesBeforeFence(hwc:)``).
public enum HWCVersion: String, Sendable, CaseIterable, Keyword {
    /// HWC 1.x (no `TARGET_USES_HWC2`).
    case hwc1
    /// HWC 2 (`TARGET_USES_HWC2 := true`, `USE_HWC2`): the only one from
    /// Android 9.
    case hwc2
}

/// Whether SurfaceFlinger latches a buffer before its GPU work is done
/// (`android.latchUnsignaled`).
public enum LatchUnsignaledSetting: Sendable, Hashable, CustomStringConvertible {
    /// The release's default (``AndroidVersion/latchesBeforeFence(hwc:)``).
    case auto
    /// Always (`debug.sf.latch_unsignaled`).
    case always
    /// Never: the latch waits for the fence.
    case never

    /// `auto`, `true` or `false`.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .always: return "true"
        case .never: return "false"
        }
    }
}

/// How the display controller feeds the panel (`display.interface`;
/// Docs/Android.md, "The panel's interface").
public enum PanelInterface: String, Sendable, CaseIterable, Keyword {
    /// Video mode: the host streams every refresh over the link.
    case video
    /// Command mode ("smart panel"): the host writes a frame into the
    /// panel's own memory after its tearing-effect (TE) pulse, the panel
    /// refreshes from that memory; between updates the host's clocks are
    /// gated and the DSI link sleeps.
    case command
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
    /// Latch a buffer before its GPU work is done: the release's default
    /// (`auto`), always, or never.
    public var latchUnsignaled = LatchUnsignaledSetting.auto
    /// The hardware composer HAL the device's SurfaceFlinger is built for
    /// (`android.hwc`).
    public var hwc = HWCVersion.hwc2
    /// On-demand (Choreographer) or continuous (GLSurfaceView) frames.
    public var renderMode: AndroidRenderMode = .onDemand
    /// The release whose timing rules apply (`os.androidVersion`).
    public var version: AndroidVersion = .v12
    /// The panel's interface (`display.interface`).
    public var panelInterface: PanelInterface = .video
    /// On a command-mode panel, how long waking the gated clocks and the
    /// sleeping link takes before a frame sent from idle can start its
    /// transfer (`display.idleWake`): unpublished, a labelled unknown.
    public var idleWake: SimTime = 0

    /// Whether SurfaceFlinger latches before the GPU fence: as asked
    /// (`android.latchUnsignaled`), or by default the release's and the
    /// HWC's own rule.
    public var latchesUnsignaled: Bool {
        switch latchUnsignaled {
        case .always: return true
        case .never: return false
        case .auto: return version.latchesBeforeFence(hwc: hwc)
        }
    }

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
    ///
    /// `peakOfSeveral`: the rate is the highest of a display that switches
    /// between several (Android 10 keys its high-fps offsets by that).
    public init(_ settings: AndroidSettings, displayHz: Rational, peakOfSeveral: Bool = false) {
        let n = Int128(Nanos.perSecond) * Int128(displayHz.denominator) // T = n / d
        let d = Int128(displayHz.numerator)
        let app: Int128, sf: Int128
        let highFps = settings.version.usesHighFpsOffsets(displayHz: displayHz, peakOfSeveral: peakOfSeveral)
        if !settings.version.targetsVsync {
            let unset = settings.version.unsetPhaseOffsets(highFps: highFps)
            (app, sf) = Self.legacyFromPhaseOffsets(app: settings.appPhaseOffset ?? unset.app, sf: settings.sfPhaseOffset ?? unset.sf,
                                                    periodNumerator: n, periodDenominator: d)
        } else if let appOffset = settings.appPhaseOffset, let sfOffset = settings.sfPhaseOffset {
            (app, sf) = Self.fromPhaseOffsets(app: appOffset, sf: sfOffset, periodNumerator: n, periodDenominator: d)
        } else if case .auto = settings.appDuration, case .auto = settings.sfDuration {
            // AOSP's default configuration, PhaseOffsets, with the offsets
            // a device leaves unset: 1 / 1 ms, or the high-fps 2 / 1 ms
            // below a 15 ms period, converted to durations
            let unset = settings.version.unsetPhaseOffsets(highFps: highFps)
            (app, sf) = Self.fromPhaseOffsets(app: unset.app, sf: unset.sf, periodNumerator: n, periodDenominator: d)
        } else {
            // a duration given: the device runs WorkDuration
            // (debug.sf.use_phase_offsets_as_durations), whose unset
            // durations are T for the app and T - 1 ms for SurfaceFlinger
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

    /// The legacy rule (Android 4.4 to 11) as durations: the app wakes at
    /// `V + appOffset`, SurfaceFlinger at `V + sfOffset` and latches a
    /// buffer at its first wake-up after it is queued; a frame composed
    /// after `V_j` is shown from `V_{j+1}`. `sfDuration = T - sfOffset`;
    /// `appDuration` makes the frame's target the earliest present it can
    /// reach, the vsync after SurfaceFlinger's first wake-up after the app's:
    /// `sfOffset - appOffset` when the app wakes first, else `T + sfOffset -
    /// appOffset` (each offset taken modulo `T`). A frame that misses
    /// that wake-up is latched at the next and shown a period later, as on
    /// the device; nothing holds a frame back (no `frameIsEarly`).
    static func legacyFromPhaseOffsets(app appOffset: SimTime, sf sfOffset: SimTime,
                                       periodNumerator n: Int128, periodDenominator d: Int128) -> (Int128, Int128) {
        // DispSync's offsets are phases: each taken modulo T
        let s = ((Int128(sfOffset) * d) % n + n) % n
        let a = ((Int128(appOffset) * d) % n + n) % n
        let sfScaled = Swift.max(0, n - s)
        let appScaled = a < s ? s - a : n + s - a
        return (roundHalfUp(appScaled, d), roundHalfUp(sfScaled, d))
    }

    /// The durations a pair of phase offsets stands for on a display of
    /// `displayHz` under `version`'s rule (for tests and messages).
    public static func durations(appPhaseOffset: SimTime, sfPhaseOffset: SimTime, displayHz: Rational,
                                 version: AndroidVersion = .v12) -> (app: SimTime, sf: SimTime) {
        let n = Int128(Nanos.perSecond) * Int128(displayHz.denominator)
        let d = Int128(displayHz.numerator)
        let (a, s) = version.targetsVsync
            ? fromPhaseOffsets(app: appPhaseOffset, sf: sfPhaseOffset, periodNumerator: n, periodDenominator: d)
            : legacyFromPhaseOffsets(app: appPhaseOffset, sf: sfPhaseOffset, periodNumerator: n, periodDenominator: d)
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
