import Experiments
import FramePipeline
import Measures
import Scenarios
import Foundation
import SimKernel
import Testing

/// Parameter sweeps: the `--vary` grammar, the grid, determinism across
/// thread counts, merging seeds, and two of the talk's findings as sweeps.
@Suite struct SweepTests {
    // MARK: grid parsing

    @Test func rangesExpandExactlyWithTheirUnits() throws {
        let gpu = try SweepAxis(parsing: "gpu.render=2ms...16ms:1ms")
        #expect(gpu.path == "gpu.render")
        #expect(gpu.values == (2...16).map { "\($0)ms" })
        #expect(gpu.numbers == (2...16).map(Double.init))
        #expect(gpu.unit == "ms")

        // default step for durations: ten equal steps, both ends included
        let tenths = try SweepAxis(parsing: "gpu.render=2ms...16ms")
        #expect(tenths.values == ["2ms", "3.4ms", "4.8ms", "6.2ms", "7.6ms", "9ms", "10.4ms", "11.8ms", "13.2ms", "14.6ms", "16ms"])

        // default step for whole numbers: 1
        #expect(try SweepAxis(parsing: "app.commits=1...3").values == ["1", "2", "3"])
        #expect(try SweepAxis(parsing: "device.scanHz=60...240:60").values == ["60", "120", "180", "240"])
        #expect(try SweepAxis(parsing: "device.scanHz=60...240").count == 181)

        // TO is included when it lies on the grid (exact decimals, no drift)...
        let tenth = try SweepAxis(parsing: "device.sampleInstant=0...1:0.1")
        #expect(tenth.count == 11 && tenth.values.last == "1" && tenth.values[3] == "0.3")
        #expect(try SweepAxis(parsing: "gpu.render=1ms...20ms:0.5ms").count == 39)
        // ...and left out when it does not
        #expect(try SweepAxis(parsing: "gpu.render=1ms...2ms:0.3ms").values == ["1ms", "1.3ms", "1.6ms", "1.9ms"])

        // time units mix, written in FROM's unit; a bare 0 takes TO's unit
        #expect(try SweepAxis(parsing: "gpu.render=500us...2ms:500us").values == ["500us", "1000us", "1500us", "2000us"])
        #expect(try SweepAxis(parsing: "os.dispatchDelay=0...2ms:1ms").values == ["0ms", "1ms", "2ms"])
        #expect(try SweepAxis(parsing: "app.prediction.horizon=0.5frames...1.5frames:0.5frame").values == ["0.5frames", "1frames", "1.5frames"])
        // FROM == TO is one point
        #expect(try SweepAxis(parsing: "gpu.render=4ms...4ms").values == ["4ms"])
    }

    /// A range is kept as its first value, step and count: any value is
    /// made on its own and is the one the whole list would hold, and the
    /// list itself is never made for one value (a shard's point).
    @Test func aRangeMakesEachValueWhenAskedFor() throws {
        let wide = try SweepAxis(parsing: "gpu.render=1ms...100.999ms:0.001ms")
        #expect(wide.count == 100_000 && wide.isNumeric && wide.unit == "ms")
        #expect(wide.value(at: 0) == "1ms" && wide.value(at: 1) == "1.001ms" && wide.value(at: 99_999) == "100.999ms")
        #expect(wide.number(at: 50_000) == 51 && wide.number(at: 99_999) == 100.999)
        for spec in ["gpu.render=2ms...16ms", "gpu.render=500us...2ms:500us", "device.sampleInstant=0...1:0.1", "device.scanHz=60...240:60"] {
            let a = try SweepAxis(parsing: spec)
            let values = a.values, numbers = a.numbers!
            #expect(values.count == a.count && numbers.count == a.count)
            for i in 0..<a.count {
                #expect(a.value(at: i) == values[i] && a.number(at: i) == numbers[i])
                // the number is the text's own
                #expect(Double(values[i].prefix { $0.isNumber || $0 == "." }) == numbers[i])
            }
        }
        // a list answers the same questions from its texts
        let list = try SweepAxis(parsing: "os.buffering=double,triple")
        #expect(!list.isNumeric && list.value(at: 1) == "triple" && list.number(at: 1) == nil)
    }

