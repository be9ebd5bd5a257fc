// EngineFigures: the engine speed figures the project's notes quote.
//
// Runs the `ios9-coalescing-120hz` and `android-default` scenarios for 600
// simulated seconds, the bare simulation core (BenchSupport.EmptyEventLoop)
// and the floor under any iOS pipeline model (BenchSupport.FloorModel: the
// empty loop plus the finger at each scan and one latency stream) over the
// same simulated time, in 21 rounds of one run each; prints the best and
// median events per wall second and real-time factor (simulated s / wall s)
// of each, the pipelines' and the floor's events per second as a share of
// the empty loop's, and, when python3 with simpy is there, the SimPy peers'
// real-time factors and our speed-up over them.
//
// A shared machine's speed moves by a factor of two from one second to the
// next, so a share is taken within each round, from runs a few milliseconds
// apart, and the median and range of the rounds' shares are printed: a
// ratio of two medians (or of two bests) taken at different moments moves
// with the machine.
//
//   cd Benchmarks && swift run -c release --scratch-path .build EngineFigures
//
// The peer scripts are found in $LATSIM_SIMPY_PEERS (a folder), or as
// shared/peers/simpy_pipeline.py and simpy_android.py in a parent folder of
// the working directory or of this source file.

import BenchSupport
import Foundation
import FramePipeline
import Scenarios
import SimKernel
import TouchModel

let scenarioNames = ["ios9-coalescing-120hz", "android-default"]
let peerScripts = ["ios9-coalescing-120hz": "simpy_pipeline.py", "android-default": "simpy_android.py"]
let duration = "600s"
let runs = 21
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

// MARK: the pipelines

var configs: [String: PipelineConfiguration] = [:]
for name in scenarioNames {
    do {
        configs[name] = try Scenario.named(name).configuration([Assignment(path: "duration", value: duration, source: SettingSource())])
    } catch {
        fail("\(name) at \(duration): \(error)")
    }
}

var pipeline: [String: [Sample]] = [:]
var pipelineEvents: [String: Int] = [:]
var empty: [Sample] = []
var emptyEvents = 0
var floor: [Sample] = []
var floorEvents = 0
var floorStream = StreamingStats(resolution: 1, highestValue: 1)
var floorPosition = TouchPoint(x: 0, y: 0)
let simulated = configs[scenarioNames[0]]!.duration
/// What `body` returns, and the wall seconds it took.
func timed<T>(_ body: () -> T) -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = body()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// A loop's events per wall second and real-time factor over `simulated`.
func loopSample(events: Int, wall: Double) -> Sample {
    Sample(eventsPerSecond: Double(events) / wall, realTimeFactor: Double(simulated) / 1e9 / wall)
}

