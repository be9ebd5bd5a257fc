import Charts
import Experiments
import Foundation
import FramePipeline
import Measures
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// What an Android run of an older device says about itself: no
/// FrameTimeline before Android 12 (Docs/Android.md, "FrameTimeline before
/// Android 12"), and a command-mode panel's idle wake and TE-gated
/// transfers in its traces.
@Suite struct LegacyAndroidOutputTests {
    static func run(_ scenario: String, on device: String, _ overrides: [String] = [], duration: String = "2s") throws -> RunResult {
        let s = try Scenario.named(scenario).applying(device: try DevicePreset.named(device))
        var a = try overrides.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) }
        a.append(Assignment(path: "duration", value: duration, source: SettingSource(file: "--duration")))
        return try PipelineRun.run(try s.configuration(a), keepLog: true, keepBudget: true)
    }

    static func summary(_ r: RunResult) throws -> [String: Any] {
        let text = RunSummary.json(r, scenario: "walt-screen", timing: .omit).text()
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func frameTimelinePackets(_ r: RunResult) throws -> Int {
        let data = try #require(try PipelineTraceExport.perfetto(r, scenario: "walt-screen"))
        return try Perfetto_Protos_Trace(serializedBytes: data).packet.filter { $0.hasFrameTimelineEvent }.count
    }

    /// The Pixel on 7.1, a steady stream (a new frame every vsync once
    /// running): FrameTimeline did not exist, so no class is claimed; no
    /// buffer stuffing (Android 12's rule against the legacy rule's
    /// earliest target read nearly every frame as stuffed). The JSON's
    /// classes are null with the reason, the jank figures absent, the
    /// traces carry no FrameTimeline packets or timeline tracks. The same
    /// device under Android 12 classes every frame on time.
    @Test func aSteadyPixelOnSevenOneClaimsNoFrameTimeline() throws {
        let r = try Self.run("walt-screen", on: "pixel")
        let m = r.measurements
        #expect(r.configuration.android.version == .v7_1 && m.android != nil && m.android?.frameTimeline == nil)
        #expect(m.framesPresented > 110 && m.repeatedFrames <= 1)
        for f in ["jankOnTime", "jankBufferStuffing", "jankAppDeadlineMissed"].compactMap(Figure.init(rawValue:)) {
            #expect(f.value(r) == nil && !Figure.shown(forRuns: [r]).contains(f))
        }
        let json = try Self.summary(r)
        let display = try #require(json["display"] as? [String: Any])
        #expect(display["frameTimeline"] is NSNull)
        let android = try #require(json["android"] as? [String: Any])
        #expect((android["noFrameTimeline"] as? String)?.contains("Android 7.1 has no FrameTimeline") == true)
        let figures = try #require(json["figures"] as? [String: Any])
        #expect(figures["jankBufferStuffing"] == nil && figures["jankOnTime"] == nil)
        #expect(try Self.frameTimelinePackets(r) == 0)
        let trace = try #require(AndroidTraceExport.trace(r, scenario: "walt-screen"))
        #expect(!trace.trackNames.contains { $0.hasPrefix("Expected Timeline") || $0.hasPrefix("Actual Timeline") })

        let twelve = try Self.run("walt-screen", on: "pixel", ["os.androidVersion=12"])
        let counts = try #require(twelve.measurements.android?.frameTimeline)
        #expect(counts[.onTime] == twelve.measurements.framesPresented && counts[.bufferStuffing] == 0)
        #expect(Figure(rawValue: "jankOnTime")?.value(twelve) == Double(twelve.measurements.framesPresented))
        #expect(try Self.summary(twelve)["android"].flatMap { ($0 as? [String: Any])?["noFrameTimeline"] } == nil)
        #expect(try Self.frameTimelinePackets(twelve) > 0)
        let t12 = try #require(AndroidTraceExport.trace(twelve, scenario: "walt-screen"))
        #expect(t12.trackNames.contains("Expected Timeline") && t12.trackNames.contains("Actual Timeline"))
    }

    /// Every release before 12 has none, 12 and later have it: one
    /// declaration.
    @Test func frameTimelineStartsWithAndroid12() {
        for v in AndroidVersion.allCases {
            #expect(v.hasFrameTimeline == (v >= .v12) && (v.noFrameTimelineReason == nil) == v.hasFrameTimeline)
        }
    }

    /// The Nexus 5 (command mode): each new frame's TE-gated write into
    /// panel memory is an instant on the display track; with a one-frame
    /// wake the trace has one idle-wake slice on SurfaceFlinger's track,
    /// one frame long from the composition's end, with its cost; at the
    /// default 0 none. A video-mode panel has neither.
    @Test func theTracesShowTheWakeAndTheTransfers() throws {
        func events(_ r: RunResult) throws -> [ChromeTrace.Event] {
            try #require(AndroidTraceExport.trace(r, scenario: "walt-screen")).events
        }
        let woken = try Self.run("walt-screen", on: "nexus-5", ["display.idleWake=1frame"])
        let e = try events(woken)
        let wakes = e.filter { $0.name.hasPrefix("idle wake") }
        #expect(wakes.count == 1 && wakes.first?.dur == 16_666_667 && wakes.first?.phase == "X")
        let w = try #require(woken.frameLog?.android?.idleWakes.first)
        #expect(wakes.first?.ts == w.start)
        #expect(wakes.first?.args["cost ms"] == .number(Double(w.present - w.ready) / 1e6))
        // the native trace carries the same slice
        let native = try Perfetto_Protos_Trace(serializedBytes: try #require(try PipelineTraceExport.perfetto(woken, scenario: "walt-screen")))
        let nativeWakes = native.packet.compactMap { p -> Perfetto_Protos_TrackEvent? in
            if case .trackEvent(let t)? = p.data { return t } else { return nil }
        }.filter { $0.name.hasPrefix("idle wake") && $0.type == .sliceBegin }
        #expect(nativeWakes.count == 1)
        let te = e.filter { $0.name.hasPrefix("TE: frame") }
        #expect(te.count == woken.measurements.framesPresented && te.allSatisfy { $0.phase == "i" })

        // the diagram draws it on the SurfaceFlinger lane: taps, each frame sent from idle
        let taps = try Self.run("android-default", on: "nexus-5",
                                ["input.trajectory=taps", "input.tapJitter=0ms", "display.idleWake=11ms"], duration: "1s")
        let chart = try #require(AndroidDiagramBuilder.diagram(taps, scenario: "android-default", frames: 40, warmUpFrames: 0))
        let box = try #require(chart.boxes.first { $0.label == "idle wake" })
        let tapWake = try #require(taps.frameLog?.android?.idleWakes.first)
        #expect(box.lane == .surfaceFlinger && box.startNs == tapWake.start && box.endNs - box.startNs == 11_000_000)

        let idle0 = try events(try Self.run("walt-screen", on: "nexus-5"))
        #expect(!idle0.contains { $0.name.hasPrefix("idle wake") } && idle0.contains { $0.name.hasPrefix("TE: frame") })
        let video = try events(try Self.run("walt-screen", on: "nexus-9", ["display.idleWake=1frame"]))
        #expect(!video.contains { $0.name.hasPrefix("idle wake") || $0.name.hasPrefix("TE: frame") })
    }
}
