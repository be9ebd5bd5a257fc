import Foundation
import FramePipeline
import LatsimOutput
import Scenarios
import SimKernel

/// Turns a run's frame log into a Chrome trace-event file (Perfetto UI and
/// chrome://tracing open it): a track per stage, a slice per piece of work,
/// vsync instants, a counter of display buffers, and a flow from each
/// measured touch sample through delivery, commit, prepare and GPU to the
/// latch that showed it.
public enum PipelineTraceExport {
    /// Track names, top to bottom: the vsync, then the diagram's lanes.
    public static var trackNames: [String] { ["vsync"] + PipelineLane.ios.map(\.trackName) }

    /// The run in Perfetto's own format (``ChromeTrace/perfetto(frameTimeline:)``):
    /// the tracks, slices, flows and counters of ``trace(_:scenario:)`` and,
    /// for an Android run, FrameTimeline's packets in place of the JSON's
    /// timeline tracks and each touch's input-event packets. Nil when the run kept no frame log.
    public static func perfetto(_ result: RunResult, scenario: String) throws -> Data? {
        let sink = ByteSink.memory()
        guard try writePerfetto(result, scenario: scenario, to: sink) else { return nil }
        return sink.bytes
    }

    /// Writes ``perfetto(_:scenario:)``'s bytes packet by packet
    /// (``ChromeTrace/writePerfetto(to:frameTimeline:inputEvents:sortMemoryLimit:extraPackets:)``);
    /// false (nothing written) when the run kept no frame log. The trace
    /// holds `memoryLimit` bytes of events and the sort `sortMemoryLimit`
    /// bytes of packets; the rest goes to spill files.
    @discardableResult
    public static func writePerfetto(_ result: RunResult, scenario: String, to sink: ByteSink,
                                     memoryLimit: Int = ChromeTrace.memoryLimit,
                                     sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit) throws -> Bool {
        guard let log = result.frameLog, result.configuration.platform == .ios || log.android != nil else { return false }
        let s = stream(result.configuration, scenario: scenario, native: true, memoryLimit: memoryLimit,
                       sortMemoryLimit: sortMemoryLimit, interval: 1_024, trims: false)
        try s.write(s.finish(log), native: true, to: sink)
        return true
    }

    /// The trace of a run that kept its frame log; nil when it did not. An
    /// Android run gets Android's tracks and timelines (``AndroidTraceExport``).
    /// It is the trace a run's trace made as the run goes gives
    /// (``RunTraceStream``), read here from the whole log at once.
    /// The trace holds `memoryLimit` bytes of its events, the rest in a spill file.
    public static func trace(_ result: RunResult, scenario: String, memoryLimit: Int = ChromeTrace.memoryLimit) -> ChromeTrace? {
        if result.configuration.platform == .android {
            return AndroidTraceExport.trace(result, scenario: scenario, memoryLimit: memoryLimit)
        }
        guard let log = result.frameLog else { return nil }
        return IOSTraceStream(result.configuration, scenario: scenario, memoryLimit: memoryLimit, trims: false).finish(log)
    }

    /// The stream that makes a trace of a run of `c`: its platform's, the
    /// JSON's (with FrameTimeline's timelines as tracks) or a native
    /// trace's (with FrameTimeline's and the input events' packets).
    static func stream(_ c: PipelineConfiguration, scenario: String, native: Bool, memoryLimit: Int, sortMemoryLimit: Int,
                       interval: Int, trims: Bool) -> RunTraceStream {
        switch c.platform {
        case .ios:
            return IOSTraceStream(c, scenario: scenario, nativePackets: native, memoryLimit: memoryLimit, sortMemoryLimit: sortMemoryLimit,
                                  interval: interval, trims: trims)
        case .android where c.frontBuffered:
            return FrontBufferTraceStream(c, scenario: scenario, timelineTracks: !native, nativePackets: native, memoryLimit: memoryLimit,
                                          sortMemoryLimit: sortMemoryLimit, interval: interval, trims: trims)
        case .android:
            return AndroidTraceStream(c, scenario: scenario, timelineTracks: !native, nativePackets: native, memoryLimit: memoryLimit,
                                      sortMemoryLimit: sortMemoryLimit, interval: interval, trims: trims)
        }
    }
}

extension RunTraceStream {
    /// Writes trace `t` this stream made: the JSON, or Perfetto's format
    /// through this stream's packets (a stream made for a native trace);
    /// what reading the log met is thrown first.
    func write(_ t: ChromeTrace, native: Bool, to sink: ByteSink) throws {
        try check()
        if !native { return try t.writeJSON(to: sink) }
        guard let packets else { throw LatsimError(.internal, problem: "a native trace from a stream made for the JSON") }
        try t.writePerfetto(to: sink, packets: packets)
    }
}

/// A run's trace made as the run goes (``PipelineRun/consumeLog(with:)``),
/// for the runs whose trace can be: an iOS run's, and an Android run's
/// that is not front-buffered.
/// The trace reads the frame log every 1,024 vsyncs and empties it, so the
/// run's memory does not grow with its duration; the file it writes is
/// byte for byte the one ``PipelineTraceExport`` makes from the whole log.
public final class StreamedTrace {
    let stream: RunTraceStream
    /// True for Perfetto's own format, false for the Chrome JSON.
    public let native: Bool

    /// When a trace made as its run goes writes its events.
    public enum Writing: Sendable {
        /// All at the end, from the events kept (in spill files past a few MiB).
        case atEnd
        /// Each section's events once their flows are settled
        /// (``SettledEvents``), on the run's thread or, `threaded`, on a
        /// second thread while the run goes on. The file is the same.
        case asRunGoes(threaded: Bool)
    }

    /// The trace of a run of `c`, made as it goes.
    public init(_ c: PipelineConfiguration, scenario: String, native: Bool,
                memoryLimit: Int = ChromeTrace.memoryLimit, sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit, interval: Int = 1_024,
                writing: Writing = .atEnd) {
        self.native = native
        stream = PipelineTraceExport.stream(c, scenario: scenario, native: native, memoryLimit: memoryLimit,
                                            sortMemoryLimit: sortMemoryLimit, interval: interval, trims: true)
        if case .asRunGoes(let threaded) = writing {
            let t = stream.trace
            if let packets = stream.packets {
                stream.writeSettled(SettledPackets(t, packets: packets, threaded: threaded))
            } else {
                stream.writeSettled(SettledJSON(t, threaded: threaded, memoryLimit: memoryLimit))
            }
        }
    }

    /// What the run hands its log to.
    public var consumer: any FrameLogConsumer { stream }

    /// Writes the trace of the finished run `result` (whose log this
    /// trace consumed) to `sink`; the number of events (slices, instants
    /// and counter samples).
    @discardableResult
    public func write(_ result: RunResult, to sink: ByteSink) throws -> Int {
        guard let log = result.frameLog else { throw LatsimError(.internal, problem: "a streamed trace's run kept no frame log") }
        let t = stream.finish(log)
        try stream.write(t, native: native, to: sink)
        return t.eventCount
    }
}
