@testable import Experiments
import FramePipeline
import Foundation
import Scenarios
import SimKernel
import Testing

/// Rows handed over as they complete (``PreparedSweep/run(jobs:progress:each:)``):
/// in grid order, one at a time, the same rows as a sweep that keeps them,
/// and nothing after a failed point.
@Suite struct SweepStreamingTests {
    /// The rows `each` receives, in the order received.
    final class Received: @unchecked Sendable {
        private var rows: [SweepRow] = []
        private var inside = 0
        private(set) var overlapped = false
        private let lock = NSLock()
        func add(_ r: SweepRow) {
            lock.withLock { inside += 1; if inside > 1 { overlapped = true } }
            // long enough that an overlapping call would be seen
            usleep(200)
            lock.withLock { rows.append(r); inside -= 1 }
        }
        var values: [SweepRow] { lock.withLock { rows } }
    }

    @Test func rowsComeInGridOrderAsTheKeptRowsAreAtAnyThreadCount() throws {
        let s = try Scenario.named("ios9-coalescing-120hz")
        // costs that differ from point to point: later points finish first
        let axes = [try SweepAxis(parsing: "gpu.render=1ms...12ms:1ms"), try SweepAxis(parsing: "os.buffering=double,adaptive")]
        let a = try cli(SweepTests.stochastic, duration: "1s", seed: 9)
        for seeds in [1, 3] {
            let kept = try Sweep.run(scenario: s, assignments: a, axes: axes, seeds: seeds, jobs: 1)
            for jobs in [1, 3] {
                let prepared = try Sweep.prepare(scenario: s, assignments: a, axes: axes, seeds: seeds, jobs: jobs)
                #expect(prepared.head.rows.isEmpty && prepared.head.figures == kept.figures)
                let received = Received()
                let result = try prepared.run(jobs: jobs) { received.add($0) }
                #expect(result.rows.isEmpty && result.runs == 24 * seeds)
                #expect(received.values.map(\.index) == Array(0..<24))
                #expect(received.values == kept.rows, "seeds \(seeds), jobs \(jobs)")
                #expect(!received.overlapped)
            }
        }
    }

    @Test func aShardsRowsStartAtItsFirstPoint() throws {
        let s = try Scenario.named("ios8")
        let axes = [try SweepAxis(parsing: "gpu.render=1ms...40ms:1ms")]
        let a = try cli(duration: "200ms")
        let whole = try Sweep.run(scenario: s, assignments: a, axes: axes, jobs: 2)
        let prepared = try Sweep.prepare(scenario: s, assignments: a, axes: axes, jobs: 2, shard: try Shard(index: 2, count: 4))
        let received = Received()
        _ = try prepared.run(jobs: 2) { received.add($0) }
        #expect(received.values.map(\.index) == Array(20..<30))
        #expect(received.values == Array(whole.rows[20..<30]))
    }

    /// Point 2's composition reaches the display period: points 0 and 1 are
    /// handed over, nothing after point 2 runs, and its error is thrown.
    @Test func nothingAfterAFailedPointRunsOrIsHandedOver() throws {
        let s = try Scenario.named("android-default")
        let axes = [try SweepAxis(parsing: "android.sfCompose=normal(1ms,0.1ms);normal(2ms,0.1ms);normal(14ms,3ms);normal(3ms,0.1ms);normal(1ms,0.1ms)")]
        let prepared = try Sweep.prepare(scenario: s, assignments: try cli(duration: "20s", seed: 1), axes: axes, jobs: 1)
        let received = Received()
        let progress = SweepProgressLog()
        #expect {
            _ = try prepared.run(jobs: 1, progress: { progress.add($0) }) { received.add($0) }
        } throws: { e in
            (e as? LatsimError)?.value == "normal(14ms,3ms)"
        }
        #expect(received.values.map(\.index) == [0, 1])
        #expect(progress.values.map(\.completed) == [1, 2, 3])
    }

    /// A row that cannot be written stops the sweep: its error is thrown,
    /// no later row is handed over and no later point runs.
    @Test func anErrorWritingARowStopsTheSweep() throws {
        struct Full: Error {}
        let s = try Scenario.named("ios8")
        let prepared = try Sweep.prepare(scenario: s, assignments: try cli(duration: "100ms"),
                                         axes: [try SweepAxis(parsing: "gpu.render=1ms...10ms:1ms")], jobs: 1)
        let received = Received()
        let progress = SweepProgressLog()
        #expect(throws: Full.self) {
            _ = try prepared.run(jobs: 1, progress: { progress.add($0) }) { row in
                if row.index == 3 { throw Full() }
                received.add(row)
            }
        }
        #expect(received.values.map(\.index) == [0, 1, 2])
        #expect(progress.values.count == 4)
    }
}

