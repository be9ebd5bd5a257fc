import Experiments
import FramePipeline
import LatsimOutput
import Scenarios

extension TalkTableRun {
    /// `{"scenario", "label", "talkFrames", "pipelineFrames", "effectiveFrames", "touchToPhotonMsP50"}`.
    public var json: JSONValue {
        .object([
            ("scenario", .string(row.scenario)),
            ("label", .string(row.label)),
            ("talkFrames", .ms(row.talkFrames)),
            ("pipelineFrames", .ms(pipelineFrames)),
            ("effectiveFrames", .ms(effectiveFrames)),
            ("touchToPhotonMsP50", .ms(touchToPhotonMsP50)),
            ("everyFrameAgrees", .bool(agrees)),
        ])
    }
}