    @Test func listsKeepTheirTextAndKnowWhetherTheyAreNumbers() throws {
        let buffering = try SweepAxis(parsing: "os.buffering=double,triple,adaptive")
        #expect(buffering.values == ["double", "triple", "adaptive"])
        #expect(buffering.numbers == nil)
        let scan = try SweepAxis(parsing: "device.scanHz=60, 120, 240")
        #expect(scan.values == ["60", "120", "240"] && scan.numbers == [60, 120, 240])
        // commas inside a distribution do not split it
        #expect(try SweepAxis(parsing: "app.handler=uniform(2ms,6ms),normal(4ms,1ms),8ms").values
            == ["uniform(2ms,6ms)", "normal(4ms,1ms)", "8ms"])
        // `;` separates values that hold commas
        #expect(try SweepAxis(parsing: "app.animations=never;2s..4s,6s..7s").values == ["never", "2s..4s,6s..7s"])
        #expect(try SweepAxis(parsing: "gpu.render=2ms,500us").numbers == [2, 0.5])
    }

    /// Every malformed `--vary` is a ``SweepError`` naming the argument and
    /// what is expected.
    @Test(arguments: [
        ("gpu.render", "expected PATH=FROM...TO[:STEP] or PATH=A,B,C"),
        ("=2ms...4ms", "no key before `=`"),
        ("gpu.render=", "no values after `=`"),
        ("gpu.render=2ms...", "a range needs both ends"),
        ("gpu.render=...16ms", "a range needs both ends"),
        ("gpu.render=2ms...16ms:", "nothing after `:`"),
        ("gpu.render=2ms...16ms:0ms", "must be above zero"),
        ("gpu.render=2ms...16ms:0", "has the wrong unit"),
        ("gpu.render=2ms...16ms:-1ms", "must be above zero"),
        ("gpu.render=2ms...16ms:1", "has the wrong unit"),
        ("gpu.render=2ms...16ms:1frame", "has the wrong unit"),
        ("device.scanHz=60...240:1ms", "has the wrong unit"),
        ("gpu.render=2ms...16", "different units"),
        ("gpu.render=16ms...2ms", "is above TO"),
        ("gpu.render=2ms...8ms...16ms", "one `...`"),
        ("gpu.render=abc...16ms", "is not a number"),
        ("app.handler=1ns...200000ns:1ns", "more than the 100000"),
        ("os.buffering=double,,triple", "is empty"),
    ])
    func badVaryFormsAreRefusedClearly(argument: String, says: String) throws {
        do {
            _ = try SweepAxis(parsing: argument, source: SettingSource(file: "--vary"))
            Issue.record("'\(argument)' was accepted")
        } catch {
            #expect(error.file == "--vary" && error.value == argument)
            #expect(error.description.contains(says), "\(error.description)")
            #expect(error.description.contains("e.g."), "names what is expected: \(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func anUnknownKeyIsTheStandardScenarioError() throws {
        do {
            _ = try SweepAxis(parsing: "gpu.rendr=2ms...4ms")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.key == "gpu.rendr" && error.description.contains("did you mean 'gpu.render'"))
        }
    }

    @Test func theGridHasOneOrTwoDistinctAxesAndAtMostAHundredThousandPoints() throws {
        let a = try SweepAxis(parsing: "gpu.render=1ms...20ms:0.5ms")
        let b = try SweepAxis(parsing: "app.handler=1ms...25ms:1ms")
        let grid = try SweepGrid(axes: [a, b])
        #expect(grid.count == 39 * 25)
        #expect(grid.values(of: 0) == ["1ms", "1ms"])
        #expect(grid.values(of: 26) == ["1.5ms", "2ms"]) // first axis slowest
        #expect(grid.indices(of: 974) == [38, 24])

        let c = try SweepAxis(parsing: "device.scanHz=60,120")
        #expect(throws: LatsimError.self) { try SweepGrid(axes: []) }
        #expect(throws: LatsimError.self) { try SweepGrid(axes: [a, b, c]) }
        #expect(throws: LatsimError.self) { try SweepGrid(axes: [a, a]) }
        let wide = try SweepAxis(parsing: "app.handler=1us...1000us:1us")
        let tall = try SweepAxis(parsing: "gpu.render=1ms...101ms:1ms")
        do {
            _ = try SweepGrid(axes: [wide, tall])
            Issue.record("101000 points were accepted")
        } catch {
            #expect(error.description.contains("1000 x 101 = 101000 grid points"))
        }
        #expect(try SweepGrid(axes: [wide, try SweepAxis(parsing: "gpu.render=1ms...100ms:1ms")]).count == 100_000)
    }

    @Test func valuesAreCheckedByTheScenarioBeforeAnythingRuns() throws {
        let ios8 = try Scenario.named("ios8")
        let calls = SweepCallCounter()
        do {
            _ = try Sweep.run(scenario: ios8, assignments: try cli(duration: "1s"),
                              axes: [try SweepAxis(parsing: "gpu.render=2kg...4kg", source: SettingSource(file: "--vary"))],
                              progress: { _ in calls.add() })
            Issue.record("a bad value was accepted")
        } catch let error as LatsimError {
            #expect(error.key == "gpu.render" && error.value == "2kg" && error.file == "--vary")
        }
        #expect(calls.value == 0)
        #expect(throws: LatsimError.self) {
            try Sweep.run(scenario: ios8, assignments: try cli(["gpu.render=often"]), axes: [try SweepAxis(parsing: "app.commits=1...2")])
        }
        #expect(throws: LatsimError.self) {
            try Sweep.run(scenario: ios8, assignments: try cli(["app.commits=3"]), axes: [try SweepAxis(parsing: "app.commits=1...2")])
        }
        #expect(throws: LatsimError.self) {
            try Sweep.run(scenario: ios8, axes: [try SweepAxis(parsing: "app.commits=1...2")], seeds: 0)
        }
    }

    // MARK: running

    static let stochastic = ["app.handler=normal(4ms,1.5ms)", "renderServer.prepare=lognormal(3ms,0.3)"]

    @Test func resultsAreIdenticalAtOneAndTwoThreads() throws {
        let s = try Scenario.named("ios9-coalescing-120hz")
        let axes = [try SweepAxis(parsing: "gpu.render=6ms...14ms:2ms"), try SweepAxis(parsing: "os.buffering=double,adaptive")]
        let one = try Sweep.run(scenario: s, assignments: try cli(Self.stochastic, duration: "2s", seed: 5), axes: axes, seeds: 2, jobs: 1)
        let two = try Sweep.run(scenario: s, assignments: try cli(Self.stochastic, duration: "2s", seed: 5), axes: axes, seeds: 2, jobs: 2)
        let many = try Sweep.run(scenario: s, assignments: try cli(Self.stochastic, duration: "2s", seed: 5), axes: axes, seeds: 2, jobs: 7)
        #expect(one.rows.count == 10 && one.runs == 20)
        #expect(one.rows == two.rows)
        #expect(one.rows == many.rows)
        #expect(one.rows.map(\.values) == (0..<10).map { one.grid.values(of: $0) })
        #expect(one.rows.allSatisfy { $0.invariantsHold })
    }

    /// A point of one seed reads its figures in place
    /// (``FigureValues/init(single:configuration:)``) instead of pooling
    /// the run with itself: the values must be those pooling gives, for
    /// every figure and every built-in scenario (a statistic of one stream
    /// is that stream's, a mean of one value that value).
    @Test func aPointOfOneSeedHasThePooledFigures() throws {
        for s in BuiltinScenarios.all() {
            let c = try s.configuration(overrides: [], duration: "1s", seed: 3)
            let r = try PipelineRun.run(c)
            let single = FigureValues(single: r, configuration: c)
            let pooled = FigureValues(pooling: [(FigureValues(r), r.measurements)], configuration: c)
            #expect(single == pooled, "\(s.name)")
            #expect(Figure.allCases.contains { single[$0] != nil }, "\(s.name) produces figures")
        }
    }

    @Test func seedsAreMergedPercentilesFromHistogramsCountsAveraged() throws {
        let s = try Scenario.named("ios9-low-latency")
        let overrides = Self.stochastic + ["gpu.render=uniform(3ms,12ms)"]
        let progress = SweepProgressLog()
        let sweep = try Sweep.run(scenario: s, assignments: try cli(overrides, duration: "3s", seed: 11),
                                  axes: [try SweepAxis(parsing: "app.commits=1")], seeds: 3, jobs: 2, progress: { progress.add($0) })
        let row = try #require(sweep.rows.first)
        #expect(row.runs == 3)

        var merged: StreamingStats?
        var fps = 0.0, repeated = 0.0, means: Set<Double> = []
        for k in 0..<3 {
            let r = try runScenario("ios9-low-latency", overrides, duration: "3s", seed: 11 + UInt64(k))
            if merged == nil { merged = r.measurements.touchToPhotonMs } else { merged!.merge(r.measurements.touchToPhotonMs) }
            fps += r.framesPerSecond / 3
            repeated += Double(r.measurements.repeatedFrames) / 3
            means.insert(r.measurements.touchToPhotonMs.mean!)
        }
        #expect(means.count == 3, "the seeds give different runs")
        // latency statistics over the seeds' frames pooled, per-run figures their mean
        #expect(row.figures[.touchToPhotonP50] == merged!.percentile(50) && row.figures[.touchToPhotonP99] == merged!.percentile(99))
        #expect(abs(row.figures[.named("touchToPhotonMean")]! - merged!.mean!) < 1e-9)
        #expect(abs(row.figures[.fps]! - fps) < 1e-9)
        #expect(abs(row.figures[.named("repeatedFrames")]! - repeated) < 1e-9)

        // progress: once per run, never going back, ending at the total
        let seen = progress.values
        #expect(seen.count == 3 && seen.last?.completed == 3 && seen.allSatisfy { $0.total == 3 })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed })
    }

    /// The talk: when prepare + GPU no longer fit in a frame, adaptive
    /// buffering takes a third buffer, and the pipeline gets one frame
    /// longer while the frame rate holds.
    @Test func aGPUSweepOnIOS8StepsFromFourToFiveFramesWhereAdaptiveGoesTriple() throws {
        let sweep = try Sweep.run(scenario: try Scenario.named("ios8"), assignments: try cli(duration: "5s"),
                                  axes: [try SweepAxis(parsing: "gpu.render=2ms...16ms:1ms")])
        #expect(sweep.rows.count == 15)
        let frames = sweep.rows.map { $0.figures[.pipelineFramesP50]! }
        let triple = try sweep.rows.map { try #require($0.figures[.triplePercent]) / 100 }
        let onset = try #require(triple.firstIndex { $0 > 0.5 })
        #expect(onset > 0 && onset < sweep.rows.count - 1)
        #expect(frames[..<onset].allSatisfy { $0 == 4 }, "\(frames)")
        #expect(frames[onset...].allSatisfy { $0 == 5 }, "\(frames)")
        #expect(triple[..<onset].allSatisfy { $0 <= 0.5 } && triple[onset...].allSatisfy { $0 > 0.5 })
        // it happens where prepare (3 ms) + GPU first exceed a 16.67 ms frame
        #expect(sweep.rows[onset].values == ["14ms"])
        for row in sweep.rows {
            #expect(abs(row.figures[.fps]! - 60) < 1, "\(row.values): \(row.figures[.fps]!) fps")
            #expect(row.figures[.named("droppedFrames")] == 0 && row.invariantsHold)
        }
    }

    /// The talk: a 120 Hz scan takes half a frame off the pipeline.
    @Test func doublingTheScanRateLowersTheMedianByHalfAFrame() throws {
        let sweep = try Sweep.run(scenario: try Scenario.named("ios9-low-latency"),
                                  assignments: try cli(duration: "5s"), axes: [try SweepAxis(parsing: "device.scanHz=60...120:60")])
        #expect(sweep.rows.map(\.values) == [["60"], ["120"]])
        let at60 = try #require(sweep.rows[0].figures[.pipelineFramesP50])
        let at120 = try #require(sweep.rows[1].figures[.pipelineFramesP50])
        #expect(at60 == 3 && at120 == 2.5)
        let ms60 = try #require(sweep.rows[0].figures[.touchToPhotonP50])
        let ms120 = try #require(sweep.rows[1].figures[.touchToPhotonP50])
        // in ms it is a quarter frame: the sample is taken mid-window, and
        // the 120 Hz window is half as long, so the sample is T/4 older
        #expect(abs((ms60 - ms120) - 1000.0 / 60 / 4) < 0.01)
    }
}

