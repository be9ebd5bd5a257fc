import Foundation
import SimKernel
import TouchModel

/// One simulation of the frame pipeline, prepared and not yet run.
///
/// It cannot be copied, and ``run()`` consumes it: a run happens once, its
/// event queue is made when it starts and belongs to it alone, and its
/// result can never be a stale copy of another run's.
public struct PipelineRun: ~Copyable {
    /// The configuration it runs.
    public let configuration: PipelineConfiguration
    let trajectoryName: String
    var model: Prepared
    /// The name of a predictor installed by ``usePredictor(_:named:)``.
    var predictorName: String?

    /// The prepared model of the configuration's platform.
    enum Prepared {
        case ios(IOSPipeline)
        case android(AndroidPipeline)
        /// A front-buffered Android ink app (Docs/Ink.md).
        case frontBuffered(FrontBufferedPipeline)
    }

    /// Prepares a run whose finger follows `input.trajectory`.
    public init(configuration c: PipelineConfiguration, keepLog: Bool = false) throws(LatsimError) {
        let t: Trajectory
        do { t = try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters) } catch {
            throw error.about(key: "input.trajectory", value: c.trajectory)
        }
        self.init(configuration: c, trajectory: t, keepLog: keepLog)
    }

    /// Prepares a run with a given finger trajectory; `keepLog` keeps the
    /// frame log a trace or a diagram needs (it grows with the run).
    public init(configuration c: PipelineConfiguration, trajectory: Trajectory, keepLog: Bool = false) {
        configuration = c
        trajectoryName = trajectory.name
        switch c.platform {
        case .ios: model = .ios(IOSPipeline(configuration: c, trajectory: trajectory, keepLog: keepLog))
        case .android where c.frontBuffered:
            model = .frontBuffered(FrontBufferedPipeline(configuration: c, trajectory: trajectory, keepLog: keepLog))
        case .android: model = .android(AndroidPipeline(configuration: c, trajectory: trajectory, keepLog: keepLog))
        }
        if keepLog { keepBudget() }
    }

    /// Replaces the predictor the configuration names with any type that
    /// conforms to ``TouchPredictor``: a user's own, from their package.
    /// The configured horizon still applies; the run is scored as usual.
    public mutating func usePredictor(_ p: some TouchPredictor) {
        usePredictor(p, named: nil)
    }

    /// Installs a predictor as ``usePredictor(_:)`` does, with the name the
    /// result reports it by (``RunResult/predictorName``).
    public mutating func usePredictor(_ p: some TouchPredictor, named name: String?) {
        predictorName = name
        switch model {
        case .ios(var m):
            m.usePredictor(p)
            model = .ios(m)
        case .android(var m):
            m.usePredictor(p)
            model = .android(m)
        case .frontBuffered(var m):
            m.usePredictor(p)
            model = .frontBuffered(m)
        }
    }

    /// Keeps the platforms' prediction scorecards (Chromium's, Android's)
    /// besides latsim's own; their figures are in
    /// ``Measurements/chromium`` and ``Measurements/android``. Without this
    /// call a run pays nothing for them.
    public mutating func keepScorecards(_ cards: PredictionScorecards) {
        switch model {
        case .ios(var m):
            m.keepScorecards(cards)
            model = .ios(m)
        case .android(var m):
            m.keepScorecards(cards)
            model = .android(m)
        case .frontBuffered(var m):
            m.keepScorecards(cards)
            model = .frontBuffered(m)
        }
    }

    /// Splits every measured frame's touch-to-photon into its platform's
    /// stages (``Measurements/budget``, Docs/Budget.md). A run with its
    /// frame log keeps the budget too (`--frames` exports it); otherwise,
    /// without this call, a run pays nothing for it.
    public mutating func keepBudget() {
        switch model {
        case .ios(var m):
            m.keepBudget(configuration)
            model = .ios(m)
        case .android(var m):
            m.keepBudget()
            model = .android(m)
        case .frontBuffered(var m):
            m.keepBudget()
            model = .frontBuffered(m)
        }
    }

    /// Hands each vsync's record to `sink` as the run makes it, instead of
    /// keeping it: the result's frame log then holds no frames and no
    /// events, and the run's memory does not grow with its duration
    /// (`--frames`). Records come in vsync order, as ``FrameLog/frames``
    /// would hold them. With a consumer (``consumeLog(with:)``, given
    /// first: `--frames` with `--trace`) the log also keeps what the
    /// consumer reads, until it has read it.
    public mutating func streamFrames(to sink: some FrameRecordSink) {
        guard let log = frameLog else { preconditionFailure("streamFrames needs a run prepared with keepLog") }
        log.stream = sink
        // Android's own records are for traces and diagrams: none kept
        // unless a consumer reads them
        if log.consumer == nil { log.android = nil }
    }

    /// Hands the frame log to `consumer` as the run makes it
    /// (``FrameLogConsumer``): the result's log then holds only what the
    /// consumer left in it. Needs a run prepared with `keepLog`, and is
    /// given before ``streamFrames(to:)``.
    public mutating func consumeLog(with consumer: any FrameLogConsumer) {
        guard let log = frameLog else { preconditionFailure("consumeLog needs a run prepared with keepLog") }
        precondition(log.stream == nil, "consumeLog is given before streamFrames")
        log.consumer = consumer
    }

    /// The log the run keeps (nil unless prepared with `keepLog`).
    private var frameLog: FrameLog? {
        switch model {
        case .ios(let m): return m.log
        case .android(let m): return m.log
        case .frontBuffered(let m): return m.log
        }
    }

    /// Keeps the frame log's records without each measured frame's stages
    /// (``FrameLog/stageNanos``), which only `--frames` writes: a trace's
    /// run takes less memory. The result's figures are unchanged.
    public mutating func dropFrameStages() {
        frameLog?.keepsStages = false
    }

    /// Runs to the configured duration and returns the result.
    ///
    /// - Throws: ``LatsimError`` (bad input) when the run meets a draw the
    ///   model refuses, such as an Android composition of a display period or
    ///   more from an unbounded distribution.
    public consuming func run() throws(LatsimError) -> RunResult {
        switch model {
        case .ios(let m): return try Self.execute(m, configuration, trajectoryName, predictorName)
        case .android(let m): return try Self.execute(m, configuration, trajectoryName, predictorName)
        case .frontBuffered(let m): return try Self.execute(m, configuration, trajectoryName, predictorName)
        }
    }

    /// Prepares and runs `c` with the finger following `trajectory`, no
    /// frame log kept: the model is made in its simulation's place
    /// (``Simulation/init(making:)``), never wrapped, copied nor moved (a
    /// sweep's points, whose runs are short, paid for every copy of a model
    /// of several KB). `c` is taken, and kept by the result
    /// (``RunResult/configuration``).
    public static func run(_ c: consuming PipelineConfiguration, trajectory: Trajectory) throws(LatsimError) -> RunResult {
        switch c.platform {
        case .ios: return try execute({ IOSPipeline(configuration: $0, trajectory: trajectory, keepLog: false) }, c, trajectory.name)
        case .android where c.frontBuffered:
            return try execute({ FrontBufferedPipeline(configuration: $0, trajectory: trajectory, keepLog: false) }, c, trajectory.name)
        case .android: return try execute({ AndroidPipeline(configuration: $0, trajectory: trajectory, keepLog: false) }, c, trajectory.name)
        }
    }

    /// Runs the model `make` makes of `c` in a fresh simulation, made in its place.
    static func execute<P: PlatformPipeline>(_ make: (borrowing PipelineConfiguration) -> P, _ c: consuming PipelineConfiguration,
                                             _ trajectoryName: String) throws(LatsimError) -> RunResult {
        let start = DispatchTime.now().uptimeNanoseconds
        var simulation = Simulation(making: { make(c) })
        return try finish(&simulation, c, trajectoryName, nil, start: start)
    }

    /// Runs a platform's model in a fresh simulation.
    static func execute<P: PlatformPipeline>(_ prepared: consuming P, _ c: PipelineConfiguration, _ trajectoryName: String,
                                             _ predictorName: String?) throws(LatsimError) -> RunResult {
        let start = DispatchTime.now().uptimeNanoseconds
        var simulation = Simulation(model: prepared)
        return try finish(&simulation, c, trajectoryName, predictorName, start: start)
    }

    /// Runs `simulation` to the configured duration and reads its result:
    /// the model is read where it ran, not copied out of the simulation.
    static func finish<P: PlatformPipeline>(_ simulation: inout Simulation<P>, _ c: consuming PipelineConfiguration, _ trajectoryName: String,
                                            _ predictorName: String?, start: UInt64) throws(LatsimError) -> RunResult {
        let duration = c.duration
        let events = simulation.runToEnd(duration)
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let failure = simulation.model.failure { throw failure }
        var measurements = Measurements()
        let invariants = simulation.model.finish(into: &measurements)
        var kinds: [(kind: String, count: Int)] = []
        kinds.reserveCapacity(events.byKind.count)
        for k in events.byKind where simulation.model.reports(k.event) { kinds.append((k.event.name, k.count)) }
        return RunResult(configuration: c, measurements: consume measurements, invariants: invariants,
                         eventsByKind: kinds,
                         events: events.total,
                         wallSeconds: wall, tripleBufferedTime: simulation.model.tripleBufferedTime(until: duration),
                         frameLog: simulation.model.log, trajectoryName: trajectoryName, predictorName: predictorName)
    }

    /// Prepares and runs a configuration, with its stage budget when
    /// `keepBudget` (or `keepLog`).
    public static func run(_ configuration: PipelineConfiguration, keepLog: Bool = false,
                           keepBudget: Bool = false) throws(LatsimError) -> RunResult {
        var r = try PipelineRun(configuration: configuration, keepLog: keepLog)
        if keepBudget { r.keepBudget() }
        return try r.run()
    }
}
