import SimKernel
import TouchModel

/// The outcome of one run: its measurements and the engine's own cost.
public struct RunResult: Sendable {
    public let configuration: PipelineConfiguration
    public let measurements: Measurements
    public let invariants: InvariantChecks
    /// Events processed per kind (index = ``PipelineEvent`` raw value).
    public let eventsByKind: [Int]
    /// Model events processed (the seven kinds of MODEL.md section 1).
    public let events: Int
    /// Wall time of the event loop.
    public let wallSeconds: Double
    public let tripleBufferedTime: SimTime
    public let frameLog: FrameLog?
    public let trajectoryName: String

    public var simulatedSeconds: Double { Double(configuration.duration) / 1e9 }
    /// Hitch time per simulated second, in ms per s.
    public var hitchTimeRatioMsPerS: Double {
        Double(measurements.hitches) * configuration.vsyncClock.periodNanos / 1e6 / simulatedSeconds
    }
    public var tripleBufferedFraction: Double { Double(tripleBufferedTime) / Double(configuration.duration) }
    public var eventsPerSecond: Double { wallSeconds > 0 ? Double(events) / wallSeconds : 0 }
    public var realTimeFactor: Double { wallSeconds > 0 ? simulatedSeconds / wallSeconds : 0 }

    /// The prediction score, or nil when prediction is off.
    public var predictionScore: PredictionScore? {
        configuration.predictor == .none && measurements.prediction.count == 0
            ? nil : measurements.prediction.score(pointsPerMM: configuration.pointsPerMM)
    }
}

extension PipelineRun {
    /// Runs a configuration (convenience).
    public static func run(_ configuration: PipelineConfiguration, keepLog: Bool = false) throws(ScenarioError) -> RunResult {
        var r = try PipelineRun(configuration: configuration, keepLog: keepLog)
        return r.run()
    }
}
