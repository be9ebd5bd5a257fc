import Experiments
import FramePipeline
import Scenarios
import Testing

@Suite struct DeterminismTests {
    static let stochastic = ["app.handler=normal(4ms,1ms)", "renderServer.prepare=lognormal(3ms,0.3)", "gpu.render=empirical(3ms,4ms,5ms)"]

    static func fingerprint(_ r: RunResult) -> [Double] {
        let m = r.measurements
        return [m.touchToPhotonMs.mean!, m.touchToPhotonMs.percentile(99)!, m.pipelineFrames.mean!, m.perSampleMs.mean!,
                Double(m.framesPresented), Double(m.droppedFrames), Double(r.events), r.tripleBufferedFraction]
    }

    @Test func theSameSeedGivesTheSameRun() throws {
        let a = try runScenario("ios9-coalescing-120hz", Self.stochastic, duration: "20s", seed: 42)
        let b = try runScenario("ios9-coalescing-120hz", Self.stochastic, duration: "20s", seed: 42)
        #expect(Self.fingerprint(a) == Self.fingerprint(b))
    }

    @Test func anotherSeedGivesAnotherRun() throws {
        let a = try runScenario("ios9-coalescing-120hz", Self.stochastic, duration: "20s", seed: 42)
        let b = try runScenario("ios9-coalescing-120hz", Self.stochastic, duration: "20s", seed: 43)
        #expect(Self.fingerprint(a) != Self.fingerprint(b))
    }
}
