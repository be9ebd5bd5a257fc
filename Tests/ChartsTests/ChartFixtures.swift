import Charts
import SimKernel

/// Charts the content tests look into beyond the registry's examples.
enum ChartFixtures {
    /// The talk's iOS 8 pipeline, double buffered (the registry's example).
    static func ios8Diagram() -> PipelineDiagramChart { PipelineDiagramChart.example }

    /// The same pipeline with a GPU job that overruns the frame: the render
    /// server needs a third buffer and every frame is on screen one frame
    /// later (five frames from scan to photon).
    static func ios8TripleDiagram() -> PipelineDiagramChart {
        PipelineDiagramChart.talkPipeline(gpuMs: 14, buffers: 3, latchDelayFrames: 4,
                                          subtitle: "ios8, heavy GPU — 5 frames from scan to photon (triple buffering)")
    }
}
