import Experiments
import Foundation
import FramePipeline
import Measures
import Scenarios
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
        return try seededSweep(page)
    }

    /// A sweep whose handler time varies from frame to frame, over several
    /// seeds: how sure each point is.
    func seededSweep(_ page: Page) throws -> Page {
        var page = page
        let scenario = "ios9-coalescing-120hz", vary = "gpu.render=2ms...12ms:1ms", handler = "lognormal(4ms,0.5)", seeds = 8
        progress("sweep \(scenario) \(vary), \(seeds) seeds")
        let axis = try SweepAxis(parsing: vary)
        let set = Assignment(path: "app.handler", value: handler, source: SettingSource(file: "report"))
        let result = try Sweep.run(scenario: try Scenario.named(scenario), assignments: assignments() + [set], axes: [axis], seeds: seeds)
        page.add("### `latsim sweep \(scenario) --vary \(vary) --set 'app.handler=\(handler)' --seeds \(seeds)`")
        page.add()
        page.chart(try render(SweepOutput.chart(result), "sweep-seeds"), alt: "sweep of gpu.render over \(seeds) seeds, with 95% intervals")
        var text = "With a handler time drawn afresh for every frame (median 4 ms, log-normal), a number depends on the seed. Each point is the mean over \(seeds) seeds; the band around a latency line and the bar on a frame rate are the 95% interval of that mean (Student's t). "
        // a half-width under the chart's precision (1 ns) is rounding, not the seeds' spread
        func halfWidth(_ row: SweepRow, _ f: Figure) -> Double {
            let h = row.seeds?.statistic(f)?.halfWidth95 ?? 0
            return h < 1e-6 ? 0 : h
        }
        let wide = result.rows.filter { halfWidth($0, .touchToPhotonP99) > 0 }
        let steady = result.rows.allSatisfy { halfWidth($0, .touchToPhotonP50) == 0 }
        if let widest = result.rows.max(by: { halfWidth($0, .touchToPhotonP99) < halfWidth($1, .touchToPhotonP99) }),
           case let h = halfWidth(widest, .touchToPhotonP99), h > 0 {
            text += "The 99th percentile is the uncertain figure: it moves by whole frames from seed to seed at \(wide.count) of \(result.rows.count) points, by up to ±\(formatDecimal(h, places: 1, fixed: true)) ms at \(widest.values[0])"
            text += steady ? ", while the median does not move at all. " : ". "
        }
        text += "A difference between two points smaller than their bands is the seed's, not the GPU's; `latsim compare --seeds` says so per figure."
        page.add(text)
        page.add()
        return page
    }
}
