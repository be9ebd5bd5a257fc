import Foundation
import Measures
import Testing

/// Student's t quantile, computed (not looked up) for any number of
/// degrees of freedom, against published tables and closed forms.
@Suite struct StudentTTests {
    /// Two-sided 95% critical values (the 0.975 quantile) as tables print
    /// them, to three decimals. ν = 1 to 100: NIST/SEMATECH e-Handbook of
    /// Statistical Methods, section 1.3.6.7.2, "Critical Values of the
    /// Student's t Distribution", column 0.025 (upper tail). ν = 120:
    /// Pearson and Hartley, Biometrika Tables for Statisticians, vol. 1
    /// (1966), table 12. ν = 1000, from no table with that row: the
    /// Cornish-Fisher expansion of Abramowitz and Stegun 26.7.5,
    /// t ≈ z + (z³ + z)/(4ν) + (5z⁵ + 16z³ + 3z)/(96ν²) with z = 1.959964:
    /// 1.959964 + 9.48907/4000 + 270.97/96e6 = 1.959964 + 0.002372 + 0.000003
    /// = 1.962339, 1.962 to three decimals (the next term is below 1e-8).
    static let published: [(nu: Int, t: Double)] = [
        (1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042),
        (31, 2.040), (40, 2.021), (60, 2.000), (120, 1.980), (1000, 1.962),
    ]

    @Test func agreesWithPublishedTablesToThreeDecimals() {
        for (nu, t) in Self.published {
            let computed = StudentT.critical95(degreesOfFreedom: nu)
            // rounded to three decimals, it is the table's figure
            #expect((computed * 1000).rounded() / 1000 == t, "ν = \(nu): \(computed)")
        }
    }

    /// ν = 1 and ν = 2 have closed forms, so the computation is checked far
    /// beyond the tables' three decimals: ν = 1 is the Cauchy distribution,
    /// t = tan(π(p − 1/2)); ν = 2 gives t = (2p − 1)·sqrt(2/(4p(1 − p)))
    /// (A&S 26.7.1 integrated); p = 0.975.
    @Test func agreesWithTheClosedFormsToTenDigits() {
        let cauchy = Foundation.tan(Double.pi * 0.475)          // 12.7062047...
        let two = 0.95 * (2 / (4 * 0.975 * 0.025)).squareRoot() // 4.3026527...
        #expect(abs(StudentT.critical95(degreesOfFreedom: 1) - cauchy) < 1e-9 * cauchy)
        #expect(abs(StudentT.critical95(degreesOfFreedom: 2) - two) < 1e-9 * two)
    }

    /// The values no longer step: between two table rows (ν = 30, 40) every
    /// ν gives its own value, each below the one before, and a large ν
    /// approaches the normal distribution's 1.959964 from above.
    @Test func fallsSmoothlyTowardsTheNormalValue() {
        var previous = StudentT.critical95(degreesOfFreedom: 30)
        for nu in 31...40 {
            let t = StudentT.critical95(degreesOfFreedom: nu)
            #expect(t < previous, "ν = \(nu)")
            previous = t
        }
        // the old table's step: ν = 31 used ν = 40's 2.021, 0.9% below 2.0395
        #expect(StudentT.critical95(degreesOfFreedom: 31) > 2.039)
        let large = StudentT.critical95(degreesOfFreedom: 1_000_000)
        #expect(large > 1.959963 && large < 1.959967, "\(large)")
    }

    /// The tail the quantile inverts: P(|T| > t) at the critical value is
    /// 0.05, and at t = 0 it is 1.
    @Test func theTailAtTheCriticalValueIs5Percent() {
        for nu in [1, 3, 7, 31, 500] {
            let t = StudentT.critical95(degreesOfFreedom: nu)
            #expect(abs(StudentT.twoSidedTail(t, degreesOfFreedom: Double(nu)) - 0.05) < 1e-12, "ν = \(nu)")
        }
        #expect(StudentT.twoSidedTail(0, degreesOfFreedom: 5) == 1)
    }
}
