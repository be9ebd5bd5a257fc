import SimKernel
import Testing

/// The display clock whose rate changes (``SwitchingTicker``; Docs/Model.md,
/// "Time"): segments each with its own rate and anchor, every tick rounded
/// from its index in its segment.
@Suite struct SwitchingTickerTests {
    /// With no switch it walks exactly the periodic clock's ticks.
    @Test func withoutASwitchItIsThePeriodicClock() {
        let c = PeriodicClock(hz: Rational(60))
        var t = SwitchingTicker(clock: c)
        for k in 0..<10_000 {
            #expect(t.time == c.tick(Int64(k)))
            t.advance()
        }
    }

    /// 60 Hz, then 120 Hz from tick 3 (50 ms): ticks 50 + round(j x
    /// 8,333,333.33) ns: 58,333,333, 66,666,667, 75,000,000; back to 60 Hz
    /// from 75 ms: 91,666,667 (75 + 16.667, rounded from the new anchor).
    @Test func eachSegmentRoundsFromItsOwnAnchor() {
        var t = SwitchingTicker(clock: PeriodicClock(hz: Rational(60)))
        let moved = t.switchRate(at: 50_000_000, to: Rational(120))
        #expect(!moved)
        var seen: [SimTime] = []
        for _ in 0..<7 {
            seen.append(t.time)
            if t.time == 75_000_000 { _ = t.switchRate(at: 75_000_000, to: Rational(60)) }
            t.advance()
        }
        #expect(seen == [0, 16_666_667, 33_333_333, 50_000_000, 58_333_333, 66_666_667, 75_000_000])
        #expect(t.time == 91_666_667 && t.hz == Rational(60))
    }

    /// A walk already past the boundary (its pending tick is beyond it)
    /// moves back to the first tick of the new segment after its previous
    /// tick, and says its pending instant moved; the offset changes with
    /// the segment.
    @Test func aWalkPastTheBoundaryMovesBack() {
        var t = SwitchingTicker(clock: PeriodicClock(hz: Rational(60)), from: 2, offset: 30_000_000)
        t.advance() // pending tick 3 (50 ms), previous 33.333 ms
        #expect(t.time == 50_000_000 && t.instant == 20_000_000)
        // switch at 33.333 ms (already passed as a tick): the next tick of the new grid after it
        let back = t.switchRate(at: 33_333_333, to: Rational(120), offset: 20_000_000)
        #expect(back)
        #expect(t.time == 41_666_666 && t.instant == 21_666_666)
        // a switch at the pending tick keeps its time, changes its offset
        var u = SwitchingTicker(clock: PeriodicClock(hz: Rational(60)), offset: 10)
        let reoffset = u.switchRate(at: 0, to: Rational(90), offset: 20)
        #expect(reoffset && u.time == 0 && u.instant == -20)
        u.skip(before: 0)
        #expect(u.time == 11_111_111)
    }

    /// The scheduler moves a clock's pending event; one being handled (its
    /// slot empty) is left to its handler.
    @Test func aClocksPendingEventMoves() {
        var s = EventScheduler<ClockedEvent>()
        s.schedule(.tick, at: 100)
        s.schedule(.scan, at: 50)
        s.schedule(.job, at: 70)
        let movedTick = s.reschedule(.tick, at: 60)
        #expect(movedTick)
        var order: [(SimTime, ClockedEvent)] = []
        while let e = s.pop(before: .max) { order.append((e.time, e.event)) }
        #expect(order.map(\.0) == [50, 60, 70] && order.map(\.1) == [.scan, .tick, .job])
        let movedAgain = s.reschedule(.tick, at: 80)
        #expect(!movedAgain)
    }
}
