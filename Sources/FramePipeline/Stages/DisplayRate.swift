import SimKernel

/// The display's rate policy (Docs/Model.md, "Display rate";
/// Docs/Android.md, "Display rate"): which rate the display should run at
/// each moment, from its timers and the app's vote, and the rates it ran.
/// The pipelines own the display clock (each stage's ``SwitchingTicker``):
/// when ``evaluate(at:)`` asks for a switch they work out its boundary and
/// move their clocks, then tell ``committed(at:to:_:kind:)``.
///
/// Android (SurfaceFlinger's Scheduler and RefreshRateSelector): the idle
/// timer (`set_idle_timer_ms`) drops the display to its minimum after that
/// long without the app's activity (a buffer queued: a transaction
/// resetting the timer, `SurfaceFlinger::scheduleCommit`); a touch hint
/// (a user-activity poke, at most one per 100 ms, through PowerManagerService
/// to `Scheduler::onTouchHint`) holds the peak for the touch timer
/// (`set_touch_timer_ms`), and touch outranks idle; the display power timer
/// holds the peak after the display is powered on (the run's start).
/// iOS (ProMotion, unpublished): a touch or a commit is activity, and the
/// display drops to its minimum after the dwell (`display.idleTimer`).
/// Otherwise the display runs the app's vote (`app.frameRate`), or its peak.
struct DisplayRate {
    /// The timers, as the payloads of the pipeline's `displayTimer` events.
    enum Timer: UInt8 {
        case idle, touch, power, applied, hint
    }

    let peak: Rational
    let minimum: Rational
    let vote: Rational
    let idleAfter: SimTime?
    let touchHold: SimTime?
    let hintDelay: SimTime
    /// The shortest time between two touch hints (Android: 100 ms; iOS: 0).
    let hintInterval: SimTime
    /// A touch is activity for the idle timer (iOS; Android's kernel idle timer).
    let touchIsActivity: Bool
    let powerUntil: SimTime

    /// The rate in force.
    private(set) var inForce: Rational
    /// The switch committed and not yet in force: its boundary (-1: none) and rate.
    private(set) var pendingAt: SimTime = -1
    private(set) var pendingHz: Rational
    private(set) var lastActivity: SimTime = 0
    private(set) var idle = false
    private var idleCheck: SimTime = -1
    private(set) var touchUntil: SimTime = -1
    private var touchCheck: SimTime = -1
    private var lastHint: SimTime = .min
    private var hintAt: SimTime = -1
    /// Switches that took effect.
    private(set) var switches = 0
    /// The segments of the display clock, oldest first: when each began and
    /// its rate (the last few, for the stage budget's look-ups).
    private var segments = Ring<(start: SimTime, hz: Rational)>()
    /// Time spent at each rate, ns, up to the start of the current segment.
    private(set) var residency: [(hz: Rational, nanos: SimTime)] = []

    init(configuration c: borrowing PipelineConfiguration) {
        let r = c.rate
        peak = c.displayHz
        minimum = r.minimumHz ?? c.displayHz
        vote = r.appRate ?? c.displayHz
        idleAfter = r.idleTimer
        touchHold = r.touchTimer
        hintDelay = r.touchBoostDelay
        hintInterval = c.platform == .android ? DisplayRate.pokeInterval : 0
        touchIsActivity = c.platform == .ios || r.kernelIdleTimer
        powerUntil = r.powerTimer ?? -1
        inForce = c.displayHz
        pendingHz = c.displayHz
        segments.append((0, c.displayHz))
    }

    /// Android's InputDispatcher pokes user activity at most once per
    /// 100 ms (`DEFAULT_USER_ACTIVITY_POKE_INTERVAL`; PowerManagerService's
    /// `MIN_TIME_BETWEEN_USERACTIVITIES`).
    static let pokeInterval: SimTime = 100 * Nanos.perMillisecond

    /// The timers due at the start.
    mutating func start<E: SimulationEvent>(_ s: inout EventScheduler<E>, kind: E) {
        if let a = idleAfter {
            idleCheck = a
            s.schedule(kind, at: a, payload: Timer.idle.rawValue)
        }
        if powerUntil > 0 { s.schedule(kind, at: powerUntil, payload: Timer.power.rawValue) }
    }

    /// The rate the display should run at `now`.
    func desired(at now: SimTime) -> Rational {
        if now < powerUntil || now < touchUntil { return peak }
        return idle ? minimum : vote
    }

    /// The rate to switch to now, if the display should run another one
    /// and no switch is under way (one is re-examined once it takes effect).
    func evaluate(at now: SimTime) -> Rational? {
        guard pendingAt < 0 else { return nil }
        let d = desired(at: now)
        return d == inForce ? nil : d
    }

    /// A switch to `hz` from `boundary` is committed: its end is a timer.
    mutating func committed<E: SimulationEvent>(at boundary: SimTime, to hz: Rational, _ s: inout EventScheduler<E>, kind: E) {
        pendingAt = boundary
        pendingHz = hz
        s.schedule(kind, at: boundary, payload: Timer.applied.rawValue)
    }

