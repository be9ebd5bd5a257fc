import SimKernel
import TouchModel

/// Makes the predictor of a run from the spec the study names: a study can
/// swap each of latsim's or the platforms' predictors for a variant (a
/// test's deliberately worse one, say) and score it under the spec's name.
public typealias PredictorFactory = @Sendable (PredictorSpec) -> any TouchPredictor

/// A predictor of your own, scored by a study like latsim's: a Swift type
/// that conforms to ``TouchPredictor``, or anything that can make one for a
/// run (a process speaking the predictor protocol).
///
/// A fresh predictor is made for every run, so nothing is carried from one
/// run to the next and a study gives the same figures at any thread count.
public struct OwnPredictor: Sendable {
    /// One run's predictor.
    public struct Started {
        /// The predictor the app runs.
        public var predictor: any TouchPredictor
        /// The name its rows and baseline entries carry.
        public var name: String
        /// Called once the run is over: ends what the predictor holds (a
        /// process) and returns what spoilt the run, if anything; a spoilt
        /// run's figures are never reported.
        public var finish: @Sendable () -> LatsimError?

        /// A started predictor from its parts.
        public init(predictor: any TouchPredictor, name: String, finish: @escaping @Sendable () -> LatsimError? = { nil }) {
            self.predictor = predictor
            self.name = name
            self.finish = finish
        }
    }

    /// Starts one run's predictor, for display frames `frameInterval` ns apart.
    let start: @Sendable (_ frameInterval: SimTime) throws(LatsimError) -> Started

    /// A Swift type: `make` is called once per run.
    public init<P: TouchPredictor>(name: String, make: @escaping @Sendable () -> P) {
        start = { _ throws(LatsimError) in Started(predictor: make(), name: name) }
    }

    /// Anything that can start a predictor for a run and end it afterwards;
    /// `start` throws when it cannot (the run is then not made).
    public init(start: @escaping @Sendable (_ frameInterval: SimTime) throws(LatsimError) -> Started) {
        self.start = start
    }
}

/// Which predictor one run of a study scores.
public enum StudyPredictor: Sendable, Hashable, CustomStringConvertible {
    /// A predictor a spec names: latsim's or a platform's.
    case spec(PredictorSpec)
    /// The study's ``OwnPredictor``.
    case own

    /// latsim's predictor of `kind`.
    public static func latsim(_ kind: PredictorKind) -> StudyPredictor { .spec(PredictorSpec(kind)) }

    /// The spec's name, or `own`.
    public var description: String {
        switch self {
        case .spec(let s): return s.description
        case .own: return "own"
        }
    }
}

extension StudyPredictor: Codable {
    /// Reads `own` or a spec's name.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if text == "own" { self = .own; return }
        self = .spec(try PredictorSpec(from: decoder))
    }

    /// Writes ``description``.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
