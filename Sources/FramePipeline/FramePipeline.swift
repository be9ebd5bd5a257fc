// FramePipeline
