import Foundation
import FramePipeline
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// The native trace read back with the same messages Perfetto's trace
/// processor parses: its tracks, slices, flows and counters match the JSON
/// of the same run, slices nest on their tracks, and on Android the
/// FrameTimeline packets carry every classed frame with its jank type.
@Suite("Perfetto trace")
struct PerfettoTraceTests {
    static func run(_ scenario: String, _ duration: SimTime = 1_000_000_000) throws -> RunResult {
        var c = try Scenario.named(scenario).configuration()
        c.duration = duration
        return try PipelineRun.run(c, keepLog: true)
    }

    static func decode(_ data: Data) throws -> [Perfetto_Protos_TracePacket] {
        try Perfetto_Protos_Trace(serializedBytes: data).packet
    }

    static func trackEvents(_ packets: [Perfetto_Protos_TracePacket]) -> [Perfetto_Protos_TrackEvent] {
        packets.compactMap { p -> Perfetto_Protos_TrackEvent? in
            if case .trackEvent(let e)? = p.data { return e } else { return nil }
        }
    }

    static func descriptors(_ packets: [Perfetto_Protos_TracePacket]) -> [Perfetto_Protos_TrackDescriptor] {
        packets.compactMap { p -> Perfetto_Protos_TrackDescriptor? in
            if case .trackDescriptor(let d)? = p.data { return d } else { return nil }
        }
    }

    /// Slices, instants, counters and flows as the JSON has them.
    static func jsonCounts(_ t: ChromeTrace) -> (slices: Int, instants: Int, counterSamples: Int, flowSlices: Int) {
        let e = t.events
        return (e.filter { $0.phase == "X" }.count, e.filter { $0.phase == "i" }.count,
                e.filter { $0.phase == "C" }.reduce(0) { $0 + $1.args.count }, e.filter { $0.bindID != nil }.count)
    }

    @Test(arguments: ["ios9-coalescing-120hz", "android-default", "android-slow-app"])
    func nativeTraceHoldsWhatTheJSONHolds(scenario: String) throws {
        let r = try Self.run(scenario)
        let android = r.configuration.platform == .android
        let t = try #require(android ? AndroidTraceExport.trace(r, scenario: scenario, timelineTracks: false)
                                     : PipelineTraceExport.trace(r, scenario: scenario))
        let packets = try Self.decode(try #require(try PipelineTraceExport.perfetto(r, scenario: scenario)))
        let events = Self.trackEvents(packets)
        let begin = Perfetto_Protos_TrackEvent.TypeEnum.sliceBegin, end = Perfetto_Protos_TrackEvent.TypeEnum.sliceEnd
        let json = Self.jsonCounts(t)
        #expect(events.filter { $0.type == begin }.count == json.slices)
        #expect(events.filter { $0.type == end }.count == json.slices)
        #expect(events.filter { $0.type == Perfetto_Protos_TrackEvent.TypeEnum.instant }.count == json.instants)
        #expect(events.filter { $0.type == Perfetto_Protos_TrackEvent.TypeEnum.counter }.count == json.counterSamples)
        #expect(events.filter { !$0.flowIds.isEmpty || !$0.terminatingFlowIds.isEmpty }.count == json.flowSlices)
        // every flow begins once... and ends once, on slice begins
        let flowEnds = events.flatMap { $0.terminatingFlowIds }
        #expect(Set(flowEnds).count == flowEnds.count && !flowEnds.isEmpty)
        #expect(events.allSatisfy { ($0.flowIds.isEmpty && $0.terminatingFlowIds.isEmpty) || $0.type == begin })
        // threads: same names and tids as the JSON, none the main thread
        let threads = Self.descriptors(packets).filter { $0.hasThread }.map { $0.thread }
        #expect(threads.map { $0.threadName } == t.trackNames)
        #expect(threads.allSatisfy { $0.tid != Int64($0.pid) })
        // time order, and slices nest on each track
        let times = packets.map { $0.timestamp }
        #expect(times == times.sorted())
        var depth: [UInt64: Int] = [:]
        for e in events {
            if e.type == begin { depth[e.trackUuid, default: 0] += 1 }
            if e.type == end {
                depth[e.trackUuid, default: 0] -= 1
                #expect(depth[e.trackUuid]! >= 0, "an end without a begin")
            }
        }
        #expect(depth.values.allSatisfy { $0 == 0 })
        let counters = Self.descriptors(packets).filter { $0.hasCounter }.map { $0.name }
        #expect(counters == (android ? ["BufferQueue buffers held"] : ["display buffers allocated", "display buffers in use"]))
    }

    /// FrameTimeline: one actual surface frame per classed frame with
    /// latsim's class as its jank bit, expected frames for those with a
    /// vsync id, display frames for presented ones; every start has its
    /// end. The log holds the frames presented or dropped (the ones
    /// FrameTimeline classed), so the counts are equal.
    @Test func androidFrameTimelineCarriesLatsimsClasses() throws {
        let r = try Self.run("android-slow-app")
        let counts = try #require(r.measurements.android?.frameTimeline)
        let packets = try Self.decode(try #require(try PipelineTraceExport.perfetto(r, scenario: "android-slow-app")))
        let ft = packets.filter { $0.hasFrameTimelineEvent }.compactMap { $0.frameTimelineEvent.event }
        var actual: [Perfetto_Protos_FrameTimelineEvent.ActualSurfaceFrameStart] = []
        var starts = 0, expectedSurface = 0, expectedDisplay = 0, actualDisplay = 0
        var ends: [Int64] = []
        for e in ft {
            switch e {
            case .actualSurfaceFrameStart(let a): actual.append(a); starts += 1
            case .expectedSurfaceFrameStart: expectedSurface += 1; starts += 1
            case .expectedDisplayFrameStart: expectedDisplay += 1; starts += 1
            case .actualDisplayFrameStart: actualDisplay += 1; starts += 1
            case .frameEnd(let f): ends.append(f.cookie)
            }
        }
        for c in JankClass.allCases {
            let n = actual.filter { $0.jankType == c.perfettoJankBit }.count
            #expect(n == counts[c], "\(c)")
        }
        let classed = JankClass.allCases.reduce(0) { $0 + counts[$1] }
        #expect(classed > 0 && actual.count == classed)
        #expect(counts[.appDeadlineMissed] > 0 && counts[.bufferStuffing] > 0)
        #expect(actual.allSatisfy { $0.pid == 1 && $0.layerName == "latsim android-slow-app#0" && $0.token > 0 })
        let dropped = actual.filter { $0.presentType == Perfetto_Protos_FrameTimelineEvent.PresentType.presentDropped }.count
        #expect(dropped == actual.filter { $0.jankType == JankClass.dropped.perfettoJankBit }.count)
        #expect(starts == ends.count && Set(ends).count == ends.count)
        #expect(expectedSurface > 0 && expectedDisplay > 0 && actualDisplay > 0)
        let sf = Self.descriptors(packets).filter { $0.process.pid == 500 }
        #expect(sf.count == 1)
    }

    @Test func theSameRunGivesTheSameBytes() throws {
        let a = try PipelineTraceExport.perfetto(try Self.run("android-default", 300_000_000), scenario: "x")
        let b = try PipelineTraceExport.perfetto(try Self.run("android-default", 300_000_000), scenario: "x")
        #expect(a == b && a != nil)
    }
}
