import Foundation
import FramePipeline
import Scenarios
import SimKernel

/// `latsim validate`: every row of a table of published measurements run
/// on its device and app, the simulated figure beside the published one
/// (Docs/Devices.md, "Validation").
public struct ValidationResult: Sendable {
    /// The published measurement.
    public let row: MeasurementTable.Row
    /// What ran: the device's preset and the app, resolved.
    public let configuration: PipelineConfiguration
    /// The simulated distribution of the measured figure, ms.
    public let distribution: StreamingStats
    /// The simulated figure (the row's statistic of the distribution), ms.
    public let simulated: Double
    /// What the figure is made of, in order: each stage's part, ms.
    public let composition: [Part]

    /// One stage's part of the simulated figure.
    public struct Part: Sendable, Equatable {
        /// What it is, in a phrase (`touch-down detection (WALT p2k)`).
        public var stage: String
        /// Its part of the figure, ms.
        public var ms: Double
    }

    /// The published value, ms.
    public var published: Double { Double(row.published) / 1e6 }
    /// Simulated minus published, ms.
    public var errorMs: Double { simulated - published }
    /// The error as a percentage of the published value.
    public var errorPercent: Double { errorMs / published * 100 }
    /// The error allowed: 10% of the published value or 5 ms, whichever is larger.
    public var toleranceMs: Double { Validation.tolerance(publishedMs: published) }
    /// True when the simulated figure is within the tolerance.
    public var passes: Bool { abs(errorMs) <= toleranceMs + 1e-9 }
    /// The row's verdict against what its table expects of it.
    public var verdict: Verdict {
        switch (passes, row.expectedMiss) {
        case (true, false): return .pass
        case (false, false): return .miss
        case (false, true): return .expectedMiss
        case (true, true): return .unexpectedPass
        }
    }
    /// True when the row came out as its table says (a pass, or a miss
    /// the table expects): `latsim validate` exits 0 when every row does.
    public var asExpected: Bool { verdict == .pass || verdict == .expectedMiss }

    /// What a row came to, against what its table expects.
    public enum Verdict: String, Sendable {
        /// Within the tolerance, as expected.
        case pass
        /// Outside the tolerance, though expected to pass: a check failed.
        case miss
        /// Outside the tolerance, as the table expects (its `reason` says why).
        case expectedMiss
        /// Within the tolerance, though the table expects a miss: the table's
        /// `expected: miss` is no longer true, a check failed.
        case unexpectedPass

        /// The verdict as the tables print it.
        public var text: String {
            switch self {
            case .pass: return "pass"
            case .miss: return "MISS"
            case .expectedMiss: return "expected miss"
            case .unexpectedPass: return "PASSES (expected miss)"
            }
        }
    }

    /// One sentence saying which stages make up the figure, with their parts.
    public var stagesSentence: String {
        let parts = composition.map { "\($0.stage) \(formatDecimal($0.ms, places: 1)) ms" }
        return "\(row.measure.phrase) \(formatDecimal(simulated, places: 1)) ms = " + parts.joined(separator: " + ") + "."
    }
}

extension MeasurementTable.Measure {
    /// The figure as a phrase.
    public var phrase: String {
        switch self {
        case .tapToPhoton: return "tap-to-photon"
        case .frameToPhoton: return "frame-to-photon (screen response)"
        case .touchToPhoton: return "touch-to-photon"
        case .penToInk: return "pen-to-ink"
        case .effectiveToPhoton: return "effective touch-to-photon (less the prediction)"
        }
    }

    /// Its key in the summary JSON (`latency.NAME`; pen-to-ink's is `ink.penToInkMs`).
    public var jsonKey: String { self == .effectiveToPhoton ? "effectiveMs" : rawValue + "Ms" }

    /// True for the ink app's figures, whose parts come from the stage budget.
    var fromBudget: Bool { self == .penToInk || self == .effectiveToPhoton }
}

/// Runs tables of published measurements.
public enum Validation {
    /// Simulated time of each row's run: enough taps (120 at 500 ms) and
    /// frames for a stable mean.
    public static let duration = "60s"

    /// The error allowed for a published value: 10% or 5 ms, whichever is larger.
    public static func tolerance(publishedMs: Double) -> Double { max(0.1 * publishedMs, 5) }

    /// The configuration of a row: its app on its device, run for ``duration``.
    public static func configuration(_ row: MeasurementTable.Row, folder: String?) throws(LatsimError) -> PipelineConfiguration {
        func place(_ e: LatsimError) -> LatsimError {
            var e = e
            e.problem = "measurement \(row.id): " + e.problem
            if e.file == nil {
                e.file = row.place.file
                e.line = row.place.line
                e.column = row.place.column
            }
            return e
        }
        do {
            let scenarioPath = resolve(row.scenario, folder: folder)
            let preset = try DevicePreset.named(row.device, relativeTo: folder)
            let s = try Scenario.named(scenarioPath).applying(device: preset)
            return try s.configuration([Assignment(path: "duration", value: duration, source: SettingSource(file: row.place.file))])
        } catch {
            throw place(error)
        }
    }

