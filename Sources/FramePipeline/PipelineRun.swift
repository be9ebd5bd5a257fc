import DequeModule
import Foundation
import SimKernel
import TouchModel

/// A duration parameter ready for the hot path: a fixed value is returned
/// without looking at the distribution.
struct DurationSampler {
    let distribution: DurationDistribution
    let fixed: SimTime
    let isFixed: Bool

    init(_ d: DurationDistribution) {
        distribution = d
        if case .fixed(let v) = d { fixed = v; isFixed = true } else { fixed = 0; isFixed = false }
    }

    @inline(__always)
    func draw(_ rng: inout SeededRandom) -> SimTime {
        isFixed ? fixed : distribution.draw(&rng)
    }
}

/// The app's predictor: the built-ins without an existential, or a user's
/// own type behind one (called once per delivery, never per event).
enum PredictorSlot {
    case builtin(BuiltinPredictor)
    case custom(any TouchPredictor)

    mutating func reset() {
        switch self {
        case .builtin(var p): p.reset(); self = .builtin(p)
        case .custom(var p): p.reset(); self = .custom(p)
        }
    }

    mutating func observe(_ s: TouchSample) {
        switch self {
        case .builtin(var p): p.observe(s); self = .builtin(p)
        case .custom(var p): p.observe(s); self = .custom(p)
        }
    }

    mutating func predict(horizon: SimTime) -> TouchPoint? {
        switch self {
        case .builtin(var p):
            let r = p.predict(horizon: horizon)
            self = .builtin(p)
            return r
        case .custom(var p):
            let r = p.predict(horizon: horizon)
            self = .custom(p)
            return r
        }
    }
}

/// One simulation of the frame pipeline: the stages of MODEL.md section 2
/// driven by one event queue.
///
/// The hot path is value types and a closed `enum` of events dispatched by a
/// `switch`: no closures, no existentials, and no allocation per event once
/// the queues have reached their working size.
public struct PipelineRun {
    public let configuration: PipelineConfiguration
    /// The finger (read through a cursor that reuses the current stroke).
    var finger: TrajectoryCursor
    var rng: SeededRandom
    var noiseRNG: SeededRandom
    let queue = EventQueue(capacity: 16)
    let end: SimTime

    // Clocks
    let vsyncClock: PeriodicClock
    let framePeriodNanos: Double
    let displayHz: Double
    let rowOffset: SimTime?
    var latchTicker: Ticker
    var wakeTicker: Ticker
    var frameStartTicker: Ticker

    // Multi-Touch digitizer
    var scanTicker: Ticker
    var fingerWasDown = false
    var sampleOffsets: (SimTime, SimTime) = (0, 0)
    var sampleOffsetWidths: (SimTime, SimTime) = (-1, -1)

    // UIKit event delivery
    var waiting = Deque<Sample>()
    var deliveryScheduled = false
    var nextSampleToDeliver: Int64 = -1
    var samplesDelivered = 0

    // App main thread
    var appBusy = false
    var handlerStart: SimTime = 0
    var handlerDuration: SimTime = 0
    var handlerRun: Int64 = -1
    var handlerRunRendered = false
    var newestUsed = ShownSample(index: -1, time: 0, windowStart: 0, y: 0)
    var drawnTotal: Int64 = 0
    var drawnPosition = TouchPoint(x: 0, y: 0)
    var horizonApplied: SimTime = 0
    var commitSeq: Int64 = 0
    var predictor: PredictorSlot? { didSet { predicting = predictor != nil } }
    /// `predictor != nil`, without looking into the enum on the hot path.
    var predicting = false

    // Core Animation render server
    var pendingCommit: Commit?
    var preparing: Frame?
    var nextFrameID: Int64 = 0

    // GPU
    var gpuQueue = Deque<GPUJob>()
    var gpuRunning: GPUJob?
    var bufferWaiters = Deque<GPUJob>()

    // Display
    var buffers: BufferPool
    var presentQueue = Deque<Frame>()
    var front: Frame?
    var lastLatchedSeq: Int64 = -1
    var shownNewest: Int64 = -1
    var shownDrawn: Int64 = 0
    var drawnWaiting = Deque<DrawnSample>()

    // Durations, read without touching the configuration's enums per event
    let handlerTime: DurationSampler
    let prepareTime: DurationSampler
    let gpuTime: DurationSampler
    let metalTime: DurationSampler
    /// `lowLatency` with no animation ever, or `vsync`: no per-event check.
    let lowLatencyAlways: Bool
    let lowLatencyNever: Bool

    // Results
    public internal(set) var measurements = Measurements()
    public internal(set) var invariants = InvariantChecks()
    /// Events processed per kind (index = ``PipelineEvent`` raw value).
    var eventCounts = (0, 0, 0, 0, 0, 0, 0)
    /// The frame log, kept only when a trace or a diagram asks for it.
    public let log: FrameLog?

