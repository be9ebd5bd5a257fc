import SimKernel
import TouchModel

/// A platform's pipeline: a simulation model wiring the stage types, which
/// ``PipelineRun`` prepares, runs and turns into a ``RunResult``.
protocol PlatformPipeline: SimulationModel {
    /// A pipeline for a configuration whose finger follows `trajectory`;
    /// `keepLog` keeps the frame log.
    init(configuration: PipelineConfiguration, trajectory: Trajectory, keepLog: Bool)
    /// Installs a predictor in the app.
    mutating func usePredictor(_ p: some TouchPredictor)
    /// Keeps the platforms' prediction scorecards too.
    mutating func keepScorecards(_ cards: PredictionScorecards)
    /// Writes the figures of the finished run into `m` (empty, made where
    /// the result keeps it: a run's figures are a few KB, and returned they
    /// were copied on their way) and returns the invariant checks.
    mutating func finish(into m: inout Measurements) -> InvariantChecks
    /// Time with three display buffers allocated, up to `end`.
    func tripleBufferedTime(until end: SimTime) -> SimTime
    /// The frame log, when it was kept.
    var log: FrameLog? { get }
    /// Bad input the run met and stopped at (a draw the model refuses).
    var failure: LatsimError? { get }
    /// Whether the run reports events of `kind` (`engine.eventsByKind`):
    /// a kind only some configurations can have (an app that updates on
    /// its own, a display that changes its rate) is reported by those.
    func reports(_ kind: Event) -> Bool
}

extension PlatformPipeline {
    /// A pipeline that refuses no draw.
    var failure: LatsimError? { nil }
}
