import SimKernel
import Testing

/// A percentage is read the same wherever latsim asks for one.
@Suite struct PercentSyntaxTests {
    @Test(arguments: [("5", 5.0), ("5%", 5), (" 0.5 % ", 0.5), ("2.25%", 2.25), ("0", 0), ("1e2%", 100)] as [(String, Double)])
    func aPercentageWithOrWithoutItsSign(_ text: String, _ value: Double) {
        #expect(NumberSyntax.percent(text) == value)
    }

    @Test(arguments: ["", "%", "5%%", "%5", "0x10", "nan%", "five", "5 percent", "5%x"])
    func anythingElseIsNotAPercentage(_ text: String) {
        #expect(NumberSyntax.percent(text) == nil, "\(text)")
    }
}