    /// Prepares a run. The trajectory is made from `input.trajectory`.
    public init(configuration c: PipelineConfiguration, keepLog: Bool = false) throws(ScenarioError) {
        let t: Trajectory
        do { t = try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters) } catch {
            throw ScenarioError(keyPath: "input.trajectory", value: c.trajectory, message: error.description)
        }
        self.init(configuration: c, trajectory: t, keepLog: keepLog)
    }

    /// Prepares a run with a given finger trajectory.
    public init(configuration c: PipelineConfiguration, trajectory: Trajectory, keepLog: Bool = false) {
        configuration = c
        finger = TrajectoryCursor(trajectory)
        rng = SeededRandom(seed: c.seed)
        noiseRNG = SeededRandom(seed: c.seed, stream: 1)
        end = c.duration
        vsyncClock = c.vsyncClock
        framePeriodNanos = vsyncClock.periodNanos
        displayHz = c.displayHz.doubleValue
        switch c.row {
        case .fraction(let f): rowOffset = f.scaledRounded(by: c.framePeriod)
        case .touch: rowOffset = nil
        }
        latchTicker = vsyncClock.ticks(from: 0)
        wakeTicker = vsyncClock.ticks(from: 0)
        frameStartTicker = vsyncClock.ticks(from: 0)
        scanTicker = c.scanClock.ticks(from: 0)
        buffers = BufferPool(policy: c.buffering, releaseFrames: c.tripleReleaseFrames)
        predictor = c.predictorConfiguration.map { .builtin(BuiltinPredictor($0)) }
        predicting = predictor != nil
        log = keepLog ? FrameLog() : nil
        handlerTime = DurationSampler(c.handler)
        prepareTime = DurationSampler(c.prepare)
        gpuTime = DurationSampler(c.gpuRender)
        metalTime = DurationSampler(c.appGPU)
        lowLatencyNever = c.renderServer == .vsync || c.animations == .always
        lowLatencyAlways = c.renderServer == .lowLatency && c.animations == .never
        invariants.policyMaximum = buffers.policyMaximum
    }

    /// Replaces the predictor the configuration names with any type that
    /// conforms to ``TouchPredictor`` — a user's own, from their package.
    /// The configured horizon still applies; the run is scored as usual.
    public mutating func usePredictor(_ p: some TouchPredictor) {
        if let b = p as? BuiltinPredictor { predictor = .builtin(b) } else { predictor = .custom(p) }
    }

    /// Runs to the configured duration and returns the result.
    public mutating func run() -> RunResult {
        let start = DispatchTime.now().uptimeNanoseconds
        scheduleFirstEvents()
        let events = loop()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        finish()
        let k = eventCounts
        return RunResult(configuration: configuration, measurements: measurements, invariants: invariants,
                         eventsByKind: [0, k.0, k.1, k.2, k.3, k.4, k.5, k.6], events: events, wallSeconds: wall,
                         tripleBufferedTime: buffers.tripleBufferedTime(until: end),
                         frameLog: log, trajectoryName: finger.trajectory.name)
    }

    mutating func scheduleFirstEvents() {
        queue.schedule(at: latchTicker.time, kind: PipelineEvent.latch.rawValue)
        queue.schedule(at: wakeTicker.time, kind: PipelineEvent.renderServerWake.rawValue)
        if configuration.delivery == .coalesced {
            queue.schedule(at: frameStartTicker.time + configuration.dispatchDelay, kind: PipelineEvent.delivery.rawValue)
        }
        scheduleNextSample()
    }

    /// The event loop: every event with time < duration, in order.
    mutating func loop() -> Int {
        var events = 0
        while let e = queue.pop(), e.time < end {
            events &+= 1
            let now = e.time
            switch e.kind {
            case PipelineEvent.gpuDone.rawValue: eventCounts.0 &+= 1; gpuDone(now)
            case PipelineEvent.prepareDone.rawValue: eventCounts.1 &+= 1; prepareDone(now)
            case PipelineEvent.latch.rawValue: eventCounts.2 &+= 1; vsyncLatch(now)
            case PipelineEvent.commit.rawValue: eventCounts.3 &+= 1; appCommit(now, index: Int(e.payload))
            case PipelineEvent.sampleReady.rawValue: eventCounts.4 &+= 1; sampleReady(now)
            case PipelineEvent.renderServerWake.rawValue: eventCounts.5 &+= 1; renderServerWake(now)
            case PipelineEvent.delivery.rawValue: eventCounts.6 &+= 1; frameStart(now)
            default: preconditionFailure("unknown event kind \(e.kind)")
            }
        }
        return events
    }

    /// Final bookkeeping: every sample made was delivered or still waits.
    /// Without prediction the effective figures are the measured ones (they
    /// were not recorded twice).
    mutating func finish() {
        if !predicting {
            measurements.effectiveMs = measurements.touchToPhotonMs
            measurements.effectiveFrames = measurements.pipelineFrames
        }
        invariants.samplesLost = measurements.samples - samplesDelivered - waiting.count
        invariants.bufferConflicts = buffers.conflicts
        measurements.settle()
    }

    /// True when the render server may start work outside a vsync now.
    @inline(__always)
    func lowLatencyNow(_ now: SimTime) -> Bool {
        if lowLatencyAlways { return true }
        if lowLatencyNever { return false }
        return !configuration.animations.isActive(at: now)
    }

    /// The photon instant of a sample drawn in a frame latched at `latch`.
    @inline(__always)
    func photonTime(latch: SimTime, y: Double) -> SimTime {
        let row = rowOffset ?? roundHalfUp(y / configuration.heightPoints * framePeriodNanos)
        return latch + row + configuration.panelResponse
    }
}
