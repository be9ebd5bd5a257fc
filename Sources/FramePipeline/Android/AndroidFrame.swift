import SimKernel
import TouchModel

/// What the app draws as the touch's newest position, and what measuring it
/// needs (Docs/Android.md, "Measurements").
struct DrawnContent {
    /// Content is numbered from 0 as the app makes it; a frame shows new
    /// content when its number is above the last one shown.
    var seq: Int64
    /// The newest position drawn: a resampled point (its physical time as
    /// ``Touch/time``) or a digitizer sample; ``Touch/scan`` and
    /// ``Touch/windowStart`` are those of the newest sample drawn.
    var newest: Touch
    /// Digitizer samples the app has drawn so far.
    var drawnSamples: Int64
    /// Where the stroke's end is drawn (the predicted position with prediction on).
    var drawn: TouchPoint
    /// The prediction horizon applied to ``drawn``.
    var horizon: SimTime
    /// How the newest position was made.
    var resampled: ResampleOutcome
    /// The resampled point's physical time minus the newest sample's
    /// instant (0 when not resampled).
    var lead: SimTime = 0
    /// When the UI thread started the work that drew it.
    var drawnAt: SimTime = 0
    /// When the newest drawn became frame work, if it is a touch-down: its
    /// handler's end (-1 otherwise: a sample is work from its arrival).
    var downEnd: SimTime = -1
}

/// How a Choreographer frame's newest position was made.
public enum ResampleOutcome: UInt8, Sendable {
    /// A digitizer sample as reported (resampling off, no point, or a
    /// touch-down).
    case none
    /// Interpolated toward a sample still in the batch.
    case interpolated
    /// Extrapolated from the last two samples.
    case extrapolated

    /// The outcome's name, as traces and diagrams show it.
    public var name: String {
        switch self {
        case .none: "none"
        case .interpolated: "interpolated"
        case .extrapolated: "extrapolated"
        }
    }
}

/// One app frame, one buffer, from its frame time to its present. It is
/// kept once, in the pipeline's ``FrameTable``; the stages hold its number
/// and report what happened to it, and the pipeline writes that here.
struct AndroidFrame {
    /// Frames are numbered from 0 in the order they begin.
    var seq: Int64
    /// What it draws; nil for a continuous frame read before any touch.
    var content: DrawnContent?
    /// The Choreographer frame time, or the GL thread's read instant.
    var frameTime: SimTime
    /// Its expected present `V_k`; -1 for a continuous frame (no vsync id).
    var expected: SimTime
    /// Its deadline `V_k - D_sf` (on-demand frames).
    var deadline: SimTime
    /// The buffer it draws into (-1 until dequeued).
    var buffer: Int32 = -1
    /// The release fence its buffer had at dequeue: its GPU job waits for it.
    var bufferFence: ReleaseFence = .signalled
    /// When the UI thread's frame work ended, when the sync handed it to
    /// RenderThread, and when the producer had its buffer (-1 before); the
    /// stage budget reads them.
    var uiEnd: SimTime = -1
    var handedOver: SimTime = -1
    var renderStart: SimTime = -1
    /// When it was queued (queueBuffer), -1 before.
    var queued: SimTime = -1
    /// When its GPU job started, -1 before.
    var gpuStart: SimTime = -1
    /// When its GPU job ended (the acquire fence), -1 before.
    var gpuDone: SimTime = -1
    /// When SurfaceFlinger latched it (a vsync-sf tick `V - D_sf`), -1 before.
    var latched: SimTime = -1
    /// The latch instant of the buffer latched just before it (-1: none).
    var previousLatch: SimTime = -1
    /// Its composition has ended.
    var composed = false

    /// A frame of `renderMode: continuous`: no vsync id.
    var isContinuous: Bool { expected < 0 }

    /// A slot of the table before its first frame.
    static let empty = AndroidFrame(seq: -1, content: nil, frameTime: 0, expected: -1, deadline: -1)
}

/// The frames in flight, by number: a ring of slots, reused once a frame is
/// presented or dropped. Frames in flight are at most the buffers plus the
/// one the UI thread draws and the one waiting at the sync, so a ring of
/// twice that (a power of two, at least 16) never reuses a slot still in
/// use. The slots are allocated once, when the run is prepared, and read
/// and written in place (reading a field or passing the frame to a
/// borrowing parameter copies nothing); only one run uses a table.
typealias FrameTable = NumberedSlots<AndroidFrame>

extension NumberedSlots where Element == AndroidFrame {
    /// The table of a BufferQueue of `buffers` buffers.
    init(buffers: Int) {
        self.init(atLeast: Swift.max(16, 2 * (buffers + 4)), filledWith: .empty)
    }

    /// A frame begins: it takes its slot.
    @inline(__always)
    func begin(_ f: AndroidFrame) { self[f.seq] = f }
}

/// The frame on screen, as the display keeps it.
struct ShownFrame {
    /// Its number.
    var seq: Int64
    /// Its buffer.
    var buffer: Int32
}