    /// A scenario named by a row: a built-in name as it is, a path relative to the table's folder.
    static func resolve(_ name: String, folder: String?) -> String {
        guard let folder, BuiltinScenarios.yaml(named: name) == nil, !name.hasPrefix("/"),
              name.hasSuffix(".yaml") || name.hasSuffix(".yml") || name.contains("/") else { return name }
        return (folder as NSString).appendingPathComponent(name)
    }

    /// Resolves every row (bad input stops here, before anything runs),
    /// then runs them on up to `jobs` threads; results in the table's order.
    public static func run(_ table: MeasurementTable, jobs: Int = 1) throws(LatsimError) -> [ValidationResult] {
        var configurations: [PipelineConfiguration] = []
        for row in table.rows { configurations.append(try configuration(row, folder: table.folder)) }
        let resolved = configurations
        let outcomes = Parallel.map(table.rows.count, jobs: jobs) { i -> Result<ValidationResult, LatsimError> in
            Result { () throws(LatsimError) in try run(table.rows[i], resolved[i]) }
        }
        var out: [ValidationResult] = []
        for o in outcomes { out.append(try o.get()) }
        return out
    }

    /// Runs one row.
    public static func run(_ row: MeasurementTable.Row, _ c: PipelineConfiguration) throws(LatsimError) -> ValidationResult {
        // a command-mode panel's idle wake is a stage of its own: its part comes from the budget
        let r = try PipelineRun.run(c, keepBudget: row.measure.fromBudget || c.platform == .android && c.android.panelInterface == .command)
        let m = r.measurements
        let stats: StreamingStats
        switch row.measure {
        case .tapToPhoton: stats = m.tapToPhotonMs
        case .frameToPhoton: stats = m.frameToPhotonMs
        case .touchToPhoton: stats = m.touchToPhotonMs
        case .penToInk: stats = m.ink?.penToInkMs ?? Measurements().touchToPhotonMs
        case .effectiveToPhoton: stats = m.effectiveMs
        }
        let value = row.statistic == .mean ? stats.mean : stats.percentile(50)
        guard let value else {
            throw LatsimError(file: row.place.file, line: row.place.line, column: row.place.column, key: "measure",
                              value: row.measure.rawValue,
                              problem: "measurement \(row.id): the run of \(row.scenario) on \(row.device) measured no \(row.measure.phrase)",
                              expected: "a measure the app produces: tapToPhoton for an app that taps, touchToPhoton or effectiveToPhoton for one that drags, penToInk for an ink app (app.ink), frameToPhoton for either")
        }
        return ValidationResult(row: row, configuration: c, distribution: stats, simulated: value,
                                composition: composition(row.measure, r, total: value))
    }

    /// What a figure is made of: the stages known from the configuration
    /// and the run, and the rest of the pipeline as the remainder; on a
    /// command-mode panel the idle wake, a labelled unknown, named with its
    /// range and value and taken out of that remainder.
    static func composition(_ measure: MeasurementTable.Measure, _ r: RunResult, total: Double) -> [ValidationResult.Part] {
        if measure.fromBudget { return budgetParts(measure, r, total: total) }
        var parts = pipelineParts(measure, r, total: total)
        // the remainder is the part before the scan-out and the panel (a cost
        // of the wake makes frame-to-photon's "frames late or queued" part)
        if let wake = idleWake(measure, r), parts.count >= 3 {
            let i = parts.count - 3
            if wake.ms != 0 { parts[i].ms -= wake.ms }
            parts.insert(wake, at: i + 1)
        }
        return parts
    }

    /// An ink app's figure (Docs/Ink.md), part by part from its stage
    /// budget: each stage's share of the figure (its mean, scaled to the
    /// statistic the row takes), and the prediction's horizon taken off an
    /// effective figure; a stage that is 0 throughout is left out, so the
    /// parts add up to the figure. The
    /// budget splits touch-to-photon at the measured row, which an ink
    /// scenario sets to the pen's own.
    static func budgetParts(_ measure: MeasurementTable.Measure, _ r: RunResult, total: Double) -> [ValidationResult.Part] {
        guard let b = r.measurements.budget, b.frames > 0 else { return [] }
        let horizon = measure == .effectiveToPhoton && r.measurements.prediction.count > 0
            ? Double(r.configuration.horizon) / 1e6 : 0
        let sum = b.stages.reduce(0.0) { $0 + (b.meanMs($1) ?? 0) }
        // the stages' means add up to the mean; a p50 row scales them to its figure
        let scale = sum != 0 ? (total + horizon) / sum : 1
        var parts: [ValidationResult.Part] = []
        for stage in b.stages {
            let ms = (b.meanMs(stage) ?? 0) * scale
            if ms != 0 { parts.append(.init(stage: stage.phrase, ms: ms)) }
        }
        if horizon != 0 { parts.append(.init(stage: "prediction \(formatDecimal(horizon, places: 3)) ms ahead", ms: -horizon)) }
        return parts
    }

