import SimKernel

/// The Choreographer's vsync-app ticks (Docs/Android.md, "Clocks" and
/// "Choreographer frame"): tick `k` at `A_k = V_k - D_app - D_sf`, the frame
/// time of a frame targeting `V_k`. Ticks before 0 do not happen. A tick
/// that finds the UI thread busy is remembered; the frame is then decided
/// when the thread becomes idle, with the frame time and target of the
/// newest tick (the skipped-frame correction).
struct Choreographer {
    /// `D_app + D_sf`: from a tick to its vsync.
    let lead: SimTime
    /// The next tick's vsync (from the first whose tick is at or after 0).
    private var vsyncs: Ticker
    /// The last tick handled (frame time -1: none yet).
    private var lastTick: (frameTime: SimTime, target: SimTime) = (-1, -1)
    /// A tick passed while the UI thread was busy.
    var missed = false
    /// Frames that ran (on time, or decided late).
    private(set) var frames = 0
    /// Frames decided when the UI thread became idle after a missed tick.
    private(set) var lateFrames = 0

    init(vsyncClock: PeriodicClock, lead: SimTime) {
        self.lead = lead
        vsyncs = vsyncClock.ticks(from: vsyncClock.index(atOrAfter: lead))
    }

    /// The next tick.
    var nextTick: SimTime { vsyncs.time - lead }

    /// The tick now: returns its frame time and target vsync, and moves on.
    mutating func tick() -> (frameTime: SimTime, target: SimTime) {
        let v = vsyncs.time
        vsyncs.advance()
        lastTick = (v - lead, v)
        return lastTick
    }

    /// The newest tick strictly before `now` whose frame would be decided
    /// late, or nil when none: no tick yet, or the newest tick at or before
    /// `now` is at `now` itself (it decides by itself). Every tick before
    /// `now` has been handled, so the newest is the last one handled unless
    /// the next falls exactly on `now`.
    func newestTick(before now: SimTime) -> (frameTime: SimTime, target: SimTime)? {
        guard nextTick != now, lastTick.frameTime >= 0, lastTick.frameTime < now else { return nil }
        return lastTick
    }

    /// A frame ran (`late`: decided after a missed tick).
    mutating func ran(late: Bool) {
        frames += 1
        if late { lateFrames += 1 }
    }
}
