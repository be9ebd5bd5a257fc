import FramePipeline
import SimKernel
import TouchModel

/// Builds the chart of one press (``ForceChart``) from a run kept with its
/// frame log: the first press in which a stage was recognised.
public enum ForceChartBuilder {
    /// The chart, or nil when the run recognised nothing (or kept no log).
    public static func chart(_ r: RunResult, scenario: String) -> ForceChart? {
        guard let log = r.frameLog?.force, let first = log.recognitions.first else { return nil }
        let c = r.configuration
        let ms = Nanos.perMillisecond
        let start = c.force.press.pressStart(at: first.decision) ?? Swift.max(0, first.decision - 300 * ms)
        let length = c.force.press.pressLength ?? Swift.min(c.force.press.period > 0 ? c.force.press.period : Nanos.perSecond, Nanos.perSecond)
        var end = start + length + 150 * ms
        let recognitions = log.recognitions.filter { $0.decision >= start && $0.decision < end }
        for x in recognitions { if let p = x.photon { end = Swift.max(end, p + 50 * ms) } }
        let from = start - 50 * ms
        func at(_ t: SimTime) -> Double { Double(t - start) / 1e6 }

        guard let trajectory = try? Trajectory.make(c.trajectory, parameters: c.trajectoryParameters) else { return nil }
        var truth: [(ms: Double, force: Double)] = []
        var t = from
        while t <= end {
            truth.append((at(t), trajectory.state(at: t).force))
            t += ms / 2
        }
        var delivered: [(ms: Double, force: Double)] = []
        for d in log.delivered where d.deliveredAt >= from && d.deliveredAt <= end {
            // the last touch of a delivery is its main touch: the force the app holds
            if let last = delivered.last, last.ms == at(d.deliveredAt) { delivered.removeLast() }
            delivered.append((at(d.deliveredAt), d.force))
        }
        let f = c.force
        let stages = recognitions.map { x -> ForceChart.Stage in
            let peek = x.stage == .previewing
            return ForceChart.Stage(name: peek ? "peek" : "pop", threshold: peek ? f.peek : f.pop, crossingMs: x.crossing.map(at),
                                    decisionMs: at(x.decision), hapticMs: at(x.haptic), photonMs: x.photon.map(at))
        }
        let animations = log.animations.filter { $0.lowerBound < end && $0.upperBound > from }
            .map { (fromMs: at(Swift.max(from, $0.lowerBound)), toMs: at(Swift.min(end, $0.upperBound))) }
        let thresholds = [ForceChart.Threshold(name: "peek", force: f.peek, release: f.peekRelease),
                          ForceChart.Threshold(name: "pop", force: f.pop, release: f.popRelease)]
        let hz = formatDecimal(c.displayHz.doubleValue, places: 3), scan = formatDecimal(c.scanHz.doubleValue, places: 3)
        return ForceChart(trueForce: truth, delivered: delivered, thresholds: thresholds, stages: stages, animations: animations,
                          title: "One press of \(scenario): force, recognition, haptics and photons",
                          subtitle: "\(scan) Hz scan, \(hz) Hz display; intent \(DurationSyntax.format(f.intent)), hysteresis \(formatDecimal(f.hysteresis, places: 3)), haptic latency \(DurationSyntax.format(f.hapticLatency)), animations \(DurationSyntax.format(f.peekAnimation)) / \(DurationSyntax.format(f.popAnimation))")
    }
}
