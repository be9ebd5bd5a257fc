import Foundation

/// Student's t distribution: its tail probability and the critical value
/// of a two-sided interval, computed for any number of degrees of freedom
/// (a table stops at some count and steps after it; an interval of 32 to
/// 121 seeds was up to 1% too narrow with one).
///
/// The tail comes from the regularized incomplete beta function,
/// `P(|T| > t) = I_x(ν/2, 1/2)` with `x = ν / (ν + t²)` (Abramowitz and
/// Stegun, Handbook of Mathematical Functions, 26.7.1 with 26.5), which is
/// evaluated by its continued fraction (A&S 26.5.8) with the modified
/// Lentz method; the critical value is found by bisection on `t`, where the
/// tail falls monotonically. Every step is written out below; the result
/// agrees with published tables to their last digit (StudentTTests).
public enum StudentT {
    /// The two-sided 95% critical value for `n` degrees of freedom:
    /// `P(|T| > t) = 0.05`. `n` below 1 has no interval; it is treated as 1.
    public static func critical95(degreesOfFreedom n: Int) -> Double {
        critical(twoSidedTail: 0.05, degreesOfFreedom: Double(Swift.max(n, 1)))
    }

    /// The `t` with `P(|T| > t) = tail` for `ν` degrees of freedom (ν > 0,
    /// 0 < tail < 1): the half-width of a `1 − tail` interval in standard
    /// errors.
    public static func critical(twoSidedTail tail: Double, degreesOfFreedom nu: Double) -> Double {
        precondition(nu > 0 && tail > 0 && tail < 1, "StudentT.critical needs ν > 0 and a tail in (0, 1)")
        // a bracket [lo, hi] with tail(lo) ≥ tail > tail(hi); tail(0) = 1
        var lo = 0.0, hi = 1.0
        while twoSidedTail(hi, degreesOfFreedom: nu) > tail { lo = hi; hi *= 2 }
        // bisection until the bracket cannot shrink in doubles
        while true {
            let mid = lo + (hi - lo) / 2
            if mid <= lo || mid >= hi { break }
            if twoSidedTail(mid, degreesOfFreedom: nu) > tail { lo = mid } else { hi = mid }
        }
        return lo + (hi - lo) / 2
    }

    /// `P(|T| > t)` for `ν` degrees of freedom (t ≥ 0): `I_x(ν/2, 1/2)`
    /// with `x = ν/(ν + t²)` and `1 − x = t²/(ν + t²)`, both formed
    /// directly so that neither loses digits to a subtraction.
    public static func twoSidedTail(_ t: Double, degreesOfFreedom nu: Double) -> Double {
        let t2 = t * t
        guard t2 > 0 else { return 1 }
        guard t2.isFinite else { return 0 }
        let x = nu / (nu + t2), y = t2 / (nu + t2)
        return regularizedIncompleteBeta(x: x, oneMinusX: y, a: nu / 2, b: 0.5)
    }

    /// The regularized incomplete beta function `I_x(a, b)` (a, b > 0,
    /// 0 ≤ x ≤ 1, `oneMinusX` = 1 − x given exactly).
    ///
    /// `I_x(a, b) = x^a (1−x)^b / (a B(a, b)) · 1/(1+ d₁/(1+ d₂/(1+ ...)))`
    /// (A&S 26.5.8), whose continued fraction converges fast for
    /// `x < (a+1)/(a+b+2)`; above that the symmetry
    /// `I_x(a, b) = 1 − I_{1−x}(b, a)` (A&S 26.5.2) is used.
    public static func regularizedIncompleteBeta(x: Double, oneMinusX y: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if y <= 0 { return 1 }
        // log of x^a (1−x)^b / B(a, b), B from the log-gamma function
        let logFront = a * Foundation.log(x) + b * Foundation.log(y) - (lgamma(a) + lgamma(b) - lgamma(a + b))
        if x < (a + 1) / (a + b + 2) {
            return Foundation.exp(logFront) * continuedFraction(x: x, a: a, b: b) / a
        }
        return 1 - Foundation.exp(logFront) * continuedFraction(x: y, a: b, b: a) / b
    }

    /// The continued fraction of A&S 26.5.8, `1/(1+ d₁/(1+ d₂/(1+ ...)))`, with
    /// `d₂ₘ₊₁ = −(a+m)(a+b+m)x / ((a+2m)(a+2m+1))` and
    /// `d₂ₘ = m(b−m)x / ((a+2m−1)(a+2m))`, evaluated front to back by the
    /// modified Lentz method (Lentz 1976; Thompson and Barnett 1986): the
    /// running value `f = C·D` with each tiny denominator replaced by
    /// 1e-300, until a step changes `f` by less than 4e-16 relative (two units in the last place of 1).
    static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        // f₀ = 1/(1 + d₁): C starts at 1, D at 1/(1 + d₁)
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if Swift.abs(d) < tiny { d = tiny }
        d = 1 / d
        var f = d
        for m in 1...10_000 {
            let mm = Double(m)
            // the even term d₂ₘ
            var term = mm * (b - mm) * x / ((a + 2 * mm - 1) * (a + 2 * mm))
            d = 1 + term * d
            if Swift.abs(d) < tiny { d = tiny }
            c = 1 + term / c
            if Swift.abs(c) < tiny { c = tiny }
            d = 1 / d
            f *= d * c
            // the odd term d₂ₘ₊₁
            term = -(a + mm) * (a + b + mm) * x / ((a + 2 * mm) * (a + 2 * mm + 1))
            d = 1 + term * d
            if Swift.abs(d) < tiny { d = tiny }
            c = 1 + term / c
            if Swift.abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            f *= step
            if Swift.abs(step - 1) < 4e-16 { break }
        }
        return f
    }
}
