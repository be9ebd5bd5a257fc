import FramePipeline
import SimKernel
import TouchModel

/// One configuration key: its path, type, default, parser, range check,
/// description and sweep label, declared once (Docs/Model.md,
/// "Configuration"). `latsim keys`, `scenario show --resolved`, scenario
/// files, `--set`, `--vary` and the sweep's columns and chart labels all
/// come from ``ConfigurationKey/all``.
public struct ConfigurationKey: Sendable {
    /// The dotted path, e.g. `app.handler`.
    public let path: String
    /// The default, as text.
    public let defaultValue: String
    /// What values are accepted (with the range).
    public let expected: String
    /// What the key is, as a phrase for chart axes (`touch handler time`).
    public let phrase: String
    /// What the key is, for `latsim keys`: the phrase and, where it needs
    /// one, a word on what it does.
    public let summary: String
    /// A short name for legends (`handler`).
    public let shortName: String
    /// The unit of its plain-number values (`Hz`), when they have one.
    public let plainUnit: String?
    /// The platforms whose runs use it; every platform when nil.
    public let platforms: Set<Platform>?
    /// A different default on some platforms (`os.present` is `fifo` on Android).
    public let platformDefaults: [Platform: String]
    let apply: @Sendable (String, inout PipelineConfiguration, ParseContext) throws(LatsimError) -> Void

    init<V>(_ path: String, _ keyPath: WritableKeyPath<PipelineConfiguration, V> & Sendable, _ type: ValueType<V>,
            default defaultValue: String, phrase: String, detail: String? = nil, short: String? = nil, unit: String? = nil,
            platforms: Set<Platform>? = nil, platformDefaults: [Platform: String] = [:]) {
        self.path = path
        self.defaultValue = defaultValue
        self.platformDefaults = platformDefaults
        expected = type.expected
        self.phrase = phrase
        summary = detail.map { "\(phrase) (\($0))" } ?? phrase
        shortName = short ?? String(path.split(separator: ".").last ?? Substring(path))
        plainUnit = unit
        self.platforms = platforms
        apply = { text, c, ctx throws(LatsimError) in c[keyPath: keyPath] = try type.parse(text, ctx) }
    }

    /// The default on `platform`.
    public func defaultValue(for platform: Platform) -> String { platformDefaults[platform] ?? defaultValue }

    /// True when runs of `platform` use the key.
    public func applies(to platform: Platform) -> Bool { platforms?.contains(platform) ?? true }

