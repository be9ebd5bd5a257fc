import SimKernel

/// The Android pipeline's events (Docs/Android.md, "Tie order"): at equal
/// times completions come before decisions, in the order of ``tieRank``.
///
/// The nine model events of every run are declared first, in tie order.
/// Then bookkeeping, not counted as model events: two decisions deferred to
/// later in the same instant, so they see every completion and arrival of
/// that instant, and the engine's one event for a scan and its touch's
/// arrival (``scanArrival``). Then the model events of some runs only,
/// counted and reported by the runs that can have them (``appUpdate``,
/// ``displayTimer``).
public enum AndroidEvent: UInt8, SimulationEvent {
    /// A GPU job is done: its buffer's acquire fence signals.
    case gpuDone
    /// SurfaceFlinger's composition is done.
    case compositionDone
    /// A hardware vsync: a latched buffer goes on screen (its predecessor's
    /// release fence signals), or the front buffer repeats.
    case presentVsync
    /// RenderThread (or the GL thread) queues its buffer.
    case queueBuffer
    /// The UI thread's work is done (it then syncs to RenderThread).
    case uiWorkDone
    /// A digitizer sample is ready: its evdev timestamp. Handled, and
    /// counted, within ``scanArrival``.
    case sampleReady
    /// A sample reaches the app's input channel. Handled, and counted,
    /// within ``scanArrival``.
    case inputChannel
    /// vsync-sf: SurfaceFlinger latches.
    case vsyncSf
    /// vsync-app: a Choreographer frame.
    case vsyncApp
    /// Bookkeeping: the GL thread reads the stored position, after the UI
    /// work done of its instant.
    case glRead
    /// Bookkeeping: a Choreographer frame decided when the UI thread became
    /// idle after a tick it missed (skipped-frame correction), after every
    /// event of that instant.
    case deferredFrame
    /// Bookkeeping: a scan and its touch's arrival, one event at the
    /// arrival (the scan's ready instant plus the dispatch latency, a
    /// constant). Nothing reads what a scan produces before its touch
    /// arrives, so the scan is handled then (Docs/Engine.md, "Events
    /// handled within another"); counted as a `sampleReady`, and as an
    /// `inputChannel` when the finger was down.
    case scanArrival
    /// The app changes what it shows on its own (`app.updates: blink`,
    /// WALT's screen test, ``Blinker``): a message on the UI thread that
    /// invalidates the view. A model event of its own kind, reported only
    /// by runs that can have it.
    case appUpdate
    /// The display's rate policy (``DisplayRate``): a timer expires (idle,
    /// touch, display power), a delayed touch hint arrives, or a rate
    /// switch takes effect; payload ``DisplayRate/Timer``. After every
    /// other event of its instant. Reported only by a display that changes
    /// its rate.
    case displayTimer

    /// The order at equal times (1 first); a bookkeeping event shares the
    /// rank of the kind it follows and comes after those scheduled before it.
    public var tieRank: UInt8 {
        switch self {
        case .gpuDone: return 1
        case .compositionDone: return 2
        case .presentVsync: return 3
        case .queueBuffer: return 4
        case .uiWorkDone, .glRead, .appUpdate: return 5
        case .sampleReady: return 6
        case .inputChannel, .scanArrival: return 7
        case .vsyncSf: return 8
        case .vsyncApp, .deferredFrame: return 9
        case .displayTimer: return 10
        }
    }

    /// The name in JSON and traces.
    public var name: String {
        switch self {
        case .gpuDone: return "gpuDone"
        case .compositionDone: return "composeDone"
        case .presentVsync: return "presentVsync"
        case .queueBuffer: return "queueBuffer"
        case .uiWorkDone: return "uiWorkDone"
        case .sampleReady: return "sampleReady"
        case .inputChannel: return "inputChannel"
        case .vsyncSf: return "vsyncSf"
        case .vsyncApp: return "vsyncApp"
        case .glRead: return "glRead"
        case .deferredFrame: return "deferredFrame"
        case .scanArrival: return "scanArrival"
        case .appUpdate: return "appUpdate"
        case .displayTimer: return "displayTimer"
        }
    }

    /// The periodic sources (Docs/Engine.md): the present vsync, the scan
    /// (with its arrival), vsync-sf and vsync-app.
    public var clock: Int {
        switch self {
        case .presentVsync: return 0
        case .scanArrival: return 1
        case .vsyncSf: return 2
        case .vsyncApp: return 3
        default: return -1
        }
    }

    /// Four clocks.
    public static var clocks: Int { 4 }

    /// The two deferred decisions and the scan with its arrival are
    /// bookkeeping.
    public var isBookkeeping: Bool { self == .glRead || self == .deferredFrame || self == .scanArrival }
}
