import FramePipeline
import SimKernel

/// The 3D Touch figures of runs whose app uses force, as a text table
/// (`latsim run`): per stage the median from the true force's crossing to
/// the recogniser's decision, the felt haptic tap and the first photon
/// showing it; touch-to-photon with a force animation running and
/// without; how far the drawn force trails the true force at photon time.
public enum ForceTable {
    /// The table, or nil when no run used force.
    public static func render(_ results: [(String, RunResult)]) -> String? {
        let rows = results.compactMap { name, r in r.measurements.force.map { (name, $0) } }
        guard !rows.isEmpty else { return nil }
        var t = TextTable(header: ["3D Touch", "peeks", "pops", "rejected", "peek decided ms", "peek tap ms", "peek photon ms",
                                   "pop decided ms", "pop tap ms", "pop photon ms", "t2p animating ms", "t2p otherwise ms",
                                   "force error p50", "force error p99"],
                          rightAligned: Set(1...13))
        func f(_ s: StreamingStats, _ p: Double = 50) -> String { s.percentile(p).map { formatDecimal($0, places: 3) } ?? "-" }
        for (name, x) in rows {
            let recognizes = x.interaction == .peekPop
            func count(_ n: Int) -> String { recognizes ? String(n) : "-" }
            t.rows.append([name, count(x.peek.recognized), count(x.pop.recognized), count(x.rejected),
                           f(x.peek.crossingToRecognitionMs), f(x.peek.crossingToHapticMs), f(x.peek.crossingToPhotonMs),
                           f(x.pop.crossingToRecognitionMs), f(x.pop.crossingToHapticMs), f(x.pop.crossingToPhotonMs),
                           f(x.touchToPhotonAnimatingMs), f(x.touchToPhotonOtherwiseMs),
                           f(x.forceErrorAtPhoton), f(x.forceErrorAtPhoton, 99)])
        }
        return t.render()
    }
}
