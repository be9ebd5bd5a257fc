import FramePipeline
import SimKernel

/// The display's vsyncs as a trace draws them, and its rate as a counter
/// (Docs/TraceFormats.md): a display at one rate ticks on its clock for
/// the whole run; a display that changes its rate (`display.minHz`) ticks
/// on each rate's grid from the vsync its switch took effect at, and its
/// rate is a counter track ("display rate", in Hz) sampled at the start
/// and at each switch.
extension ChromeTrace {
    /// The run's vsync instants on `track`, and the rate counter of a
    /// display that changes its rate.
    mutating func displayVsyncs(_ result: RunResult, on track: TrackID) {
        let c = result.configuration, end = c.duration
        let switches = result.frameLog?.rateSwitches.filter { $0.boundary < end } ?? []
        var clock = c.vsyncClock
        var k: Int64 = 0
        for next in switches.map(\.boundary) + [end] {
            while clock.tick(k) < next {
                instant(track, name: "vsync", atNs: clock.tick(k))
                k += 1
            }
            if next < end, let s = switches.first(where: { $0.boundary == next }) {
                clock = PeriodicClock(hz: s.hz, phase: next)
                k = 0
            }
        }
        guard c.rate.switches else { return }
        counter("display rate", atNs: 0, values: ["Hz": c.displayHz.doubleValue])
        for s in switches { counter("display rate", atNs: s.boundary, values: ["Hz": s.hz.doubleValue]) }
    }
}
