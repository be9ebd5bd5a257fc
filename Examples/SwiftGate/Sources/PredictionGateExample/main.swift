// A team's own predictor, gated by latsim in CI.
//
//   swift run PredictionGateExample record [--baseline FILE] [--dataset DIR]
//   swift run PredictionGateExample check  [--baseline FILE] [--dataset DIR] [--junit FILE] [--overshoot K]
//
// `check` exits 0 when nothing regressed, 1 when something did, 2 on bad
// input (a missing or empty baseline), 3 when the machine fails.

import Foundation
import LatsimGate
import SimKernel
import TouchModel

/// The team's predictor: the velocity of the last two samples, damped a
/// little (velocity estimates overshoot where strokes turn), aiming
/// `overshoot` times as far as asked.
struct DampedLinear: TouchPredictor {
    var previous: TouchSample?
    var newest: TouchSample?
    var overshoot = 1.0

    mutating func reset() { previous = nil; newest = nil }

    mutating func observe(_ sample: TouchSample) {
        if let n = newest, sample.time <= n.time {
            if sample.time < n.time { previous = nil }
            newest = sample
            return
        }
        previous = newest
        newest = sample
    }

    mutating func predict(horizon: SimTime) -> TouchPoint? {
        guard let a = previous, let b = newest, b.time > a.time else { return nil }
        let k = 0.9 * overshoot * Double(horizon) / Double(b.time - a.time)
        return b.position + (b.position - a.position) * k
    }
}

/// The value after `name` in `arguments`, removed with it.
func option(_ name: String, _ arguments: inout [String]) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(i...(i + 1)) }
    return arguments[i + 1]
}
var arguments = Array(CommandLine.arguments.dropFirst())
let baseline = option("--baseline", &arguments) ?? "prediction-baseline.json"
let dataset = option("--dataset", &arguments)
let junit = option("--junit", &arguments)
let overshoot = option("--overshoot", &arguments).flatMap(Double.init) ?? 1
let mode = arguments.first ?? "check"

do {
    let gate = try PredictionGate(baseline: baseline, dataset: dataset)
    let outcome: GateOutcome
    switch mode {
    case "record": outcome = try gate.record(name: "damped-linear") { DampedLinear() }
    case "check": outcome = try gate.check(name: "damped-linear") { DampedLinear(overshoot: overshoot) }
    default:
        FileHandle.standardError.write(Data("usage: PredictionGateExample record|check [--baseline FILE] [--dataset DIR] [--junit FILE]\n".utf8))
        exit(2)
    }
    print(outcome.report)
    if let junit { try outcome.junitXML().write(toFile: junit, atomically: true, encoding: .utf8) }
    exit(outcome.exitStatus)
} catch let e as LatsimError {
    FileHandle.standardError.write(Data("error: \(e.description)\n".utf8))
    exit(e.kind == .badInput ? 2 : 3)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(3)
}
