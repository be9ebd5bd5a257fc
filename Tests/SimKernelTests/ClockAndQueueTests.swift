@testable import SimKernel
import Testing

@Suite struct ClockTests {
    @Test func sixtyHertzTicksRoundHalfUpAndNeverDrift() {
        let c = PeriodicClock(hz: Rational(60))
        #expect(c.tick(1) == 16_666_667)
        #expect(c.tick(2) == 33_333_333)
        #expect(c.tick(3) == 50_000_000)
        #expect(c.tick(600) == 10_000_000_000)
        #expect(c.tick(216_000_000) == 3_600_000 * 1_000_000_000) // 1000 hours later, still exact
    }

    @Test(arguments: ["60", "120", "59.94", "240", "90", "47.952"])
    func tickerWalksExactlyTheTicksOfTheClock(_ hz: String) throws {
        let rate = try #require(Rational(decimal: hz))
        let c = PeriodicClock(hz: rate, phase: 1_234)
        var t = c.ticks(from: 7)
        for k in 7..<20_000 {
            #expect(t.time == c.tick(Int64(k)))
            t.advance()
        }
        #expect(c.index(atOrBefore: c.tick(500)) == 500)
        #expect(c.index(atOrBefore: c.tick(500) - 1) == 499)
        #expect(c.index(atOrAfter: c.tick(500) + 1) == 501)
    }

    @Test func durationsParseWithUnitsAndFrames() throws {
        let frame = Rational(1_000_000_000, 60)
        #expect(try DurationSyntax.parse("4ms", framePeriod: frame) == 4_000_000)
        #expect(try DurationSyntax.parse("250us", framePeriod: frame) == 250_000)
        #expect(try DurationSyntax.parse("1.5s", framePeriod: frame) == 1_500_000_000)
        #expect(try DurationSyntax.parse("1frame", framePeriod: frame) == 16_666_667)
        #expect(try DurationSyntax.parse("0.5frames", framePeriod: frame) == 8_333_333)
        #expect(try DurationSyntax.parse("0.5ns", framePeriod: frame) == 1) // half up
        #expect(throws: LatsimError.self) { try DurationSyntax.parse("4", framePeriod: frame) }
        #expect(throws: LatsimError.self) { try DurationSyntax.parse("fast", framePeriod: frame) }
    }
}

/// A test model's events: identity in declaration order, tie rank apart.
enum TestEvent: UInt8, SimulationEvent {
    case late, early, middle
    var tieRank: UInt8 {
        switch self {
        case .early: return 1
        case .middle: return 2
        case .late: return 9
        }
    }
    var name: String { "\(self)" }
}

@Suite struct EventSchedulerTests {
    @Test func equalTimesComeOutByTieRankThenSchedulingOrder() {
        var q = EventScheduler<TestEvent>(capacity: 2)
        q.schedule(.late, at: 10, payload: 1)
        q.schedule(.middle, at: 10, payload: 2)
        q.schedule(.late, at: 5, payload: 3)
        q.schedule(.middle, at: 10, payload: 4)
        q.schedule(.early, at: 10, payload: 5)
        q.schedule(.early, at: 20, payload: 6)
        var order: [UInt8] = []
        var kinds: [TestEvent] = []
        while let e = q.pop(before: .max) {
            order.append(e.payload)
            kinds.append(e.event)
            #expect(q.now == e.time)
        }
        #expect(order == [3, 5, 2, 4, 1, 6])
        #expect(kinds == [.late, .early, .middle, .middle, .late, .early])
    }

