import Foundation
import FramePipeline
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// A display that changes its rate in both trace formats: its vsyncs tick
/// on each rate's grid from the vsync a switch took effect at, and its rate
/// is a counter ("display rate", Hz) sampled at the start and at each
/// switch; a display at one rate has no such counter.
@Suite struct DisplayRateTraceTests {
    /// ui-taps on the Pixel 5 (90 Hz, 60 Hz idle; its device tree's power
    /// timer 1000 ms, idle timer 80 ms, touch timer 200 ms) for 4 s.
    static func run(_ sets: [String] = [], device: String = "pixel-5") throws -> RunResult {
        let s = try Scenario.named("ui-taps").applying(device: try DevicePreset.named(device))
        let a = try (sets + ["duration=4s"]).map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) }
        return try PipelineRun.run(try s.configuration(a), keepLog: true)
    }

    @Test(arguments: ["ios", "android"])
    func theRateIsACounterAndTheVsyncsFollowIt(_ platform: String) throws {
        let r = try Self.run(device: platform == "android" ? "pixel-5" : "iphone-13-pro")
        let switches = try #require(r.frameLog?.rateSwitches).filter { $0.boundary < r.configuration.duration }
        #expect(switches.count >= 2, "the display drops to its minimum and comes back on the taps")
        let t = try #require(PipelineTraceExport.trace(r, scenario: "ui-taps"))
        let rate = t.events.filter { $0.phase == "C" && $0.name == "display rate" }
        // the start's rate, then one sample per switch, at its boundary
        #expect(rate.count == switches.count + 1)
        #expect(rate.first?.args["Hz"] == .number(r.configuration.displayHz.doubleValue))
        for (sample, s) in zip(rate.dropFirst(), switches) {
            #expect(sample.args["Hz"] == .number(s.hz.doubleValue))
        }
        // every vsync instant is one of the grid in force: between two switches
        // the spacing is that rate's period, and each boundary is a vsync
        let vsyncs = t.events.filter { $0.phase == "i" && $0.name == "vsync" }.map(\.ts)
        for b in switches.map(\.boundary) { #expect(vsyncs.contains(b), "boundary \(b)") }
        var hz = r.configuration.displayHz, next = 0
        for (a, b) in zip(vsyncs, vsyncs.dropFirst()) {
            while next < switches.count && switches[next].boundary <= a { hz = switches[next].hz; next += 1 }
            let period = PeriodicClock(hz: hz).tick(1)
            #expect(abs(b - a - period) <= 1, "\(a) -> \(b) at \(hz) Hz")
        }
        // the native trace: one counter track named for it, the same samples
        let packets = try Perfetto_Protos_Trace(serializedBytes: try #require(try PipelineTraceExport.perfetto(r, scenario: "ui-taps"))).packet
        let tracks = packets.compactMap { p -> Perfetto_Protos_TrackDescriptor? in
            if case .trackDescriptor(let d)? = p.data, d.hasCounter { return d } else { return nil }
        }
        let track = try #require(tracks.first { $0.name == "display rate Hz" })
        let values = packets.compactMap { p -> Double? in
            if case .trackEvent(let e)? = p.data, e.trackUuid == track.uuid, e.type == .counter { return e.doubleCounterValue }
            return nil
        }
        #expect(values == rate.compactMap { if case .number(let x)? = $0.args["Hz"] { return x } else { return nil } })
    }

    /// A display at one rate (the 2016 Pixel): no counter, vsyncs on one grid.
    @Test func aDisplayAtOneRateHasNoRateCounter() throws {
        let r = try Self.run(device: "pixel")
        let t = try #require(PipelineTraceExport.trace(r, scenario: "ui-taps"))
        #expect(!t.events.contains { $0.name == "display rate" })
        let vsyncs = t.events.filter { $0.phase == "i" && $0.name == "vsync" }.map(\.ts)
        #expect(vsyncs.count == Int(PeriodicClock(hz: r.configuration.displayHz).index(atOrAfter: r.configuration.duration)))
    }
}
