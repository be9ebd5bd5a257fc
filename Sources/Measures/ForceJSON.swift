import FramePipeline
import LatsimOutput
import SimKernel
import TouchModel

/// The `force` block of the summary JSON (Docs/Force.md, "What is
/// measured"): null unless the app uses force.
public enum ForceJSON {
    /// The block for a run.
    public static func json(_ r: RunResult) -> JSONValue {
        guard let f = r.measurements.force else { return .null }
        let s = r.configuration.force
        let stats = RunSummary.stats
        func ms(_ t: SimTime) -> JSONValue { .ms(Double(t) / 1e6) }
        func stage(_ x: ForceMeasurements.Stage) -> JSONValue {
            .object([
                ("recognized", .int(x.recognized)),
                ("withoutCrossing", .int(x.withoutCrossing)),
                ("crossingToRecognitionMs", stats(x.crossingToRecognitionMs)),
                ("crossingToHapticMs", stats(x.crossingToHapticMs)),
                ("crossingToPhotonMs", stats(x.crossingToPhotonMs)),
            ])
        }
        let width = f.forceErrorAtPhoton.count > 0 ? scaled(f.forceErrorAtPhoton, by: f.widthPerForce) : .null
        return .object([
            ("interaction", .string(f.interaction.rawValue)),
            ("settings", .object([
                ("press", .string(s.press.description)),
                ("maximumForce", .number(s.maximumForce, places: 6)),
                ("peek", .number(s.peek, places: 6)),
                ("pop", .number(s.pop, places: 6)),
                ("hysteresis", .number(s.hysteresis, places: 6)),
                ("intentMs", ms(s.intent)),
                ("hapticLatencyMs", ms(s.hapticLatency)),
                ("peekAnimationMs", ms(s.peekAnimation)),
                ("popAnimationMs", ms(s.popAnimation)),
            ])),
            ("peek", stage(f.peek)),
            ("pop", stage(f.pop)),
            ("rejected", .int(f.rejected)),
            ("cancelled", .int(f.cancelled)),
            ("hapticTaps", .int(f.hapticTaps)),
            ("progressLagStages", stats(f.progressLag)),
            ("touchToPhotonMs", .object([
                ("animating", stats(f.touchToPhotonAnimatingMs)),
                ("otherwise", stats(f.touchToPhotonOtherwiseMs)),
                ("animatingFrames", .int(f.touchToPhotonAnimatingMs.count)),
                ("otherwiseFrames", .int(f.touchToPhotonOtherwiseMs.count)),
            ])),
            ("atPhoton", .object([
                ("forceError", stats(f.forceErrorAtPhoton)),
                ("meanSignedForceError", .ms(f.meanSignedErrorAtPhoton)),
                ("widthErrorPoints", width),
            ])),
            ("prediction", f.prediction?.score.map(prediction) ?? .null),
        ])
    }

    /// `{"mean", "p50", "p90", "p99", "max"}` of a stream scaled by `k`.
    static func scaled(_ s: StreamingStats, by k: Double) -> JSONValue {
        let q = s.percentiles([50, 90, 99])
        return .object([
            ("mean", .ms(s.mean.map { $0 * k })), ("p50", .ms(q[0].map { $0 * k })), ("p90", .ms(q[1].map { $0 * k })),
            ("p99", .ms(q[2].map { $0 * k })), ("max", .ms(s.max * k)),
        ])
    }

    static func prediction(_ p: ForcePredictionScore) -> JSONValue {
        .object([
            ("predictions", .int(p.predictions)),
            ("error", .object([("rms", .ms(p.errorRms)), ("p50", .ms(p.errorP50)), ("p95", .ms(p.errorP95)), ("max", .ms(p.errorMax))])),
            ("meanSignedError", .ms(p.meanSignedError)),
            ("photonError", .object([("rms", .ms(p.photonErrorRms)), ("p95", .ms(p.photonErrorP95))])),
        ])
    }
}
