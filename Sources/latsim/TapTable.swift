import FramePipeline
import LatencyReport

/// The tap figures of `latsim run`, for the runs whose finger taps
/// (Docs/Devices.md): tap-to-photon, the touch-down delay, lift-to-photon (with
/// app.liftResponse), frame-to-photon.
enum TapTable {
    /// The table, or nil when no run taps.
    static func render(_ results: [(String, RunResult)]) -> String? {
        let tapping = results.filter { $0.1.configuration.taps }
        guard !tapping.isEmpty else { return nil }
        var t = TextTable(header: ["taps", "device", "taps shown", "tap p50 ms", "tap mean ms", "tap p99 ms",
                                   "touch-down ms", "lift mean ms", "f2p p50 ms"],
                          rightAligned: Set(2...8))
        for (name, r) in tapping {
            let m = r.measurements
            t.rows.append([name, r.configuration.devicePreset ?? "-", String(m.tapToPhotonMs.count),
                           RunTable.f(m.tapToPhotonMs.percentile(50), 3), RunTable.f(m.tapToPhotonMs.mean, 3),
                           RunTable.f(m.tapToPhotonMs.percentile(99), 3), RunTable.f(m.touchDownMs.mean, 3),
                           RunTable.f(m.liftToPhotonMs.mean, 3), RunTable.f(m.frameToPhotonMs.percentile(50), 3)])
        }
        return t.render()
    }
}
