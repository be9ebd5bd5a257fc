import FramePipeline
import SimKernel

/// The floor under the pipeline's event loop: SimKernel's ``Simulation``
/// with the iOS pipeline's seven event kinds as periodic sources, and no
/// other work.
///
/// Each event reschedules its own kind one period later, so the scheduler
/// always holds seven events, as the pipeline's does at most moments. The
/// periods follow the `ios9-coalescing-120hz` pipeline: vsync latch,
/// render-server wake and delivery at 60 Hz from 0, sample ready at 120 Hz
/// (the scan), commit, prepare done and GPU done once a frame, 4, 7 and
/// 11 ms after the frame start. That is 480 events per simulated second,
/// as many as the pipeline handles.
public struct EmptyEventLoop: SimulationModel {
    public typealias Event = IOSEvent

    /// One frame at 60 Hz and one scan at 120 Hz, ns (rounded).
    public static let framePeriod: SimTime = 16_666_667
    public static let scanPeriod: SimTime = 8_333_333

    /// The first instant and the period of each kind's source.
    static func source(_ e: IOSEvent) -> (first: SimTime, period: SimTime) {
        switch e {
        case .latch, .renderServerWake, .frameStart: return (0, framePeriod)
        case .delivery: return (0, framePeriod)
        case .sampleReady: return (0, scanPeriod)
        case .commit: return (4 * Nanos.perMillisecond, framePeriod)
        case .prepareDone: return (7 * Nanos.perMillisecond, framePeriod)
        case .gpuDone: return (11 * Nanos.perMillisecond, framePeriod)
        }
    }

    public init() {}

    public func start(_ s: inout EventScheduler<IOSEvent>) {
        for e in IOSEvent.allCases where e != .delivery { s.schedule(e, at: Self.source(e).first) }
    }

    public mutating func handle(_ event: IOSEvent, payload: UInt8, _ s: inout EventScheduler<IOSEvent>) {
        s.schedule(event, after: Self.source(event).period)
    }

    /// Runs the sources for `duration` and returns the events handled.
    @inline(never)
    public static func run(for duration: SimTime) -> Int {
        Simulation(model: EmptyEventLoop()).run(until: duration).events.total
    }
}
