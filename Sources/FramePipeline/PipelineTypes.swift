import SimKernel
import TouchModel

/// The model's event kinds, in the tie order of MODEL.md section 1: at equal
/// times a smaller raw value happens first, so everything that completes at
/// t is visible to every decision made at t.
public enum PipelineEvent: UInt8, Sendable, CaseIterable {
    case gpuDone = 1
    case prepareDone = 2
    case latch = 3
    case commit = 4
    case sampleReady = 5
    case renderServerWake = 6
    case delivery = 7

    /// The name used in JSON and traces.
    public var name: String {
        switch self {
        case .gpuDone: return "gpuDone"
        case .prepareDone: return "prepareDone"
        case .latch: return "latch"
        case .commit: return "commit"
        case .sampleReady: return "sampleReady"
        case .renderServerWake: return "renderServerWake"
        case .delivery: return "delivery"
        }
    }
}

/// One digitizer sample of the finger.
public struct Sample: Sendable {
    /// Scan window number (0 for the window starting at the scan phase).
    public var index: Int64
    /// The instant the finger's position was taken.
    public var time: SimTime
    /// Start of its scan window (the talk's diagrams count latency from here).
    public var windowStart: SimTime
    /// The position reported (with digitizer noise, if any).
    public var position: TouchPoint
    /// True for the first sample of a stroke (touch-down).
    public var strokeBegan: Bool
}

/// What a frame needs to know of the newest sample it shows.
struct ShownSample {
    var index: Int64
    var time: SimTime
    var windowStart: SimTime
    var y: Double
}

/// A Core Animation transaction committed by the app.
struct Commit {
    var seq: Int64
    /// The newest sample the app used (the main touch).
    var newest: ShownSample
    /// How many samples the app had drawn in all when it committed.
    var drawnTotal: Int64
    /// Where the stroke's end is drawn (the predicted position with prediction).
    var drawn: TouchPoint
    /// The prediction horizon applied to `drawn` (0 without a prediction).
    var horizon: SimTime
    var handlerRun: Int64
    var isLastOfRun: Bool
    /// Whether an earlier commit of the same handler run was rendered.
    var earlierOfRunRendered: Bool
}

/// How a frame reaches the display.
public enum FramePath: UInt8, Sendable {
    /// Rendered by the Core Animation render server (prepare, then GPU).
    case renderServer
    /// A Metal frame presented straight to the display.
    case metal
    /// Metal GPU work shown with the Core Animation frame of the same
    /// commit: a GPU job that is not a frame of its own.
    case metalWithCoreAnimation
}

/// A frame on its way to the display.
struct Frame {
    var id: Int64
    var commit: Commit
    var path: FramePath
    /// Which display buffer it draws into (0, 1 or 2).
    var buffer: Int8
}

/// A job on the FIFO GPU queue: a frame's render, or Metal work that rides
/// with a Core Animation frame (path `metalWithCoreAnimation`).
struct GPUJob {
    var duration: SimTime
    var frame: Frame
}

/// A drawn sample waiting to be shown (for per-sample latency).
struct DrawnSample {
    var time: SimTime
    var y: Double
}
