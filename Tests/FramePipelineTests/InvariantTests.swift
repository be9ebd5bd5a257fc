import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing

/// Docs/Model.md, "Invariants" on the built-ins and on randomized configurations.
@Suite struct InvariantTests {
    static func check(_ r: RunResult, _ label: String) {
        let inv = r.invariants
        #expect(inv.holds, "\(label): \(inv)")
        #expect(inv.maxBuffersHeld <= inv.policyMaximum, "\(label)")
        // the stage budget: no stage negative but resampling's lead (each
        // frame's stages adding up is `budgetMismatches`, in `holds`)
        let b = r.measurements.budget!
        for s in b.stages where b.frames > 0 {
            if s == .resampling { #expect(b[s]!.max <= 0, "\(label)") } else { #expect(b[s]!.min >= 0, "\(label): \(s) \(b[s]!.min)") }
        }
        let bound = Double(AnalyticBound.touchToPhotonNanos(r.configuration)) / 1e6
        if r.measurements.touchToPhotonMs.count > 0 {
            #expect(r.measurements.touchToPhotonMs.min >= bound - 1e-9, "\(label): min \(r.measurements.touchToPhotonMs.min) < bound \(bound)")
            #expect(r.measurements.perSampleMs.min >= bound - 1e-9, "\(label): per-sample below bound")
        }
    }

    @Test(arguments: BuiltinScenarios.iosNames)
    func builtinScenariosKeepTheInvariants(_ name: String) throws {
        InvariantTests.check(try runScenario(name), name)
        InvariantTests.check(try runScenario(name, ["os.present=fifo"]), name + " fifo")
        InvariantTests.check(try runScenario(name, ["os.delivery=perScan", "device.scanHz=240"]), name + " perScan")
    }

    /// Random configurations, including durations longer than a frame.
    @Test func randomizedConfigurationsKeepTheInvariants() throws {
        var rng = SeededRandom(seed: 2015)
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func ms(_ lo: Double, _ hi: Double) -> String { "\(Int((lo + (hi - lo) * rng.nextUnit()) * 1000))us" }
        for i in 0..<60 {
            let overrides = [
                "device.displayHz=\(pick(["60", "120", "90", "59.94"]))",
                "device.scanHz=\(pick(["60", "120", "240", "100"]))",
                "device.scanPhase=\(ms(0, 8))",
                "device.sampleInstant=\(pick(["0", "0.25", "0.5", "1"]))",
                "device.digitizerDelay=\(pick(["0ms", "2ms"]))",
                "os.renderServer=\(pick(["vsync", "lowLatency"]))",
                "os.delivery=\(pick(["coalesced", "perScan"]))",
                "os.buffering=\(pick(["double", "triple", "adaptive"]))",
                "os.present=\(pick(["latest", "fifo"]))",
                "os.dispatchDelay=\(pick(["0ms", "1ms"]))",
                "app.handler=uniform(\(ms(0, 4)),\(ms(4, 30)))",
                "app.commits=\(pick(["1", "2", "3"]))",
                "app.touches=\(pick(["main", "coalesced"]))",
                "app.animations=\(pick(["never", "always", "0.5s..1s"]))",
                "app.rendering=\(pick(["coreAnimation", "metal"]))",
                "app.gpu=lognormal(\(ms(1, 10)),0.5)",
                "app.presentsWithTransaction=\(pick(["true", "false"]))",
                "renderServer.prepare=normal(\(ms(1, 12)),\(ms(0, 4)))",
                "gpu.render=empirical(\(ms(1, 5)),\(ms(5, 25)))",
                "measure.row=\(pick(["0", "0.5", "1", "touch"]))",
            ]
            let r = try runScenario("ios9-low-latency", overrides, duration: "2s", seed: UInt64(i))
            InvariantTests.check(r, "config \(i): \(overrides.joined(separator: " "))")
        }
    }
}
