import Experiments
import FramePipeline
import Scenarios
import SimKernel

/// Runs a built-in scenario with overrides (the finger on a straight line
/// unless a test says otherwise).
func runScenario(_ name: String, _ overrides: [String] = [], duration: String = "10s", seed: UInt64? = nil) throws -> RunResult {
    let s = try Scenario.named(name)
    let c = try s.configuration(overrides: overrides, duration: duration, seed: seed)
    return try PipelineRun.run(c, keepBudget: true)
}

extension Scenario {
    /// The configuration after `PATH=VALUE` overrides, a duration and a seed,
    /// as the command line would give them.
    func configuration(overrides: [String], duration: String? = nil, seed: UInt64? = nil) throws -> PipelineConfiguration {
        var a = try overrides.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) }
        if let duration { a.append(Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration"))) }
        if let seed { a.append(Assignment(path: "seed", value: String(seed), source: SettingSource(file: "--seed"))) }
        return try configuration(a)
    }
}

/// The value every frame of a measure has (within 1e-6: instants are whole
/// nanoseconds), or nil when frames differ.
func allFrames(_ s: StreamingStats) -> Double? {
    guard s.count > 0, s.max - s.min < 1e-6 else { return nil }
    return (s.min * 1e6).rounded() / 1e6
}
