import Experiments
import FramePipeline
import Scenarios
import Foundation
import SimKernel

extension ReportWriter {
    /// Two sweeps: GPU time on iOS 8 (where adaptive buffering goes triple)
    /// and handler time on iOS 9 with 120 Hz coalescing.
    public func sweepSection(_ page: Page) throws -> Page {
        var page = page
        page.add("## Sweeps")
        page.add()
        page.add("`latsim sweep` runs a grid of configurations on all cores; each point below is one run of \(duration) simulated. Solid lines are the median touch-to-photon latency, dashed the 99th percentile, dotted the frame rate on the right axis.")
        page.add()
        let sweeps: [(String, String, String, String)] = [
            ("ios8", "gpu.render=2ms...20ms:1ms", "sweep-gpu",
             "With a 3 ms prepare the render server's frame fits a display period while prepare plus GPU do; past that, adaptive buffering allocates a third buffer and holds the frame rate at one more frame of latency, until the GPU alone takes longer than a frame and the frame rate falls."),
            ("ios9-coalescing-120hz", "app.handler=1ms...30ms:1ms", "sweep-handler",
             "The iOS 9 pipeline keeps its 2.5 frames while handler, prepare and GPU fit in the frame; a longer handler makes the frame miss the next vsync, and a handler longer than a frame is still busy at the next frame start, so touches are delivered every other frame, coalesced, and the frame rate halves."),
        ]
        for (scenario, vary, name, text) in sweeps {
            progress("sweep \(scenario) \(vary)")
            let axis = try SweepAxis(parsing: vary)
            let result = try Sweep.run(scenario: try Scenario.named(scenario), assignments: assignments(), axes: [axis])
            page.add("### `latsim sweep \(scenario) --vary \(vary)`")
            page.add()
            page.chart(try render(SweepOutput.chart(result), name), alt: "sweep of \(axis.path) on \(scenario)")
            page.add(text + " " + SweepOutput.narrative(result))
            page.add()
        }
        return page
    }
}
