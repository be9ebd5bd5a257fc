@testable import FramePipeline
import Testing

/// The sizes the engine's speed depends on (Docs/Engine.md, "No copies per
/// event"): a commit is copied into and out of its ring at every commit and
/// latch, and past 128 bytes the copy becomes a call to `memcpy`.
@Suite struct ValueLayoutTests {
    @Test func aTouchLeavesRoomForAFlagInItsStride() {
        #expect(MemoryLayout<Touch>.size <= 58)
        #expect(MemoryLayout<Touch>.stride == 64)
    }

    @Test func aCommitIsCopiedInline() {
        #expect(MemoryLayout<Commit>.size <= 128)
    }
}
