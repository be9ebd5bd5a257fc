import Foundation
import FramePipeline
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// `latsim import` reads a trace piece by piece: chunks in order, then
/// packets in time order through a block cache, never the file whole.
/// What it gathers does not depend on the sizes of the chunks or blocks,
/// nor on whether the trace is a file or bytes in memory; FrameTimeline
/// packets read straight from their bytes read as the decoder reads them.
@Suite("Streamed import")
struct StreamedImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import")

    /// What the importer gathered, as comparable text.
    static func summary(_ c: PerfettoImport.Contents) -> [String] {
        c.timelines.map { "\($0)" } + c.slices.map { "\($0.tid) \($0.ts) \($0.dur) \($0.thread) \($0.pid) \($0.rules)" }
            + c.processNames.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + ["\(c.input.latencies) \(c.input.motionEvents) \(c.input.dispatches) \(c.input.withoutTime) \(c.input.otherClock) \(c.input.waiting.count)"]
    }

    /// A two-second Android run's native trace (FrameTimeline, slices, input events).
    static func runTrace() throws -> Data {
        var c = try Scenario.named("android-default").configuration()
        c.duration = 2_000_000_000
        let r = try PipelineRun.run(c, keepLog: true)
        return try #require(try PipelineTraceExport.perfetto(r, scenario: "android-default"))
    }

    static func traces() throws -> [(String, Data)] {
        try [("run", runTrace())] + ["frame_timeline_events.perfetto-trace", "input_event_trace.perfetto-trace"].map {
            ($0, try Data(contentsOf: fixtures.appendingPathComponent($0)))
        }
    }

    @Test func tinyChunksAndBlocksGatherWhatOneReadDoes() throws {
        for (name, data) in try Self.traces() {
            let whole = try PerfettoImport.contents(TraceBytes(data, file: name, chunk: data.count, blockSize: data.count, slots: 1))
            #expect(!whole.timelines.isEmpty || !whole.input.latencies.isEmpty, "\(name)")
            // chunks shorter than a packet (the buffer grows), blocks that
            // packets straddle, two slots evicting each other
            for (chunk, block, slots) in [(32, 64, 2), (1_000, 256, 3), (TraceBytes.defaultChunk, TraceBytes.defaultBlockSize, TraceBytes.defaultSlots)] {
                let pieces = try PerfettoImport.contents(TraceBytes(data, file: name, chunk: chunk, blockSize: block, slots: slots))
                #expect(Self.summary(pieces) == Self.summary(whole), "\(name) chunk \(chunk) block \(block)")
            }
        }
    }

    @Test func aFileImportsAsItsBytesDo() throws {
        let data = try Self.runTrace()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-import-\(UUID().uuidString).perfetto-trace").path
        try data.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = try DeviceImport.read(path: path, expected: "a trace", maximumBytes: 1 << 30)
        let fromBytes = try DeviceImport.read(data, file: path)
        #expect(fromFile.scenarioYAML(name: "x", source: "t") == fromBytes.scenarioYAML(name: "x", source: "t"))
        #expect(fromFile.stages.map(\.durations.value.count) == fromBytes.stages.map(\.durations.value.count))
        #expect(fromFile.stages.count == DeviceImport.stageKeys.count)
    }

    @Test func aFileThatShrinksWhileReadIsBadInput() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shrinks-\(UUID().uuidString)").path
        try Data(repeating: 7, count: 300_000).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = TraceBytes(try InputFiles.open(path, expected: "a trace"), blockSize: 4_096, slots: 4)
        #expect(try bytes.withBytes(at: 250_000, count: 10) { Array($0) } == Array(repeating: 7, count: 10))
        #expect(truncate(path, 100_000) == 0)
        #expect(throws: LatsimError.self) { try bytes.withBytes(at: 250_000 + 8_192, count: 10) { $0.count } }
        do {
            _ = try bytes.withBytes(at: 200_000, count: 10) { $0.count }
            Issue.record("a read past the new end must fail")
        } catch {
            #expect(error.description.contains("changed or shrank while it was read"), "\(error)")
        }
    }

    static func timelinePacket(_ build: (inout Perfetto_Protos_FrameTimelineEvent) -> Void) -> Perfetto_Protos_TracePacket {
        var p = Perfetto_Protos_TracePacket()
        p.timestamp = 987_654_321
        p.trustedPacketSequenceID = 3
        var e = Perfetto_Protos_FrameTimelineEvent()
        build(&e)
        p.frameTimelineEvent = e
        return p
    }

    static func fast(_ bytes: [UInt8]) -> (timestamp: UInt64, event: PerfettoImport.TimelineEventFields)? {
        bytes.withUnsafeBytes { PerfettoImport.frameTimelinePacket($0, from: 0, to: $0.count) }
    }

    @Test func timelinePacketsReadAsTheDecoderReadsThem() throws {
        let packets: [Perfetto_Protos_TracePacket] = [
            Self.timelinePacket { $0.expectedDisplayFrameStart.cookie = 1; $0.expectedDisplayFrameStart.token = 42; $0.expectedDisplayFrameStart.pid = 500 },
            Self.timelinePacket {
                var a = Perfetto_Protos_FrameTimelineEvent.ActualDisplayFrameStart()
                (a.cookie, a.token, a.pid, a.presentType, a.onTimeFinish, a.jankType) = (-2, 43, -1, .presentLate, true, 16)
                (a.gpuComposition, a.predictionType, a.jankSeverityType) = (true, .predictionExpired, .severityFull)
                $0.actualDisplayFrameStart = a
            },
            Self.timelinePacket {
                var s = Perfetto_Protos_FrameTimelineEvent.ExpectedSurfaceFrameStart()
                (s.cookie, s.token, s.displayFrameToken, s.pid, s.layerName) = (3, 7, 8, 1_000, "latsim android-default#0")
                $0.expectedSurfaceFrameStart = s
            },
            Self.timelinePacket {
                var s = Perfetto_Protos_FrameTimelineEvent.ActualSurfaceFrameStart()
                (s.cookie, s.token, s.displayFrameToken, s.pid, s.layerName) = (4, 7, 8, 1_000, "")
                (s.presentType, s.onTimeFinish, s.jankType, s.predictionType, s.isBuffer) = (.presentDropped, false, 1_024, .predictionValid, true)
                (s.presentDelayMillis, s.jankSeverityScore) = (1.5, 0.25)
                $0.actualSurfaceFrameStart = s
            },
            Self.timelinePacket { $0.actualSurfaceFrameStart.token = 9 },  // no cookie
            Self.timelinePacket { $0.frameEnd.cookie = 4 },
            Self.timelinePacket { $0.frameEnd = .init() },
        ]
        for p in packets {
            let bytes: [UInt8] = try p.serializedBytes()
            let read = try #require(Self.fast(bytes), "\(p)")
            let decoded = try Perfetto_Protos_TracePacket(serializedBytes: bytes)
            #expect(read.timestamp == decoded.timestamp)
            #expect(read.event == PerfettoImport.TimelineEventFields(decoded.frameTimelineEvent), "\(p)")
        }
    }

    @Test func otherTimelinePacketsGoToTheDecoder() throws {
        let end: [UInt8] = try Self.timelinePacket { $0.frameEnd.cookie = 4 }.serializedBytes()
        // a packet holding another field read as well (bytes joined: the decoder merges them)
        var descriptor = Perfetto_Protos_TracePacket()
        descriptor.trackDescriptor.uuid = 9
        let withDescriptor = end + (try descriptor.serializedBytes() as [UInt8])
        var nonASCII = Self.timelinePacket { $0.expectedSurfaceFrameStart.cookie = 1 }
        nonASCII.frameTimelineEvent.expectedSurfaceFrameStart.layerName = "couche é"
        // frame_timeline_event (76) twice: the decoder merges them
        var only = Perfetto_Protos_TracePacket()
        only.frameTimelineEvent.frameEnd.cookie = 5
        let twice = end + (try only.serializedBytes() as [UInt8])
        // an actual display frame whose present type (field 4) is 9, outside the enum
        let event: [UInt8] = [0x12, 0x04, 0x08, 0x01, 0x20, 0x09]
        let badPresent: [UInt8] = [0xE2, 0x04, UInt8(event.count)] + event
        #expect(Self.fast(withDescriptor) == nil)
        #expect(Self.fast(try nonASCII.serializedBytes()) == nil)
        #expect(Self.fast(twice) == nil)
        #expect(Self.fast(badPresent) == nil)
        #expect(Self.fast(Array(end.dropLast())) == nil)
        // an empty event: the decoder sees no case either
        #expect(Self.fast(try Self.timelinePacket { _ in }.serializedBytes()) == nil)
        // the decoder reads the bad present type as unset
        let decoded = try Perfetto_Protos_TracePacket(serializedBytes: badPresent)
        #expect(PerfettoImport.TimelineEventFields(decoded.frameTimelineEvent)?.presentType == 0)
    }
}

