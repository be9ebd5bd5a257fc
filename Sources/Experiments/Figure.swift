import FramePipeline
import SimKernel

/// A figure of a run that tables and comparisons show: its column name, its
/// unit and precision, and how it is read from a result.
public enum Figure: String, CaseIterable, Sendable {
    /// Median touch-to-photon, ms.
    case touchToPhotonP50
    /// 99th percentile of touch-to-photon, ms.
    case touchToPhotonP99
    /// Mean touch-to-photon, ms.
    case touchToPhotonMean
    /// Median pipeline frames (the talk's convention).
    case pipelineFramesP50
    /// Median effective latency (prediction subtracted), ms.
    case effectiveP50
    /// Median per-sample latency, ms.
    case perSampleP50
    /// Frames presented per simulated second.
    case fps
    /// Repeated frames per run.
    case repeatedFrames
    /// Dropped frames per run.
    case droppedFrames
    /// Hitch time per simulated second, ms per s.
    case hitchMsPerS
    /// Share of time with three buffers, percent.
    case triplePercent

    /// The column name, as every table prints it.
    public var column: String {
        switch self {
        case .touchToPhotonP50: return "t2p p50 ms"
        case .touchToPhotonP99: return "t2p p99 ms"
        case .touchToPhotonMean: return "t2p mean ms"
        case .pipelineFramesP50: return "frames p50"
        case .effectiveP50: return "effective p50 ms"
        case .perSampleP50: return "per-sample p50 ms"
        case .fps: return "fps"
        case .repeatedFrames: return "repeated"
        case .droppedFrames: return "dropped"
        case .hitchMsPerS: return "hitch ms/s"
        case .triplePercent: return "triple %"
        }
    }

    /// Decimals shown.
    public var places: Int {
        switch self {
        case .touchToPhotonP50, .touchToPhotonP99, .touchToPhotonMean, .effectiveP50, .perSampleP50, .pipelineFramesP50: return 3
        case .repeatedFrames, .droppedFrames: return 0
        default: return 1
        }
    }

    /// True for figures in milliseconds (a difference is also shown in frames).
    public var isMilliseconds: Bool { column.hasSuffix(" ms") }

    /// The figure of a run; nil when the run measured nothing of it.
    public func value(_ r: RunResult) -> Double? {
        let m = r.measurements
        switch self {
        case .touchToPhotonP50: return m.touchToPhotonMs.percentile(50)
        case .touchToPhotonP99: return m.touchToPhotonMs.percentile(99)
        case .touchToPhotonMean: return m.touchToPhotonMs.mean
        case .pipelineFramesP50: return m.pipelineFrames.percentile(50)
        case .effectiveP50: return m.effectiveMs.percentile(50)
        case .perSampleP50: return m.perSampleMs.percentile(50)
        case .fps: return r.framesPerSecond
        case .repeatedFrames: return Double(m.repeatedFrames)
        case .droppedFrames: return Double(m.droppedFrames)
        case .hitchMsPerS: return r.hitchTimeRatioMsPerS
        case .triplePercent: return m.android == nil ? r.tripleBufferedFraction * 100 : nil
        }
    }
}
