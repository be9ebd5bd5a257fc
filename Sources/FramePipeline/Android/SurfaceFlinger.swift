import SimKernel

/// What SurfaceFlinger does at a vsync-sf tick.
enum LatchDecision {
    /// Nothing is queued, or the head is not latchable yet.
    case none
    /// Back-pressure: a buffer latched for a vsync already due is not on
    /// screen yet; nothing is latched (nor dropped).
    case backPressure
    /// Latch the queued buffer at this index; under `latest` the older
    /// ones are dropped first.
    case latch(index: Int)
}

/// SurfaceFlinger and the hardware composer (Docs/Android.md,
/// "SurfaceFlinger"): at each vsync-sf tick `S_k = V_k - D_sf` it latches at
/// most one buffer, in FIFO order (`os.present: latest`, a what-if, latches
/// the newest latchable one and drops the older), releasing the buffer it
/// latched before; it composes for `android.sfCompose`; a latched buffer
/// goes on screen at the first vsync at or after `V_k`, the end of its
/// composition and (with `latchUnsignaled`) of its GPU job, one per vsync.
struct SurfaceFlinger {
    let sfDuration: SimTime
    let latchUnsignaled: Bool
    let latest: Bool
    let compositionTime: DurationSampler
    /// The shortest composition that reaches the display period `T`
    /// (`ceil(T)`): every draw must stay below it.
    let compositionLimit: SimTime
    /// The ticks' vsyncs, each offset by `D_sf` at its rate.
    private(set) var vsyncs: SwitchingTicker
    /// Latched buffers (their frames) waiting for their present, oldest first.
    private(set) var latched = Ring<Int64>()
    /// The latch instant of the newest latch (-1: none yet).
    private(set) var lastLatch: SimTime = -1
    /// The frame and buffer latched last: released at the next latch.
    private var acquired: (seq: Int64, buffer: Int32)?
    /// vsync-sf ticks with a queued buffer at which back-pressure latched nothing.
    private(set) var backPressureSkips = 0
    private(set) var maxLatchedPending = 0
    /// A composition draw that reached the display period (bad input).
    private(set) var badComposition: SimTime?
    /// On a command-mode panel, the wake from idle (0: video mode, or none).
    let idleWake: SimTime
    /// A command-mode panel (the stage budget has an idle-wake stage).
    let commandPanel: Bool
    /// When each latched buffer's composition ends (-1: not yet known),
    /// alongside ``latched``.
    private var compositionEnds = Ring<SimTime>()
    /// The vsync each latched buffer was latched for, alongside ``latched``.
    private var targets = Ring<SimTime>()
    /// Half the display period at the current rate, rounded down: a frame
    /// whose expected present is that much after the vsync composed is
    /// early, and held (`SurfaceFlinger::frameIsEarly`, T/2).
    private var halfPeriod: SimTime
    /// The newest present (-1: none yet).
    private var lastPresent: SimTime = -1
    /// Frames sent from an idle command-mode panel.
    private(set) var idleWakes = 0
    /// The first vsync at which the oldest latched frame was ready to show
    /// but held by the wake (-1: not held).
    private var heldByWake: SimTime = -1
    /// The wake of the frame presented last; nil when it was not sent from idle.
    private(set) var lastWake: IdleWake?
    /// What the waits for the wake cost, ns, summed over the frames sent from idle.
    private(set) var idleWakeDelay: SimTime = 0

    /// A frame sent from an idle command-mode panel: the wake runs from its
    /// composition's end for `display.idleWake`; `ready` is the vsync the
    /// frame would have been shown at without it, so the wake cost it
    /// `present - ready` (whole periods, 0 when it ended before that TE).
    struct IdleWake {
        var start, end, ready: SimTime
    }

    init(configuration c: borrowing PipelineConfiguration, sfDuration: SimTime) {
        self.sfDuration = sfDuration
        latchUnsignaled = c.android.latchesUnsignaled
        latest = c.present == .latest
        compositionTime = DurationSampler(c.android.sfCompose)
        let n = Nanos.perSecond * c.displayHz.denominator, d = c.displayHz.numerator
        compositionLimit = (n + d - 1) / d
        vsyncs = SwitchingTicker(clock: c.vsyncClock, from: c.vsyncClock.index(atOrAfter: sfDuration), offset: sfDuration)
        halfPeriod = (n / d) / 2
        commandPanel = c.android.panelInterface == .command
        idleWake = commandPanel ? c.android.idleWake : 0
    }

    /// The next vsync-sf tick.
    var nextTick: SimTime { vsyncs.instant }

