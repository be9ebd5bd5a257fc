import SimKernel
import TouchModel

/// What a run measures (MODEL.md section 4), streamed into constant-memory
/// statistics: nothing here grows with the simulated duration.
public struct Measurements: Sendable {
    /// Touch-to-photon of each displayed frame with new touch content, ms.
    public var touchToPhotonMs = Measurements.milliseconds()
    /// The talk's diagram convention, in display frames.
    public var pipelineFrames = Measurements.frames()
    /// Touch-to-photon minus the prediction horizon applied, ms.
    public var effectiveMs = Measurements.milliseconds()
    /// Pipeline frames minus the horizon applied, in frames.
    public var effectiveFrames = Measurements.frames()
    /// Touch-to-photon of every sample the app drew, ms.
    public var perSampleMs = Measurements.milliseconds()

    public var framesPresented = 0
    public var repeatedFrames = 0
    public var droppedFrames = 0
    /// Repeated frames that were owed newer content (one display period each).
    public var hitches = 0
    public var deliveries = 0
    public var handlerRuns = 0
    public var wastedUpdates = 0
    public var samples = 0
    /// Prediction accuracy (only fed when prediction is on).
    public var prediction = PredictionScorer()

    /// Milliseconds at 1 µs resolution (HdrHistogram keeps three significant
    /// digits above that; mean, min and max are exact).
    /// Adds values still pending in the streams (see ``StreamingStats``).
    mutating func settle() {
        touchToPhotonMs.settle()
        pipelineFrames.settle()
        effectiveMs.settle()
        effectiveFrames.settle()
        perSampleMs.settle()
    }

    static func milliseconds() -> StreamingStats { StreamingStats(resolution: 1e3, highestValue: 100_000) }
    /// Display frames at 1e-5 frame resolution.
    static func frames() -> StreamingStats { StreamingStats(resolution: 1e5, highestValue: 10_000) }
}

/// Checks of the model's invariants (MODEL.md section 7), counted during the
/// run so tests can assert them on any configuration.
public struct InvariantChecks: Sendable {
    /// Latches whose commit was older than the previous latch's.
    public var latchesOutOfCommitOrder = 0
    /// Deliveries whose first sample was not the one after the last delivered.
    public var samplesOutOfOrder = 0
    /// Samples lost (made but neither delivered nor still waiting at the end).
    public var samplesLost = 0
    /// The most buffers held at once, and the policy's maximum.
    public var maxBuffersHeld = 0
    public var maxBuffersAllocated = 0
    public var policyMaximum = 0
    /// Buffers taken while another frame held them, or given back while free.
    public var bufferConflicts = 0

    /// True when no invariant was broken.
    public var holds: Bool {
        latchesOutOfCommitOrder == 0 && samplesOutOfOrder == 0 && samplesLost == 0
            && maxBuffersHeld <= policyMaximum && maxBuffersAllocated <= policyMaximum && bufferConflicts == 0
    }
}
