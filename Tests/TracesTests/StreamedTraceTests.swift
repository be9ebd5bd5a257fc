import Foundation
import FramePipeline
@testable import LatsimOutput
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// The trace writers and the frame CSV streamed into a file through a
/// bounded buffer write the bytes of the in-memory forms, and a failure
/// part way leaves nothing behind.
@Suite("Streamed traces")
struct StreamedTraceTests {
    static func run(_ scenario: String, device: String? = nil, _ duration: SimTime = 2_000_000_000) throws -> RunResult {
        var s = try Scenario.named(scenario)
        if let device { s = try s.applying(device: try DevicePreset.named(device)) }
        var c = try s.configuration()
        c.duration = duration
        return try PipelineRun.run(c, keepLog: true)
    }

    static func folder() throws -> URL {
        let u = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: u, withIntermediateDirectories: true)
        return u
    }

    /// iOS, Android, Android front-buffered ink, and a display that switches
    /// its rate (ui-taps on the Pixel 6 idles at 60 Hz).
    static let cases: [(String, String?)] = [
        ("ios9-low-latency", nil), ("android-default", nil), ("android-ink-front", nil), ("ui-taps", "pixel-6"),
    ]

    @Test(arguments: 0..<4)
    func aStreamedFileHoldsTheInMemoryBytes(k: Int) throws {
        let (name, device) = Self.cases[k]
        let r = try Self.run(name, device: device)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let native = dir.appendingPathComponent("t.perfetto-trace").path
        let n = try OutputDestination.stream(to: native) { try PipelineTraceExport.writePerfetto(r, scenario: name, to: $0) }
        let whole = try #require(try PipelineTraceExport.perfetto(r, scenario: name))
        let written = try Data(contentsOf: URL(fileURLWithPath: native))
        #expect(written == whole)
        #expect(n == written.count)
        // the packets written one by one are the bytes of the whole Trace
        // message: decoded as one message and serialised again, they come back
        let message = try Perfetto_Protos_Trace(serializedBytes: written)
        #expect(message.packet.count > 100)
        #expect(try message.serializedBytes() == written)

        let t = try #require(PipelineTraceExport.trace(r, scenario: name))
        let json = dir.appendingPathComponent("t.json").path
        try OutputDestination.stream(to: json) { try t.writeJSON(to: $0) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: json)) == t.json())
        #expect(try JSONSerialization.jsonObject(with: t.json()) is [String: Any])

        let csv = dir.appendingPathComponent("f.csv").path
        try OutputDestination.stream(to: csv) { try FrameCSV.write(r, to: $0) }
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        #expect(text == FrameCSV.csv(r))
        // a row per vsync after the header
        #expect(text.split(separator: "\n").count == r.frameLog!.frames.count + 1)
    }

    /// `--frames` alone streams the rows as the run makes them: the file is
    /// the one written from a kept log, byte for byte, and the log keeps
    /// neither frames nor more than about 1,024 vsyncs of events (a 20 s
    /// run has 1,200 vsyncs at 60 Hz and more on the switching display).
    @Test(arguments: 0..<4)
    func framesStreamedDuringTheRunAreTheKeptLogsRows(k: Int) throws {
        let (name, device) = Self.cases[k]
        var s = try Scenario.named(name)
        if let device { s = try s.applying(device: try DevicePreset.named(device)) }
        var c = try s.configuration()
        c.duration = 20_000_000_000
        let kept = try PipelineRun.run(c, keepLog: true)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("f.csv").path
        var rows = 0
        var streamed: RunResult?
        try OutputDestination.stream(to: path) { sink in
            let writer = try FrameCSV.Writer(c, to: sink)
            var run = try PipelineRun(configuration: c, keepLog: true)
            run.streamFrames(to: writer)
            streamed = try run.run()
            try writer.finish()
            rows = writer.rows
        }
        let log = try #require(streamed?.frameLog)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == FrameCSV.csv(kept))
        #expect(rows == kept.frameLog!.frames.count && rows > 1_024)
        #expect(log.frames.isEmpty && log.stageNanos.isEmpty && log.android == nil)
        // the events dropped every 1,024 vsyncs: fewer than the kept log's
        #expect(log.latches.count <= 1_024 && log.latches.count < kept.frameLog!.latches.count + 1)
        #expect(log.scans.count < kept.frameLog!.scans.count || kept.frameLog!.scans.isEmpty)
        // the figures are the kept run's
        #expect(streamed!.measurements.touchToPhotonMs.count == kept.measurements.touchToPhotonMs.count)
        #expect(streamed!.measurements.touchToPhotonMs.percentile(50) == kept.measurements.touchToPhotonMs.percentile(50))
    }

    /// A write that fails while the run streams is thrown at the end (a
    /// 200 s run's rows are more than the sink's 1 MiB buffer).
    @Test func aFailedFramesWriteIsThrownAtTheEnd() throws {
        var c = try Scenario.named("android-default").configuration()
        c.duration = 200_000_000_000
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("f.csv").path
        // a descriptor open for reading only: every write to it fails. (It
        // stays open: a closed descriptor's number is reused by the next file
        // another test opens, whose bytes these writes would then replace.)
        let fd = open(path, O_RDONLY | O_CREAT, 0o644)
        #expect(fd >= 0)
        defer { close(fd) }
        let sink = ByteSink(descriptor: fd, file: path)
        let writer = try FrameCSV.Writer(c, to: sink)
        var run = try PipelineRun(configuration: c, keepLog: true)
        run.streamFrames(to: writer)
        _ = try run.run()
        #expect(throws: (any Error).self) { try writer.finish() }
    }

    /// A trace larger than the sink's buffer reaches the file whole: a
    /// 60 s Android trace is several MB, several buffers' worth.
    @Test func aTraceLongerThanTheBufferIsWrittenWhole() throws {
        let r = try Self.run("android-default", 60_000_000_000)
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.perfetto-trace").path
        let n = try OutputDestination.stream(to: path) { try PipelineTraceExport.writePerfetto(r, scenario: "x", to: $0) }
        #expect(n > 3 * ByteSink.capacity)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == (try PipelineTraceExport.perfetto(r, scenario: "x")))
    }

    struct Stop: Error {}

    /// A producer that fails after writing more than a buffer leaves the
    /// old file as it was and no temporary file beside it.
    @Test func aFailurePartWayLeavesTheOldFileAndNoTemporary() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.json").path
        try Data("old\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: Stop.self) {
            try OutputDestination.stream(to: path) { sink in
                try sink.write(String(repeating: "x", count: 3 * ByteSink.capacity))
                throw Stop()
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.json"])
    }
}
