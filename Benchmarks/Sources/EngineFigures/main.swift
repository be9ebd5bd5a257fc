// EngineFigures: the engine speed figures the project's notes quote.
//
// Runs the `ios9-coalescing-120hz` scenario for 600 simulated seconds 5
// times, and the bare simulation core (BenchSupport.EmptyEventLoop) over the
// same simulated time 5 times; prints the best and median events per wall
// second and real-time factor (simulated s / wall s) of each, their ratio,
// and, when python3 with simpy is there, the SimPy peer's real-time factor
// and our speed-up over it.
//
//   cd Benchmarks && swift run -c release --scratch-path .build EngineFigures
//
// The peer script is found at $LATSIM_SIMPY_PEER, or as
// shared/peers/simpy_pipeline.py in a parent folder of the working directory
// or of this source file.

import BenchSupport
import Foundation
import FramePipeline
import Scenarios
import SimKernel

let scenarioName = "ios9-coalescing-120hz"
let duration = "600s"
let runs = 5
let peerRuns = 3

struct Sample { var eventsPerSecond: Double; var realTimeFactor: Double }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// 12.3M, 456.7k, 89.0
func si(_ x: Double) -> String {
    if x >= 1e9 { return String(format: "%.2fG", x / 1e9) }
    if x >= 1e6 { return String(format: "%.2fM", x / 1e6) }
    if x >= 1e3 { return String(format: "%.1fk", x / 1e3) }
    return String(format: "%.1f", x)
}

func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("EngineFigures: " + message + "\n").utf8))
    exit(1)
}

// MARK: the pipeline

let config: PipelineConfiguration
do {
    config = try Scenario.named(scenarioName).configuration([Assignment(path: "duration", value: duration, source: SettingSource())])
} catch {
    fail("\(scenarioName) at \(duration): \(error)")
}

var pipeline: [Sample] = []
var pipelineEvents = 0
for run in 0...runs { // run 0 warms up and is not counted
    let r: RunResult
    do { r = try PipelineRun.run(config) } catch { fail("\(error)") }
    pipelineEvents = r.events
    if run == 0 { continue }
    pipeline.append(Sample(eventsPerSecond: r.eventsPerSecond, realTimeFactor: r.realTimeFactor))
}

// MARK: the empty event loop, over as many events as the pipeline processed

var empty: [Sample] = []
var emptyEvents = 0
let simulated = config.duration
_ = EmptyEventLoop.run(for: simulated) // warm-up
for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    emptyEvents = EmptyEventLoop.run(for: simulated)
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    empty.append(Sample(eventsPerSecond: Double(emptyEvents) / wall, realTimeFactor: Double(simulated) / 1e9 / wall))
}

// MARK: the SimPy peer

/// Runs a command; returns its exit status and standard output.
func run(_ arguments: [String]) -> (status: Int32, output: Data)? {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = arguments
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, data)
}

func findPeer() -> String? {
    let fm = FileManager.default
    if let env = ProcessInfo.processInfo.environment["LATSIM_SIMPY_PEER"] {
        return fm.fileExists(atPath: env) ? env : nil
    }
    let relative = "shared/peers/simpy_pipeline.py"
    for start in [fm.currentDirectoryPath, URL(fileURLWithPath: #filePath).deletingLastPathComponent().path] {
        var dir = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            let candidate = dir.appendingPathComponent(relative).path
            if fm.fileExists(atPath: candidate) { return candidate }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { break }
            dir = parent
        }
    }
    return nil
}

struct Peer { var realTimeFactors: [Double]; var events: Int; var engine: String; var input: String }

func runPeer() -> (Peer?, String) {
    guard let script = findPeer() else { return (nil, "skipped: shared/peers/simpy_pipeline.py not found (set LATSIM_SIMPY_PEER)") }
    guard let check = run(["python3", "-c", "import simpy"]), check.status == 0 else {
        return (nil, "skipped: python3 with simpy not found (pip install simpy==4.1.2)")
    }
    var peer = Peer(realTimeFactors: [], events: 0, engine: "SimPy", input: "?")
    for _ in 0..<peerRuns {
        guard let r = run(["python3", script, "--scenario", scenarioName, "--duration", duration, "--json", "-"]), r.status == 0,
              let json = try? JSONSerialization.jsonObject(with: r.output) as? [String: Any],
              let engine = json["engine"] as? [String: Any],
              let rtf = (engine["realTimeFactor"] as? NSNumber)?.doubleValue else {
            return (nil, "failed: \(script) did not give engine.realTimeFactor")
        }
        peer.realTimeFactors.append(rtf)
        peer.events = (engine["events"] as? NSNumber)?.intValue ?? 0
        peer.engine = engine["engine"] as? String ?? "SimPy"
        peer.input = (json["input"] as? [String: Any])?["trajectory"] as? String ?? "?"
    }
    return (peer, script)
}

let (peer, peerNote) = runPeer()

// MARK: report

let best = { (xs: [Sample], k: KeyPath<Sample, Double>) in xs.map { $0[keyPath: k] }.max()! }
let mid = { (xs: [Sample], k: KeyPath<Sample, Double>) in median(xs.map { $0[keyPath: k] }) }

print("latsim engine, \(scenarioName), \(duration) simulated, \(runs) runs each after a warm-up (best / median)")
print("  " + pad("", 12) + pad("events", 10) + pad("events/s", 20) + "realTimeFactor")
for (name, xs, n) in [("pipeline", pipeline, pipelineEvents), ("empty loop", empty, emptyEvents)] {
    print("  " + pad(name, 12) + pad(String(n), 10)
          + pad(si(best(xs, \.eventsPerSecond)) + " / " + si(mid(xs, \.eventsPerSecond)), 20)
          + String(format: "%.0fx / %.0fx", best(xs, \.realTimeFactor), mid(xs, \.realTimeFactor)))
}
print(String(format: "  pipeline / empty loop events/s: %.2f / %.2f",
             best(pipeline, \.eventsPerSecond) / best(empty, \.eventsPerSecond),
             mid(pipeline, \.eventsPerSecond) / mid(empty, \.eventsPerSecond)))
if let peer {
    let pBest = peer.realTimeFactors.max()!, pMid = median(peer.realTimeFactors)
    print(String(format: "  SimPy peer (%@, %d events, %d runs): realTimeFactor %.0fx / %.0fx",
                 peer.engine, peer.events, peerRuns, pBest, pMid))
    print("    its input: \(peer.input)")
    print(String(format: "  speed-up over the peer: %.0fx / %.0fx",
                 best(pipeline, \.realTimeFactor) / pBest, mid(pipeline, \.realTimeFactor) / pMid))
} else {
    print("  SimPy peer: " + peerNote)
}
