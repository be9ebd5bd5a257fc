import SimKernel

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
    /// Frames are numbered from 0 in the order they are made; Metal work that
    /// rides with a Core Animation frame is -1.
    var id: Int64
    /// The transaction it shows, by its number: the commit itself stays in
    /// the pipeline's table (a frame is copied from stage to stage, and
    /// small).
    var commit: Int64
    var path: FramePath
    /// The display buffer it draws into (-1: none yet, or none needed).
    var buffer: Int8
}

/// The Core Animation render server (Docs/Model.md, "Render server"): it
/// turns the newest committed state into a frame, a prepare then a GPU job.
/// Waiting commits are merged; only the newest is rendered. `vsync` (iOS 8)
/// starts at a vsync wake; `lowLatency` (iOS 9) starts as soon as a commit
/// waits, the server is idle and a buffer is free, except while animations
/// are active.
struct RenderServer {
    let animations: AnimationSchedule
    /// `lowLatency` with no animation ever: no check per event.
    let lowLatencyAlways: Bool
    /// `vsync`, or animations always: never low latency.
    let lowLatencyNever: Bool
    /// The end of the animations the app started while running (a peek's
    /// preview, a pop's commit: Docs/Force.md, "Animations").
    private(set) var animatingUntil: SimTime = .min
    let prepareTime: DurationSampler
    /// GPU time of a render-server frame (`gpu.render`).
    var gpuTime: DurationSampler
    /// The newest commit not yet rendered: what the server needs of it (the
    /// commit itself stays in the pipeline's table).
    private(set) var pending: Waiting?

    /// A commit waiting for the render server.
    struct Waiting {
        var seq: Int64
        var handlerRun: Int64
        var isLastOfRun: Bool
    }
    /// The frame being prepared.
    private(set) var preparing: Frame?
    /// The handler run of the last commit it started rendering.
    private var lastRenderedRun: Int64 = -1
    /// Handler runs all of whose commits were merged away before rendering.
    private(set) var wastedUpdates = 0

    // inlined into the models' initialisers, so that it is made in its
    // place in the model (called, it was made aside and copied in)
    @inline(__always)
    init(configuration c: borrowing PipelineConfiguration) {
        animations = c.animations
        lowLatencyNever = c.renderServer == .vsync || c.animations == .always
        lowLatencyAlways = c.renderServer == .lowLatency && c.animations == .never && !c.force.animates
        prepareTime = DurationSampler(c.prepare)
        gpuTime = DurationSampler(c.gpuRender)
    }

    /// True when the server may start work outside a vsync at `now`.
    @inline(__always)
    func lowLatency(at now: SimTime) -> Bool {
        if lowLatencyAlways { return true }
        if lowLatencyNever { return false }
        return !animations.isActive(at: now) && now >= animatingUntil
    }

    /// An animation the app started runs until `end`: low latency stays off
    /// until then.
    mutating func animate(until end: SimTime) {
        animatingUntil = Swift.max(animatingUntil, end)
    }

    /// A commit arrives; an older one still waiting is merged into it. A
    /// handler run whose last commit is merged away, none of its commits
    /// having been rendered, is a wasted update.
    mutating func receive(_ c: Waiting) {
        if let old = pending, old.isLastOfRun, lastRenderedRun != old.handlerRun { wastedUpdates += 1 }
        pending = c
    }

    /// True when a commit waits and the server is idle: with a buffer, it
    /// would start now.
    var wantsToStart: Bool { preparing == nil && pending != nil }

    /// Starts preparing the waiting commit into `buffer`, as frame `id`;
    /// returns the frame and when its prepare is done.
    mutating func start(frame id: Int64, buffer: Int8, now: SimTime, rng: inout SeededRandom) -> (frame: Frame, done: SimTime) {
        let c = pending.unsafelyUnwrapped
        pending = nil
        lastRenderedRun = c.handlerRun
        let frame = Frame(id: id, commit: c.seq, path: .renderServer, buffer: buffer)
        preparing = frame
        return (frame, now + prepareTime.draw(&rng))
    }

    /// The prepare is done: the frame goes to the GPU with this much work.
    mutating func finishPrepare(rng: inout SeededRandom) -> (frame: Frame, gpu: SimTime) {
        let f = preparing.unsafelyUnwrapped
        preparing = nil
        return (f, gpuTime.draw(&rng))
    }
}
