import Experiments
import FramePipeline
import Scenarios
import SimKernel
import TouchModel

/// The summary JSON (Docs/Model.md, "Summary JSON"), one object per run.
public enum RunSummary {
    /// Which engine figures to include: wall-clock ones differ run to run.
    public enum Timing: Sendable { case include, omit }

    public static func json(_ r: RunResult, scenario: String, timing: Timing = .include) -> JSONValue {
        let m = r.measurements
        let e = r.events
        var engine: [(String, JSONValue)] = [("events", .int(e))]
        if timing == .include {
            engine += [
                ("wallSeconds", .number(r.wallSeconds, places: 6)),
                ("eventsPerSecond", .number(r.eventsPerSecond.rounded(), places: 0)),
                ("realTimeFactor", .number(r.realTimeFactor, places: 1)),
            ]
        } else {
            engine += [("wallSeconds", .null), ("eventsPerSecond", .null), ("realTimeFactor", .null)]
        }
        engine.append(("eventsByKind", .object(r.eventsByKind.map { ($0.kind, .int($0.count)) })))
        return .object([
            ("scenario", .string(scenario)),
            ("seed", .int(Int(r.configuration.seed))),
            ("simulatedSeconds", .number(r.simulatedSeconds, places: 9)),
            ("latency", .object([
                ("touchToPhotonMs", stats(m.touchToPhotonMs)),
                ("pipelineFrames", stats(m.pipelineFrames)),
                ("effectiveMs", stats(m.effectiveMs)),
                ("effectiveFrames", stats(m.effectiveFrames)),
                ("perSampleMs", stats(m.perSampleMs)),
                ("framesMeasured", .int(m.pipelineFrames.count)),
            ])),
            ("display", .object([
                ("framesPresented", .int(m.framesPresented)),
                ("repeatedFrames", .int(m.repeatedFrames)),
                ("droppedFrames", .int(m.droppedFrames)),
                ("hitchTimeRatioMsPerS", .number(r.hitchTimeRatioMsPerS, places: 6)),
                ("tripleBufferedFraction", .number(r.tripleBufferedFraction, places: 6)),
                ("hitches", .int(m.hitches)),
            ])),
            ("work", .object([
                ("deliveries", .int(m.deliveries)),
                ("handlerRuns", .int(m.handlerRuns)),
                ("wastedUpdates", .int(m.wastedUpdates)),
                ("samples", .int(m.samples)),
            ])),
            ("prediction", prediction(r)),
            ("input", .object([("trajectory", .string(r.trajectoryName))])),
            ("engine", .object(engine)),
        ])
    }

    /// `{"mean", "p50", "p90", "p99", "max"}` or null when nothing was measured.
    public static func stats(_ s: StreamingStats) -> JSONValue {
        guard s.count > 0 else { return .null }
        let q = s.percentiles([50, 90, 99])
        return .object([
            ("mean", .ms(s.mean)), ("p50", .ms(q[0])), ("p90", .ms(q[1])), ("p99", .ms(q[2])), ("max", .ms(s.max)),
        ])
    }

    static func prediction(_ r: RunResult) -> JSONValue {
        guard let score = r.predictionScore else { return .null }
        var fields: [(String, JSONValue)] = [
            ("predictor", .string(r.predictorName ?? r.configuration.predictor.description)),
            ("smoothing", .string(r.configuration.smoothing.rawValue)),
            ("horizonMs", .ms(Double(r.configuration.horizon) / 1e6)),
        ]
        fields += PredictionJSON.fields(score)
        return .object(fields)
    }
}
