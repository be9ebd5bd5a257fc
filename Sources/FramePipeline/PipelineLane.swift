import SimKernel

/// A unit of a pipeline that does work: a row of a pipeline diagram and a
/// track of a trace. iOS uses ``ios``, top to bottom as on the talk's
/// slides; Android uses ``android``.
public enum PipelineLane: Int, CaseIterable, Sendable, Comparable {
    /// The digitizer's scan windows.
    case multiTouch
    /// The app's main thread (UIKit touch handling, commits).
    case app
    /// The Core Animation render server's prepare work.
    case coreAnimation
    /// GPU render jobs.
    case gpu
    /// The frame on screen, from its latch to the next one.
    case display
    /// Android: the digitizer's scan windows and the samples' way to the
    /// app's input channel (InputReader, InputDispatcher).
    case input
    /// Android: the app's UI thread (input, traversal, the sync).
    case uiThread
    /// Android: HWUI's RenderThread (or GLSurfaceView's GL thread).
    case renderThread
    /// Android: SurfaceFlinger's latch and composition.
    case surfaceFlinger
    /// Android, a front-buffered app: the front-buffer renderer's thread
    /// (the wet draws and the dry commits; Docs/Ink.md).
    case frontRenderer

    /// The iOS lanes, top to bottom.
    public static let ios: [PipelineLane] = [.multiTouch, .app, .coreAnimation, .gpu, .display]
    /// The Android lanes, top to bottom.
    public static let android: [PipelineLane] = [.input, .uiThread, .renderThread, .gpu, .surfaceFlinger, .display]
    /// A front-buffered Android app's lanes, top to bottom.
    public static let androidFrontBuffered: [PipelineLane] = [.input, .uiThread, .frontRenderer, .gpu, .surfaceFlinger, .display]

    /// The lane's name as printed on the diagram.
    public var title: String {
        switch self {
        case .multiTouch: return "Multi-Touch"
        case .app: return "App"
        case .coreAnimation: return "Core Animation"
        case .gpu: return "GPU"
        case .display: return "Display"
        case .input: return "Input"
        case .uiThread: return "UI thread"
        case .renderThread: return "RenderThread"
        case .surfaceFlinger: return "SurfaceFlinger"
        case .frontRenderer: return "Front buffer"
        }
    }

    /// The lane's track in a trace: the thread or unit that does its work.
    public var trackName: String {
        switch self {
        case .multiTouch: return "Multi-Touch (digitizer)"
        case .app: return "App main thread"
        case .coreAnimation: return "Core Animation render server"
        case .gpu: return "GPU"
        case .display: return "Display"
        case .input: return "Input (digitizer, InputReader, InputDispatcher)"
        case .uiThread: return "UI thread"
        case .renderThread: return "RenderThread"
        case .surfaceFlinger: return "SurfaceFlinger"
        case .frontRenderer: return "Front-buffer renderer thread"
        }
    }

    /// Lanes order top to bottom.
    public static func < (a: PipelineLane, b: PipelineLane) -> Bool { a.rawValue < b.rawValue }
}
