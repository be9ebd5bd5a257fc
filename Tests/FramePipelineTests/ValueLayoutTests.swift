@testable import FramePipeline
import SimKernel
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

/// The budget's table of distinct splits foretells a split that comes
/// round in a cycle, so a chain matches it as it is walked.
@Suite struct SplitsTests {
    /// Counts `split` as a chain would: as the expected entry when it is
    /// that one, else by looking for it. Returns whether it was foretold.
    private func count(_ split: [SimTime], in splits: Splits) -> Bool {
        let expected = splits.expected
        var copy = split
        if split.indices.allSatisfy({ expected[$0] == split[$0] }) {
            splits.countExpected()
            return true
        }
        #expect(copy.withUnsafeMutableBufferPointer { splits.count($0.baseAddress!) })
        return false
    }

    /// Before anything is foretold the expected entry matches no split, a
    /// split of zeros (a frame with nothing to wait for) among them.
    @Test(arguments: [[0, 0, 1], [0, 1], [0, 1, 2, 3, 4], [0, 0, 0, 1, 1], [5, 0], [5, 5, 3]])
    func aCycleIsForetoldAfterItsFirstTurns(_ cycle: [Int]) {
        let kinds: [[SimTime]] = [[10, 2, 3], [10, 2, 4], [7, 7, 7], [1, 0, 0], [0, 0, 1], [0, 0, 0]]
        let splits = Splits(stages: 3)
        let turns = 20
        var foretold = 0, late = 0
        for turn in 0..<turns {
            for k in cycle {
                let hit = count(kinds[k], in: splits)
                if hit { foretold += 1 } else if turn >= 2 { late += 1 }
            }
        }
        // after two turns every split is foretold
        #expect(late == 0)
        #expect(foretold >= (turns - 2) * cycle.count)
        // and every frame is counted once, as its own split
        let distinct = Set(cycle).count
        #expect(splits.used == distinct)
        for k in 0..<splits.used {
            let row = Array(UnsafeBufferPointer(start: splits.split(k), count: 3))
            let kind = kinds.firstIndex(of: row)!
            #expect(splits.counts[k] == turns * cycle.filter { $0 == kind }.count)
        }
    }
}
