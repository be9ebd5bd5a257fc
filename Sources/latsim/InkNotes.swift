import FramePipeline
import SimKernel

extension RunTable {
    /// The lines under a run's budget: the Android timing notes
    /// (``androidNote(_:)``) and the ink app's unknowns, a mid-frame read's
    /// lead and the front buffer's plane (Docs/Ink.md). Nil when there is
    /// nothing to say.
    static func budgetNote(_ c: PipelineConfiguration) -> String? {
        var notes: [String] = []
        if let lead = c.ink.midFrameLead, c.platform == .ios {
            notes.append("- mid-frame read is app.midFrameLead, an unpublished unknown from 0 to 1 frame (Apple claims only \"4 ms of our improvement\"), here \(formatDecimal(Double(lead) / 1e6, places: 3)) ms before the vsync its frame is for; mid-frame wait is the handler's end to that read, the commit right after it.")
        }
        if c.frontBuffered {
            let plane = c.ink.frontBufferPlane == .overlay
                ? "an overlay plane: scan race is the wait for the scan-out to pass the measured row after the draw; compose wait is 0 but for draws made before SurfaceFlinger showed the layer (a stroke's first)"
                : "GPU composition: every draw waits for SurfaceFlinger's next latch and its present (compose wait), then the scan-out to the row"
            notes.append("- the front buffer is on \(plane); the plane is display.frontBufferPlane, an unpublished unknown (overlay or composition).")
        }
        let android = androidNote(c)
        if notes.isEmpty { return android }
        return ([android].compactMap { $0 } + notes).joined(separator: "\n")
    }
}
