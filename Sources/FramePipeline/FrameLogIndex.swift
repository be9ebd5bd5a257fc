import SimKernel

/// Looks up the pieces of a ``FrameLog`` that belong to one touch: its scan
/// window, the handler run that got it, the commit, the frame's prepare and
/// GPU job, and the latch that showed it.
public struct FrameLogIndex {
    public let log: FrameLog
    public private(set) var scanBySample: [Int64: FrameLog.Scan] = [:]
    public private(set) var handlerByMainTouch: [Int64: FrameLog.Handler] = [:]
    public private(set) var commitBySeq: [Int64: FrameLog.CommitMark] = [:]
    public private(set) var prepareByFrame: [Int64: FrameLog.Prepare] = [:]
    public private(set) var gpuByFrame: [Int64: FrameLog.GPUWork] = [:]
    /// Metal work riding with a Core Animation frame, by commit.
    public private(set) var metalByCommit: [Int64: FrameLog.GPUWork] = [:]

    public init(_ log: FrameLog) {
        self.log = log
        for s in log.scans { scanBySample[s.index] = s }
        for h in log.handlers { handlerByMainTouch[h.mainTouch] = h }
        for c in log.commits { commitBySeq[c.seq] = c }
        for p in log.prepares { prepareByFrame[p.frame] = p }
        for g in log.gpuJobs {
            if g.frame >= 0 { gpuByFrame[g.frame] = g } else { metalByCommit[g.commitSeq] = g }
        }
    }

    /// Latches that put a new frame on screen, each with the time the next
    /// one replaced it (or `end`).
    public func shownFrames(until end: SimTime) -> [(latch: FrameLog.Latch, until: SimTime)] {
        let fresh = log.latches.filter { !$0.repeated }
        return fresh.enumerated().map { i, l in (l, i + 1 < fresh.count ? fresh[i + 1].time : end) }
    }

    /// The stages one measured frame went through, in order.
    public struct Journey {
        public var scan: FrameLog.Scan
        public var handler: FrameLog.Handler?
        public var commit: FrameLog.CommitMark?
        public var prepare: FrameLog.Prepare?
        public var gpu: FrameLog.GPUWork?
        public var latch: FrameLog.Latch
    }

    public func journey(of latch: FrameLog.Latch) -> Journey? {
        guard let scan = scanBySample[latch.mainTouch] else { return nil }
        return Journey(scan: scan, handler: handlerByMainTouch[latch.mainTouch], commit: commitBySeq[latch.commitSeq],
                       prepare: prepareByFrame[latch.frame], gpu: gpuByFrame[latch.frame], latch: latch)
    }
}