    /// An event due now is handled at once when nothing that comes before
    /// it waits at this instant (counted as handled within), and scheduled
    /// at this instant otherwise, behind what waits.
    @Test func anEventDueNowIsHandledAtOnceUnlessAnEarlierOneWaits() {
        var q = EventScheduler<TestEvent>(capacity: 4)
        q.schedule(.early, at: 10, payload: 1)
        q.schedule(.late, at: 10, payload: 2)
        #expect(q.pop(before: .max)?.payload == 1)
        // only a later rank (late, 9) waits at 10: middle (2) would be next
        let middleNow = q.handleNow(.middle)
        #expect(middleNow)
        #expect(q.within[Int(TestEvent.middle.rawValue)] == 1 && q.count == 1)
        // an early (1) waits at 10 now: the late one scheduled after it
        q.schedule(.early, at: 10, payload: 3)
        let lateNow = q.handleNow(.late)
        #expect(!lateNow)
        #expect(q.within[Int(TestEvent.late.rawValue)] == 0)
        var order: [UInt8] = []
        while let e = q.pop(before: .max) { order.append(e.payload) }
        #expect(order == [3, 2, 0])
    }

    @Test func aRandomScheduleComesOutSorted() {
        var rng = SeededRandom(seed: 9)
        var q = EventScheduler<TestEvent>()
        var expected: [(SimTime, UInt8, Int)] = []
        for i in 0..<5_000 {
            let t = SimTime(rng.next() % 1_000), k = TestEvent.allCases[Int(rng.next() % 3)]
            q.schedule(k, at: t, payload: UInt8(i % 256))
            expected.append((t, k.tieRank, i))
        }
        expected.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        var got: [UInt8] = []
        while let e = q.pop(before: .max) { got.append(e.payload) }
        #expect(got == expected.map { UInt8($0.2 % 256) })
    }

    @Test func eventsAtOrAfterTheEndAreNotHandled() {
        var q = EventScheduler<TestEvent>()
        q.schedule(.early, at: 99)
        q.schedule(.early, at: 100)
        #expect(q.pop(before: 100)?.time == 99)
        #expect(q.pop(before: 100) == nil)
    }
}

/// Counts down: each event schedules the next one period later, and every
/// third one also a `late` event at the same instant.
struct Countdown: SimulationModel {
    var left: Int
    var seen: [(SimTime, TestEvent)] = []
    func start(_ s: inout EventScheduler<TestEvent>) { s.schedule(.middle, at: 0) }
    mutating func handle(_ event: TestEvent, payload: UInt8, _ s: inout EventScheduler<TestEvent>) {
        seen.append((s.now, event))
        switch event {
        case .middle:
            left -= 1
            if left > 0 { s.schedule(.middle, after: 10) }
            if left % 3 == 0 { s.schedule(.late, at: s.now); s.schedule(.early, at: s.now) }
        case .late, .early:
            break
        }
    }
}

@Suite struct SimulationTests {
    @Test func runUntilHandlesEveryEventBeforeTheEndAndCountsThemByKind() {
        let sim = Simulation(model: Countdown(left: 10))
        let (model, counts) = sim.run(until: 55)
        #expect(model.seen.filter { $0.1 == .middle }.map(\.0) == [0, 10, 20, 30, 40, 50])
        #expect(counts[.middle] == 6)
        // left hits 9 and 6 at t = 0 and 30: a same-instant early, then late
        #expect(counts[.early] == 2 && counts[.late] == 2)
        #expect(counts.total == 10)
        #expect(counts.byKind.map(\.event) == TestEvent.allCases, "counts come in the enum's order")
        let at30 = model.seen.filter { $0.0 == 30 }.map(\.1)
        #expect(at30 == [.middle, .early, .late], "scheduled at the instant, ranked: early before late")
    }

    @Test func stepHandlesOneEventAtATime() {
        var sim = Simulation(model: Countdown(left: 2))
        let first = sim.step()
        let (t1, left1) = (sim.now, sim.model.left)
        let second = sim.step()
        let (t2, left2) = (sim.now, sim.model.left)
        // left is 0 at t = 10: an early and a late event follow at once
        let third = sim.step(), fourth = sim.step()
        let kinds = sim.model.seen.map(\.1)
        let fifth = sim.step()
        #expect(first && t1 == 0 && left1 == 1)
        #expect(second && t2 == 10 && left2 == 0)
        #expect(third && fourth && kinds == [.middle, .middle, .early, .late])
        #expect(!fifth, "nothing left")
    }
}

