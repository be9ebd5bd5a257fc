import FramePipeline
import SimKernel

// What a configuration must satisfy beyond each key's own range: keys of
// the other platform, and the Android keys that depend on each other
// (Docs/Android.md, "Configuration keys").
extension Settings {
    /// A key set for a platform whose runs do not use it is bad input.
    func checkPlatform(_ c: PipelineConfiguration) throws(LatsimError) {
        for key in ConfigurationKey.all where entries[key.path] != nil && !key.applies(to: c.platform) {
            switch c.platform {
            case .android:
                throw error(key.path, problem: "is an iOS-only key: bad input on an Android run (os.platform: android)",
                            expected: "the keys of both platforms and the android.* keys (latsim keys lists each key's platforms)")
            case .ios:
                throw error(key.path, problem: "is an Android key: bad input on an iOS run (os.platform: ios)",
                            expected: "os.platform: android for the android.* keys, or no android.* key")
            }
        }
    }

    /// The phase offsets come as a pair and instead of the work durations;
    /// SurfaceFlinger's offset and composition stay below a display period;
    /// the buffers fit a BufferQueue.
    func checkAndroid(_ c: PipelineConfiguration) throws(LatsimError) {
        let a = c.android
        let offsets = ["android.appPhaseOffset", "android.sfPhaseOffset"]
        let period = "T = \(formatDecimal(c.framePeriod.doubleValue / 1e6, places: 6))ms"
        switch (a.appPhaseOffset, a.sfPhaseOffset) {
        case (.some, nil), (nil, .some):
            let given = a.appPhaseOffset != nil ? offsets[0] : offsets[1]
            let other = a.appPhaseOffset != nil ? offsets[1] : offsets[0]
            throw error(given, problem: "is set without \(other): the two phase offsets are set together",
                        expected: "both \(offsets[0]) and \(offsets[1]), or neither (then the work durations apply)")
        case (.some, .some(let sf)):
            for duration in ["android.appDuration", "android.sfDuration"] where !isAuto(duration) {
                throw error(duration, problem: "is set with the phase offsets \(offsets[0]) and \(offsets[1]): they give the work durations",
                            expected: "the two phase offsets or the work durations, not both")
            }
            if Int128(sf) * Int128(c.displayHz.numerator) > Int128(Nanos.perSecond) * Int128(c.displayHz.denominator) {
                throw error(offsets[1], problem: "is above the display period \(period): sfDuration = T - sfPhaseOffset would be negative",
                            expected: "a SurfaceFlinger phase offset of at most one display period")
            }
        case (nil, nil):
            break
        }
        if !a.version.targetsVsync {
            for duration in ["android.appDuration", "android.sfDuration"] where !isAuto(duration) {
                throw error(duration, problem: "is set on Android \(a.version.rawValue) (os.androidVersion): work durations are Android 12's; up to 11 the phase offsets give the timing",
                            expected: "\(offsets[0]) and \(offsets[1]) (unset, \(DurationSyntax.format(a.version.unsetPhaseOffset)) each on \(a.version.rawValue)), or os.androidVersion 12 or later")
            }
        }
        if a.hwc == .hwc1 && a.version >= .v9 {
            throw error("android.hwc", problem: "is hwc1 on Android \(a.version.rawValue) (os.androidVersion): from Android 9 SurfaceFlinger has no HWC1 build (USE_HWC2 is gone; the latch always checks the GPU fence)",
                        expected: "hwc2, or os.androidVersion 8.1 or earlier")
        }
        // one frame, rounded up to whole nanoseconds as `1frame` is
        let frameNumerator = Int128(Nanos.perSecond) * Int128(c.displayHz.denominator)
        let frameDenominator = Int128(c.displayHz.numerator)
        if Int128(a.idleWake) > (frameNumerator + frameDenominator - 1) / frameDenominator {
            throw error("display.idleWake", problem: "is above one display period \(period): outside the documented range of this unknown",
                        expected: "a duration from 0 to 1frame (AOSP's comment guesses up to one frame for a smart panel)")
        }
        let compose = a.sfCompose
        if let most = Self.largestDraw(compose), c.reachesFramePeriod(most) {
            throw error("android.sfCompose", problem: "can draw \(DurationSyntax.format(most)), which reaches the display period \(period): SurfaceFlinger's composition must fit in its period",
                        expected: "durations below T (a normal or lognormal distribution is checked at each draw)")
        }
        let timing = c.androidTiming
        if case .auto = a.buffers, timing.maxAcquired + 2 > AndroidTiming.maximumBuffers {
            throw error("android.buffers", problem: "auto gives \(timing.maxAcquired + 2) buffers (maxAcquired + 2, with D_app + D_sf = \(DurationSyntax.format(timing.appDuration + timing.sfDuration))), more than a BufferQueue's \(AndroidTiming.maximumBuffers)",
                        expected: "shorter work durations, or a count from 2 to \(AndroidTiming.maximumBuffers)")
        }
    }

    /// A display that changes its rate: its lowest rate at most its peak,
    /// the app's vote between them, the timers only on such a display, and
    /// not on a command-mode panel (whose wake from idle is modelled on a
    /// display of one rate).
    func checkDisplayRate(_ c: PipelineConfiguration) throws(LatsimError) {
        let r = c.rate
        func above(_ a: Rational, _ b: Rational) -> Bool {
            Int128(a.numerator) * Int128(b.denominator) > Int128(b.numerator) * Int128(a.denominator)
        }
        guard let minimum = r.minimumHz else {
            // the list is made only when one is set (every sweep point checks)
            guard r.idleTimer != nil || r.touchTimer != nil || r.powerTimer != nil || r.appRate != nil || r.kernelIdleTimer else { return }
            for (key, set) in [("display.idleTimer", r.idleTimer != nil), ("display.touchTimer", r.touchTimer != nil),
                               ("display.powerTimer", r.powerTimer != nil), ("app.frameRate", r.appRate != nil),
                               ("android.kernelIdleTimer", r.kernelIdleTimer)] where set {
                throw error(key, problem: "is set on a display of one rate (display.minHz: none): it only changes a display that switches rates",
                            expected: "display.minHz, the display's lowest rate, with it; or \(key) left at its default")
            }
            return
        }
        if above(minimum, c.displayHz) {
            throw error("display.minHz", problem: "is above the display's peak rate device.displayHz = \(c.displayHz)",
                        expected: "a rate from 1 Hz to device.displayHz")
        }
        if let v = r.appRate, above(v, c.displayHz) || above(minimum, v) {
            throw error("app.frameRate", problem: "is outside the display's rates, \(minimum) to \(c.displayHz) Hz",
                        expected: "none, or a rate from display.minHz to device.displayHz")
        }
        if c.platform == .android && c.android.panelInterface == .command {
            throw error("display.minHz", problem: "is set on a command-mode panel (display.interface: command): its wake from idle is modelled on a display of one rate",
                        expected: "display.minHz: none on a command-mode panel, or display.interface: video")
        }
    }

    /// True when a work duration is left `auto` (written or by default).
    func isAuto(_ path: String) -> Bool { text(path).trimmedWhitespace.lowercased() == "auto" }

    /// The largest draw of a bounded distribution; nil for normal and lognormal.
    static func largestDraw(_ d: DurationDistribution) -> SimTime? {
        switch d {
        case .fixed(let v): return v
        case .uniform(_, let hi): return hi
        case .empirical(let vs): return vs.max()
        case .normal, .lognormal: return nil
        }
    }
}
