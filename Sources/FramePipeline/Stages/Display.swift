import SimKernel

/// The display (Docs/Model.md, "Display"): completed frames wait in the
/// present queue; at each vsync latch one becomes the front buffer and the
/// previous front buffer is released. `latest` latches the newest completed
/// frame and drops the older ones; `fifo` latches the oldest. With no
/// completed frame waiting, the front frame is shown again: a repeated
/// frame. Generic over the platform's frame type.
struct Display<Frame> {
    let present: PresentPolicy
    var vsyncs: Ticker
    private var presentQueue = Ring<Frame>()
    private(set) var front: Frame?
    private(set) var framesPresented = 0
    private(set) var repeatedFrames = 0
    private(set) var droppedFrames = 0
    /// Repeated frames at which newer content was due.
    private(set) var hitches = 0
    /// True from a vsync that showed a new frame until one at which the app
    /// had nothing newer in flight: frames are coming at the display's
    /// cadence, so a repeat is a break in it rather than a pipeline filling
    /// after an idle screen.
    private(set) var inMotion = false

    init(present: PresentPolicy, clock: PeriodicClock) {
        self.present = present
        vsyncs = clock.ticks(from: 0)
    }

    /// The first latch.
    var firstLatch: SimTime { vsyncs.time }

    /// A frame is complete: it joins the present queue.
    @inline(__always)
    mutating func completed(_ frame: Frame) { presentQueue.append(frame) }

    /// The latch event: returns the next latch.
    mutating func nextLatch() -> SimTime { vsyncs.advance() }

    /// The frame to latch now: the newest (`latest`) or oldest (`fifo`)
    /// completed frame; nil when none waits.
    @inline(__always)
    mutating func frameToLatch() -> Frame? {
        guard !presentQueue.isEmpty else { return nil }
        return present == .latest ? presentQueue.removeLast() : presentQueue.removeFirst()
    }

    /// Under `latest`, after ``frameToLatch()``: the older completed frames,
    /// one call each, oldest first; each is dropped (its buffer is free).
    mutating func dropOlder() -> Frame? {
        guard present == .latest, let old = presentQueue.popFirst() else { return nil }
        droppedFrames += 1
        return old
    }

    /// `frame` becomes the front buffer; returns the previous front frame,
    /// whose buffer is released.
    mutating func show(_ frame: Frame) -> Frame? {
        let previous = front
        front = frame
        framesPresented += 1
        inMotion = true
        return previous
    }

    /// Nothing new at this vsync: the front frame is shown again (Docs/Model.md,
    /// "Repeated frames and hitches"). With nothing newer in flight
    /// (`pending` false) the screen is idle: nothing is counted. While the
    /// pipeline fills after an idle screen nothing is counted either: the
    /// wait is the new content's latency. Otherwise it is a repeated frame,
    /// and a hitch when newer content was due (`due`). Returns whether it was
    /// a hitch.
    mutating func repeatFront(pending: Bool, due: Bool) -> Bool {
        guard pending else {
            inMotion = false
            return false
        }
        guard inMotion else { return false }
        repeatedFrames += 1
        guard due else { return false }
        hitches += 1
        return true
    }
}
