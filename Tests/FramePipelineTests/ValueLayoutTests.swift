@testable import FramePipeline
import Testing

/// The sizes the engine's speed depends on (Docs/Engine.md, "No copies per
/// event"): a commit is copied into and out of its ring at every commit and
/// latch, and past 128 bytes the copy becomes a call to `memcpy`.
@Suite struct ValueLayoutTests {
    @Test func aTouchLeavesRoomForAFlagInItsStride() {
        // 8-byte fields, then its three flags: 59 bytes of a 64-byte stride
        #expect(MemoryLayout<Touch>.size <= 59)
        #expect(MemoryLayout<Touch>.stride == 64)
    }

    @Test func aCommitIsCopiedInline() {
        #expect(MemoryLayout<Commit>.size <= 128)
    }
}

/// The iOS budget's per-frame instants (``BudgetStamps``): a table by frame
/// number that doubles when more frames are in flight than it holds.
@Suite struct BudgetStampsTests {
    @Test func framesBeyondTheTablesFirstSizeKeepTheirInstants() throws {
        var stamps = BudgetStamps()
        stamps.keep()
        // 40 frames in flight at once (the table starts with 16 slots)
        for id in Int64(100)..<140 {
            stamps.began(id, prepareStart: id * 10)
            stamps.submitted(id, at: id * 10 + 1)
            stamps.gpuRan(id, from: id * 10 + 2, to: id * 10 + 3)
        }
        let latched = stamps.latched(120)
        let f = try #require(latched)
        #expect(f.prepareStart == 1200 && f.submitted == 1201 && f.gpuStart == 1202 && f.gpuEnd == 1203)
        // the frames before it were dropped with it; the ones after are kept
        let dropped = stamps.latched(110)
        #expect(dropped == nil)
        #expect(stamps.missing == 1)
        let latchedLast = stamps.latched(139)
        let last = try #require(latchedLast)
        #expect(last.gpuEnd == 1393)
        #expect(stamps.missing == 1)
    }

    @Test func aMetalFrameStartsWhenItJoinsTheGPUQueue() throws {
        var stamps = BudgetStamps()
        stamps.keep()
        stamps.began(0, prepareStart: -1)
        stamps.submitted(0, at: 50)
        let f = stamps.latched(0)
        #expect(f?.prepareStart == 50)
    }

    @Test func aFrameOutOfOrderIsMissing() {
        var stamps = BudgetStamps()
        stamps.keep()
        stamps.began(0, prepareStart: 0)
        stamps.began(2, prepareStart: 0)
        #expect(stamps.missing == 1)
        let f = stamps.latched(2)
        #expect(f == nil)
        #expect(stamps.missing == 2)
    }
}
