// The engine suite: the whole pipeline, iOS (`ios9-coalescing-120hz`) and
// Android (`android-default`), at three simulated durations, and the bare
// event queue under it.
//
// Each duration has two benchmarks:
// - "<scenario> <duration>": wall clock, CPU, peak resident memory,
//   throughput (runs/s), and two custom metrics, events/s and
//   realTimeFactor (simulated s / wall s of the event loop, from RunResult);
// - "<scenario> <duration> mallocs": malloc calls per run, alone. It is kept
//   apart because the peakMemoryResident metric starts ordo-one/benchmark's
//   sampling thread (every ~5 ms), whose own mallocs are counted too: about
//   2 per 5 ms of wall time, which would make the count grow with the run's
//   length whatever the engine does.
// The two sweep benchmarks make the same 2,000 short runs, as 2,000 points
// of one seed and as 10 points of 200 seeds: a sweep that keeps every
// seed's figures should cost about what the single-seed one does (a point's
// seeds once cost time quadratic in their number).
//
// Malloc counts of the three durations should be equal: the engine allocates
// its histograms and small queues once, then nothing per event
// (ARCHITECTURE.md, "no allocation per event").
//
// Likewise cpuTotal reads /proc at the start and stop of each iteration, and
// those reads' ~16 mallocs land inside the counted region: benchmarks that
// count mallocs here do not ask for cpuTotal (whose 10 ms resolution says
// nothing about a 2 ms iteration anyway). Custom metrics are recorded after
// stopMeasurement(): recording one allocates inside the harness.

import Benchmark
import BenchSupport
import Experiments
import FramePipeline
import Scenarios
import SimKernel
import TouchModel

let eventsPerSecond = BenchmarkMetric.custom("events/s", polarity: .prefersLarger, useScalingFactor: false)
let realTimeFactor = BenchmarkMetric.custom("realTimeFactor", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
    // (simulated duration, wall-time budget, iteration cap)
    let durations: [(String, Duration, Int)] = [
        ("60s", .seconds(3), 200),
        ("600s", .seconds(6), 50),
        ("6000s", .seconds(10), 10),
    ]
    for scenario in ["ios9-coalescing-120hz", "android-default"] {
        for (duration, budget, cap) in durations {
            // Built once, outside the measured closure: YAML and validation are not the engine.
            let config: PipelineConfiguration
            do {
                config = try Scenario.named(scenario).configuration([Assignment(path: "duration", value: duration, source: SettingSource())])
            } catch {
                fatalError("\(scenario) at \(duration): \(error)")
            }

            Benchmark("\(scenario) \(duration)",
                      configuration: .init(metrics: [.wallClock, .cpuTotal, .peakMemoryResident, .throughput,
                                                     eventsPerSecond, realTimeFactor],
                                           warmupIterations: 1, maxDuration: budget, maxIterations: cap)) { benchmark in
                let result: RunResult
                do { result = try PipelineRun.run(config) } catch {
                    benchmark.error("\(error)")
                    return
                }
                benchmark.stopMeasurement()
                benchmark.measurement(eventsPerSecond, Int(result.eventsPerSecond))
                benchmark.measurement(realTimeFactor, Int(result.realTimeFactor))
                blackHole(result)
            }

            Benchmark("\(scenario) \(duration) mallocs",
                      configuration: .init(metrics: [.mallocCountTotal, .mallocBytesCount],
                                           warmupIterations: 1, maxDuration: budget, maxIterations: 5)) { benchmark in
                do { blackHole(try PipelineRun.run(config)) } catch { benchmark.error("\(error)") }
            }

            // the stage budget (`latsim run` keeps it): its storage is
            // allocated with the run, nothing per frame
            Benchmark("\(scenario) \(duration) budget",
                      configuration: .init(metrics: [.wallClock, .throughput, eventsPerSecond],
                                           warmupIterations: 1, maxDuration: budget, maxIterations: cap)) { benchmark in
                let result: RunResult
                do { result = try PipelineRun.run(config, keepBudget: true) } catch {
                    benchmark.error("\(error)")
                    return
                }
                benchmark.stopMeasurement()
                benchmark.measurement(eventsPerSecond, Int(result.eventsPerSecond))
                blackHole(result)
            }

            Benchmark("\(scenario) \(duration) budget mallocs",
                      configuration: .init(metrics: [.mallocCountTotal, .mallocBytesCount],
                                           warmupIterations: 1, maxDuration: budget, maxIterations: 5)) { benchmark in
                do { blackHole(try PipelineRun.run(config, keepBudget: true)) } catch { benchmark.error("\(error)") }
            }
        }
    }

    // 2,000 runs of 0.2 s on one thread: one seed per point, then 200 seeds per point
    let sweepScenario: Scenario
    do { sweepScenario = try Scenario.named("ios9-coalescing-120hz") } catch { fatalError("\(error)") }
    let sweepSettings = [Assignment(path: "duration", value: "0.2s", source: SettingSource()),
                         Assignment(path: "app.handler", value: "lognormal(4ms,0.5)", source: SettingSource())]
    for (name, vary, seeds) in [("2000 points x 1 seed", "seed=1...2000", 1), ("10 points x 200 seeds", "seed=1...10", 200)] {
        Benchmark("sweep \(name)",
                  configuration: .init(metrics: [.wallClock, .peakMemoryResident, .throughput],
                                       warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 20)) { benchmark in
            do {
                let axis = try SweepAxis(parsing: vary)
                blackHole(try Sweep.run(scenario: sweepScenario, assignments: sweepSettings, axes: [axis], seeds: seeds, jobs: 1))
            } catch {
                benchmark.error("\(error)")
            }
        }
    }

    // Events per wall second of a loop that returns the events it handled.
    func loopBenchmark(_ name: String, _ run: @escaping () -> Int) {
        Benchmark(name,
                  configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput, eventsPerSecond],
                                       warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 500)) { benchmark in
            let start = ContinuousClock.now
            let n = run()
            blackHole(n)
            let wall = ContinuousClock.now - start
            benchmark.stopMeasurement()
            let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
            if seconds > 0 { benchmark.measurement(eventsPerSecond, Int(Double(n) / seconds)) }
        }
    }

    // As many events as the 600 s pipeline run, through the bare simulation core.
    loopBenchmark("empty event loop") { EmptyEventLoop.run(for: 600 * Nanos.perSecond) }

    // The same sources, plus the finger at each scan and one latency
    // stream: the floor under any iOS pipeline model (BenchSupport.FloorModel).
    let floorTrajectory: Trajectory
    do {
        floorTrajectory = try FloorModel.trajectory(of: try Scenario.named("ios9-coalescing-120hz").configuration([]))
    } catch {
        fatalError("\(error)")
    }
    loopBenchmark("floor model") { FloorModel.run(for: 600 * Nanos.perSecond, trajectory: floorTrajectory).events }
}
