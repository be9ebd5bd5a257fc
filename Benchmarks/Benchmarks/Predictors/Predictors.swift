// The predictor suite: cost of observe + predict per delivered sample for
// each BuiltinPredictor kind and each platform predictor (PlatformPredictor:
// Chromium's set and androidx's Kalman), over 10,000 samples of the
// `strokes` trajectory taken every 8.333 ms (a 120 Hz scan); and the cost
// of one prediction over the predictor protocol's pipe (a process).

import Benchmark
import Foundation
import PredictorProcess
import SimKernel
import TouchModel

/// The samples, made once: the true finger positions of `strokes` with the
/// default parameters (the finger stays down), 8.333 ms apart.
func strokeSamples(count: Int = 10_000, every period: SimTime = 8_333_333) -> [TouchSample] {
    let trajectory: Trajectory
    do {
        trajectory = try Trajectory.make("strokes", parameters: TrajectoryParameters())
    } catch {
        fatalError("strokes trajectory: \(error)")
    }
    var samples: [TouchSample] = []
    samples.reserveCapacity(count)
    var t: SimTime = 0
    while samples.count < count {
        let state = trajectory.state(at: t)
        if state.isDown { samples.append(TouchSample(time: t, position: state.position)) }
        t += period
    }
    return samples
}

/// One frame at 60 Hz: the pipeline's default `app.prediction.horizon`.
let horizon: SimTime = 16_666_667

/// Picoseconds of observe + predict per sample (ns x 1000, so that the cheap
/// kinds keep a few significant digits); wallClock is per 10,000 samples.
let picosPerSample = BenchmarkMetric.custom("ps/sample", polarity: .prefersSmaller, useScalingFactor: false)

/// Feeds every sample to a fresh predictor and asks for a prediction after
/// each; returns a sum of the predictions so that none is optimised away.
@inline(never)
func observeAndPredict(_ configuration: PredictorConfiguration, _ samples: [TouchSample]) -> Double {
    var predictor = BuiltinPredictor(configuration)
    var sum = 0.0
    for s in samples {
        predictor.observe(s)
        if let p = predictor.predict(horizon: horizon) { sum += p.x + p.y }
    }
    return sum
}

/// The same for a platform predictor (the concrete type, as the app holds it).
@inline(never)
func observeAndPredict(platform configuration: PlatformPredictorConfiguration, _ samples: [TouchSample]) -> Double {
    var predictor = PlatformPredictor(configuration)
    var sum = 0.0
    for s in samples {
        predictor.observe(s)
        if let p = predictor.predict(horizon: horizon, frameInterval: horizon) { sum += p.x + p.y }
    }
    return sum
}

/// Builds Examples/predictors/linear.c with `cc` once; nil without a compiler.
let examplePredictor: String? = {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/predictors/linear.c").path
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-bench-linear").path
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "cc -O2 -ffp-contract=off -o '\(out)' '\(source)'"]
    guard (try? p.run()) != nil else { return nil }
    p.waitUntilExit()
    return p.terminationStatus == 0 ? out : nil
}()

/// The platform predictors benchmarked, by spec name.
let platformSpecs = [
    "chromium.empty", "chromium.linearFirst", "chromium.linearSecond", "chromium.leastSquares", "chromium.kalman",
    "chromium.kalman(heuristics,directionCutOff)", "chromium.linearResampling", "chromium.linearResampling(frames=0.5)",
    "chromium.kalman+1e", "androidx.kalman", "androidx.kalman(aggressive)",
]

// No cpuTotal: its /proc reads would add ~16 mallocs to each iteration's
// count (the predictors allocate none), and its 10 ms resolution says nothing
// about a 0.2-0.6 ms iteration.
let benchmarks: @Sendable () -> Void = {
    let samples = strokeSamples()
    let configurations: [PredictorConfiguration] = [
        PredictorConfiguration(kind: .none),
        PredictorConfiguration(kind: .linearFirst),
        PredictorConfiguration(kind: .linearSecond),
        PredictorConfiguration(kind: .leastSquares),
        PredictorConfiguration(kind: .kalman),
        PredictorConfiguration(kind: .kalman, oneEuro: OneEuroParameters()),
    ]
    for configuration in configurations {
        Benchmark("\(configuration.name) x10k samples",
                  configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput, picosPerSample],
                                       units: [picosPerSample: .count],
                                       warmupIterations: 10, maxDuration: .seconds(2), maxIterations: 2_000)) { benchmark in
            let start = ContinuousClock.now
            blackHole(observeAndPredict(configuration, samples))
            let wall = ContinuousClock.now - start
            // recorded outside the measured region: recording a custom metric allocates
            benchmark.stopMeasurement()
            let picos = Double(wall.components.seconds) * 1e12 + Double(wall.components.attoseconds) / 1e6
            benchmark.measurement(picosPerSample, Int(picos / Double(samples.count)))
        }
    }
    for name in platformSpecs {
        guard case .platform(let configuration)? = try? PredictorSpec(parsing: name) else { fatalError("not a platform spec: \(name)") }
        Benchmark("\(name) x10k samples",
                  configuration: .init(metrics: [.wallClock, .mallocCountTotal, .throughput, picosPerSample],
                                       units: [picosPerSample: .count],
                                       warmupIterations: 10, maxDuration: .seconds(2), maxIterations: 2_000)) { benchmark in
            let start = ContinuousClock.now
            blackHole(observeAndPredict(platform: configuration, samples))
            let wall = ContinuousClock.now - start
            benchmark.stopMeasurement()
            let picos = Double(wall.components.seconds) * 1e12 + Double(wall.components.attoseconds) / 1e6
            benchmark.measurement(picosPerSample, Int(picos / Double(samples.count)))
        }
    }
    // One prediction per sample over the predictor protocol: the sample and
    // the request written, the answer read and parsed. The process is
    // started once, outside the measured region.
    if let command = examplePredictor {
        let few = Array(samples.prefix(1_000))
        Benchmark("process: example-linear (C) x1k predictions",
                  configuration: .init(metrics: [.wallClock, .throughput, picosPerSample], units: [picosPerSample: .count],
                                       warmupIterations: 2, maxDuration: .seconds(3), maxIterations: 200)) { benchmark in
            benchmark.stopMeasurement()
            guard var p = try? PredictorCommand("'\(command)'").start(frameInterval: horizon) else { fatalError("cannot start \(command)") }
            p.reset()
            benchmark.startMeasurement()
            let start = ContinuousClock.now
            var sum = 0.0
            for s in few {
                p.observe(s)
                if let q = p.predict(horizon: horizon) { sum += q.x + q.y }
            }
            let wall = ContinuousClock.now - start
            benchmark.stopMeasurement()
            blackHole(sum)
            precondition(p.finish() == nil, "the example predictor failed")
            let picos = Double(wall.components.seconds) * 1e12 + Double(wall.components.attoseconds) / 1e6
            benchmark.measurement(picosPerSample, Int(picos / Double(few.count)))
        }
    }
}
