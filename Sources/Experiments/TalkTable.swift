/// The acceptance table (Docs/Model.md, "The talk's table"): what the talk says for each
/// scenario, with fixed durations that fit in a frame.
public enum TalkTable {
    /// Which measure the talk's figure is compared with.
    public enum Measure: String, Sendable { case pipelineFrames, effectiveFrames }

    /// One row: a scenario and the talk's figure for it.
    public struct Row: Sendable {
        /// The built-in scenario.
        public let scenario: String
        /// The talk's words.
        public let label: String
        /// The talk's figure, in pipeline frames.
        public let talkFrames: Double
        /// Which measure it is compared with.
        public let measure: Measure
    }

    /// The rows, in the order of the talk.
    public static let rows: [Row] = [
        Row(scenario: "ios8", label: "4 frames", talkFrames: 4.0, measure: .pipelineFrames),
        Row(scenario: "ios8-complex", label: "5 frames", talkFrames: 5.0, measure: .pipelineFrames),
        Row(scenario: "ios8-metal", label: "still 4", talkFrames: 4.0, measure: .pipelineFrames),
        Row(scenario: "ios9-low-latency", label: "3", talkFrames: 3.0, measure: .pipelineFrames),
        Row(scenario: "ios9-animations", label: "back to 4", talkFrames: 4.0, measure: .pipelineFrames),
        Row(scenario: "ios9-metal", label: "\"the very next frame\"", talkFrames: 3.0, measure: .pipelineFrames),
        Row(scenario: "ios9-coalescing-120hz", label: "2.5", talkFrames: 2.5, measure: .pipelineFrames),
        Row(scenario: "ios9-prediction", label: "about 1.5 (effective)", talkFrames: 1.5, measure: .effectiveFrames),
    ]
}