    /// Every key, in the order `latsim keys` lists them.
    public static let all: [ConfigurationKey] = {
        let iOS: Set<Platform> = [.ios]
        let android: Set<Platform> = [.android]
        let second = ValueLimits.horizon
        return [
            .init("duration", \.duration, .duration(upTo: ValueLimits.duration, positive: true, example: "10s"),
                  default: "10s", phrase: "simulated time"),
            .init("seed", \.seed, .unsigned, default: "1", phrase: "random seed"),
            .init("device.displayHz", \.displayHz, .rate(ValueLimits.displayHz, example: "60, 120, 59.94"),
                  default: "60", phrase: "display refresh rate", short: "display", unit: "Hz"),
            .init("device.scanHz", \.scanHz, .rate(ValueLimits.scanHz, example: "60, 120, 240"),
                  default: "60", phrase: "digitizer scan rate", short: "scan", unit: "Hz"),
            .init("device.scanPhase", \.scanPhase, .duration(upTo: ValueLimits.stage, example: "2ms"),
                  default: "0ms", phrase: "digitizer scan phase", detail: "scan windows start at vsync 0 plus this"),
            .init("device.sampleInstant", \.sampleInstant, .fraction("where in its scan window a sample is taken"),
                  default: "0.5", phrase: "sample instant (fraction of the scan window)"),
            .init("device.digitizerDelay", \.digitizerDelay, .duration(upTo: ValueLimits.stage),
                  default: "0ms", phrase: "digitizer delay", detail: "from a scan window's end to its touch being ready"),
            .init("device.panelResponse", \.panelResponse, .duration(upTo: ValueLimits.stage),
                  default: "0ms", phrase: "panel response time", detail: "added to every photon time"),
            .init("device.idleRamp", \.idleRamp, .number(1...10, above: false, what: "factor on work durations after idle"),
                  default: "1", phrase: "frequency ramp after idle (unknown)",
                  detail: "unpublished: the factor on the app's work and the GPU's while the CPU and GPU clocks ramp up after a quiet stretch, plausibly 1 to 2 (1: no ramp)",
                  short: "idleRamp"),
            .init("device.idleRampWindow", \.idleRampWindow, .duration(upTo: ValueLimits.stage, example: "10ms"),
                  default: "10ms", phrase: "frequency ramp window (unknown)",
                  detail: "unpublished: how long the ramp lasts from the first work after a quiet stretch, and the quiet that makes one, plausibly one scheduler tick to 10 ms",
                  short: "idleRampWindow"),
            .init("device.pointsPerMM", \.pointsPerMM, .number(0...1_000, above: true, what: "screen points per millimetre"),
                  default: "6.4", phrase: "points per millimetre"),
            .init("device.widthPoints", \.widthPoints, .number(0...1_000_000, above: true, what: "screen width in points"),
                  default: "768", phrase: "screen width", unit: "points"),
            .init("device.heightPoints", \.heightPoints, .number(0...1_000_000, above: true, what: "screen height in points"),
                  default: "1024", phrase: "screen height", unit: "points"),
            .init("device.noise", \.noise.sigma, .number(0...10_000, what: "Gaussian position noise per axis, sigma in points"),
                  default: "0", phrase: "digitizer noise", unit: "points"),
            .init("device.quantization", \.noise.quantum,
                  .number(0...10_000, what: "reported positions snap to multiples of this many points; 0 = off"),
                  default: "0", phrase: "digitizer quantisation", unit: "points"),
            .init("device.touchDownDelay", \.touchDownDelay, .touchDownDelay(upTo: ValueLimits.stage), default: "auto",
                  phrase: "touch-down delay", detail: "from a contact to its touch-down being ready"),
            .init("device.touchUpDelay", \.touchUpDelay, .touchDownDelay(upTo: ValueLimits.stage, event: "lift"), default: "auto",
                  phrase: "lift-off delay", detail: "taps with app.liftResponse: from a lift to its lift-off being ready"),
            .init("device.pencilScanHz", \.pencilScanHz, .optionalRate(ValueLimits.scanHz, example: "240"), default: "none",
                  phrase: "Pencil scan rate", detail: "the digitizer's rate with input.tool: pencil", short: "Pencil scan", unit: "Hz"),
            .init("device.maximumForce", \.force.maximumForce,
                  .number(1...1_000, above: true, what: "the largest force the digitizer reports, UIKit's maximumPossibleForce; 1.0 is an average touch"),
                  default: "6.666667", phrase: "largest force", short: "maximumForce", platforms: iOS),
            .init("device.forceNoise", \.force.noise, .number(0...1_000, what: "Gaussian noise on each force sample, sigma in units of force"),
                  default: "0", phrase: "force noise", short: "forceNoise", platforms: iOS),
            .init("device.forceQuantization", \.force.quantum,
                  .number(0...1_000, what: "reported forces snap to multiples of this; 0 = off"),
                  default: "0", phrase: "force quantisation", short: "forceQuantization", platforms: iOS),
            .init("device.hapticLatency", \.force.hapticLatency, .duration(upTo: ValueLimits.stage, example: "10ms"),
                  default: "10ms", phrase: "haptic latency", detail: "from the force recogniser's decision to the tap the finger feels",
                  short: "haptic", platforms: iOS),
            .init("os.platform", \.platform, .keyword(), default: "ios", phrase: "platform"),
            .init("os.renderServer", \.renderServer, .keyword(), default: "lowLatency", phrase: "render server",
                  platforms: iOS),
            .init("os.delivery", \.delivery, .keyword(), default: "coalesced", phrase: "touch delivery", platforms: iOS),
            .init("os.dispatchDelay", \.dispatchDelay, .duration(upTo: ValueLimits.stage),
                  default: "0ms", phrase: "touch dispatch delay after vsync", detail: "from a vsync to the frame start", platforms: iOS),
            .init("os.buffering", \.buffering, .keyword(), default: "adaptive", phrase: "display buffering", platforms: iOS),
            .init("os.present", \.present, .keyword(), default: "latest", phrase: "present policy",
                  platformDefaults: [.android: "fifo"]),
            .init("os.androidVersion", \.android.version, .keyword(" (the release whose SurfaceFlinger timing applies: legacy phase offsets up to 11, durations with a target vsync from 12; unset offsets 0 through 7.0, 1 ms from 7.1; latching before the GPU fence up to 7.0)"),
                  default: "12", phrase: "Android version", short: "androidVersion", platforms: android),
            .init("os.tripleReleaseFrames", \.tripleReleaseFrames,
                  .integer(1...1_000_000, what: "vsyncs with a spare buffer before adaptive buffering gives the third back"),
                  default: "10", phrase: "vsyncs before the third buffer is released", platforms: iOS),
            .init("app.handler", \.handler, .distribution(upTo: ValueLimits.stage), default: "4ms",
                  phrase: "touch handler time", short: "handler"),
            .init("app.commits", \.commits, .integer(1...1_000, what: "transactions committed per handler run"),
                  default: "1", phrase: "commits per handler run", platforms: iOS),
            .init("app.touches", \.touches, .keyword(), default: "coalesced", phrase: "touches the app draws",
                  platforms: iOS),
            .init("app.animations", \.animations, .animations, default: "never", phrase: "animations", platforms: iOS),
            .init("app.rendering", \.rendering, .keyword(), default: "coreAnimation", phrase: "rendering path",
                  platforms: iOS),
            .init("app.gpu", \.appGPU, .distribution(upTo: ValueLimits.stage), default: "2ms",
                  phrase: "Metal GPU time per frame", short: "Metal GPU", platforms: iOS),
            .init("app.presentsWithTransaction", \.presentsWithTransaction, .bool, default: "false",
                  phrase: "Metal presents with the Core Animation transaction", platforms: iOS),
            .init("app.liftResponse", \.liftResponse, .bool, default: "false",
                  phrase: "the app draws a tap's lift-off too", detail: "touchesEnded, ACTION_UP; taps only"),
            .init("app.updates", \.updates,
                  .keyword(" (touch: the app draws what the finger does; blink: WALT's screen test, a colour change 100 ms after the start and then app.blinkDelay after the photodiode sees each, with input.trajectory: none)"),
                  default: "touch", phrase: "what makes the app draw", short: "updates"),
            .init("app.blinkDelay", \.blinkDelay, .distribution(upTo: ValueLimits.stage), default: "uniform(40ms,60ms)",
                  phrase: "blink delay", detail: "app.updates: blink: from the photodiode seeing a change to the next (WALT's ScreenResponseFragment: 40 + random x 20 ms; 50 ms before its commit 562df56)",
                  short: "blinkDelay"),
            .init("app.frameRate", \.rate.appRate, .optionalRate(ValueLimits.displayHz, example: "60"), default: "none",
                  phrase: "the rate the app asks for", detail: "Android's Surface.setFrameRate, iOS's CADisplayLink.preferredFrameRateRange: the display runs it while the app is active and no touch holds the peak; none: the peak",
                  short: "frameRate", unit: "Hz"),
            .init("app.scrolls", \.scrolls, .bool, default: "false",
                  phrase: "the app is a scroll view", detail: "its content follows the finger once a drag passes app.touchSlop, then trails it by the slop; not with taps",
                  short: "scrolls"),
            .init("app.touchSlop", \.touchSlop,
                  .number(0...100, what: "the distance a drag must pass before the content scrolls: dp on Android, points on iOS"),
                  default: "8", phrase: "touch slop",
                  detail: "Android: 8 dp, config_viewConfigurationTouchSlop; iOS: unpublished, 8 points taken from Android, plausible 0 to 16",
                  short: "touchSlop", unit: "dp or points"),
            .inkApp,
            .midFrameLead,
            .init("app.prediction.predictor", \.predictor, .predictor, default: "none", phrase: "touch predictor",
                  short: "predictor"),
            .init("app.prediction.horizon", \.horizon, .duration(upTo: ValueLimits.horizon, example: "1frame, 8ms"),
                  default: "1frame", phrase: "prediction horizon", short: "horizon"),
            .init("app.prediction.smoothing", \.smoothing, .keyword(" (oneEuro: a 1€ filter on the predicted positions, the same as +1e after the predictor's name: latsim's filter for latsim's predictors, Chromium's for chromium.*; androidx.kalman has none)"),
                  default: "none", phrase: "prediction smoothing", short: "smoothing"),
            .init("app.force.interaction", \.force.interaction,
                  .keyword(" (none: the app ignores force; peekPop: peek and pop with haptics and animations; drawing: the stroke's width follows the force)"),
                  default: "none", phrase: "what the app does with force", short: "interaction", platforms: iOS),
            .init("app.force.peek", \.force.peek, .number(1...1_000, above: true, what: "the force that peeks; 1.0 is an average touch"),
                  default: "3", phrase: "peek threshold", short: "peek", platforms: iOS),
            .init("app.force.pop", \.force.pop, .number(1...1_000, above: true, what: "the force that pops, above the peek threshold"),
                  default: "5", phrase: "pop threshold", short: "pop", platforms: iOS),
            .init("app.force.hysteresis", \.force.hysteresis,
                  .number(0...1_000, what: "how far below a threshold the force must fall to disarm it or end a preview"),
                  default: "0.5", phrase: "force hysteresis", short: "hysteresis", platforms: iOS),
            .init("app.force.intent", \.force.intent, .duration(upTo: ValueLimits.horizon, example: "40ms"),
                  default: "40ms", phrase: "force intent time", detail: "how long the force stays armed above a threshold before the stage is recognised",
                  short: "intent", platforms: iOS),
            .init("app.force.peekAnimation", \.force.peekAnimation, .duration(upTo: ValueLimits.stage, example: "250ms"),
                  default: "250ms", phrase: "peek (preview) animation", short: "peekAnimation", platforms: iOS),
            .init("app.force.popAnimation", \.force.popAnimation, .duration(upTo: ValueLimits.stage, example: "250ms"),
                  default: "250ms", phrase: "pop (commit) animation", short: "popAnimation", platforms: iOS),
            .init("app.force.widthPerForce", \.force.widthPerForce, .number(0...1_000, what: "stroke width in points per unit of force"),
                  default: "2", phrase: "stroke width per unit of force", short: "widthPerForce", unit: "points", platforms: iOS),
            .init("renderServer.prepare", \.prepare, .distribution(upTo: ValueLimits.stage), default: "3ms",
                  phrase: "render-server prepare time", short: "prepare", platforms: iOS),
            .init("gpu.render", \.gpuRender, .distribution(upTo: ValueLimits.stage), default: "4ms",
                  phrase: "GPU time per render-server frame", short: "GPU"),
            .init("android.appDuration", \.android.appDuration, .workDuration(upTo: second, auto: "AOSP's PhaseOffsets default: T, or 2T - 1ms below a 15 ms period; T with the other duration given"), default: "auto",
                  phrase: "app work duration (vsync-app to the deadline)", short: "appDuration", platforms: android),
            .init("android.sfDuration", \.android.sfDuration, .workDuration(upTo: second, auto: "T - 1ms"), default: "auto",
                  phrase: "SurfaceFlinger work duration (vsync-sf to the vsync)", short: "sfDuration", platforms: android),
            .init("android.appPhaseOffset", \.android.appPhaseOffset, .phaseOffset(upTo: second), default: "unset",
                  phrase: "app phase offset", short: "appPhaseOffset", platforms: android),
            .init("android.sfPhaseOffset", \.android.sfPhaseOffset, .phaseOffset(upTo: second), default: "unset",
                  phrase: "SurfaceFlinger phase offset", short: "sfPhaseOffset", platforms: android),
            .init("android.dispatchLatency", \.android.dispatchLatency, .duration(upTo: ValueLimits.stage), default: "2ms",
                  phrase: "input dispatch latency (evdev to the app's channel)", short: "dispatch", platforms: android),
            .init("android.resampling", \.android.resampling, .bool, default: "true", phrase: "input resampling",
                  platforms: android),
            .init("android.resampleLatency", \.android.resampleLatency, .duration(upTo: second), default: "5ms",
                  phrase: "resampling latency (before the frame time)", short: "resampleLatency", platforms: android),
            .init("android.renderThread", \.android.renderThread, .distribution(upTo: ValueLimits.stage), default: "2ms",
                  phrase: "RenderThread command issue time", short: "RenderThread", platforms: android),
            .init("android.sfCompose", \.android.sfCompose, .distribution(upTo: ValueLimits.stage), default: "1ms",
                  phrase: "SurfaceFlinger composition time (each draw below a display period)", short: "compose",
                  platforms: android),
            .init("android.buffers", \.android.buffers, .bufferCount, default: "auto", phrase: "BufferQueue buffers",
                  short: "buffers", platforms: android),
            .init("android.latchUnsignaled", \.android.latchUnsignaled, .latchUnsignaled, default: "auto",
                  phrase: "latch a buffer before its GPU work is done", short: "latchUnsignaled", platforms: android),
            .init("android.hwc", \.android.hwc,
                  .keyword(" (the hardware composer SurfaceFlinger is built for: from Android 7.1 to 8.1 only an HWC2 build's latch waits for the GPU fence; 9 and later have HWC2 only)"),
                  default: "hwc2", phrase: "hardware composer version", short: "hwc", platforms: android),
            .init("android.kernelIdleTimer", \.rate.kernelIdleTimer, .bool, default: "false",
                  phrase: "the idle timer runs in the display driver", detail: "ro.surface_flinger.support_kernel_idle_timer: its drop to display.minHz and the return on a touch or a new frame take effect at the next vsync, without a mode switch",
                  short: "kernelIdleTimer", platforms: android),
            .init("android.renderMode", \.android.renderMode, .keyword(), default: "onDemand", phrase: "render mode",
                  short: "renderMode", platforms: android),
            .unbufferedDispatch,
            .init("display.interface", \.android.panelInterface,
                  .keyword(" (video: the host streams every refresh; command: a TE-gated write into the panel's memory, which refreshes the glass from it)"),
                  default: "video", phrase: "panel interface", short: "interface", platforms: android),
            .init("display.idleWake", \.android.idleWake, .duration(upTo: ValueLimits.stage, example: "1frame"),
                  default: "0ms", phrase: "command-mode wake from idle (unknown)",
                  detail: "unpublished: from 0 to 1 frame, AOSP's guess for a smart panel; a frame sent from an idle command-mode panel starts its transfer this long after its composition",
                  short: "idleWake", platforms: android),
            .init("display.minHz", \.rate.minimumHz, .optionalRate(ValueLimits.displayHz, example: "60, 10"), default: "none",
                  phrase: "the display's lowest rate", detail: "none: the display runs device.displayHz throughout; a rate: the display changes its rate between this (idle) and device.displayHz (its peak), by the display.* timers",
                  short: "minHz", unit: "Hz"),
            .init("display.idleTimer", \.rate.idleTimer, .timer(upTo: ValueLimits.stage, example: "80ms"), default: "off",
                  phrase: "idle timer", detail: "how long without the app's activity before the display drops to display.minHz: Android's ro.surface_flinger.set_idle_timer_ms; on iOS ProMotion's dwell, unpublished",
                  short: "idleTimer"),
            .init("display.touchTimer", \.rate.touchTimer, .timer(upTo: ValueLimits.stage, example: "200ms"), default: "off",
                  phrase: "touch timer", detail: "how long a touch hint holds the peak rate: Android's ro.surface_flinger.set_touch_timer_ms (hints at most one per 100 ms)",
                  short: "touchTimer"),
            .init("display.touchBoostDelay", \.rate.touchBoostDelay, .duration(upTo: ValueLimits.stage, example: "2ms"), default: "0ms",
                  phrase: "touch boost delay (unknown)", detail: "unpublished: from a touch reaching the system to the display's policy asking for the peak rate (Android: the user-activity poke through PowerManagerService to SurfaceFlinger, plausibly 0.5 to 5 ms; iOS: ProMotion's ramp on touch, 0 to a frame)",
                  short: "touchBoostDelay"),
            .init("display.switchVsyncs", \.rate.switchVsyncs, .integer(0...8, what: "vsyncs of the old rate before a rate switch takes effect"), default: "0",
                  phrase: "rate switch latency in vsyncs", detail: "the Pixel 6's HWC: 2 (ExynosDisplayDrmInterface::getConfigChangeDuration); unpublished elsewhere, plausibly 0 to 3",
                  short: "switchVsyncs"),
            .init("display.switchGrid", \.rate.switchGrid,
                  .keyword(" (current: a switch takes effect at a vsync of the rate it leaves, a mode switch; peak: at any tick of the peak rate's grid, a variable-refresh panel, unpublished)"),
                  default: "current", phrase: "where a rate switch takes effect", short: "switchGrid"),
            .init("display.powerTimer", \.rate.powerTimer, .timer(upTo: ValueLimits.stage, example: "1000ms"), default: "off",
                  phrase: "display power timer", detail: "the peak rate held this long after the display is powered on, at the run's start: ro.surface_flinger.set_display_power_timer_ms",
                  short: "powerTimer", platforms: android),
            .frontBufferPlane,
            .init("input.trajectory", \.trajectory,
                  .text("line, circle, strokes, flick, random, drags, taps, none (no finger), or a trace file (.xml, .csv) or directory of them"),
                  default: "strokes", phrase: "finger motion"),
            .init("input.speed", \.speed, .number(0...1_000_000, above: true, what: "finger speed in points per second"),
                  default: "600", phrase: "finger speed", unit: "points/s"),
            .init("input.liftOff", \.liftOff, .bool, default: "false",
                  phrase: "lift the finger between strokes (strokes: 100-300 ms up)"),
            .init("input.tool", \.tool, .keyword(), default: "finger", phrase: "what touches the glass"),
            .init("input.tapInterval", \.tapInterval, .duration(upTo: ValueLimits.stage, positive: true, example: "500ms"),
                  default: "500ms", phrase: "tap interval", detail: "taps and drags: from one contact's slot to the next; the first at 100 ms",
                  short: "tap interval"),
            .init("input.tapHold", \.tapHold, .duration(upTo: ValueLimits.stage, positive: true, example: "100ms"),
                  default: "100ms", phrase: "tap hold", detail: "taps: how long the finger rests; drags: how long it drags", short: "tap hold"),
            .init("input.tapJitter", \.tapJitter, .duration(upTo: ValueLimits.stage, example: "100ms"),
                  default: "0ms", phrase: "tap jitter", detail: "taps and drags: each contact comes up to this long after its slot, at random",
                  short: "tap jitter"),
            .init("input.tapBurst", \.tapBurst, .integer(1...1_000, what: "taps per burst; 1: no bursts"),
                  default: "1", phrase: "taps per burst", detail: "taps and drags: contacts come in bursts of this many, input.tapInterval apart, the bursts input.tapBurstInterval apart",
                  short: "tap burst"),
            .init("input.tapBurstInterval", \.tapBurstInterval, .duration(upTo: ValueLimits.stage, positive: true, example: "3s"),
                  default: "3s", phrase: "tap burst interval", detail: "taps and drags with input.tapBurst above 1: from one burst's first slot to the next's",
                  short: "burst interval"),
            .init("input.press", \.force.press, .press, default: "none", phrase: "the finger's press (its force over time)",
                  short: "press", platforms: iOS),
            .init("measure.row", \.row, .row, default: "0.5", phrase: "photon row (fraction of the screen height)"),
            .init("measure.quietGap", \.quietGap, .duration(upTo: ValueLimits.stage, positive: true, example: "100ms"),
                  default: "100ms", phrase: "quiet gap", detail: "a touch (a tap's contact, a drawn sample) with no new frame shown in this long before it is a first touch after idle; the others are steady (Docs/Figures.md)",
                  short: "quietGap"),
        ]
    }()

