import FramePipeline
import SimKernel

/// The trace of a front-buffered Android app (Docs/Ink.md, "Traces"): both
/// layers. The wet stroke's track per thread (input, UI thread, the
/// front-buffer renderer, GPU) ends on the front buffer's own track, one
/// slice per draw from its end to the scan-out's pass over the pen's row
/// (the scan line's race), a torn draw marked; the dry stroke goes through
/// SurfaceFlinger to the display track (the multi-buffered layer), as an
/// Android frame does. One flow per draw joins scan, touch handler,
/// renderer, GPU and the race. ``FrontBufferTraceStream`` makes it.
enum FrontBufferTraceExport {
    /// The tracks, top to bottom (after the vsync track).
    static let threadTracks = [
        "Input (digitizer, InputReader, InputDispatcher)", "UI thread", "Front-buffer renderer thread", "GPU", "SurfaceFlinger",
        "Display (multi-buffered layer)", "Front buffer (scan-out at the pen's row)",
    ]
}
