import SimKernel

/// The floor under the pipeline's event loop: SimKernel's ``EventQueue`` with
/// seven periodic sources, one per event kind 1...7, and no other work.
///
/// Each pop reschedules its source one period later (the payload names the
/// source), so the queue always holds seven events, as the pipeline's does
/// at most moments. The periods follow the `ios9-coalescing-120hz` pipeline:
///
/// | kind | pipeline event | source |
/// |---|---|---|
/// | 3, 6, 7 | vsync latch, render-server wake, event delivery | 60 Hz from 0 |
/// | 5 | sample ready | 120 Hz from 0 (the digitizer scan) |
/// | 4, 2, 1 | app commit, prepare done, GPU done | one-shot after the frame start (4, 7, 11 ms), then rescheduled one frame later |
///
/// That is 480 events per simulated second, so ``pipeline600sEvents`` events
/// cover about 600 simulated seconds, like the pipeline run they are set
/// against.
public enum EmptyEventLoop {
    /// Events processed by `PipelineRun` for `ios9-coalescing-120hz` at
    /// 600 s (its `RunResult.events`); EngineFigures checks it again.
    public static let pipeline600sEvents = 287_996

    /// One frame at 60 Hz and one scan at 120 Hz, ns (rounded).
    public static let framePeriod: SimTime = 16_666_667
    public static let scanPeriod: SimTime = 8_333_333

    /// The seven sources: kind, first time, period.
    public static let sources: [(kind: UInt8, first: SimTime, period: SimTime)] = [
        (3, 0, framePeriod),                           // latch, 60 Hz
        (6, 0, framePeriod),                           // render-server wake, 60 Hz
        (7, 0, framePeriod),                           // delivery, 60 Hz
        (5, 0, scanPeriod),                            // sample ready, 120 Hz
        (4, 4 * Nanos.perMillisecond, framePeriod),    // commit: one-shot, rescheduled
        (2, 7 * Nanos.perMillisecond, framePeriod),    // prepare done: one-shot, rescheduled
        (1, 11 * Nanos.perMillisecond, framePeriod),   // GPU done: one-shot, rescheduled
    ]

    /// Pops `events` events, rescheduling each source one period later, and
    /// returns the time of the last event popped (the simulated time reached).
    @inline(never)
    public static func run(events: Int) -> SimTime {
        let queue = EventQueue(capacity: 16)
        let periods = sources.map(\.period)
        for (i, s) in sources.enumerated() { queue.schedule(at: s.first, kind: s.kind, payload: UInt16(i)) }
        var last: SimTime = 0
        for _ in 0..<events {
            guard let e = queue.pop() else { break } // never empty: every pop schedules one
            last = e.time
            queue.schedule(at: e.time + periods[Int(e.payload)], kind: e.kind, payload: e.payload)
        }
        return last
    }
}