/// Input-event packets read straight from their bytes read as the decoder
/// reads them; any the decoder might read otherwise go to it.
@Suite("Streamed import: input events")
struct InputEventFastPathTests {
    static func packet(clock: UInt32? = nil, _ fill: (inout Perfetto_Protos_AndroidInputEvent) -> Void) -> Perfetto_Protos_TracePacket {
        var p = Perfetto_Protos_TracePacket()
        p.timestamp = 5_000_000
        p.trustedPacketSequenceID = 2
        if let clock { p.timestampClockID = clock }
        fill(&p.winscopeExtensions.androidInputEvent)
        return p
    }

    static func fast(_ bytes: [UInt8]) -> (timestamp: UInt64, clock: UInt32?, event: InputEventImport.Fields?)? {
        bytes.withUnsafeBytes { InputEventImport.packet($0, from: 0, to: $0.count) }
    }

    @Test func readsWhatTheDecoderReads() throws {
        var pointer = Perfetto_Protos_AndroidMotionEvent.Pointer()
        var axis = Perfetto_Protos_AndroidMotionEvent.Pointer.AxisValue()
        (axis.axis, axis.value) = (1, 310.5)
        pointer.axisValue = [axis]
        let packets: [Perfetto_Protos_TracePacket] = [
            Self.packet { m in
                m.dispatcherMotionEvent.eventID = 0xDEAD_BEEF
                m.dispatcherMotionEvent.eventTimeNanos = 4_000_000
                m.dispatcherMotionEvent.action = 2
                m.dispatcherMotionEvent.pointer = [pointer]
            },
            Self.packet(clock: 6) { $0.dispatcherMotionEventRedacted.eventID = 7 },  // no event time, BOOTTIME
            Self.packet(clock: 3) { m in
                m.dispatcherWindowDispatchEvent.eventID = 9
                m.dispatcherWindowDispatchEvent.vsyncID = 44
                m.dispatcherWindowDispatchEvent.windowID = -3
            },
            Self.packet { $0.dispatcherWindowDispatchEventRedacted.eventID = 10 },
            Self.packet { $0.dispatcherMotionEvent.eventTimeNanos = -1 },
        ]
        for p in packets {
            let bytes: [UInt8] = try p.serializedBytes()
            let read = try #require(Self.fast(bytes), "\(p)")
            let decoded = try Perfetto_Protos_TracePacket(serializedBytes: bytes)
            #expect(read.timestamp == decoded.timestamp)
            #expect(read.clock == (decoded.hasTimestampClockID ? decoded.timestampClockID : nil))
            #expect(read.event == InputEventImport.fields(decoded), "\(p)")
            #expect(read.event != nil)
        }
        // extensions holding no input event the importer reads: read as none, as the decoder reads them
        var empty = Perfetto_Protos_TracePacket()
        empty.winscopeExtensions = .init()
        let bytes: [UInt8] = try empty.serializedBytes()
        let read = try #require(Self.fast(bytes))
        let decoded = try Perfetto_Protos_TracePacket(serializedBytes: bytes)
        #expect(read.event == nil && InputEventImport.fields(decoded) == nil)
    }

