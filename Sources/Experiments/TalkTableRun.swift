import FramePipeline
import Scenarios
import SimKernel

/// Runs the talk's table (``TalkTable``) and compares every displayed frame.
public struct TalkTableRun: Sendable {
    /// The row of the talk's table.
    public let row: TalkTable.Row
    /// The mean pipeline frames of the run.
    public let pipelineFrames: Double
    /// The mean effective frames (prediction subtracted).
    public let effectiveFrames: Double
    /// The median touch-to-photon latency, ms.
    public let touchToPhotonMsP50: Double
    /// The compared measure's minimum and maximum over every measured frame.
    public let minimum: Double
    /// The compared measure's maximum over every measured frame.
    public let maximum: Double
    /// The frames measured.
    public let framesMeasured: Int

    /// The value compared with the talk's figure (the mean of the measure).
    public var compared: Double { row.measure == .pipelineFrames ? pipelineFrames : effectiveFrames }
    /// True when every measured frame equals the talk's figure (within 1e-6 frames).
    public var agrees: Bool {
        framesMeasured > 0 && abs(minimum - row.talkFrames) <= 1e-6 && abs(maximum - row.talkFrames) <= 1e-6
    }
    /// True when the run measured at least one frame.
    public var measured: Bool { framesMeasured > 0 }
    /// "4" when every frame agrees, "min..max" when they differ, "-" when
    /// nothing was measured.
    public var range: String {
        guard measured else { return "-" }
        let a = formatDecimal(minimum, places: 3), b = formatDecimal(maximum, places: 3)
        return a == b ? a : "\(a)..\(b)"
    }

    /// Runs every row of the table, each scenario with `assignments` (e.g.
    /// a duration) applied.
    public static func run(_ assignments: [Assignment] = []) throws(LatsimError) -> [TalkTableRun] {
        var out: [TalkTableRun] = []
        for row in TalkTable.rows {
            guard let s = try BuiltinScenarios.scenario(named: row.scenario) else {
                throw LatsimError(.internal, value: row.scenario, problem: "built-in scenario missing")
            }
            let r = try PipelineRun.run(try s.configuration(assignments))
            let m = r.measurements
            let measured = row.measure == .pipelineFrames ? m.pipelineFrames : m.effectiveFrames
            out.append(TalkTableRun(row: row, pipelineFrames: m.pipelineFrames.mean ?? .nan,
                                    effectiveFrames: m.effectiveFrames.mean ?? .nan,
                                    touchToPhotonMsP50: m.touchToPhotonMs.percentile(50) ?? .nan,
                                    minimum: measured.min, maximum: measured.max, framesMeasured: measured.count))
        }
        return out
    }
}