@Suite struct RandomAndDistributionTests {
    @Test func theSameSeedGivesTheSameStreamAndStreamsDiffer() {
        var a = SeededRandom(seed: 42), b = SeededRandom(seed: 42), c = SeededRandom(seed: 42, stream: 1)
        let xs = (0..<8).map { _ in a.next() }, ys = (0..<8).map { _ in b.next() }, zs = (0..<8).map { _ in c.next() }
        #expect(xs == ys)
        #expect(xs != zs)
        var u = SeededRandom(seed: 1)
        for _ in 0..<10_000 { let x = u.nextUnit(); #expect(x >= 0 && x < 1) }
    }

    @Test func distributionsDrawWithinTheirBoundsWithTheirMeans() throws {
        var rng = SeededRandom(seed: 3)
        let frame = Rational(16_666_667)
        let uniform = try DurationDistribution.parse("uniform(2ms,6ms)", framePeriod: frame)
        let normal = try DurationDistribution.parse("normal(1ms,2ms)", framePeriod: frame)
        let logn = try DurationDistribution.parse("lognormal(4ms,0.3)", framePeriod: frame)
        let emp = try DurationDistribution.parse("empirical(1ms,2ms,5ms)", framePeriod: frame)
        var us = 0.0, ls: [SimTime] = []
        for _ in 0..<20_000 {
            let u = uniform.draw(&rng)
            #expect(u >= 2_000_000 && u <= 6_000_000)
            us += Double(u)
            #expect(normal.draw(&rng) >= 0, "normal is clamped at 0")
            ls.append(logn.draw(&rng))
            #expect([1_000_000, 2_000_000, 5_000_000].contains(emp.draw(&rng)))
        }
        #expect(abs(us / 20_000 - 4_000_000) < 40_000)
        ls.sort()
        #expect(abs(Double(ls[10_000]) - 4_000_000) < 60_000, "lognormal median")
        var r2 = SeededRandom(seed: 3)
        let before = r2
        _ = DurationDistribution.fixed(5).draw(&r2)
        #expect(r2.next() == { var b = before; return b.next() }(), "a fixed value draws no random number")
        #expect(throws: LatsimError.self) { try DurationDistribution.parse("uniform(6ms,2ms)", framePeriod: frame) }
        #expect(throws: LatsimError.self) { try DurationDistribution.parse("gamma(1ms,2ms)", framePeriod: frame) }
        #expect(throws: LatsimError.self) { try DurationDistribution.parse("-3ms", framePeriod: frame) }
        #expect(uniform.description == "uniform(2ms,6ms)")
    }
}

@Suite struct StreamingStatsTests {
    static func exactPercentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted[max(0, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
    }

    @Test func meanIsExactAndPercentilesAreWithinATenthOfAPercent() {
        var rng = SeededRandom(seed: 5)
        var s = StreamingStats(resolution: 1e3, highestValue: 100_000)
        var xs: [Double] = []
        for i in 0..<50_000 {
            // runs of repeats, pairs taking turns, and scattered values
            let x = i % 7 < 3 ? 29.166667 : (i % 7 < 5 ? (i % 2 == 0 ? 33.3 : 37.5) : 1 + 80 * rng.nextUnit())
            s.record(x)
            xs.append(x)
        }
        xs.sort()
        #expect(s.count == 50_000)
        #expect(abs(s.mean! - xs.reduce(0, +) / 50_000) < 1e-9)
        #expect(s.min == xs.first! && s.max == xs.last!)
        for p in [1.0, 25, 50, 90, 99, 99.9] {
            let e = Self.exactPercentile(xs, p)
            #expect(abs(s.percentile(p)! - e) <= 1e-3 * e + 1e-3, "p\(p): \(s.percentile(p)!) vs \(e)")
        }
    }

    /// Values taking turns in cycles of two to seven (more than the four
    /// held at once, so they are also added on the way), and a cycle that
    /// changes: every figure is the sorted values' own.
    @Test func valuesTakingTurnsAreCountedWhateverTheCycle() {
        for cycle in 2...7 {
            var s = StreamingStats(resolution: 1e6, highestValue: 1_000)
            var xs: [Double] = []
            for i in 0..<5_000 {
                // two samples a frame, a nanosecond of jitter in a cycle
                let x = (i % 2 == 0 ? 29.166666 : 37.5) + Double(i % cycle) * 1e-6 + (i >= 4_000 ? 0.5 : 0)
                s.record(x)
                xs.append(x)
            }
            xs.sort()
            #expect(s.count == xs.count)
            #expect(s.min == xs.first! && s.max == xs.last!, "cycle \(cycle)")
            for p in [0.0, 1, 25, 50, 75, 99, 100] {
                #expect(s.percentile(p) == Self.exactPercentile(xs, p), "cycle \(cycle), p\(p)")
            }
            let exact = xs.reduce(0, +) / Double(xs.count)
            #expect(abs(s.mean! - exact) <= 1e-12 * exact, "cycle \(cycle)")
            #expect(s.distribution().count == Set(xs).count)
        }
    }

    @Test func identicalValuesReportThatValueExactly() {
        var s = StreamingStats(resolution: 1e5, highestValue: 10_000)
        for _ in 0..<1_000 { s.record(2.5) }
        #expect(s.percentile(50) == 2.5 && s.percentile(99) == 2.5 && s.mean == 2.5)
    }

    /// `record(x, count: n)` reports what n calls of `record(x)` report:
    /// count, extremes and percentiles, exactly (in the exact table and in
    /// the histograms, past 64 distinct values, negative ones included),
    /// and the mean to the last bits.
    @Test func recordingACountIsRecordingThatManyTimes() {
        var rng = SeededRandom(seed: 11)
        var batched = StreamingStats(resolution: 1e3, highestValue: 100_000), single = batched
        for round in 0..<400 {
            let x = round < 40 ? Double(round % 5) * 2.5 : (rng.nextUnit() - 0.1) * 90
            let n = 1 + Int(rng.nextUnit() * 9)
            batched.record(x, count: n)
            for _ in 0..<n { single.record(x) }
        }
        batched.settle()
        single.settle()
        #expect(batched.count == single.count && batched.count > 400)
        #expect(batched.min == single.min && batched.max == single.max)
        let ps = [0.0, 1, 10, 25, 50, 75, 90, 99, 99.9, 100]
        #expect(batched.percentiles(ps) == single.percentiles(ps))
        #expect(abs(batched.mean! - single.mean!) <= 1e-12 * abs(single.mean!) + 1e-12)
    }

    @Test func negativeValuesAndMergingKeepTheOrder() {
        var a = StreamingStats(resolution: 1e3, highestValue: 1_000), b = a
        for x in stride(from: -50.0, to: 0, by: 1) { a.record(x) }
        for x in stride(from: 0.0, to: 50, by: 1) { b.record(x) }
        a.merge(b)
        #expect(a.count == 100 && a.min == -50 && a.max == 49)
        // within HdrHistogram's three significant digits
        #expect(abs(a.percentile(25)! - (-26)) <= 0.026, "\(String(describing: a.percentile(25)))")
        #expect(abs(a.percentile(75)! - 24) <= 0.024, "\(String(describing: a.percentile(75)))")
        #expect(abs(a.mean! - (-0.5)) < 1e-12)
        let cdf = a.distribution()
        #expect(cdf.count == 100, "\(cdf.count)")
        #expect(abs(cdf.first!.value - (-50)) <= 0.05, "\(cdf.prefix(3))")
        #expect(cdf.last!.fraction == 1)
    }
}

/// The events of a model with periodic sources, twice: once with two of
/// them as clocks (slots beside the heap), once with every kind in the heap.
enum ClockedEvent: UInt8, SimulationEvent {
    case tick, scan, job, decision
    var tieRank: UInt8 {
        switch self {
        case .tick: return 2
        case .scan: return 3
        case .job: return 1
        case .decision: return 3 // shares the scan's rank: the scheduling order decides
        }
    }
    var name: String { "\(self)" }
    var clock: Int {
        switch self {
        case .tick: return 0
        case .scan: return 1
        case .job, .decision: return -1
        }
    }
    static var clocks: Int { 2 }
}

enum HeapEvent: UInt8, SimulationEvent {
    case tick, scan, job, decision
    var tieRank: UInt8 { ClockedEvent(rawValue: rawValue)!.tieRank }
    var name: String { "\(self)" }
}

/// Periodic ticks (10) and scans (5, sometimes landing on a tick), random
/// jobs, and decisions at the current instant: the order of handling must
/// not depend on where the periodic kinds are kept.
struct PeriodicSources<E: SimulationEvent>: SimulationModel {
    typealias Event = E
    var rng = SeededRandom(seed: 4)
    var seen: [(SimTime, UInt8)] = []
    func start(_ s: inout EventScheduler<E>) {
        s.schedule(E(rawValue: 0)!, at: 0)
        s.schedule(E(rawValue: 1)!, at: 0)
    }
    mutating func handle(_ event: E, payload: UInt8, _ s: inout EventScheduler<E>) {
        seen.append((s.now, event.rawValue))
        switch event.rawValue {
        case 0: s.schedule(event, after: 10)
        case 1:
            if payload == 0 { s.schedule(event, after: 5) } // an extra scan (payload 1) is once
            if rng.next() % 3 == 0 { s.schedule(E(rawValue: 2)!, after: SimTime(rng.next() % 12)) }
            if rng.next() % 4 == 0 { s.schedule(E(rawValue: 3)!, at: s.now) }
        default:
            // a clock kind scheduled while its slot is taken goes to the heap
            if rng.next() % 5 == 0 { s.schedule(E(rawValue: 1)!, at: s.now + 5, payload: 1) }
        }
    }
}

@Suite struct ClockSlotTests {
    @Test func clocksHandleEventsInExactlyTheHeapsOrder() {
        let clocked = Simulation(model: PeriodicSources<ClockedEvent>()).run(until: 100_000)
        let heap = Simulation(model: PeriodicSources<HeapEvent>()).run(until: 100_000)
        #expect(clocked.model.seen.count == heap.model.seen.count)
        #expect(clocked.model.seen.count > 25_000)
        #expect(clocked.model.seen.elementsEqual(heap.model.seen) { $0.0 == $1.0 && $0.1 == $1.1 })
        #expect(clocked.events.total == heap.events.total)
    }

    @Test func aSchedulerWithClocksCountsAndDropsThemToo() {
        var q = EventScheduler<ClockedEvent>()
        q.schedule(.tick, at: 7)
        q.schedule(.job, at: 9)
        q.schedule(.scan, at: 3)
        let pending = q.count, next = q.next?.time
        #expect(pending == 3)
        #expect(next == 3)
        #expect(q.pop(before: 100)?.event == .scan)
        #expect(q.pop(before: 100)?.event == .tick)
        q.schedule(.tick, at: 12)
        #expect(q.pop(before: 100)?.event == .job)
        #expect(q.pop(before: 10) == nil) // the tick at 12 is after the end
        q.schedule(.scan, at: 20)
        q.removeAll()
        let empty = q.isEmpty
        #expect(empty)
        #expect(q.pop(before: .max) == nil)
    }
}
