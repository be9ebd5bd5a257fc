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
    private(set) var vsyncs: SwitchingTicker
    /// The last tick handled (frame time -1: none yet).
    private var lastTick: (frameTime: SimTime, target: SimTime) = (-1, -1)
    /// A tick passed while the UI thread was busy.
    var missed = false
    /// Frames that ran (on time, or decided late).
    private(set) var frames = 0
    /// Frames decided when the UI thread became idle after a missed tick.
    private(set) var lateFrames = 0

    /// `D_sf` of the last tick's target (its frame's deadline is the target less it).
    private(set) var lastSf: SimTime

    init(vsyncClock: PeriodicClock, lead: SimTime, sfDuration: SimTime) {
        self.lead = lead
        lastSf = sfDuration
        vsyncs = SwitchingTicker(clock: vsyncClock, from: vsyncClock.index(atOrAfter: lead), offset: lead, extra: sfDuration)
    }

    /// The next tick.
    var nextTick: SimTime { vsyncs.instant }

    /// The tick now: returns its frame time and target vsync, and moves on.
    mutating func tick() -> (frameTime: SimTime, target: SimTime) {
        let v = vsyncs.time
        lastTick = (vsyncs.instant, v)
        lastSf = vsyncs.extra
        vsyncs.advance()
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

    /// The rate becomes `hz` from `boundary` on, with the lead `D_app +
    /// D_sf` and `D_sf` there: true when the next tick moved (its event is
    /// to move). Ticks before `now` do not happen.
    mutating func switchRate(at boundary: SimTime, to hz: Rational, lead: SimTime, sfDuration: SimTime, now: SimTime) -> Bool {
        let before = vsyncs.instant
        _ = vsyncs.switchRate(at: boundary, to: hz, offset: lead, extra: sfDuration)
        vsyncs.skip(before: now)
        return vsyncs.instant != before
    }

    /// A frame ran (`late`: decided after a missed tick).
    mutating func ran(late: Bool) {
        frames += 1
        if late { lateFrames += 1 }
    }
}
