import FramePipeline
import SimKernel
import TouchModel

// The 3D Touch keys' own value type and the checks that relate them to one
// another (Docs/Force.md, "Keys").

extension ValueType where Value == PressProfile {
    /// A press profile (``PressProfile/parse(_:framePeriod:)``).
    static var press: ValueType {
        ValueType(PressProfile.expected) { text, ctx throws(LatsimError) in
            do throws(LatsimError) { return try PressProfile.parse(text, framePeriod: ctx.framePeriod) } catch {
                throw failure(text, error.problem, PressProfile.expected)
            }
        }
    }
}

extension Settings {
    /// The force keys against one another: pop above peek, both reachable
    /// below the device's largest force, a release level above 0, and a
    /// press that stays within the largest force.
    func checkForce(_ c: PipelineConfiguration) throws(LatsimError) {
        let f = c.force
        // made only for a message: every sweep point passes this check
        var largest: String { "device.maximumForce = \(formatDecimal(f.maximumForce, places: 6))" }
        if f.press.peakForce > f.maximumForce {
            throw error("input.press", problem: "reaches a force of \(formatDecimal(f.press.peakForce, places: 6)), above \(largest)",
                        expected: "a press whose forces stay at or below the device's largest force")
        }
        if f.press.shape != .none && c.taps {
            throw error("input.press", problem: "presses a tapping finger (input.trajectory: taps), whose touches carry no force",
                        expected: "input.press: none with taps, or a drawing trajectory (strokes, circle, ...) under a press")
        }
        guard f.interaction == .peekPop else { return }
        if f.peek > f.maximumForce {
            throw error("app.force.peek", problem: "is above \(largest): no press could peek",
                        expected: "a peek threshold at or below the device's largest force")
        }
        if f.pop <= f.peek {
            throw error("app.force.pop", problem: "is not above app.force.peek = \(formatDecimal(f.peek, places: 6))",
                        expected: "a pop threshold above the peek threshold")
        }
        if f.pop > f.maximumForce {
            throw error("app.force.pop", problem: "is above \(largest): no press could pop",
                        expected: "a pop threshold at or below the device's largest force")
        }
        if f.hysteresis >= f.peek {
            throw error("app.force.hysteresis", problem: "reaches app.force.peek = \(formatDecimal(f.peek, places: 6)): a preview could never end",
                        expected: "a hysteresis below the peek threshold")
        }
    }
}
