import SimKernel

/// Chromium's 1€ filter on a 2-D position (ui/base/prediction/
/// one_euro_filter.cc over third_party/one_euro_filter), one filter per axis.
///
/// It differs from latsim's ``OneEuroFilter`` in four ways, all Chromium's:
/// - time is in seconds and the sampling frequency starts at 60 Hz, then is
///   re-estimated as `1 / Δt` from each pair of increasing timestamps (a
///   repeated or earlier timestamp keeps the previous frequency and is
///   filtered all the same);
/// - the speed is taken from the previous *raw* value,
///   `dx = (x − x_prev_raw) · freq` (Android 16's filter, and latsim's, use
///   the previous *filtered* value);
/// - the defaults are `mincutoff = 1 Hz`, `beta = 0.001`, `dcutoff = 1 Hz`;
/// - a smoothing factor outside (0, 1] falls back to 0.5, and a
///   non-positive frequency or cutoff to Chromium's fallbacks (120 Hz, 1 Hz).
///
/// `α(fc) = 1 / (1 + τ/Te)` with `τ = 1/(2π fc)` and `Te = 1/freq`; the
/// first value passes unchanged.
public struct ChromiumOneEuroFilter: Sendable, Hashable {
    /// `kDefaultFrequency`, Hz.
    public static let defaultFrequency = 60.0
    /// `kDefaultMincutoff`, Hz.
    public static let defaultMinCutoff = 1.0
    /// `kDefaultBeta`.
    public static let defaultBeta = 0.001
    /// `kDefaultDcutoff`, Hz.
    public static let defaultDerivativeCutoff = 1.0

    /// The cutoff at rest, Hz.
    public let minCutoff: Double
    /// How fast the cutoff rises with speed, Hz per (point/s).
    public let beta: Double
    /// The cutoff of the speed estimate, Hz.
    public let derivativeCutoff: Double
    var x: Axis, y: Axis

    /// One axis: the frequency estimate, the last raw and filtered values,
    /// the filtered speed.
    struct Axis: Sendable, Hashable {
        var frequency = ChromiumOneEuroFilter.defaultFrequency
        var lastTime: Double?
        var lastRaw = 0.0, lastFiltered = 0.0, speed = 0.0
        var started = false

        static func alpha(_ cutoff: Double, frequency: Double) -> Double {
            let te = 1 / frequency
            let tau = 1 / (2 * Double.pi * cutoff)
            let a = 1 / (1 + tau / te)
            return a > 0 && a <= 1 ? a : 0.5
        }

        mutating func filter(_ value: Double, at seconds: Double, minCutoff: Double, beta: Double, dcutoff: Double) -> Double {
            if let last = lastTime, seconds - last > 0 { frequency = 1 / (seconds - last) }
            lastTime = seconds
            guard started else {
                started = true
                lastRaw = value; lastFiltered = value; speed = 0
                return value
            }
            let rawSpeed = (value - lastRaw) * frequency
            let ad = Axis.alpha(dcutoff, frequency: frequency)
            speed = ad * rawSpeed + (1 - ad) * speed
            let a = Axis.alpha(minCutoff + beta * Swift.abs(speed), frequency: frequency)
            lastFiltered = a * value + (1 - a) * lastFiltered
            lastRaw = value
            return lastFiltered
        }
    }

    /// A filter with no history; Chromium's defaults unless given.
    public init(minCutoff: Double = defaultMinCutoff, beta: Double = defaultBeta,
                derivativeCutoff: Double = defaultDerivativeCutoff) {
        self.minCutoff = minCutoff > 0 ? minCutoff : 1
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff > 0 ? derivativeCutoff : 1
        x = Axis(); y = Axis()
    }

    /// Forgets the history (the frequency returns to 60 Hz).
    public mutating func reset() { x = Axis(); y = Axis() }

    /// Filters `position` observed at `time`.
    public mutating func filter(_ position: TouchPoint, at time: SimTime) -> TouchPoint {
        let seconds = Double(time) / 1e9
        return TouchPoint(x: x.filter(position.x, at: seconds, minCutoff: minCutoff, beta: beta, dcutoff: derivativeCutoff),
                          y: y.filter(position.y, at: seconds, minCutoff: minCutoff, beta: beta, dcutoff: derivativeCutoff))
    }
}