    /// The rate becomes `hz` from `boundary` on, with the work duration
    /// `sf` there: true when the next tick moved (its event is to move).
    mutating func switchRate(at boundary: SimTime, to hz: Rational, sfDuration sf: SimTime, now: SimTime) -> Bool {
        let before = vsyncs.instant
        _ = vsyncs.switchRate(at: boundary, to: hz, offset: sf)
        vsyncs.skip(before: now)
        return vsyncs.instant != before
    }

    /// The display's rate is now `hz` (its frames are early by half its period).
    mutating func rateInForce(_ hz: Rational) {
        halfPeriod = Nanos.perSecond * hz.denominator / hz.numerator / 2
    }

    /// The tick now: returns the vsync it targets, and moves on.
    mutating func tick() -> SimTime {
        let v = vsyncs.time
        vsyncs.advance()
        return v
    }

    /// True when `f` may be latched at the tick targeting `vsync`: its GPU
    /// work is done (or latchUnsignaled), and an on-demand frame only from
    /// the tick of its own target on.
    @inline(__always)
    func latchable(_ seq: Int64, _ frames: FrameTable, vsync: SimTime) -> Bool {
        (frames[seq].gpuDone >= 0 || latchUnsignaled) && (frames[seq].expected < 0 || frames[seq].expected - vsync < halfPeriod)
    }

    /// What to latch at the tick `now` targeting `vsync`, from the queued
    /// buffers `queue` (frame numbers in `frames`).
    mutating func decide(_ queue: Ring<Int64>, _ frames: FrameTable, now: SimTime, vsync: SimTime) -> LatchDecision {
        guard !queue.isEmpty else { return .none }
        // back-pressure: the oldest latched buffer's present is due and it is not on screen
        if !latched.isEmpty && targets[0] <= now {
            backPressureSkips += 1
            return .backPressure
        }
        if latest {
            var i = queue.count - 1
            while i >= 0 && !latchable(queue[i], frames, vsync: vsync) { i -= 1 }
            return i >= 0 ? .latch(index: i) : .none
        }
        return latchable(queue[0], frames, vsync: vsync) ? .latch(index: 0) : .none
    }

    /// What a latch produced.
    struct Latched {
        /// The latch before it (-1: none): FrameTimeline's `lastLatchTime`.
        var previousLatch: SimTime
        /// The buffer released (the one latched before, and its frame), its
        /// release fence signalling at this frame's present.
        var released: (seq: Int64, buffer: Int32)?
        /// When the composition ends; nil when the draw reached the display
        /// period (bad input).
        var compositionEnd: SimTime?
    }

    /// Latches frame `seq`, drawn into `buffer`, now, for the vsync `target`.
    mutating func latch(_ seq: Int64, buffer: Int32, now: SimTime, target: SimTime, rng: inout SeededRandom) -> Latched {
        let previous = lastLatch
        lastLatch = now
        let released = acquired
        acquired = (seq, buffer)
        latched.append(seq)
        targets.append(target)
        maxLatchedPending = Swift.max(maxLatchedPending, latched.count)
        let d = compositionTime.draw(&rng)
        compositionEnds.append(now + d)
        if d >= compositionLimit {
            badComposition = d
            return Latched(previousLatch: previous, released: released, compositionEnd: nil)
        }
        return Latched(previousLatch: previous, released: released, compositionEnd: now + d)
    }

    /// The composition running ends now: returns its frame (the newest latch's).
    func compositionDone() -> Int64 { latched[latched.count - 1] }

    /// The present vsync `now`: the oldest latched buffer's frame, when it is
    /// composed, its GPU work done and its vsync reached; nil repeats the
    /// front buffer.
    ///
    /// On a command-mode panel the frame's transfer into the panel's memory
    /// starts at a TE pulse (the vsync) and outruns the panel's read, so a
    /// running pipeline shows it as video mode does; a frame sent from idle
    /// (no new frame shown in the period before `now`) first waits
    /// `idleWake` after its composition for the gated clocks and the link,
    /// and is shown at the first vsync after that.
    mutating func presentable(now: SimTime, _ frames: FrameTable) -> Int64? {
        guard let seq = latched.first, frames[seq].composed, frames[seq].gpuDone >= 0,
              now >= targets[0] else { return nil }
        let fromIdle = idleWake > 0 && (lastPresent < 0 || now - lastPresent > compositionLimit)
        if fromIdle {
            let woken = compositionEnds[0] + idleWake
            if woken > now {
                if heldByWake < 0 { heldByWake = now }
                return nil
            }
            let ready = heldByWake >= 0 ? heldByWake : now
            idleWakes += 1
            idleWakeDelay += now - ready
            lastWake = IdleWake(start: compositionEnds[0], end: woken, ready: ready)
            heldByWake = -1
        } else if idleWake > 0 {
            lastWake = nil
        }
        lastPresent = now
        _ = compositionEnds.removeFirst()
        _ = targets.removeFirst()
        return latched.removeFirst()
    }
}