/// Settings as the command line gives them: `--set`, `--duration`, `--seed`.
func cli(_ overrides: [String] = [], duration: String? = nil, seed: UInt64? = nil) throws -> [Assignment] {
    var a = try overrides.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) }
    if let duration { a.append(Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration"))) }
    if let seed { a.append(Assignment(path: "seed", value: String(seed), source: SettingSource(file: "--seed"))) }
    return a
}

/// A thread-safe count.
final class SweepCallCounter: @unchecked Sendable {
    private var n = 0
    private let lock = NSLock()
    func add() { lock.lock(); n += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return n }
}

/// Progress reports, in the order received.
final class SweepProgressLog: @unchecked Sendable {
    private var items: [SweepProgress] = []
    private let lock = NSLock()
    func add(_ p: SweepProgress) { lock.lock(); items.append(p); lock.unlock() }
    var values: [SweepProgress] { lock.lock(); defer { lock.unlock() }; return items }
}

/// fps in the steady state (README, "Output"): the fill before the first
/// frame does not count.
@Suite struct SteadyStateFrameRateTests {
    /// ios8 at 60 Hz shows a new frame at every vsync once its pipeline is
    /// full: 60, where frames over the whole run give 59.7 (597 of 600).
    @Test func aRunThatNeverMissesIsAtTheDisplayRate() throws {
        let r = try runScenario("ios8", duration: "10s")
        #expect(r.measurements.framesPresented == 597 && r.measurements.repeatedFrames == 0)
        #expect(r.framesPerSecond == 60)
    }

    /// slow-app's 20 ms handler makes every other vsync a repeat: 299 new
    /// frames in 597 vsyncs after the first, 30.05 fps.
    @Test func aThirtyFramesPerSecondApp() throws {
        let r = try runScenario("slow-app", duration: "10s")
        let m = r.measurements
        #expect(abs(r.framesPerSecond - Double(m.framesPresented) / Double(m.framesPresented + m.repeatedFrames) * 60) < 1e-9)
        #expect(abs(r.framesPerSecond - 30) < 0.1)
    }
}

private extension Figure {
    /// A declared figure by name.
    static func named(_ name: String) -> Figure { Figure(rawValue: name)! }
}
