import SimKernel

/// The options of Chromium's Kalman predictor (ui/base/prediction/
/// kalman_predictor.h, `PredictionOptions`); the raw values are Chromium's
/// bit flags.
public struct ChromiumKalmanOptions: OptionSet, Sendable, Hashable, Codable {
    /// The flags as Chromium numbers them.
    public var rawValue: UInt8
    /// Options from Chromium's bit flags.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `kHeuristicsEnabled` (0x1): the acceleration term is added only when
    /// the points of the last 40 ms turn by more than 15° in total.
    public static let heuristics = ChromiumKalmanOptions(rawValue: 0x1)
    /// `kDirectionCutOffEnabled` (0x2): no prediction when the velocity
    /// extrapolated to the target time points against the current velocity.
    public static let directionCutOff = ChromiumKalmanOptions(rawValue: 0x2)
}

/// How far from the frame time Chromium's linear resampler samples
/// (ui/base/prediction/linear_resampling.cc and ui/base/ui_base_features.cc):
/// the feature that is enabled and its parameters.
public enum ResampleLatency: Sendable, Hashable, Codable {
    /// Neither experiment enabled (the default): 5 ms before the frame
    /// time, and the sample time clamped to at most
    /// `min(8 ms, Δt/2)` after the newest event.
    case standard
    /// `ResamplingScrollEventsExperimentalPrediction` with mode "time": a
    /// fixed latency in milliseconds (parameter "latency", default +3.3);
    /// no clamp.
    case time(milliseconds: Double)
    /// `ResamplingScrollEventsExperimentalPrediction` with mode "frames":
    /// `ratio · frame interval − 5 ms` (parameter "latency", default 0.5;
    /// field variations 0.25, 0.375 and 0.5); no clamp.
    case frames(ratio: Double)
    /// `ResamplingScrollEventsExperimentalPrediction` enabled without a field
    /// trial, in builds that read no mode: `0.375 · frame interval − 5 ms`
    /// (`kPredictFrameAheadBy`); no clamp.
    case experiment
    /// `ResampleScrollEventsLatency` with mode `fixed_ms`: `value`
    /// milliseconds (default −5); clamped as ``standard``.
    case fixedMilliseconds(Double)
    /// `ResampleScrollEventsLatency` with mode `fractional`:
    /// `value · frame interval`; clamped as ``standard``.
    case fractional(Double)

    /// The latency for frames `frameInterval` ns apart, ns (negative: before
    /// the frame time).
    public func latency(frameInterval: SimTime) -> SimTime {
        let frame = Double(frameInterval)
        switch self {
        case .standard: return -5 * Nanos.perMillisecond
        case .time(let ms): return roundHalfUp(ms * 1e6)
        case .frames(let r): return roundHalfUp(r * frame) - 5 * Nanos.perMillisecond
        case .experiment: return roundHalfUp(0.375 * frame) - 5 * Nanos.perMillisecond
        case .fixedMilliseconds(let ms): return roundHalfUp(ms * 1e6)
        case .fractional(let r): return roundHalfUp(r * frame)
        }
    }

    /// Whether the sample time is clamped to `min(8 ms, Δt/2)` after the
    /// newest event: Chromium skips the clamp whenever
    /// `ResamplingScrollEventsExperimentalPrediction` is enabled.
    public var clampsSampleTime: Bool {
        switch self {
        case .standard, .fixedMilliseconds, .fractional: return true
        case .time, .frames, .experiment: return false
        }
    }
}

/// Which of Chromium's predictors (ui/base/prediction) to run.
public enum ChromiumPredictorKind: Sendable, Hashable, Codable {
    /// `EmptyPredictor`: the newest event, unchanged.
    case empty
    /// `LinearPredictor` of first order: the velocity of the last two events.
    case linearFirst
    /// `LinearPredictor` of second order, with Chromium's acceleration.
    case linearSecond
    /// `LeastSquaresPredictor`: the quadratic through the last three events.
    case leastSquares
    /// `KalmanPredictor` with its options.
    case kalman(ChromiumKalmanOptions)
    /// `LinearResampling` with a latency variant.
    case linearResampling(ResampleLatency)
}

