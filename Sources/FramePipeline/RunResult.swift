import SimKernel
import TouchModel

/// The outcome of one run: its measurements and the engine's own cost.
///
/// A result is made once and never changed; it is a class so that handing
/// it on (to figures, rows, reports) shares it instead of copying its
/// several KB of figures each time.
public final class RunResult: Sendable {
    /// The configuration that ran.
    public let configuration: PipelineConfiguration
    /// What was measured.
    public let measurements: Measurements
    /// The model's invariant checks.
    public let invariants: InvariantChecks
    /// Model events handled per kind, named, in tie order.
    public let eventsByKind: [(kind: String, count: Int)]
    /// Model events handled in all.
    public let events: Int
    /// Wall time of the event loop, seconds.
    public let wallSeconds: Double
    /// Simulated time with three display buffers allocated.
    public let tripleBufferedTime: SimTime
    /// The frame log, when it was kept.
    public let frameLog: FrameLog?
    /// The finger's motion: the synthetic kind or the trace path.
    public let trajectoryName: String
    /// The name of a predictor installed in place of the configured one,
    /// when it was given one (``PipelineRun/usePredictor(_:named:)``).
    public let predictorName: String?
    /// The prediction score, or nil when prediction is off: computed once
    /// when the run ends (its percentiles walk the error histograms, and
    /// every output that shows a prediction figure reads it).
    public let predictionScore: PredictionScore?

    /// A run's outcome from its parts; the prediction score is derived here.
    public init(configuration: PipelineConfiguration, measurements: Measurements, invariants: InvariantChecks,
                eventsByKind: [(kind: String, count: Int)], events: Int, wallSeconds: Double, tripleBufferedTime: SimTime,
                frameLog: FrameLog?, trajectoryName: String, predictorName: String? = nil) {
        self.invariants = invariants
        self.eventsByKind = eventsByKind
        self.events = events
        self.wallSeconds = wallSeconds
        self.tripleBufferedTime = tripleBufferedTime
        self.frameLog = frameLog
        self.trajectoryName = trajectoryName
        self.predictorName = predictorName
        predictionScore = configuration.predictor.isNone && measurements.prediction.count == 0
            ? nil : measurements.prediction.score(pointsPerMM: configuration.pointsPerMM)
        // last, so that both are moved here, not copied
        self.measurements = measurements
        self.configuration = configuration
    }

    /// Calls `body` with the measurements where the result keeps them,
    /// without copying them (2.7 KB and some 40 references): a sweep reads
    /// a run's figures so.
    public func withMeasurements<T>(_ body: (borrowing Measurements) -> T) -> T { body(measurements) }

    /// Simulated seconds.
    public var simulatedSeconds: Double { Double(configuration.duration) / 1e9 }
    /// Frames per second while frames are coming: of the vsyncs that showed
    /// a new frame or a repeated frame (Docs/Model.md, "Repeated frames and
    /// hitches"), the share that showed a new frame, times the display rate.
    /// An idle screen and the pipeline's fill after it do not count, so a
    /// 60 Hz run that never misses a vsync gives 60, not 59.7, and an app
    /// that draws only when tapped gives 60 when each tap's frame comes.
    public var framesPerSecond: Double {
        let m = measurements
        let vsyncs = m.framesPresented + m.repeatedFrames
        guard vsyncs > 0 else { return 0 }
        return Double(m.framesPresented) / Double(vsyncs) * 1e9 / configuration.vsyncClock.periodNanos
    }
    /// Hitch time per simulated second, in ms per s.
    public var hitchTimeRatioMsPerS: Double {
        Double(measurements.hitches) * configuration.vsyncClock.periodNanos / 1e6 / simulatedSeconds
    }
    /// The share of simulated time with three buffers allocated.
    public var tripleBufferedFraction: Double { Double(tripleBufferedTime) / Double(configuration.duration) }
    /// Model events per wall second.
    public var eventsPerSecond: Double { wallSeconds > 0 ? Double(events) / wallSeconds : 0 }
    /// Simulated seconds per wall second.
    public var realTimeFactor: Double { wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0 }

}