    /// The app is active now (Android: a buffer queued; iOS: a commit):
    /// the idle timer restarts. Returns true when the display was idle
    /// (the rate is to be re-examined).
    mutating func activity<E: SimulationEvent>(at now: SimTime, _ s: inout EventScheduler<E>, kind: E) -> Bool {
        lastActivity = now
        if let a = idleAfter, idleCheck < 0 {
            idleCheck = now + a
            s.schedule(kind, at: idleCheck, payload: Timer.idle.rawValue)
        }
        guard idle else { return false }
        idle = false
        return true
    }

    /// A touch reaches the system now: a touch hint, unless one came less
    /// than the poke interval ago; delayed by `display.touchBoostDelay`.
    /// Returns true when the rate is to be re-examined now.
    mutating func touch<E: SimulationEvent>(at now: SimTime, _ s: inout EventScheduler<E>, kind: E) -> Bool {
        guard lastHint == .min || now - lastHint >= hintInterval else { return false }
        lastHint = now
        if hintDelay > 0 {
            guard hintAt < 0 else { return false }
            hintAt = now + hintDelay
            s.schedule(kind, at: hintAt, payload: Timer.hint.rawValue)
            return false
        }
        return hint(at: now, &s, kind: kind)
    }

    /// The touch hint arrives now: the touch timer restarts (and, where a
    /// touch is activity, the idle timer).
    private mutating func hint<E: SimulationEvent>(at now: SimTime, _ s: inout EventScheduler<E>, kind: E) -> Bool {
        var changed = false
        if let h = touchHold {
            touchUntil = now + h
            if touchCheck < 0 {
                touchCheck = touchUntil
                s.schedule(kind, at: touchCheck, payload: Timer.touch.rawValue)
            }
            changed = true
        }
        if touchIsActivity { changed = activity(at: now, &s, kind: kind) || changed }
        return changed
    }

    /// A timer event of payload `p` at `now`. Returns true when the rate is
    /// to be re-examined.
    mutating func timer<E: SimulationEvent>(_ p: UInt8, at now: SimTime, _ s: inout EventScheduler<E>, kind: E) -> Bool {
        switch Timer(rawValue: p) {
        case .idle:
            guard let a = idleAfter else { return false }
            if now >= lastActivity + a {
                idleCheck = -1
                idle = true
                return true
            }
            idleCheck = lastActivity + a
            s.schedule(kind, at: idleCheck, payload: Timer.idle.rawValue)
            return false
        case .touch:
            if now >= touchUntil {
                touchCheck = -1
                return true
            }
            touchCheck = touchUntil
            s.schedule(kind, at: touchCheck, payload: Timer.touch.rawValue)
            return false
        case .power:
            return true
        case .applied:
            guard now == pendingAt else { return false }
            residencyAdd(inForce, now - (segments.last?.start ?? 0))
            inForce = pendingHz
            pendingAt = -1
            switches += 1
            if segments.count == 16 { _ = segments.removeFirst() }
            segments.append((now, inForce))
            return true
        case .hint:
            hintAt = -1
            return hint(at: now, &s, kind: kind)
        case nil:
            return false
        }
    }

    private mutating func residencyAdd(_ hz: Rational, _ d: SimTime) {
        if let i = residency.firstIndex(where: { $0.hz == hz }) {
            residency[i].nanos += d
        } else {
            residency.append((hz, d))
        }
    }

    /// The time at each rate from 0 to `end`, by rate (highest first).
    func residency(until end: SimTime) -> [(hz: Rational, nanos: SimTime)] {
        var r = self
        r.residencyAdd(inForce, end - (segments.last?.start ?? 0))
        return r.residency.sorted { $0.hz.doubleValue > $1.hz.doubleValue }
    }

    /// The figures of a run that ended at `end`.
    func figures(until end: SimTime) -> DisplayRateFigures {
        DisplayRateFigures(residency: residency(until: end).map { ($0.hz.doubleValue, $0.nanos) }, switches: switches,
                           peakHz: peak.doubleValue)
    }

    /// The segment in force at `t` (the last few are kept): its start and rate.
    func segment(at t: SimTime) -> (start: SimTime, hz: Rational) {
        var i = segments.count - 1
        while i > 0 && segments[i].start > t { i -= 1 }
        return segments[i]
    }

    /// The stage budget's rate switch wait of a frame whose first
    /// vsync-paced step (a frame start `V + d`, a Choreographer tick
    /// `V - D_app - D_sf`) could run from `t`: the vsync `V` of its first
    /// such step at or after `t` on the grid of the segment in force at `t`
    /// (`V - offset >= t`; at most `actual`, the vsync the frame did take),
    /// less the first on the peak rate's grid anchored where that segment
    /// began (with `peakOffset`). What the display's lower rate added to
    /// the frame's schedule: 0 at the peak rate, and a busy thread's delay
    /// is not counted.
    func rateWait(from t: SimTime, actual: SimTime, offset: SimTime, peakOffset: SimTime) -> SimTime {
        let seg = segment(at: t)
        guard seg.hz != peak else { return 0 }
        let own = PeriodicClock(hz: seg.hz, phase: seg.start)
        let first = Swift.min(own.tick(own.index(atOrAfter: t + offset)), actual)
        let grid = PeriodicClock(hz: peak, phase: seg.start)
        let atPeak = grid.tick(grid.index(atOrAfter: t + peakOffset))
        return Swift.max(0, first - atPeak)
    }
}
