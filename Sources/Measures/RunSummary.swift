import FramePipeline
import LatsimOutput
import Scenarios
import SimKernel
import TouchModel

/// The summary JSON (Docs/Model.md, "Summary JSON"), one object per run.
public enum RunSummary {
    /// Which engine figures to include: wall-clock ones differ run to run.
    public enum Timing: Sendable { case include, omit }

    /// The summary of one run of `scenario`; with `seeds`, its figures
    /// across seeds (``SeedJSON``), and with `settings`, its resolved
    /// settings and where each came from close the object.
    public static func json(_ r: RunResult, scenario: String, timing: Timing = .include,
                            settings: [ResolvedSetting]? = nil, seeds: JSONValue? = nil) -> JSONValue {
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
        let fields: [(String, JSONValue)] = [
            ("scenario", .string(scenario)),
            ("seed", .int(Int(r.configuration.seed))),
            ("simulatedSeconds", .number(r.simulatedSeconds, places: 9)),
            ("platform", .string(r.configuration.platform.rawValue)),
            // the measures, each section in its catalogue order
            ("latency", section(.latency, r)),
            ("display", section(.display, r)),
            ("work", section(.work, r)),
            ("prediction", prediction(r)),
            ("input", .object([("trajectory", .string(r.trajectoryName))] + taps(r.configuration))),
            ("device", device(r.configuration)),
            ("android", m.android.map { android($0, r.configuration) } ?? .null),
            ("force", ForceJSON.json(r)),
        ] + InkJSON.field(r) + [
            // every figure the run produces (Docs/Figures.md), by its catalogue name; null: not measured
            ("figures", .object(Figure.shown(forRuns: [r]).map { ($0.rawValue, .ms($0.value(r))) })),
            ("engine", .object(engine)),
        ]
        var tail: [(String, JSONValue)] = []
        if let seeds { tail.append(("seeds", seeds)) }
        if let settings { tail.append(("settings", ResultHeader.settings(settings))) }
        return .object(fields + tail)
    }

    /// A display that changes its rate: `{"switches", "residency": [{"hz",
    /// "seconds", "share"}]}`, highest rate first (Docs/Figures.md).
    public static func displayRate(_ d: DisplayRateFigures) -> JSONValue {
        let total = d.residency.reduce(0) { $0 + $1.nanos }
        return .object([
            ("switches", .int(d.switches)),
            ("residency", .array(d.residency.map { r in
                .object([("hz", .number(r.hz, places: 6)), ("seconds", .number(Double(r.nanos) / 1e9, places: 9)),
                         ("share", .number(total > 0 ? Double(r.nanos) / Double(total) : 0, places: 6))])
            })),
        ])
    }

    /// A section's measures that run `r` lists (``MeasureCatalogue``).
    static func section(_ section: Measure.Section, _ r: RunResult) -> JSONValue {
        .object(MeasureCatalogue.measures.filter { $0.section == section && $0.isListed(for: r) }.map { ($0.name, $0.json(r)) })
    }

    /// The Android timing a run resolved to.
    static func android(_ a: AndroidMeasurements, _ c: PipelineConfiguration) -> JSONValue {
        let offsets: JSONValue
        if let app = c.android.appPhaseOffset, let sf = c.android.sfPhaseOffset {
            offsets = .object([("app", .string(DurationSyntax.format(app))), ("sf", .string(DurationSyntax.format(sf)))])
        } else {
            offsets = .null
        }
        // a command-mode panel's frames sent from idle, and what the wake cost them, follow idleWakeMs
        var fields: [(String, JSONValue)] = [
            ("appDurationMs", .ms(Double(a.appDuration) / 1e6)),
            ("sfDurationMs", .ms(Double(a.sfDuration) / 1e6)),
            ("androidVersion", .string(c.android.version.rawValue)),
            ("timingRule", .string(c.android.version.targetsVsync ? "targetVsync" : "legacyOffsets")),
            ("panelInterface", .string(c.android.panelInterface.rawValue)),
            ("idleWakeMs", .ms(Double(c.android.idleWake) / 1e6)),
        ]
        if c.android.panelInterface == .command {
            fields.append(("idleWakes", .int(a.idleWakes)))
            fields.append(("idleWakeDelayMs", .ms(Double(a.idleWakeDelay) / 1e6)))
        }
        fields.append(("phaseOffsets", offsets))
        // a release without FrameTimeline says so (display.frameTimeline is null)
        if let why = c.android.version.noFrameTimelineReason { fields.append(("noFrameTimeline", .string(why))) }
        return .object(fields + [
            ("buffers", .int(a.buffers)),
            ("present", .string(c.present.rawValue)),
            ("renderMode", .string(c.android.renderMode.rawValue)),
            ("resampling", .bool(c.android.resampling)),
            ("latchUnsignaled", .bool(c.android.latchesUnsignaled)),
        ])
    }

    /// The stage budget: each stage of the platform, in order, with its
    /// `{"mean", "p50", "p90", "p99", "max"}` in ms (the mean from the exact
    /// total, so the means add up to the mean touch-to-photon); null when
    /// nothing was measured.
    public static func budget(_ b: StageBudget?) -> JSONValue {
        guard let b, b.frames > 0 else { return .null }
        return .object(b.stages.map { stage in
            let s = b[stage]!
            let q = s.percentiles([50, 90, 99])
            return (stage.rawValue, .object([
                ("mean", .ms(b.meanMs(stage))), ("p50", .ms(q[0])), ("p90", .ms(q[1])), ("p99", .ms(q[2])), ("max", .ms(s.max)),
            ]))
        })
    }

    /// A tapping finger's timing, in `input` (Docs/Devices.md, "Taps and touch-downs").
    static func taps(_ c: PipelineConfiguration) -> [(String, JSONValue)] {
        guard c.taps else { return [] }
        return [
            ("tapIntervalMs", .ms(Double(c.tapInterval) / 1e6)),
            ("tapHoldMs", .ms(Double(c.tapHold) / 1e6)),
            ("tapJitterMs", .ms(Double(c.tapJitter) / 1e6)),
            ("touchDownDelay", .string(c.touchDownDelay?.description ?? "auto")),
            ("liftResponse", .bool(c.liftResponse)),
            ("touchUpDelay", .string(c.touchUpDelay?.description ?? "auto")),
        ]
    }

    /// The device a run simulated: its preset (null without one) and the
    /// figures a preset sets that the rest of the summary does not show.
    static func device(_ c: PipelineConfiguration) -> JSONValue {
        .object([
            ("preset", c.devicePreset.map { .string($0) } ?? .null),
            ("displayHz", .number(c.displayHz.doubleValue, places: 6)),
            ("scanHz", .number(c.scanHz.doubleValue, places: 6)),
            ("tool", .string(c.tool.rawValue)),
            ("touchDownDelay", .string(c.touchDownDelay?.description ?? "auto")),
            ("touchUpDelay", .string(c.touchUpDelay?.description ?? "auto")),
            ("digitizerDelayMs", .ms(Double(c.digitizerDelay) / 1e6)),
            ("panelResponseMs", .ms(Double(c.panelResponse) / 1e6)),
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
