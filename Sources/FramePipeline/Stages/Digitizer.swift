import SimKernel
import TouchModel

/// The Multi-Touch digitizer (Docs/Model.md, "Digitizer"): it scans in
/// windows `[W_j, W_j+1)` at the scan rate; each window yields one touch
/// while the finger is down, its position taken at `sampleInstant` of the
/// window (plus noise) and ready at `W_j+1 + digitizerDelay`.
///
/// A touch-down is timed by `device.touchDownDelay` (Docs/Devices.md,
/// "Taps and touch-downs"): `auto` is the rule above; a distribution makes
/// the touch-down ready that long after the contact, reporting the
/// contact. A tapping finger (`input.trajectory: taps`) gives one
/// touch-down per contact and, when the app responds to lift-offs
/// (`app.liftResponse`), one lift-off per lift, timed the same way by
/// `device.touchUpDelay`; nothing else: a still finger reports no movement. A drag's contact is at 0: with a distribution its touch-down
/// takes the place of window 0's touch, and windows ready at or before it
/// report nothing (no movement before its touch-down).
///
/// Shared by every platform.
public struct Digitizer: Sendable {
    let sampleInstant: Rational
    let delay: SimTime
    let noise: DigitizerNoise
    /// Whether a position or a force is reported as it is (read once, not
    /// per scan).
    let noiseless: Bool
    let exactForce: Bool
    /// How the force is sensed (Docs/Force.md, "The digitizer").
    let forceSensor: ForceSensor
    var finger: TrajectoryCursor
    var noiseRNG: SeededRandom
    /// Force noise has a generator of its own, so that it never moves the
    /// position noise's draws.
    var forceRNG: SeededRandom
    /// The current scan window's end (the next window's start), walked one
    /// tick per scan, and its start (the tick before).
    var windowEnd: Ticker
    var windowStart: SimTime
    /// A window is one of two widths (the period rounded down or up): the
    /// sample instant's offset is computed once for each.
    var offsets: (width: SimTime, offset: SimTime, otherWidth: SimTime, otherOffset: SimTime) = (-1, 0, -1, 0)
    var fingerWasDown = false
    /// A drag's first touch-down timed by a distribution, until it is ready.
    /// This and ``taps`` are spelled `Optional`, so that they have no
    /// implicit `nil` before the initialiser sets each once (set again, the
    /// whole digitizer was copied aside).
    var pendingDown: Optional<Touch>
    /// A tapping finger's contacts and lifts, when it taps.
    var taps: Optional<TapEvents>
    /// Whether it taps: tested per scan without reading the (large)
    /// optional above, which would copy it.
    let tapping: Bool
    /// Touches made so far.
    public private(set) var touchesMade = 0
    /// A tapping finger: from each contact to its touch-down being ready, ms.
    public private(set) var touchDownMs = Measurements.milliseconds()
    /// A tapping finger whose lifts are reported: from each lift to its
    /// lift-off being ready, ms.
    public private(set) var touchUpMs = Measurements.milliseconds()
    /// The last scanned window, [start, end).
    public private(set) var lastWindow: Range<SimTime> = 0..<0
    /// Whether a scan that finds the finger up after it was down reports
    /// the lift (``lift``): a front-buffered ink app commits its dry stroke
    /// on pen-up (Docs/Ink.md).
    let reportsLifts: Bool
    /// The lift the last scan found, until taken: its true instant (found
    /// on the trajectory, to the nanosecond) and the scan's sample instant.
    var lift: (instant: SimTime, seen: SimTime)?

    /// A digitizer following `trajectory`.
    // inlined into the models' initialisers, so that it is made in its
    // place in the model (called, it was made aside and copied in)
    @inline(__always)
    public init(configuration c: borrowing PipelineConfiguration, trajectory: Trajectory) {
        sampleInstant = c.sampleInstant
        delay = c.digitizerDelay
        noise = c.noise
        noiseless = c.noise.isNone
        exactForce = ForceSensor(c.force).isExact
        finger = TrajectoryCursor(trajectory)
        noiseRNG = SeededRandom(seed: c.seed, stream: 1)
        forceSensor = ForceSensor(c.force)
        forceRNG = SeededRandom(seed: c.seed, stream: ForceSensor.stream)
        windowStart = c.scanClock.tick(0)
        windowEnd = c.scanClock.ticks(from: 1)
        var downRNG = SeededRandom(seed: c.seed, stream: 2)
        tapping = trajectory.taps
        reportsLifts = c.frontBuffered && !trajectory.taps
        if tapping {
            taps = TapEvents(configuration: c, trajectory: trajectory, downRNG: downRNG,
                             upRNG: SeededRandom(seed: c.seed, stream: 3))
            pendingDown = nil
        } else if let d = c.touchDownDelay, trajectory.state(at: 0).isDown {
            // the contact is at 0: its touch-down replaces window 0's touch
            taps = nil
            pendingDown = Touch(scan: 0, time: 0, windowStart: 0, ready: d.draw(&downRNG),
                                position: trajectory.state(at: 0).position, began: true)
            nextWindow()
        } else {
            taps = nil
            pendingDown = nil
        }
        findNextReady()
    }

    /// When the next touch is ready: kept, not computed when asked, since
    /// computing it reads the (large) tap events and a getter would copy
    /// the whole digitizer once per scan.
    public private(set) var nextReady: SimTime = 0

    /// Moves on to the next scan window.
    @inline(__always)
    private mutating func nextWindow() {
        windowStart = windowEnd.time
        windowEnd.advance()
    }

    /// Sets ``nextReady`` after the state it depends on moved.
    private mutating func findNextReady() {
        if let d = pendingDown {
            nextReady = d.ready
        } else if tapping, let ready = taps?.next.ready {
            nextReady = ready
        } else {
            nextReady = windowEnd.time + delay
        }
    }

