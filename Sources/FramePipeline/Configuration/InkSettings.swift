import SimKernel

/// Where a front buffer is composed (`display.frontBufferPlane`; Docs/Ink.md,
/// "The front buffer's plane"). The library asks for an overlay plane
/// (`USAGE_COMPOSER_OVERLAY`, and `USAGE_FRONT_BUFFER` where the device
/// supports it), but whether the hardware composer gives it one is the
/// device's own choice and is not published: a labelled unknown, both
/// cases modelled.
public enum FrontBufferPlane: String, Sendable, CaseIterable, Keyword {
    /// The front buffer is scanned out from its own plane: a draw reaches
    /// the eye when the scan-out next passes its row (the scan line's race),
    /// and a draw the scan line passes while it runs tears.
    case overlay
    /// The front buffer is composed by SurfaceFlinger's GPU composition
    /// like any layer: a draw is on screen from the present of the first
    /// vsync-sf latch after it ends (the ordinary SurfaceFlinger latency),
    /// and never tears.
    case composition
}

/// The ink app (Docs/Ink.md): the pen's wet stroke measured at its own row,
/// unbuffered stylus input and front-buffered rendering on Android, and
/// mid-frame event processing on iOS. Every number here that is not
/// published is a labelled unknown, off or neutral by default.
public struct InkSettings: Sendable, Hashable {
    /// The app is an ink app (`app.ink`): its wet ink is measured at the
    /// pen's own row (pen-to-ink, and the on-screen error of the ink's end).
    /// A front-buffered app is always an ink app.
    public var app = false
    /// `View.requestUnbufferedDispatch` (`android.unbufferedDispatch`):
    /// each stylus event is consumed as it reaches the app, with frame time
    /// -1 and no resampling (ViewRootImpl's `consumeBatchedInputEvents(-1)`),
    /// not at the Choreographer's input callback.
    public var unbufferedDispatch = false
    /// The front buffer's plane (`display.frontBufferPlane`).
    public var frontBufferPlane = FrontBufferPlane.overlay
    /// Mid-frame event processing (`app.midFrameLead`; iPadOS 13): the app
    /// reads its touches again this long before the vsync its frame is for
    /// (or at its handler's end, if that is later), draws the newest touch
    /// ready by then and commits; nil is `off`, touches are read at the
    /// frame start only. Apple publishes no mechanism and no timing (only
    /// "4 ms of our improvement"): an unknown, 0 to one frame.
    public var midFrameLead: SimTime?

    /// Defaults: not an ink app, batched input, an overlay plane, no
    /// mid-frame read.
    public init() {}
}

extension PipelineConfiguration {
    /// True when the app draws into a front buffer (`android.renderMode:
    /// frontBuffered`, Android only).
    public var frontBuffered: Bool { platform == .android && android.renderMode == .frontBuffered }

    /// True when the app is an ink app (`app.ink`, or front-buffered) whose
    /// pen is drawing (not tapping): the ink figures are recorded.
    public var inkApp: Bool { (ink.app || frontBuffered) && !taps }

    /// True when an iOS app reads its touches again mid-frame.
    public var midFrameRead: Bool { platform == .ios && ink.midFrameLead != nil }
}
