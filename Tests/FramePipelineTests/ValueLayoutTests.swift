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

/// The iOS budget's per-frame instants (``BudgetStamps``): a slot per
/// display buffer, which the frame holding the buffer owns.
@Suite struct BudgetStampsTests {
    @Test func eachFrameInFlightKeepsItsInstantsInItsBuffersSlot() throws {
        var stamps = BudgetStamps()
        stamps.keep()
        // frames 100 ..< 130 take the three buffers in turn; each is latched
        // once the two after it began (three in flight)
        for id in Int64(100)..<130 {
            let buffer = Int8(id % 3)
            stamps.began(id, buffer: buffer, prepareStart: id * 10)
            stamps.submitted(buffer: buffer, at: id * 10 + 1)
            stamps.gpuRan(buffer: buffer, from: id * 10 + 2, to: id * 10 + 3)
            if id >= 102 {
                let latched = stamps.latched(id - 2, buffer: Int8((id - 2) % 3))
                let f = try #require(latched).value
                #expect(f.prepareStart == (id - 2) * 10 && f.submitted == (id - 2) * 10 + 1)
                #expect(f.gpuStart == (id - 2) * 10 + 2 && f.gpuEnd == (id - 2) * 10 + 3)
            }
        }
        #expect(stamps.missing == 0)
    }

    @Test func aMetalFrameStartsWhenItJoinsTheGPUQueue() throws {
        var stamps = BudgetStamps()
        stamps.keep()
        stamps.began(0, buffer: 1, prepareStart: -1)
        stamps.submitted(buffer: 1, at: 50)
        let f = stamps.latched(0, buffer: 1)
        #expect(f?.value.prepareStart == 50)
    }

    /// A frame whose buffer another frame took since (a buffer conflict),
    /// or one that never began, is missing.
    @Test func aFrameWhoseSlotWasTakenIsMissing() {
        var stamps = BudgetStamps()
        stamps.keep()
        stamps.began(0, buffer: 0, prepareStart: 0)
        stamps.began(1, buffer: 0, prepareStart: 5)
        let f = stamps.latched(0, buffer: 0)
        #expect(f == nil)
        #expect(stamps.missing == 1)
        let never = stamps.latched(7, buffer: 2)
        #expect(never == nil)
        #expect(stamps.missing == 2)
        #expect(stamps.latched(1, buffer: 0)?.value.prepareStart == 5)
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
        #expect(copy.withUnsafeMutableBufferPointer { splits.count($0.baseAddress!, mismatched: false) })
        return false
    }

    /// Before anything is foretold the expected entry matches no split, a
    /// split of zeros (a frame with nothing to wait for) among them.
    @Test(arguments: [[0, 0, 1], [0, 1], [0, 1, 2, 3, 4], [0, 0, 0, 1, 1], [5, 0], [5, 5, 3]])
    func aCycleIsForetoldAfterItsFirstTurns(_ cycle: [Int]) {
        let kinds: [[SimTime]] = [[10, 2, 3], [10, 2, 4], [7, 7, 7], [1, 0, 0], [0, 0, 1], [0, 0, 0]]
        let splits = Splits(width: 3)
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
        splits.settle()
        let distinct = Set(cycle).count
        #expect(splits.used == distinct)
        for k in 0..<splits.used {
            let row = Array(UnsafeBufferPointer(start: splits.split(k), count: 3))
            let kind = kinds.firstIndex(of: row)!
            #expect(splits.counts[k] == turns * cycle.filter { $0 == kind }.count)
        }
    }

    /// Cycles that change after long foretold runs (longer than the frames
    /// remembered): the frames foretold are counted as the entries they
    /// were, and the new cycle is learned from the history they left.
    @Test func aChangedCycleIsCountedAndLearned() {
        let kinds: [[SimTime]] = [[10, 2, 3], [10, 2, 4], [7, 7, 7], [1, 0, 0]]
        // (cycle, turns): a period is learned from the frames remembered,
        // so once they are all of the new cycle, and its next turn, every
        // frame is foretold
        let segments: [([Int], Int)] = [([0, 1], 25), ([0, 0, 1], 10), ([2, 3, 3], 10), ([0], 20), ([3, 1], 2)]
        let splits = Splits(width: 3)
        var sequence: [Int] = []
        for (cycle, turns) in segments {
            var frame = 0
            for _ in 0..<turns {
                for k in cycle {
                    sequence.append(k)
                    let hit = count(kinds[k], in: splits)
                    #expect(hit || frame < Splits.historySize + cycle.count, "cycle \(cycle), frame \(frame): looked up")
                    frame += 1
                }
            }
        }
        splits.settle()
        #expect(splits.used == 4)
        for k in 0..<splits.used {
            let row = Array(UnsafeBufferPointer(start: splits.split(k), count: 3))
            let kind = kinds.firstIndex(of: row)!
            #expect(splits.counts[k] == sequence.filter { $0 == kind }.count, "kind \(kind)")
        }
    }
}
