import SimKernel

/// InputReader, InputDispatcher and the socket to the app (Docs/Android.md,
/// "Digitizer and kernel"): a sample reaches the app's input channel
/// `android.dispatchLatency` after its evdev timestamp. Samples arrive in
/// the order they were reported. The pipeline handles a scan when its
/// touch arrives (``AndroidEvent/scanArrival``), so only the samples still
/// on their way when the run ends are kept: as a count.
struct InputDispatch {
    let latency: SimTime
    /// Samples reported before the run's end that had not reached the
    /// channel by then.
    private(set) var count = 0

    init(latency: SimTime) { self.latency = latency }

    /// When a sample reported at `ready` reaches the channel (never, past
    /// the last instant).
    func arrival(ofSampleReadyAt ready: SimTime) -> SimTime {
        ready > .max - latency ? .max : ready + latency
    }

    /// A sample was reported before the run's end and had not arrived.
    mutating func leftInTransit() { count += 1 }
}

/// What a Choreographer frame took from the batch.
struct Consumption {
    /// How many samples it consumed (the first ones of the batch, until
    /// ``InputConsumer/finishConsumption()``).
    var count: Int
    /// The newest consumed sample.
    var current: Touch
    /// The resampled point, if one was added.
    var point: Resampler.Point?
}

/// The app's InputConsumer (Docs/Android.md, "Input batching"): MOVE
/// samples wait in the batch; a Choreographer frame with frame time `F`
/// consumes those with `eventTime <= F - android.resampleLatency` (`<= F`
/// without resampling) and, with resampling on, adds a resampled point.
/// A touch-down is not batched; it starts the touch's history.
struct InputConsumer {
    let resampling: Bool
    let resampleLatency: SimTime
    /// MOVE samples waiting, oldest first; during a consumption the
    /// consumed ones are still at the front.
    private(set) var batch = Ring<Touch>()
    private var consuming = 0
    /// The touch's newest sample taken by the app (consumed, or its DOWN).
    private var history: Touch?
    private var lastTaken: Int64 = -1
    /// Samples taken (consumed, or handled as a DOWN).
    private(set) var taken = 0
    /// Samples taken out of scan order (an invariant).
    private(set) var outOfOrder = 0
    /// Frames whose newest position was interpolated, extrapolated, or not resampled.
    private(set) var interpolated = 0
    private(set) var extrapolated = 0
    private(set) var notResampled = 0

    /// `android.unbufferedDispatch`: every sample that has reached the
    /// channel is consumed, at no sample time and without resampling
    /// (ViewRootImpl's `consumeBatchedInputEvents(-1)`; Docs/Ink.md).
    let unbuffered: Bool

    init(resampling: Bool, resampleLatency: SimTime, unbuffered: Bool = false) {
        self.resampling = resampling && !unbuffered
        self.resampleLatency = resampleLatency
        self.unbuffered = unbuffered
    }

    /// A MOVE sample reaches the channel: it waits in the batch.
    @inline(__always)
    mutating func receive(_ touch: Touch) { batch.append(touch) }

    /// A DOWN is handled: it starts the touch's history.
    mutating func beginTouch(_ down: Touch) {
        take(down)
        history = down
    }

    /// The resampling target of a frame with frame time `frameTime`.
    @inline(__always)
    func sampleTime(frameTime: SimTime) -> SimTime {
        unbuffered ? .max : resampling ? frameTime - resampleLatency : frameTime
    }

    /// How many batched samples a frame with sample time `t` consumes.
    @inline(__always)
    func readyCount(sampleTime t: SimTime) -> Int {
        var n = 0
        while n < batch.count && batch[n].ready <= t { n += 1 }
        return n
    }

    /// Consumes the `n` oldest samples (n >= 1) at sample time `t` and
    /// resamples when resampling is on. The samples stay at the front of
    /// ``batch`` for the caller to read until ``finishConsumption()``.
    mutating func consume(_ n: Int, sampleTime t: SimTime) -> Consumption {
        for i in 0..<n { take(batch[i]) }
        consuming = n
        let current = batch[n - 1]
        let previous = n >= 2 ? batch[n - 2] : history
        var point: Resampler.Point?
        if resampling {
            point = Resampler.resample(current: current, next: n < batch.count ? batch[n] : nil, previous: previous, sampleTime: t)
            switch point?.kind {
            case .interpolated?: interpolated += 1
            case .extrapolated?: extrapolated += 1
            default: notResampled += 1
            }
        }
        history = current
        return Consumption(count: n, current: current, point: point)
    }

    /// The consumed samples leave the batch.
    mutating func finishConsumption() {
        // one by one: a frame usually consumes one or two samples
        for _ in 0..<consuming { batch.removeFirst() }
        consuming = 0
    }

    private mutating func take(_ s: Touch) {
        if s.scan <= lastTaken { outOfOrder += 1 }
        lastTaken = s.scan
        taken += 1
    }
}
