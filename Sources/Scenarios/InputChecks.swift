import FramePipeline
import SimKernel

// What the input keys must satisfy together (Docs/Devices.md, "Taps and
// touch-downs"). The scan rate the tool gives is set by
// `Settings.completeAcrossKeys`.
extension Settings {
    /// A tap must lift before the next slot can begin.
    func checkInput(_ c: borrowing PipelineConfiguration) throws(LatsimError) {
        if c.tapHold + c.tapJitter >= c.tapInterval {
            let key = entries["input.tapJitter"] != nil ? "input.tapJitter"
                : entries["input.tapHold"] != nil ? "input.tapHold" : "input.tapInterval"
            let what = c.trajectory == "drags" ? "drag" : "tap"
            throw error(key, problem: "a \(what) held \(DurationSyntax.format(c.tapHold)) with up to \(DurationSyntax.format(c.tapJitter)) of jitter does not lift before the next \(what)'s slot, \(DurationSyntax.format(c.tapInterval)) later",
                        expected: "input.tapHold + input.tapJitter below input.tapInterval")
        }
        if c.tapBurst > 1 && Int64(c.tapBurst - 1) * c.tapInterval + c.tapHold + c.tapJitter >= c.tapBurstInterval {
            throw error("input.tapBurstInterval", problem: "\(c.tapBurst) taps \(DurationSyntax.format(c.tapInterval)) apart, each held \(DurationSyntax.format(c.tapHold)) with up to \(DurationSyntax.format(c.tapJitter)) of jitter, do not lift before the next burst, \(DurationSyntax.format(c.tapBurstInterval)) later",
                        expected: "(input.tapBurst - 1) x input.tapInterval + input.tapHold + input.tapJitter below input.tapBurstInterval")
        }
        if c.blinks && !c.noFinger {
            throw error("app.updates", problem: "is blink on a run with a finger (input.trajectory: \(c.trajectory)): WALT's screen test draws on its own and ignores touches",
                        expected: "input.trajectory: none with app.updates: blink")
        }
        if c.blinks && c.platform == .ios && c.delivery == .perScan {
            throw error("app.updates", problem: "is blink with os.delivery: perScan: a blink is drawn at the next frame start (the display link), which per-scan delivery has none of",
                        expected: "os.delivery: coalesced with app.updates: blink")
        }
        if c.liftResponse && !c.taps {
            throw error("app.liftResponse", problem: "is set on a run whose finger does not tap (input.trajectory: \(c.trajectory)): the model reports the lift-offs of taps only",
                        expected: "input.trajectory: taps, or app.liftResponse: false")
        }
        if c.scrolls && c.taps {
            throw error("app.scrolls", problem: "is set on a run whose finger taps (input.trajectory: taps): a tap never moves, so nothing scrolls",
                        expected: "a moving finger (input.trajectory: drags, line, strokes, ...), or app.scrolls: false")
        }
    }
}
