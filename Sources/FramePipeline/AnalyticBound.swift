import SimKernel

/// The least touch-to-photon latency a configuration allows, from its
/// durations alone (Docs/Model.md, "Invariants"): no frame may beat it.
public enum AnalyticBound {
    /// Lower bound of touch-to-photon in ns: the rest of the scan window
    /// after the sample instant, the digitizer delay, the handler's work up
    /// to its first commit, the render work (prepare + GPU, or the Metal
    /// GPU job when presented directly), the scan-out row and the panel.
    public static func touchToPhotonNanos(_ c: PipelineConfiguration) -> SimTime {
        let scan = PeriodicClock(hz: c.scanHz).periodNanos
        let restOfWindow = SimTime(((1 - c.sampleInstant.doubleValue) * scan).rounded(.down)) - 1
        let handler = c.handler.lowerBound / Int64(c.commits)
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
