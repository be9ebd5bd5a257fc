/// A constant-acceleration Kalman filter on one axis: the state is
/// position, velocity and acceleration, and only the position is measured.
///
/// Model and constants follow Chromium's touch predictor
/// (ui/base/prediction/kalman_filter.cc): time in milliseconds, positions in
/// pixels (here points); the process noise is a random force whose effect on
/// (position, velocity, acceleration) over `dt` is `g = (dt²/2, dt, 1)`, so
/// `Q = σp · g gᵀ` with `σp = 0.01`; the measurement variance is `R = 1`;
/// the first measurement sets the position with zero velocity and
/// acceleration and an identity covariance. The covariance update uses the
/// short form `P − K S Kᵀ` (equal to Chromium's Joseph form in exact
/// arithmetic; symmetric here by construction).
struct KalmanAxis: Sendable, Hashable {
    /// Process noise scale σp, (points/ms²)² per step.
    static let processNoise = 0.01
    /// Measurement noise variance R, points².
    static let measurementNoise = 1.0

    var position = 0.0
    /// Points per millisecond.
    var velocity = 0.0
    /// Points per millisecond².
    var acceleration = 0.0
    // covariance, symmetric: p00 p01 p02 / p11 p12 / p22
    var p00 = 1.0, p01 = 0.0, p02 = 0.0, p11 = 1.0, p12 = 0.0, p22 = 1.0
    /// Measurements absorbed since the last reset.
    var updates = 0

    /// Absorbs a measurement `dt` milliseconds after the previous one.
    mutating func update(_ z: Double, dt h: Double) {
        defer { updates += 1 }
        if updates == 0 {
            self = KalmanAxis()
            position = z
            return
        }
        // predict: x = F x, P = F P Fᵀ + Q
        let q = 0.5 * h * h
        position += velocity * h + acceleration * q
        velocity += acceleration * h
        let u0 = p00 + p01 * h + p02 * q, u1 = p01 + p11 * h + p12 * q, u2 = p02 + p12 * h + p22 * q
        let w0 = p01 + p02 * h, w1 = p11 + p12 * h, w2 = p12 + p22 * h
        let s = KalmanAxis.processNoise
        let n00 = u0 + h * u1 + q * u2 + s * q * q
        let n01 = w0 + h * w1 + q * w2 + s * q * h
        let n02 = p02 + h * p12 + q * p22 + s * q
        let n11 = w1 + h * w2 + s * h * h
        let n12 = p12 + h * p22 + s * h
        let n22 = p22 + s
        // correct with the position measurement: H = (1, 0, 0)
        let innovation = z - position
        let sInv = 1 / (n00 + KalmanAxis.measurementNoise)
        let k0 = n00 * sInv, k1 = n01 * sInv, k2 = n02 * sInv
        position += k0 * innovation
        velocity += k1 * innovation
        acceleration += k2 * innovation
        p00 = n00 - k0 * n00; p01 = n01 - k0 * n01; p02 = n02 - k0 * n02
        p11 = n11 - k1 * n01; p12 = n12 - k1 * n02; p22 = n22 - k2 * n02
    }
}
