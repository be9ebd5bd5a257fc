import Foundation
import FramePipeline
import LatsimOutput
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Charts
import Measures
@testable import Traces

/// A front-buffered run's outputs (Docs/Ink.md, "Diagram and traces"): both
/// layers in both trace formats, the scan line in the diagram, the `ink`
/// block in the JSON of ink runs only.
@Suite struct InkOutputTests {
    static func run(_ scenario: String, _ overrides: [String] = [], seconds: Int64 = 1) throws -> RunResult {
        let a = try overrides.map { try Assignment(parsing: $0, source: SettingSource(file: "--set")) }
        var c = try Scenario.named(scenario).configuration(a)
        c.duration = seconds * Nanos.perSecond
        return try PipelineRun.run(c, keepLog: true)
    }

    /// The JSON trace has a track per thread of the wet stroke, the front
    /// buffer's own track with one slice per draw (its race) and a mark per
    /// torn draw, and the dry stroke's SurfaceFlinger and display tracks;
    /// Perfetto's native format carries the same slices and instants.
    @Test func bothLayersAreInBothTraceFormats() throws {
        // a second of strokes with the pen lifted: a dry commit in it
        let r = try Self.run("android-ink-front", ["input.trajectory=flick"], seconds: 2)
        let t = try #require(AndroidTraceExport.trace(r, scenario: "android-ink-front", timelineTracks: false))
        #expect(t.trackNames == ["vsync"] + FrontBufferTraceExport.threadTracks)
        let front = t.trackNames.firstIndex(of: "Front buffer (scan-out at the pen's row)")! + 1
        let display = t.trackNames.firstIndex(of: "Display (multi-buffered layer)")! + 1
        let log = try #require(r.frameLog?.android)
        let onFront = t.events.filter { $0.tid == t.pid + front }
        #expect(onFront.filter { $0.phase == "X" }.count == log.frontDraws.count && !log.frontDraws.isEmpty)
        #expect(onFront.filter { $0.phase == "i" }.count == log.frontDraws.filter(\.torn).count)
        #expect(r.measurements.ink?.dryCommitMs.count ?? 0 > 0)
        #expect(t.events.contains { $0.tid == t.pid + display && $0.phase == "X" && $0.name.hasPrefix("dry frame") })
        let packets = try Perfetto_Protos_Trace(serializedBytes: try #require(try PipelineTraceExport.perfetto(r, scenario: "android-ink-front"))).packet
        let events = packets.compactMap { p -> Perfetto_Protos_TrackEvent? in
            if case .trackEvent(let e)? = p.data { return e } else { return nil }
        }
        #expect(events.filter { $0.type == .sliceBegin }.count == t.events.filter { $0.phase == "X" }.count)
        #expect(events.filter { $0.type == .instant }.count == t.events.filter { $0.phase == "i" }.count)
    }

    /// The diagram has the front-buffered lanes and draws the scan line
    /// (one diagonal per refresh in the window) and the pen's row across
    /// the Display lane; an ordinary Android diagram draws neither.
    @Test func theDiagramDrawsTheScanLineAndThePensRow() throws {
        let r = try Self.run("android-ink-front")
        let d = try #require(AndroidDiagramBuilder.diagram(r, scenario: "android-ink-front", frames: 8))
        #expect(d.lanes == PipelineLane.androidFrontBuffered && d.scanLine?.lane == .display && d.scanLine?.penRow != nil)
        let diagonals = d.script.setup.components(separatedBy: "lc \(GnuplotText.rgb(ChartStyle.scanLine)) lw 1.5\n").count - 1
        #expect(diagonals == 8)
        #expect(d.script.plot.contains("scan line") && d.script.plot.contains("the pen's row"))
        let plain = try #require(AndroidDiagramBuilder.diagram(try Self.run("android-default"), scenario: "android-default"))
        #expect(plain.scanLine == nil && !plain.script.plot.contains("scan line"))
    }

    /// Only an ink run's summary has an `ink` block; a front-buffered one
    /// gives its torn draws and dry commits, a mid-frame read its lead.
    @Test func onlyInkRunsHaveAnInkBlock() throws {
        func ink(_ scenario: String) throws -> String? {
            let text = RunSummary.json(try Self.run(scenario), scenario: scenario, timing: .omit).text()
            guard let range = text.range(of: "\"ink\": {") else { return nil }
            return String(text[range.lowerBound...].prefix(1500))
        }
        #expect(try ink("android-default") == nil && ink("ios9-prediction") == nil && ink("pencil-drawing") == nil)
        let front = try #require(try ink("android-ink-front"))
        #expect(front.contains("\"frontBufferPlane\": \"overlay\"") && front.contains("\"tornDraws\"") && front.contains("\"dryCommitMs\""))
        let mid = try #require(try ink("pencil-ink-midframe"))
        #expect(mid.contains("\"midFrameLeadMs\": 3.5") && mid.contains("\"lateReads\""))
    }
}
