import FramePipeline
import SimKernel

/// Runs a built-in scenario with overrides (the finger on a straight line
/// unless a test says otherwise).
func runScenario(_ name: String, _ overrides: [String] = [], duration: String = "10s", seed: UInt64? = nil) throws -> RunResult {
    let s = try Scenario.named(name)
    let c = try s.configuration(overrides: overrides, duration: duration, seed: seed)
    return try PipelineRun.run(c)
}

/// The value every frame of a measure has (within 1e-6: instants are whole
/// nanoseconds), or nil when frames differ.
func allFrames(_ s: StreamingStats) -> Double? {
    guard s.count > 0, s.max - s.min < 1e-6 else { return nil }
    return (s.min * 1e6).rounded() / 1e6
}
