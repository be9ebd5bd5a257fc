import SimKernel
import TouchModel

/// What a run with a force interaction measured (Docs/Force.md, "What is
/// measured"), in constant memory. Every latency of a stage is counted from
/// the instant the finger's *true* force crossed that stage's threshold.
public struct ForceMeasurements: Sendable {
    /// The figures of one stage (peek or pop).
    public struct Stage: Sendable {
        /// Times the stage was recognised.
        public var recognized = 0
        /// Recognitions with no true crossing before the decision (the
        /// sensor's noise took the delivered force over the threshold);
        /// they have no latency.
        public var withoutCrossing = 0
        /// True crossing to the recogniser's decision (the delivery that
        /// recognised it), ms.
        public var crossingToRecognitionMs = Measurements.milliseconds()
        /// True crossing to the haptic tap the finger feels, ms.
        public var crossingToHapticMs = Measurements.milliseconds()
        /// True crossing to the photons of the first frame that shows the
        /// stage (the preview for peek, the committed view for pop), ms.
        public var crossingToPhotonMs = Measurements.milliseconds()

        mutating func settle() {
            crossingToRecognitionMs.settle()
            crossingToHapticMs.settle()
            crossingToPhotonMs.settle()
        }
    }

    /// What the app does with force.
    public var interaction: ForceInteraction
    /// Peek (the preview stage).
    public var peek = Stage()
    /// Pop (the commit stage).
    public var pop = Stage()
    /// Thresholds armed and disarmed before their intent time: spikes rejected.
    public var rejected = 0
    /// Previews that ended without a pop (the force fell below the peek's
    /// release level, or the finger lifted).
    public var cancelled = 0
    /// Haptic taps played.
    public var hapticTaps = 0
    /// The true force's progress at photon time minus the progress the
    /// frame shows, for every measured frame during an interaction, in
    /// stages (a whole stage is 1; + the shown progress trails the finger).
    public var progressLag = StreamingStats(resolution: 1e5, highestValue: 10)
    /// Touch-to-photon of measured frames whose commit was made while a
    /// force animation ran (low latency off), ms.
    public var touchToPhotonAnimatingMs = Measurements.milliseconds()
    /// Touch-to-photon of the other measured frames, ms.
    public var touchToPhotonOtherwiseMs = Measurements.milliseconds()
    /// `|true force at photon time − force the frame draws|` for every
    /// measured frame (the delivered force, or the predicted one).
    public var forceErrorAtPhoton = StreamingStats(resolution: 1e5, highestValue: 1_000)
    /// The signed sum of `true − drawn` behind ``forceErrorAtPhoton`` (+:
    /// the drawn force trails a rising press).
    var signedErrorSum = CompensatedSum()
    /// Stroke width per unit of force, points (`app.force.widthPerForce`).
    public var widthPerForce: Double
    /// Predicted force's accuracy, when the app's predictor extrapolates force.
    public var prediction: ForcePredictionScorer?

    init(interaction: ForceInteraction, widthPerForce: Double) {
        self.interaction = interaction
        self.widthPerForce = widthPerForce
    }

    /// The mean of `true − drawn` force at photon time (nil without frames).
    public var meanSignedErrorAtPhoton: Double? {
        forceErrorAtPhoton.count > 0 ? signedErrorSum.value / Double(forceErrorAtPhoton.count) : nil
    }

    mutating func settle() {
        peek.settle()
        pop.settle()
        progressLag.settle()
        touchToPhotonAnimatingMs.settle()
        touchToPhotonOtherwiseMs.settle()
        forceErrorAtPhoton.settle()
        prediction?.settle()
    }
}

/// A force run's records for charts (kept with the frame log only).
public final class ForceLog: @unchecked Sendable {
    /// One delivered touch: its sample time, its delivery and its force.
    public struct Delivered: Sendable { public var sampleTime, deliveredAt: SimTime; public var force: Double }
    /// A stage recognised: the true crossing (nil: none), the decision, the
    /// felt tap, the first photon showing it (nil until a frame does).
    public struct Recognition: Sendable {
        public var stage: PreviewState
        public var crossing: SimTime?
        public var decision, haptic: SimTime
        public var photon: SimTime?
    }
    /// A measured frame: its photon time, the force it draws and the progress it shows.
    public struct Shown: Sendable { public var photon: SimTime; public var force, progress: Double }

    public var delivered: [Delivered] = []
    public var recognitions: [Recognition] = []
    public var shown: [Shown] = []
    /// Animation intervals, [start, end).
    public var animations: [Range<SimTime>] = []

    public init() {}
}
