import FramePipeline
import SimKernel

// The ink app's keys (Docs/Ink.md, "Keys"), each declared once here and
// listed in ``ConfigurationKey/all`` beside the keys of its group, and the
// checks that relate them to the other keys.

extension ConfigurationKey {
    /// `app.ink`: the app is an ink app, measured at the pen's row.
    static let inkApp = ConfigurationKey(
        "app.ink", \.ink.app, .bool, default: "false",
        phrase: "the app is an ink app",
        detail: "its wet ink is measured at the pen's own row: pen-to-ink, the ink's on-screen error; android.renderMode frontBuffered implies it",
        short: "ink")

    /// `app.midFrameLead`: iPadOS 13's mid-frame event processing, an unknown.
    static let midFrameLead = ConfigurationKey(
        "app.midFrameLead", \.ink.midFrameLead, .midFrameLead, default: "off",
        phrase: "mid-frame touch read's lead before the vsync (unknown)",
        detail: "iPadOS 13's mid-frame event processing: the app reads its touches again this long before the vsync its frame is for (or at its handler's end, if later), draws the newest and commits; unpublished, 0 to 1 frame; Apple claims only \"4 ms of our improvement\"",
        short: "midFrameLead", platforms: [.ios])

    /// `android.unbufferedDispatch`: View.requestUnbufferedDispatch.
    static let unbufferedDispatch = ConfigurationKey(
        "android.unbufferedDispatch", \.ink.unbufferedDispatch, .bool, default: "false",
        phrase: "unbuffered input dispatch (View.requestUnbufferedDispatch)",
        detail: "each event consumed as it reaches the app, frame time -1, no resampling",
        short: "unbuffered", platforms: [.android])

    /// `display.frontBufferPlane`: whether the front buffer gets an overlay plane, an unknown.
    static let frontBufferPlane = ConfigurationKey(
        "display.frontBufferPlane", \.ink.frontBufferPlane,
        .keyword(" (overlay: scanned out from its own plane, a draw reaches the eye when the scan-out next passes its row; composition: composed by SurfaceFlinger's GPU like any layer, the ordinary SurfaceFlinger latency; which one a device gives is unpublished)"),
        default: "overlay", phrase: "front buffer's plane (unknown)", short: "frontBufferPlane", platforms: [.android])
}

extension ValueType where Value == SimTime? {
    /// `off`, or a duration from 0 to one display period (the mid-frame
    /// read's lead before the commit).
    static var midFrameLead: ValueType {
        let expected = "off, or a duration from 0 to 1frame, e.g. 3.5ms, 0.42frames (units ns, us, ms, s, or frames)"
        return ValueType(expected) { text, ctx throws(LatsimError) in
            if text.trimmedWhitespace.lowercased() == "off" { return nil }
            let v: SimTime
            do throws(LatsimError) { v = try DurationSyntax.parse(text, framePeriod: ctx.framePeriod) } catch {
                throw failure(text, error.problem, expected)
            }
            if v < 0 { throw failure(text, "a duration cannot be negative", expected) }
            // one frame, rounded up to whole nanoseconds as `1frame` is
            let period = ctx.framePeriod
            let frame = (Int128(period.numerator) + Int128(period.denominator) - 1) / Int128(period.denominator)
            if Int128(v) > frame {
                throw failure(text, "is longer than one display period: outside the documented range of this unknown", expected)
            }
            return v
        }
    }
}

extension Settings {
    /// The ink keys against the others: front-buffered rendering needs the
    /// API 29 library (Android 10) and a display at one rate; a mid-frame
    /// read comes before the frame's one commit.
    func checkInk(_ c: PipelineConfiguration) throws(LatsimError) {
        if c.frontBuffered && c.android.version < .v10 {
            throw error("android.renderMode", problem: "is frontBuffered on Android \(c.android.version.rawValue) (os.androidVersion): androidx.graphics.lowlatency's front-buffered renderers need API 29",
                        expected: "os.androidVersion 10 or later, or android.renderMode onDemand or continuous")
        }
        if c.frontBuffered && !c.ink.unbufferedDispatch {
            throw error("android.renderMode", problem: "is frontBuffered with android.unbufferedDispatch = false: the front-buffered app takes its stylus input unbuffered (View.requestUnbufferedDispatch), as androidx's low-latency library is used",
                        expected: "android.unbufferedDispatch: true with frontBuffered (a multi-buffered app may take either)")
        }
        if c.frontBuffered && (c.taps || c.scrolls) {
            throw error("android.renderMode", problem: "is frontBuffered for \(c.taps ? "a tapping finger (input.trajectory: taps)" : "a scroll view (app.scrolls)"): the front-buffered app draws strokes",
                        expected: "a drawing trajectory (strokes, a trace, ...) and app.scrolls: false with frontBuffered")
        }
        if c.frontBuffered && c.rate.switches {
            throw error("display.minHz", problem: "is \(c.rate.minimumHz.map { "\($0)" } ?? "set") with android.renderMode frontBuffered: the front-buffered model races the scan-out of a display at one rate",
                        expected: "display.minHz: none with frontBuffered, or a multi-buffered render mode on a display that changes its rate")
        }
        if c.midFrameRead && c.commits > 1 {
            throw error("app.midFrameLead", problem: "reads touches mid-frame with app.commits = \(c.commits): the late read comes before the frame's one commit",
                        expected: "app.commits: 1 with a mid-frame read, or app.midFrameLead: off")
        }
    }
}