    @Test func leavesOtherPacketsToTheDecoder() throws {
        let motion: [UInt8] = try Self.packet { $0.dispatcherMotionEvent.eventID = 1 }.serializedBytes()
        var only = Perfetto_Protos_TracePacket()
        only.winscopeExtensions.androidInputEvent.dispatcherWindowDispatchEvent.eventID = 1
        let onlyBytes: [UInt8] = try only.serializedBytes()
        var descriptor = Perfetto_Protos_TracePacket()
        descriptor.trackDescriptor.uuid = 9
        // field 112 twice (merged by the decoder); two cases in one event; a
        // motion event whose event_id (fixed32) comes as a varint; a cut packet; another field read
        #expect(Self.fast(motion + onlyBytes) == nil)
        // (field 112 holding field 5 holding an empty motion event, then an empty dispatch)
        let twoCases: [UInt8] = [0x82, 0x07, 0x06, 0x2A, 0x04, 0x0A, 0x00, 0x2A, 0x00]
        #expect(Self.fast(twoCases) == nil)
        let varintID: [UInt8] = [0x82, 0x07, 0x06, 0x2A, 0x04, 0x0A, 0x02, 0x08, 0x01]
        #expect(Self.fast(varintID) == nil)
        #expect(Self.fast(Array(motion.dropLast())) == nil)
        #expect(Self.fast(motion + (try descriptor.serializedBytes() as [UInt8])) == nil)
        #expect(Self.fast(try descriptor.serializedBytes()) == nil)
        // the varint event id: the decoder does not take it either
        #expect(try Perfetto_Protos_TracePacket(serializedBytes: varintID).winscopeExtensions.androidInputEvent.dispatcherMotionEvent.hasEventID == false)
    }
}
