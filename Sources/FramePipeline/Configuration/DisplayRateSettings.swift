import SimKernel

/// Where a rate switch can take effect (`display.switchGrid`).
public enum SwitchGrid: String, Sendable, CaseIterable, Keyword {
    /// At a vsync of the rate the display leaves (a mode switch: the HWC
    /// applies a new config at a refresh of the old one).
    case current
    /// At any tick of the peak rate's grid (a variable-refresh panel that
    /// can start a refresh there: an inference, unpublished).
    case peak
}

/// A display that changes its rate (Docs/Model.md, "Display rate";
/// Docs/Android.md, "Display rate"): the keys `display.minHz`,
/// `display.idleTimer`, `display.touchTimer`, `display.touchBoostDelay`,
/// `display.switchVsyncs`, `display.switchGrid`, `display.powerTimer`,
/// `android.kernelIdleTimer` and `app.frameRate`. With no minimum rate
/// the display runs `device.displayHz` for the whole run and nothing of
/// this costs anything.
public struct DisplayRateSettings: Sendable, Hashable {
    /// The lowest rate the display runs, where an idle timer sends it
    /// (`display.minHz`); nil: the display never changes its rate.
    public var minimumHz: Rational?
    /// How long without the app's activity before the display drops to
    /// its minimum (`display.idleTimer`): Android's
    /// `ro.surface_flinger.set_idle_timer_ms`; iOS's dwell, unpublished.
    public var idleTimer: SimTime?
    /// How long a touch holds the peak rate (`display.touchTimer`):
    /// Android's `ro.surface_flinger.set_touch_timer_ms`.
    public var touchTimer: SimTime?
    /// From a touch to the display's asking for the peak rate
    /// (`display.touchBoostDelay`): an unknown on both platforms.
    public var touchBoostDelay: SimTime = 0
    /// Vsyncs of the old rate before a switch takes effect
    /// (`display.switchVsyncs`): the Pixel 6's HWC gives 2.
    public var switchVsyncs = 0
    /// Where a switch takes effect (`display.switchGrid`).
    public var switchGrid = SwitchGrid.current
    /// How long the display holds its peak rate after it is powered on,
    /// at the run's start (`display.powerTimer`): Android's
    /// `ro.surface_flinger.set_display_power_timer_ms`.
    public var powerTimer: SimTime?
    /// Android: the idle timer runs in the display driver
    /// (`ro.surface_flinger.support_kernel_idle_timer`): its drop and the
    /// return take effect at the next vsync, without a mode switch.
    public var kernelIdleTimer = false
    /// The rate the app asks for while it draws (`app.frameRate`: Android's
    /// `setFrameRate`, iOS's `preferredFrameRateRange`); nil: none, the
    /// display's peak.
    public var appRate: Rational?

    /// No switching.
    public init() {}

    /// True when the display can change its rate.
    public var switches: Bool { minimumHz != nil }
}