/// A Chromium predictor and whether Chromium's 1€ filter smooths it.
///
/// Chromium's scroll predictor (third_party/blink/renderer/platform/widget/
/// input/scroll_predictor.cc) may run any of its predictors followed by a
/// filter (`FilteringScrollPrediction`, off by default; filter
/// `one_euro_filter`; since 2023 Chromium's defaults are mincutoff 4.7,
/// beta 0.01, see ``ChromiumOneEuroFilter``).
public struct ChromiumPredictorConfiguration: Sendable, Hashable, Codable {
    /// The predictor.
    public var kind: ChromiumPredictorKind
    /// Whether Chromium's 1€ filter smooths the predicted positions.
    public var oneEuro: Bool
    /// Which Chromium 1€ filter (`+1e`: the current one; `+1e2019`: the
    /// 2019–2023 one); nil means the current one.
    public var oneEuroVersion: ChromiumOneEuroFilter.Version?

    /// A configuration; unsmoothed by default.
    public init(_ kind: ChromiumPredictorConfiguration.Kind, oneEuro: Bool = false,
                oneEuroVersion: ChromiumOneEuroFilter.Version? = nil) {
        self.kind = kind
        self.oneEuro = oneEuro
        self.oneEuroVersion = oneEuroVersion == .current ? nil : oneEuroVersion
    }

    /// The predictor kinds.
    public typealias Kind = ChromiumPredictorKind

    /// The suffix of its name: `+1e`, `+1e2019`, or nothing.
    public var oneEuroSuffix: String {
        guard oneEuro else { return "" }
        return oneEuroVersion == .v2019 ? "+1e2019" : "+1e"
    }
}

/// The androidx.input.motionprediction strategies
/// (`debug.input.androidx_prediction_strategy`).
public enum AndroidxStrategy: String, Sendable, Hashable, Codable, CaseIterable {
    /// `STRATEGY_BALANCED` (0, the default): as many steps as the confidence
    /// allows, possibly none.
    case balanced
    /// `STRATEGY_SAFE` (1): at least one step.
    case safe
    /// `STRATEGY_AGGRESSIVE` (2): the confidence is taken to be 1.
    case aggressive
}

/// What touches the screen, for androidx's confidence ranges.
public enum AndroidxTool: String, Sendable, Hashable, Codable, CaseIterable {
    /// `TOOL_TYPE_FINGER`: speed range 0…2 px/ms, jerk range 0.02…0.2.
    case finger
    /// Any other tool, e.g. a stylus (androidx's "accurate tool"): speed range
    /// 0…0 px/ms, jerk range 0.1…0.2.
    case stylus
}

/// How androidx's Kalman predictor (`SinglePointerPredictor`) is run.
public struct AndroidxKalmanConfiguration: Sendable, Hashable, Codable {
    /// The prediction strategy.
    public var strategy: AndroidxStrategy
    /// The tool, which picks the confidence ranges; nil: the tool of the
    /// input, as androidx takes it from each MotionEvent's tool type (a
    /// finger's ranges unless the run's `input.tool` is a pencil; see
    /// ``PredictorSpec/forInput(stylus:)``).
    public var tool: AndroidxTool?
    /// `debug.input.androidx_prediction_offset`, whole milliseconds added
    /// to the target before its 32 ms cap; 0 by default.
    public var offsetMilliseconds: Int

    /// A configuration; by default balanced, the input's tool, no offset.
    public init(strategy: AndroidxStrategy = .balanced, tool: AndroidxTool? = nil, offsetMilliseconds: Int = 0) {
        self.strategy = strategy
        self.tool = tool
        self.offsetMilliseconds = offsetMilliseconds
    }
}

/// A platform predictor: one of Chromium's or androidx's Kalman.
public enum PlatformPredictorConfiguration: Sendable, Hashable, Codable {
    /// A Chromium predictor.
    case chromium(ChromiumPredictorConfiguration)
    /// androidx.input.motionprediction's Kalman predictor.
    case androidx(AndroidxKalmanConfiguration)
}