    /// Scans the current window, whose touch is ready `now`, and moves on to
    /// the next window. Returns the touch, or nil while the finger is up.
    @inline(__always)
    public mutating func scan(readyAt now: SimTime) -> Touch? {
        if tapping || pendingDown != nil {
            let down = touchDown()
            findNextReady()
            return down
        }
        let index = windowEnd.index &- 1
        let w0 = windowStart
        let w1 = windowEnd.time
        nextWindow()
        // no touch-down is pending and the finger does not tap: the next
        // touch is the next window's
        nextReady = windowEnd.time + delay
        lastWindow = w0..<w1
        let width = w1 - w0
        let offset: SimTime
        if width == offsets.width {
            offset = offsets.offset
        } else if width == offsets.otherWidth {
            offset = offsets.otherOffset
        } else {
            offset = Int64(roundHalfUp(Int128(sampleInstant.numerator) * Int128(width), Int128(sampleInstant.denominator)))
            offsets = (width, offset, offsets.width, offsets.offset)
        }
        let instant = w0 + offset
        let state = finger.state(at: instant)
        defer { fingerWasDown = state.isDown }
        guard state.isDown else {
            if fingerWasDown && reportsLifts { lift = (liftInstant(before: instant, window: width), instant) }
            return nil
        }
        var position = state.position
        if !noiseless { position = noise.apply(position, rng: &noiseRNG) }
        touchesMade += 1
        var force = state.force
        if !exactForce { force = forceSensor.apply(force, rng: &forceRNG) }
        return Touch(scan: index, time: instant, windowStart: w0, ready: now, position: position, began: !fingerWasDown,
                     force: force, scanned: true)
    }

    /// The instant the finger lifted, seen up at the sample instant `up` of
    /// a window `width` long after being down at the window before's: the
    /// first instant at which the trajectory is up, by bisection (the
    /// trajectory is a pure function of time). A finger that was not down a
    /// window before (a stroke shorter than a window) lifted at `up`.
    mutating func liftInstant(before up: SimTime, window width: SimTime) -> SimTime {
        var lo = up - width, hi = up
        guard lo >= 0, finger.state(at: lo).isDown else { return up }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if finger.state(at: mid).isDown { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// The touch-down ready now: a tap's, or a drag's first. After a drag's,
    /// the windows ready at or before it are passed over.
    mutating func touchDown() -> Touch {
        var down: Touch
        if let d = pendingDown {
            down = d
            pendingDown = nil
            fingerWasDown = true
            while windowEnd.time + delay <= down.ready { nextWindow() }
        } else {
            down = taps!.take()
            if down.lifted {
                touchUpMs.record(Double(down.ready - down.time) / 1e6)
            } else {
                touchDownMs.record(Double(down.ready - down.time) / 1e6)
            }
        }
        lastWindow = down.windowStart..<Swift.max(down.windowStart, down.ready)
        if !noiseless { down.position = noise.apply(down.position, rng: &noiseRNG) }
        touchesMade += 1
        return down
    }
}

/// A tapping finger's touch-downs, one per contact, and its lift-offs, one
/// per lift when the app responds to them, in order (Docs/Devices.md, "Taps
/// and touch-downs"): `auto` makes an event ready at the end of the first
/// scan window that begins at or after its instant (the contact, the
/// lift), plus the digitizer delay; a distribution, that long after it
/// (`device.touchDownDelay`, `device.touchUpDelay`: one draw per event).
/// An event is never ready before the one before it.
struct TapEvents: Sendable {
    let trajectory: Trajectory
    let scanClock: PeriodicClock
    let delay: SimTime
    let touchDownDelay: DurationDistribution?
    let touchUpDelay: DurationDistribution?
    let lifts: Bool
    let hold: SimTime
    var downRNG: SeededRandom
    var upRNG: SeededRandom
    /// The next event.
    private(set) var next = Touch.none
    /// Events made so far: tap `i`'s touch-down is event `i` (`2i` with lifts), its lift-off `2i + 1`.
    private var index: Int64 = 0

    init(configuration c: borrowing PipelineConfiguration, trajectory: Trajectory, downRNG: SeededRandom, upRNG: SeededRandom) {
        self.trajectory = trajectory
        scanClock = c.scanClock
        delay = c.digitizerDelay
        touchDownDelay = c.touchDownDelay
        touchUpDelay = c.touchUpDelay
        lifts = c.liftResponse
        hold = c.tapHold
        self.downRNG = downRNG
        self.upRNG = upRNG
        next = make(0, after: 0)
    }

    /// The next event, and the one after it prepared.
    mutating func take() -> Touch {
        let t = next
        index += 1
        next = make(index, after: t.ready)
        return t
    }

    /// The ready instant of an event at `instant` and the start of the scan
    /// window that sees it.
    func seen(_ instant: SimTime, _ d: DurationDistribution?, _ rng: inout SeededRandom) -> (ready: SimTime, windowStart: SimTime) {
        if let d { return (instant + d.draw(&rng), instant) }
        let j = scanClock.index(atOrAfter: instant)
        return (scanClock.tick(j + 1) + delay, scanClock.tick(j))
    }

    mutating func make(_ event: Int64, after previous: SimTime) -> Touch {
        let lift = lifts && event % 2 == 1
        let contact = trajectory.tapContact(lifts ? event / 2 : event)!
        let instant = lift ? contact + hold : contact
        let (ready, windowStart) = lift ? seen(instant, touchUpDelay, &upRNG) : seen(instant, touchDownDelay, &downRNG)
        return Touch(scan: event, time: instant, windowStart: windowStart, ready: Swift.max(ready, previous),
                     position: trajectory.state(at: contact).position, began: !lift, lifted: lift)
    }
}
