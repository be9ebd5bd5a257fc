import FramePipeline
import LatsimOutput
import SimKernel

/// A quantity of a run as the summary JSON lists it (Docs/Model.md,
/// "Summary JSON"): a latency stream, a count or a number of the run's
/// ``Measurements``, under its name in one of the summary's sections. The
/// rows are declared once, in ``MeasureCatalogue``; ``RunSummary`` writes
/// the sections from them, in their order.
public struct Measure: Sendable {
    /// The summary's objects that list measures.
    public enum Section: String, Sendable, CaseIterable {
        /// `latency`: the streams, `{"mean", "p50", "p90", "p99", "max"}` each.
        case latency
        /// `display`: what the display showed, and Android's BufferQueue.
        case display
        /// `work`: what the stages did.
        case work
    }

    /// What a measure is, and so how the summary writes it.
    public enum Value: Sendable {
        /// A latency stream: `{"mean", "p50", "p90", "p99", "max"}` (ms or
        /// the stream's unit), null when it holds no value.
        case stream(@Sendable (Measurements) -> StreamingStats)
        /// A count; null when the run has none.
        case count(@Sendable (RunResult) -> Int?)
        /// A number with `places` decimals; null when the run has none.
        case number(places: Int, @Sendable (RunResult) -> Double?)
        /// Counts by name, as an object; null when the run has none.
        case counts(@Sendable (RunResult) -> [(String, Int)]?)
        /// The stage budget (``RunSummary/budget(_:)``).
        case budget
    }

    /// The key in its section.
    public var name: String
    /// The section that lists it.
    public var section: Section
    /// The runs whose summary lists it: `.android` ones only on Android
    /// runs (an iOS run's summary leaves them out).
    public var platform: FigurePlatform
    /// How it is read.
    public var value: Value

    public init(name: String, section: Section, platform: FigurePlatform = .both, value: Value) {
        self.name = name
        self.section = section
        self.platform = platform
        self.value = value
    }

    /// True when run `r`'s summary lists it.
    public func isListed(for r: RunResult) -> Bool {
        switch platform {
        case .both: return true
        case .ios: return r.configuration.platform == .ios
        case .android: return r.configuration.platform == .android
        }
    }

    /// The measure's value in run `r`'s summary.
    public func json(_ r: RunResult) -> JSONValue {
        switch value {
        case .stream(let read): return RunSummary.stats(read(r.measurements))
        case .count(let read): return read(r).map { .int($0) } ?? .null
        case .number(let places, let read): return read(r).map { .number($0, places: places) } ?? .null
        case .counts(let read): return read(r).map { .object($0.map { ($0.0, .int($0.1)) }) } ?? .null
        case .budget: return RunSummary.budget(r.measurements.budget)
        }
    }
}
