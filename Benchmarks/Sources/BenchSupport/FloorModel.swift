import FramePipeline
import SimKernel
import TouchModel

/// A floor under any model of the iOS pipeline: ``EmptyEventLoop``'s
/// sources, plus the two things no model of it can leave out, and nothing
/// else: the finger's position at each scan (the trajectory cursor the
/// digitizer walks) and one latency stream (each latch records the newest
/// scan's touch-to-photon, in milliseconds, in a stream made as the
/// pipeline's are). No buffers, GPU, render server, app, budget or other
/// stream. Its share of the empty loop is about the most a model of the
/// pipeline can reach on this engine (Docs/Engine.md, "The floor under any
/// model").
public struct FloorModel: SimulationModel {
    public typealias Event = IOSEvent

    var finger: TrajectoryCursor
    /// The scan and the display walk their instants as the pipeline's
    /// clocks do (k times the period, rounded), so that latencies come
    /// round in the same short cycles as the pipeline's.
    var scans = PeriodicClock(hz: Rational(120, 1)).ticks(from: 0)
    var vsyncs = PeriodicClock(hz: Rational(60, 1)).ticks(from: 0)
    /// The newest scan's instant and position (read after the run, so
    /// that the position is computed, as a digitizer's touch needs it).
    public private(set) var newestTime: SimTime = 0
    public private(set) var newestPosition = TouchPoint(x: 0, y: 0)
    /// As `Measurements.milliseconds()` makes the pipeline's.
    public var stream = StreamingStats(resolution: 1e3, highestValue: 100_000)

    public init(trajectory: Trajectory) { finger = TrajectoryCursor(trajectory) }

    /// The finger a pipeline run of `c` follows (`input.trajectory`).
    public static func trajectory(of c: PipelineConfiguration) throws(LatsimError) -> Trajectory {
        try Trajectory.make(c.trajectory, parameters: c.trajectoryParameters)
    }

    public func start(_ s: inout EventScheduler<IOSEvent>) {
        for e in IOSEvent.allCases where e != .delivery { s.schedule(e, at: EmptyEventLoop.source(e).first) }
    }

    public mutating func handle(_ event: IOSEvent, payload: UInt8, _ s: inout EventScheduler<IOSEvent>) {
        switch event {
        case .sampleReady:
            // the window's sample instant, half a scan before the scan is ready
            let instant = s.now - EmptyEventLoop.scanPeriod / 2
            let state = finger.state(at: instant)
            if state.isDown { newestTime = instant; newestPosition = state.position }
            s.schedule(event, at: scans.advance())
        case .latch:
            // the photon a frame and a half after the latch
            let photon = s.now + EmptyEventLoop.framePeriod + EmptyEventLoop.framePeriod / 2
            // a multiplication: cheaper than the exact division the
            // pipeline remembers (Docs/Engine.md, "Divisions remembered")
            stream.record(Double(photon - newestTime) * 1e-6)
            s.schedule(event, at: vsyncs.advance())
        default:
            s.schedule(event, after: EmptyEventLoop.source(event).period)
        }
    }

    /// Runs for `duration`; returns the events handled and the model as
    /// the run left it.
    @inline(never)
    public static func run(for duration: SimTime, trajectory: Trajectory) -> (events: Int, model: FloorModel) {
        let (model, events) = Simulation(model: FloorModel(trajectory: trajectory)).run(until: duration)
        return (events.total, model)
    }
}