let floorTrajectory: Trajectory
do { floorTrajectory = try FloorModel.trajectory(of: configs[scenarioNames[0]]!) } catch { fail("\(error)") }
// each round runs every scenario, the empty loop and the floor, one after the other,
// so a slow spell of a shared machine falls on all of them; round 0 warms up
// and is not counted. The empty loop handles as many events as the iOS
// pipeline (the pipeline's events include those handled within another).
for run in 0...runs {
    for name in scenarioNames {
        let r: RunResult
        do { r = try PipelineRun.run(configs[name]!) } catch { fail("\(error)") }
        pipelineEvents[name] = r.events
        if run == 0 { continue }
        pipeline[name, default: []].append(Sample(eventsPerSecond: r.eventsPerSecond, realTimeFactor: r.realTimeFactor))
    }
    let (emptyRun, emptyWall) = timed { EmptyEventLoop.run(for: simulated) }
    let (floorRun, floorWall) = timed { FloorModel.run(for: simulated, trajectory: floorTrajectory) }
    emptyEvents = emptyRun
    floorEvents = floorRun.events
    floorStream = floorRun.model.stream
    floorPosition = floorRun.model.newestPosition
    if run == 0 { continue }
    empty.append(loopSample(events: emptyEvents, wall: emptyWall))
    floor.append(loopSample(events: floorEvents, wall: floorWall))
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

func findPeer(_ script: String) -> String? {
    let fm = FileManager.default
    if let env = ProcessInfo.processInfo.environment["LATSIM_SIMPY_PEERS"] {
        let path = URL(fileURLWithPath: env).appendingPathComponent(script).path
        return fm.fileExists(atPath: path) ? path : nil
    }
    let relative = "shared/peers/" + script
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

func runPeer(_ scenario: String) -> (Peer?, String) {
    let name = peerScripts[scenario]!
    guard let script = findPeer(name) else { return (nil, "skipped: shared/peers/\(name) not found (set LATSIM_SIMPY_PEERS)") }
    guard let check = run(["python3", "-c", "import simpy"]), check.status == 0 else {
        return (nil, "skipped: python3 with simpy not found (pip install simpy==4.1.2)")
    }
    var peer = Peer(realTimeFactors: [], events: 0, engine: "SimPy", input: "?")
    for _ in 0..<peerRuns {
        guard let r = run(["python3", script, "--scenario", scenario, "--duration", duration, "--json", "-"]), r.status == 0,
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

let peers = scenarioNames.map { ($0, runPeer($0)) }

// MARK: report

let best = { (xs: [Sample], k: KeyPath<Sample, Double>) in xs.map { $0[keyPath: k] }.max()! }
let mid = { (xs: [Sample], k: KeyPath<Sample, Double>) in median(xs.map { $0[keyPath: k] }) }

print("latsim engine, \(duration) simulated, \(runs) runs each after a warm-up (best / median)")
print("  " + pad("", 24) + pad("events", 10) + pad("events/s", 20) + "realTimeFactor")
var rows: [(String, [Sample], Int)] = scenarioNames.map { ($0, pipeline[$0]!, pipelineEvents[$0]!) }
rows.append(("empty loop", empty, emptyEvents))
rows.append(("floor model", floor, floorEvents))
for (name, xs, n) in rows {
    print("  " + pad(name, 24) + pad(String(n), 10)
          + pad(si(best(xs, \.eventsPerSecond)) + " / " + si(mid(xs, \.eventsPerSecond)), 20)
          + String(format: "%.0fx / %.0fx", best(xs, \.realTimeFactor), mid(xs, \.realTimeFactor)))
}
/// `name` over `of`, events per second, taken within each round.
func printShare(_ name: String, _ xs: [Sample], of label: String, _ ys: [Sample]) {
    let shares = zip(xs, ys).map { $0.eventsPerSecond / $1.eventsPerSecond }
    print(String(format: "  %@ / %@ events/s, within a round: median %.2f (%.2f to %.2f)", name, label,
                 median(shares), shares.min()!, shares.max()!))
}
printShare("floor model", floor, of: "empty loop", empty)
print(String(format: "    (the floor: the finger at each scan, last at (%.1f, %.1f) pt, and one stream: %d latencies, mean %.2f ms)",
             floorPosition.x, floorPosition.y, floorStream.count, floorStream.mean ?? .nan))
let ios = pipeline[scenarioNames[0]]!, android = pipeline[scenarioNames[1]]!
for name in scenarioNames { printShare(name, pipeline[name]!, of: "empty loop", empty) }
printShare(scenarioNames[0], ios, of: "floor model", floor)
print(String(format: "  %@ / %@ events/s: %.2f / %.2f", scenarioNames[1], scenarioNames[0],
             best(android, \.eventsPerSecond) / best(ios, \.eventsPerSecond), mid(android, \.eventsPerSecond) / mid(ios, \.eventsPerSecond)))
for (name, (peer, note)) in peers {
    guard let peer else {
        print("  SimPy peer of \(name): " + note)
        continue
    }
    let ours = pipeline[name]!
    let pBest = peer.realTimeFactors.max()!, pMid = median(peer.realTimeFactors)
    print(String(format: "  SimPy peer of %@ (%@, %d events, %d runs): realTimeFactor %.0fx / %.0fx",
                 name, peer.engine, peer.events, peerRuns, pBest, pMid))
    print("    its input: \(peer.input)")
    print(String(format: "    speed-up over the peer: %.0fx / %.0fx",
                 best(ours, \.realTimeFactor) / pBest, mid(ours, \.realTimeFactor) / pMid))
}
