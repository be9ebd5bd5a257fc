import Foundation
import FramePipeline
@testable import LatsimOutput
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// An Android run's trace made as the run goes (``StreamedTrace``): the
/// files are the bytes of the trace made from the whole log after the run,
/// however often the log is read and emptied, and the log no longer holds
/// the run.
@Suite("Traces made as the run goes")
struct TraceWhileRunningTests {
    /// Every built-in Android scenario that is not front-buffered, and a
    /// display that switches its rate (ui-taps on the Pixel 6).
    static let cases: [(String, String?)] = {
        var all: [(String, String?)] = []
        for name in BuiltinScenarios.names {
            guard let c = try? Scenario.named(name).configuration(), c.platform == .android, !c.frontBuffered else { continue }
            all.append((name, nil))
        }
        return all + [("ui-taps", "pixel-6")]
    }()

    static func configuration(_ k: Int, seconds: Int64) throws -> PipelineConfiguration {
        let (name, device) = cases[k]
        var s = try Scenario.named(name)
        if let device { s = try s.applying(device: try DevicePreset.named(device)) }
        var c = try s.configuration()
        c.duration = seconds * 1_000_000_000
        return c
    }

    /// A run of `c` whose trace is made as it goes, the log read every
    /// `interval` vsyncs with the given buffers; the result and the file.
    static func streamed(_ c: PipelineConfiguration, name: String, native: Bool, interval: Int,
                         memoryLimit: Int = ChromeTrace.memoryLimit, sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit) throws -> (RunResult, Data) {
        let trace = try #require(StreamedTrace(c, scenario: name, native: native, memoryLimit: memoryLimit,
                                               sortMemoryLimit: sortMemoryLimit, interval: interval))
        var run = try PipelineRun(configuration: c, keepLog: true)
        run.dropFrameStages()
        run.consumeLog(with: trace.consumer)
        let r = try run.run()
        // what the trace read is gone from the log
        let a = try #require(r.frameLog?.android)
        #expect(r.frameLog!.frames.count < interval)
        #expect(a.presents.count + a.frames.count <= 2 * interval + 8)
        let sink = ByteSink.memory()
        try trace.write(r, to: sink)
        return (r, sink.bytes)
    }

    @Test(arguments: 0..<cases.count)
    func theFilesAreTheWholeLogsWhateverTheInterval(k: Int) throws {
        let c = try Self.configuration(k, seconds: 12)
        let name = Self.cases[k].0
        let kept = try PipelineRun.run(c, keepLog: true)
        let json = try #require(PipelineTraceExport.trace(kept, scenario: name)).json()
        let native = try #require(try PipelineTraceExport.perfetto(kept, scenario: name))
        for interval in [1, 7, 100] {
            let (r, j) = try Self.streamed(c, name: name, native: false, interval: interval)
            #expect(j == json, "\(name): JSON read every \(interval) vsyncs")
            #expect(r.events == kept.events)
            let (_, p) = try Self.streamed(c, name: name, native: true, interval: interval)
            #expect(p == native, "\(name): Perfetto read every \(interval) vsyncs")
        }
    }

    /// With buffers of a few hundred bytes the events and packets spill,
    /// section by section, and the bytes are the same.
    @Test func aSpilledStreamedTraceIsTheSame() throws {
        let k = try #require(Self.cases.firstIndex { $0.0 == "android-default" })
        let c = try Self.configuration(k, seconds: 8)
        let kept = try PipelineRun.run(c, keepLog: true)
        let (_, j) = try Self.streamed(c, name: "android-default", native: false, interval: 13, memoryLimit: 512)
        #expect(j == (try #require(PipelineTraceExport.trace(kept, scenario: "android-default"))).json())
        let (_, p) = try Self.streamed(c, name: "android-default", native: true, interval: 13, memoryLimit: 512, sortMemoryLimit: 1_024)
        #expect(p == (try #require(try PipelineTraceExport.perfetto(kept, scenario: "android-default"))))
    }

    /// Only an Android run that is not front-buffered makes its trace as it goes.
    @Test func otherRunsKeepTheirLog() throws {
        for name in ["ios9-low-latency", "android-ink-front"] {
            let c = try Scenario.named(name).configuration()
            #expect(StreamedTrace(c, scenario: name, native: true) == nil)
        }
    }
}