/// A grid of more points than a prepared sweep keeps the configurations
/// of: each point resolved again as it runs gives the same rows.
@Suite struct SweepResolvedAgainTests {
    @Test func pointsResolvedAgainGiveTheKeptPointsRows() throws {
        let s = try Scenario.named("ios9-coalescing-120hz")
        let axes = [try SweepAxis(parsing: "gpu.render=2ms...12ms:2ms"), try SweepAxis(parsing: "app.handler=normal(3ms,1ms);4ms")]
        let a = try cli(duration: "300ms", seed: 4)
        for seeds in [1, 2] {
            let kept = try Sweep.prepare(scenario: s, assignments: a, axes: axes, seeds: seeds, jobs: 2, maxEvents: 1e9, shard: nil, keeping: 100)
            let again = try Sweep.prepare(scenario: s, assignments: a, axes: axes, seeds: seeds, jobs: 2, maxEvents: 1e9, shard: nil, keeping: 0)
            #expect(kept.configurations?.count == 12 && again.configurations == nil)
            #expect(again.head.figures == kept.head.figures)
            let one = SweepStreamingTests.Received(), two = SweepStreamingTests.Received()
            _ = try kept.run(jobs: 2) { one.add($0) }
            _ = try again.run(jobs: 2) { two.add($0) }
            #expect(one.values.count == 12 && one.values == two.values)
        }
    }

    /// A point made again is not checked again, but gets what the checks
    /// set: the Pencil's own scan rate and the device preset. Run on a
    /// device whose Pencil scans at 240 Hz, its rows are the kept points'.
    @Test func pointsResolvedAgainKeepThePencilRateAndTheDevice() throws {
        let s = try Scenario.named("pencil-drawing").applying(device: try DevicePreset.named("ipad-pro-2017"))
        let axes = [try SweepAxis(parsing: "gpu.render=1ms...3ms:1ms")]
        let a = try cli(duration: "300ms", seed: 2)
        let kept = try Sweep.prepare(scenario: s, assignments: a, axes: axes, seeds: 1, jobs: 1, maxEvents: 1e9, shard: nil, keeping: 100)
        let again = try Sweep.prepare(scenario: s, assignments: a, axes: axes, seeds: 1, jobs: 1, maxEvents: 1e9, shard: nil, keeping: 0)
        let c = try #require(kept.configurations?.first?.configuration)
        #expect(c.scanHz == Rational(240) && c.devicePreset != nil)
        let (remade, _) = try again.configuration(0)
        #expect(remade.scanHz == c.scanHz && remade.devicePreset == c.devicePreset)
        let one = SweepStreamingTests.Received(), two = SweepStreamingTests.Received()
        _ = try kept.run(jobs: 1) { one.add($0) }
        _ = try again.run(jobs: 1) { two.add($0) }
        #expect(one.values.count == 3 && one.values == two.values)
    }

    /// A file a point's value names, gone between the checks and the run:
    /// the point fails with the file's error, as a run would; no crash.
    @Test func aFileGoneSinceThePointWasCheckedFailsThePoint() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("handler.csv")
        try "handler_ms\n3\n4\n5\n".write(to: file, atomically: true, encoding: .utf8)
        let axes = [try SweepAxis(parsing: "app.handler=2ms;empirical(@\(file.path):handler_ms)")]
        let prepared = try Sweep.prepare(scenario: try Scenario.named("ios8"), assignments: try cli(duration: "200ms"), axes: axes,
                                         seeds: 1, jobs: 1, maxEvents: 1e9, shard: nil, keeping: 0)
        try FileManager.default.removeItem(at: file)
        let received = SweepStreamingTests.Received()
        #expect {
            _ = try prepared.run(jobs: 1) { received.add($0) }
        } throws: { e in
            ((e as? LatsimError)?.description ?? "").contains("handler.csv")
        }
        #expect(received.values.map(\.index) == [0])
    }
}

/// A slow point holds back at most `ahead` rows done after it: the other
/// threads wait to start points further on, and the rows are the same.
@Suite struct SweepRowsAheadTests {
    @Test func aSlowPointHoldsAtMostTheRowsAheadOfIt() throws {
        let s = try Scenario.named("ios9-coalescing-120hz")
        // point 0 runs 3,600 s (a few tenths of a second), the 60 others
        // 10 ms each (a few ms in all): without a bound, nearly every row
        // would wait for point 0's. (At 300 s, some 30 ms, a loaded machine
        // once left the second thread unscheduled for all of it.)
        let axes = [try SweepAxis(parsing: "duration=3600s," + Array(repeating: "10ms", count: 60).joined(separator: ","))]
        let prepared = try Sweep.prepare(scenario: s, axes: axes, jobs: 2)
        let kept = try Sweep.run(scenario: s, axes: axes, jobs: 1)
        for ahead in [1, 3] {
            let received = SweepStreamingTests.Received()
            let (_, most) = try prepared.run(jobs: 2, progress: nil, ahead: ahead) { received.add($0) }
            #expect(most <= ahead, "ahead \(ahead)")
            #expect(received.values == kept.rows)
        }
        // with room for every row, rows do wait for the slow point (the
        // second thread runs all 60 short points while the first runs it).
        // A loaded machine may leave the second thread unscheduled for all
        // of it (the whole suite on two cores once did): up to five tries
        var most = 0
        for _ in 0..<5 where most <= 3 {
            most = try prepared.run(jobs: 2, progress: nil, ahead: 1000) { _ in }.mostWaiting
        }
        #expect(most > 3, "\(most)")
    }
}