    /// Keys by path.
    public static let byPath: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) })

    /// Keys a scenario file may hold besides the settings.
    public static let metadataKeys: Set<String> = ["name", "description", "headline"]

    /// The key at `path`, or an unknown-key error with the nearest valid one.
    public static func named(_ path: String) throws(LatsimError) -> ConfigurationKey {
        if let k = byPath[path] { return k }
        var e = LatsimError(key: path, problem: "unknown key", expected: "one of the configuration keys")
        if let s = suggestion(for: path) { e.problem += "; did you mean '\(s)'?" }
        e.seeAlso = .keys
        throw e
    }

    /// The valid path nearest to a mistyped one, for "did you mean".
    public static func suggestion(for path: String) -> String? {
        let candidates = all.map(\.path) + Array(metadataKeys)
        var best: (String, Int)?
        for c in candidates {
            var d = editDistance(path.lowercased(), c.lowercased())
            // a right leaf under a wrong parent (e.g. device.handler) is close too
            if let leaf = path.split(separator: ".").last, c.hasSuffix("." + leaf) || c == leaf { d = Swift.min(d, 2) }
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (c, d) = best, d <= Swift.max(3, path.count / 3) else { return nil }
        return c
    }
}

/// Levenshtein distance between two strings.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count), cur = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}