    /// The parts of a figure without the idle wake.
    static func pipelineParts(_ measure: MeasurementTable.Measure, _ r: RunResult, total: Double) -> [ValidationResult.Part] {
        let c = r.configuration
        let geometry = FrameGeometry(c)
        let rowMs = Double(geometry.rowOffset ?? roundHalfUp(geometry.framePeriodNanos / 2)) / 1e6
        let panelMs = Double(c.panelResponse) / 1e6
        let android = c.platform == .android
        var parts: [ValidationResult.Part] = []
        switch measure {
        case .tapToPhoton:
            let down = r.measurements.touchDownMs.mean ?? 0
            parts.append(.init(stage: c.touchDownDelay == nil ? "touch-down detection (to the end of a whole scan window)"
                                                              : "touch-down detection (measured)", ms: down))
            if android {
                parts.append(.init(stage: "dispatch to the app", ms: Double(c.android.dispatchLatency) / 1e6))
                parts.append(.init(stage: c.android.renderMode == .continuous
                                   ? "the handler, the GL thread's next frame and the frames queued before it, to the present"
                                   : "the handler, the next Choreographer frame, RenderThread, GPU and SurfaceFlinger, to the present",
                                   ms: total - down - Double(c.android.dispatchLatency) / 1e6 - rowMs - panelMs))
            } else {
                parts.append(.init(stage: "the next frame start, the handler, Core Animation and the GPU, to the latch",
                                   ms: total - down - rowMs - panelMs))
            }
        case .frameToPhoton:
            if android {
                let timing = c.androidTiming
                let lead = Double(timing.appDuration + timing.sfDuration) / 1e6
                parts.append(.init(stage: "vsync-app to the present vsync (D_app + D_sf)", ms: lead))
                let late = total - lead - rowMs - panelMs
                if abs(late) > 1e-3 { parts.append(.init(stage: "frames late or queued", ms: late)) }
            } else {
                parts.append(.init(stage: "the frame start to the latch (handler, Core Animation, GPU, vsync)", ms: total - rowMs - panelMs))
            }
        case .touchToPhoton:
            let window = PeriodicClock(hz: c.scanHz).periodNanos * (1 - c.sampleInstant.doubleValue) / 1e6
            let ready = window + Double(c.digitizerDelay) / 1e6
            parts.append(.init(stage: "the rest of the scan window and the digitizer delay", ms: ready))
            parts.append(.init(stage: android ? "batching, the frame, RenderThread, GPU and SurfaceFlinger, to the present"
                                              : "delivery at the frame start, the handler, Core Animation and the GPU, to the latch",
                               ms: total - ready - rowMs - panelMs))
        case .penToInk, .effectiveToPhoton:
            // made of the stage budget (budgetParts)
            return []
        }
        parts.append(.init(stage: "scan-out to the measured row", ms: rowMs))
        parts.append(.init(stage: "the panel's response", ms: panelMs))
        return parts
    }

    /// The idle wake's part of a figure on a command-mode panel (nil on any
    /// other): its mean cost over the figure's frames, from the stage budget
    /// for a tap or touch (the frames it splits), from the run's total for
    /// frame-to-photon (every presented frame); named as the unknown it is.
    static func idleWake(_ measure: MeasurementTable.Measure, _ r: RunResult) -> ValidationResult.Part? {
        let c = r.configuration
        guard c.platform == .android, c.android.panelInterface == .command, let a = r.measurements.android else { return nil }
        let ms: Double
        switch measure {
        case .frameToPhoton:
            let n = r.measurements.frameToPhotonMs.count
            ms = n > 0 ? Double(a.idleWakeDelay) / 1e6 / Double(n) : 0
        case .tapToPhoton, .touchToPhoton, .penToInk, .effectiveToPhoton:
            ms = r.measurements.budget?.meanMs(.idleWake) ?? 0
        }
        let period = formatDecimal(c.framePeriod.doubleValue / 1e6, places: 1)
        let size = formatDecimal(Double(c.android.idleWake) / 1e6, places: 3)
        return .init(stage: "idle wake (unknown, 0–\(period) ms, one frame: \(size) ms here)", ms: ms)
    }
}
