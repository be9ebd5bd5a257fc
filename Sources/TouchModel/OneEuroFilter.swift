import SimKernel

/// The 1€ filter (Casiez, Roussel and Vogel, CHI 2012) on a 2-D position,
/// each axis filtered on its own as in the paper.
///
/// For each new value at time t: the raw speed `(x - x̂prev) / dt` is
/// low-passed at `derivativeCutoff`; the cutoff becomes
/// `minCutoff + beta * |speed|`; the value is low-passed at that cutoff.
/// A low-pass step at cutoff fc mixes `α = 1 / (1 + τ/dt)` of the new value,
/// with `τ = 1 / (2π fc)`. The first value passes unchanged.
public struct OneEuroFilter: Sendable {
    /// The filter's tuning.
    public var parameters: OneEuroParameters
    var value = TouchPoint.zero
    var speed = TouchPoint.zero
    /// Time of the last value filtered; nil before the first.
    public private(set) var lastTime: SimTime?

    /// A filter with no history.
    public init(parameters: OneEuroParameters) {
        self.parameters = parameters
    }

    /// Forgets the history.
    public mutating func reset() {
        lastTime = nil
        value = .zero
        speed = .zero
    }

    /// The smoothing factor of a low-pass step of `dt` seconds at `cutoff` Hz.
    @inline(__always)
    static func alpha(cutoff: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / dt)
    }

    /// Filters `raw`, observed at `time`. A time at or before the last one
    /// returns the last output and changes nothing.
    public mutating func filter(_ raw: TouchPoint, at time: SimTime) -> TouchPoint {
        guard let last = lastTime else {
            lastTime = time
            value = raw
            speed = .zero
            return raw
        }
        guard time > last else { return value }
        let dt = Double(time - last) / 1e9
        let ad = OneEuroFilter.alpha(cutoff: parameters.derivativeCutoff, dt: dt)
        let rawSpeed = (raw - value) / dt
        speed = speed + (rawSpeed - speed) * ad
        let ax = OneEuroFilter.alpha(cutoff: parameters.minCutoff + parameters.beta * Swift.abs(speed.x), dt: dt)
        let ay = OneEuroFilter.alpha(cutoff: parameters.minCutoff + parameters.beta * Swift.abs(speed.y), dt: dt)
        value = TouchPoint(x: value.x + (raw.x - value.x) * ax, y: value.y + (raw.y - value.y) * ay)
        lastTime = time
        return value
    }
}
