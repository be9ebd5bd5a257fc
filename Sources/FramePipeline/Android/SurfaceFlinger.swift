import DequeModule
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
    /// The display rate, for the check that a composition stays below `T`.
    let displayHz: Rational
    private var vsyncs: Ticker
    /// Latched buffers waiting for their present, oldest first.
    private(set) var latched = Deque<AndroidFrame>()
    /// The latch instant of the newest latch (-1: none yet).
    private(set) var lastLatch: SimTime = -1
    /// The buffer latched last: released at the next latch.
    private var acquired: (seq: Int64, buffer: Int32)?
    /// vsync-sf ticks with a queued buffer at which back-pressure latched nothing.
    private(set) var backPressureSkips = 0
    private(set) var maxLatchedPending = 0
    /// Buffers released before their own GPU job ended (latchUnsignaled).
    private(set) var earlyReleases = 0
    /// A composition draw that reached the display period (bad input).
    private(set) var badComposition: SimTime?

    init(configuration c: PipelineConfiguration, sfDuration: SimTime) {
        self.sfDuration = sfDuration
        latchUnsignaled = c.android.latchUnsignaled
        latest = c.present == .latest
        compositionTime = DurationSampler(c.android.sfCompose)
        displayHz = c.displayHz
        vsyncs = c.vsyncClock.ticks(from: c.vsyncClock.index(atOrAfter: sfDuration))
    }

    /// The next vsync-sf tick.
    var nextTick: SimTime { vsyncs.time - sfDuration }

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
    func latchable(_ f: AndroidFrame, vsync: SimTime) -> Bool {
        (f.gpuDone >= 0 || latchUnsignaled) && (f.isContinuous || f.expected <= vsync)
    }

    /// What to latch at the tick `now` targeting `vsync`, from the queued buffers.
    mutating func decide(_ queue: Deque<AndroidFrame>, now: SimTime, vsync: SimTime) -> LatchDecision {
        guard !queue.isEmpty else { return .none }
        // back-pressure: the oldest latched buffer's present is due and it is not on screen
        if let oldest = latched.first, oldest.latchVsync <= now {
            backPressureSkips += 1
            return .backPressure
        }
        if latest {
            var i = queue.count - 1
            while i >= 0 && !latchable(queue[i], vsync: vsync) { i -= 1 }
            return i >= 0 ? .latch(index: i) : .none
        }
        return latchable(queue[0], vsync: vsync) ? .latch(index: 0) : .none
    }

    /// Latches `frame` now for `vsync`: returns the buffer it releases (the
    /// one latched before, its release fence signalling at this frame's
    /// present) and when the composition ends (nil: the draw reached the
    /// display period, bad input).
    mutating func latch(_ frame: AndroidFrame, now: SimTime, vsync: SimTime, rng: inout SeededRandom)
        -> (released: (buffer: Int32, fence: ReleaseFence)?, compositionEnd: SimTime?) {
        var f = frame
        f.latched = now
        f.latchVsync = vsync
        f.previousLatch = lastLatch
        lastLatch = now
        var released: (buffer: Int32, fence: ReleaseFence)?
        if let a = acquired {
            f.signalsFence = true
            released = (a.buffer, ReleaseFence(signalsAt: f.seq))
            for i in 0..<latched.count where latched[i].seq == a.seq && latched[i].gpuDone < 0 { earlyReleases += 1 }
        }
        acquired = (f.seq, f.buffer)
        latched.append(f)
        maxLatchedPending = Swift.max(maxLatchedPending, latched.count)
        let d = compositionTime.draw(&rng)
        if Int128(d) * Int128(displayHz.numerator) >= Int128(Nanos.perSecond) * Int128(displayHz.denominator) {
            badComposition = d
            return (released, nil)
        }
        return (released, now + d)
    }

    /// The composition running ends now (it is the newest latch's).
    mutating func compositionDone(now: SimTime) {
        latched[latched.count - 1].composed = now
    }

    /// The GPU job of frame `seq` is done now; false when it is not latched.
    mutating func acquireFenceSignalled(frame seq: Int64, now: SimTime) -> Bool {
        for i in 0..<latched.count where latched[i].seq == seq {
            latched[i].gpuDone = now
            return true
        }
        return false
    }

    /// The present vsync `now`: the oldest latched buffer, when it is
    /// composed, its GPU work done and its vsync reached; nil repeats the
    /// front buffer.
    mutating func presentable(now: SimTime) -> AndroidFrame? {
        guard let f = latched.first, f.composed >= 0, f.gpuDone >= 0, now >= f.latchVsync else { return nil }
        return latched.removeFirst()
    }
}
