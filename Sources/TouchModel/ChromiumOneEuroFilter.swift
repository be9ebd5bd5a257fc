import SimKernel

/// Chromium's 1€ filter on a 2-D position (ui/base/prediction/
/// one_euro_filter.cc over third_party/one_euro_filter), one filter per axis.
///
/// It follows Chromium as of commit b36a872565f67e86cb304a45b8bf56c10fec1224
/// (2023: one_euro_filter.h with `kDefaultMincutoff = 4.7`, `kDefaultBeta =
/// 0.01`, "chosen with experiment in March/May 2023", over
/// third_party/one_euro_filter/src/OneEuroFilter.cpp, Casiez's
/// OneEuroFilter at 492e0388, whose speed is "fixed in 08/23 to use
/// lastFilteredValue"). ``Version/v2019`` is the filter before that change
/// (mincutoff 1, β 0.001, the speed from the previous *raw* value), kept to
/// compare with figures made before it.
///
/// It differs from latsim's ``OneEuroFilter`` in these ways, all Chromium's:
/// - time is in seconds and the sampling frequency starts at 60 Hz, then is
///   re-estimated as `1 / Δt` from each pair of increasing timestamps (a
///   repeated or earlier timestamp keeps the previous frequency and is
///   filtered all the same);
/// - the speed is `dx = (x − x_prev) · freq` with `x_prev` the previous
///   filtered value (``Version/v2019``: the previous raw value), 0 for the
///   first value;
/// - the defaults are `mincutoff = 4.7 Hz`, `beta = 0.01`, `dcutoff = 1 Hz`;
/// - a smoothing factor outside (0, 1] falls back to 0.5, and a
///   non-positive frequency or cutoff to Chromium's fallbacks (120 Hz, 1 Hz).
///
/// `α(fc) = 1 / (1 + τ/Te)` with `τ = 1/(2π fc)` and `Te = 1/freq`; the
/// first value passes unchanged.
public struct ChromiumOneEuroFilter: Sendable, Hashable {
    /// Which Chromium filter.
    public enum Version: String, Sendable, Hashable, CaseIterable, Codable {
        /// Chromium since 2023 (commit b36a8725): mincutoff 4.7 Hz, β 0.01,
        /// the speed from the previous filtered value.
        case current
        /// Chromium from 2019 to 2023: mincutoff 1 Hz, β 0.001, the speed
        /// from the previous raw value.
        case v2019

        /// `kDefaultMincutoff`, Hz.
        public var minCutoff: Double { self == .current ? 4.7 : 1.0 }
        /// `kDefaultBeta`.
        public var beta: Double { self == .current ? 0.01 : 0.001 }
    }

    /// `kDefaultFrequency`, Hz.
    public static let defaultFrequency = 60.0
    /// `kDefaultMincutoff`, Hz (current Chromium).
    public static let defaultMinCutoff = Version.current.minCutoff
    /// `kDefaultBeta` (current Chromium).
    public static let defaultBeta = Version.current.beta
    /// `kDefaultDcutoff`, Hz.
    public static let defaultDerivativeCutoff = 1.0

    /// Which filter's speed estimate (the parameters are given on their own).
    public let version: Version
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

        mutating func filter(_ value: Double, at seconds: Double, minCutoff: Double, beta: Double, dcutoff: Double,
                             speedFromFiltered: Bool) -> Double {
            if let last = lastTime, seconds - last > 0 { frequency = 1 / (seconds - last) }
            lastTime = seconds
            guard started else {
                started = true
                lastRaw = value; lastFiltered = value; speed = 0
                return value
            }
            let rawSpeed = (value - (speedFromFiltered ? lastFiltered : lastRaw)) * frequency
            let ad = Axis.alpha(dcutoff, frequency: frequency)
            speed = ad * rawSpeed + (1 - ad) * speed
            let a = Axis.alpha(minCutoff + beta * Swift.abs(speed), frequency: frequency)
            lastFiltered = a * value + (1 - a) * lastFiltered
            lastRaw = value
            return lastFiltered
        }
    }

    /// A filter with no history; current Chromium's defaults unless given.
    public init(minCutoff: Double = defaultMinCutoff, beta: Double = defaultBeta,
                derivativeCutoff: Double = defaultDerivativeCutoff, version: Version = .current) {
        self.version = version
        self.minCutoff = minCutoff > 0 ? minCutoff : 1
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff > 0 ? derivativeCutoff : 1
        x = Axis(); y = Axis()
    }

    /// The filter of a Chromium version with that version's defaults.
    public init(_ version: Version) {
        self.init(minCutoff: version.minCutoff, beta: version.beta, version: version)
    }

    /// Forgets the history (the frequency returns to 60 Hz).
    public mutating func reset() { x = Axis(); y = Axis() }

    /// Filters `position` observed at `time`.
    public mutating func filter(_ position: TouchPoint, at time: SimTime) -> TouchPoint {
        let seconds = Double(time) / 1e9
        return TouchPoint(x: x.filter(position.x, at: seconds, minCutoff: minCutoff, beta: beta, dcutoff: derivativeCutoff,
                                     speedFromFiltered: version == .current),
                          y: y.filter(position.y, at: seconds, minCutoff: minCutoff, beta: beta, dcutoff: derivativeCutoff,
                                     speedFromFiltered: version == .current))
    }
}
