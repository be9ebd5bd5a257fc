import SimKernel

/// Random smooth motion: on each axis, the screen centre plus a sum of three
/// sinusoids with seeded random frequencies, phases and amplitudes. The
/// finger is always down.
///
/// The amplitudes of an axis add up to 40% of the screen's extent on that
/// axis, so the finger never leaves the screen. All frequencies are then
/// scaled by one factor so that the root-mean-square speed is
/// `speed / √(π/4)`: for a velocity that is roughly Gaussian in the plane the
/// mean of its magnitude is √(π/4) of its rms, so the mean speed comes out
/// close to `speed`.
struct RandomMotion: Sendable {
    /// Components per axis.
    static let components = 3

    let center: TouchPoint
    // amplitude, angular frequency (rad/s), phase; x then y
    let ax: (Double, Double, Double), wx: (Double, Double, Double), px: (Double, Double, Double)
    let ay: (Double, Double, Double), wy: (Double, Double, Double), py: (Double, Double, Double)

    init(_ p: TrajectoryParameters) {
        center = TouchPoint(x: p.widthPoints / 2, y: p.heightPoints / 2)
        var rng = SeededRandom(seed: p.seed, stream: StreamTag.random)
        func axis(_ extent: Double) -> (a: (Double, Double, Double), w: (Double, Double, Double), ph: (Double, Double, Double)) {
            // relative amplitudes 0.5...1.5, base frequencies 0.1...1 Hz
            let r = (0.5 + rng.nextUnit(), 0.5 + rng.nextUnit(), 0.5 + rng.nextUnit())
            let scale = 0.4 * extent / (r.0 + r.1 + r.2)
            func f() -> Double { 2 * Double.pi * (0.1 + 0.9 * rng.nextUnit()) }
            let w = (f(), f(), f())
            func ph() -> Double { 2 * Double.pi * rng.nextUnit() }
            return ((r.0 * scale, r.1 * scale, r.2 * scale), w, (ph(), ph(), ph()))
        }
        let x = axis(p.widthPoints), y = axis(p.heightPoints)
        func power(_ a: (Double, Double, Double), _ w: (Double, Double, Double)) -> Double {
            (a.0 * w.0) * (a.0 * w.0) / 2 + (a.1 * w.1) * (a.1 * w.1) / 2 + (a.2 * w.2) * (a.2 * w.2) / 2
        }
        let rms = (power(x.a, x.w) + power(y.a, y.w)).squareRoot()
        let target = p.speed / (Double.pi / 4).squareRoot()
        let k = target / rms
        ax = x.a; px = x.ph; wx = (x.w.0 * k, x.w.1 * k, x.w.2 * k)
        ay = y.a; py = y.ph; wy = (y.w.0 * k, y.w.1 * k, y.w.2 * k)
    }

    @inline(__always)
    static func term(_ a: Double, _ w: Double, _ ph: Double, _ s: Double) -> (Double, Double) {
        // reduce w*s modulo 2π through the period, keeping long runs precise
        let period = 2 * Double.pi / w
        let angle = w * s.truncatingRemainder(dividingBy: period) + ph
        return (a * sine(angle), a * w * cosine(angle))
    }

    func state(at t: SimTime) -> FingerState {
        let s = Double(t) / 1e9
        let x0 = RandomMotion.term(ax.0, wx.0, px.0, s), x1 = RandomMotion.term(ax.1, wx.1, px.1, s)
        let x2 = RandomMotion.term(ax.2, wx.2, px.2, s)
        let y0 = RandomMotion.term(ay.0, wy.0, py.0, s), y1 = RandomMotion.term(ay.1, wy.1, py.1, s)
        let y2 = RandomMotion.term(ay.2, wy.2, py.2, s)
        return FingerState(
            position: TouchPoint(x: center.x + x0.0 + x1.0 + x2.0, y: center.y + y0.0 + y1.0 + y2.0),
            velocity: TouchPoint(x: x0.1 + x1.1 + x2.1, y: y0.1 + y1.1 + y2.1),
            isDown: true)
    }
}
