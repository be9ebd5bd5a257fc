import SimKernel

/// The least touch-to-photon latency a configuration allows, from its
/// durations alone (Docs/Model.md, "Invariants"): no frame may beat it.
public enum AnalyticBound {
    /// Lower bound of touch-to-photon in ns: the rest of the scan window
    /// after the sample instant, the digitizer delay, the handler's work up
    /// to its first commit (none with a mid-frame read, whose touches go
    /// straight to the commit), the render work (prepare + GPU, or the Metal
    /// GPU job when presented directly), the scan-out row and the panel.
    ///
    /// On Android: the rest of the window and the digitizer delay, the UI
    /// thread's work, RenderThread's commands and the GPU job, the row and
    /// the panel (a front buffer: no row, its draw may end just before the
    /// scan-out reaches it). A resampled point's physical time is as far before the
    /// frame time as the sample's own (up to a nanosecond of rounding per
    /// window), so resampling cannot beat it; a touch-down frame waits for
    /// its handler too.
    public static func touchToPhotonNanos(_ c: PipelineConfiguration) -> SimTime {
        let scan = PeriodicClock(hz: c.scanHz).periodNanos
        let restOfWindow = SimTime(((1 - c.sampleInstant.doubleValue) * scan).rounded(.down)) - 1
        if c.platform == .android {
            // a front buffer's draw may end just before the scan-out reaches the row (Docs/Ink.md)
            let row = c.frontBuffered ? 0 : FrameGeometry(c).rowOffset ?? 0
            let work = c.handler.lowerBound + c.android.renderThread.lowerBound + c.gpuRender.lowerBound
            return Swift.max(0, Swift.max(0, restOfWindow) + c.digitizerDelay + work + row + c.panelResponse - 2)
        }
        // a touch a mid-frame read takes goes straight to the commit (Docs/Ink.md)
        let handler = c.midFrameRead ? 0 : c.handler.lowerBound / Int64(c.commits)
        let render: SimTime
        if c.metalDirect {
            render = c.appGPU.lowerBound
        } else {
            render = c.prepare.lowerBound + c.gpuRender.lowerBound
        }
        let row = FrameGeometry(c).rowOffset ?? 0
        return Swift.max(0, restOfWindow) + c.digitizerDelay + handler + render + row + c.panelResponse
    }
}
