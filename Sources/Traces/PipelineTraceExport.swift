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
        if result.configuration.platform == .android && !result.configuration.frontBuffered {
            guard let log = result.frameLog, log.android != nil else { return false }
            let stream = AndroidTraceStream(result.configuration, scenario: scenario, timelineTracks: false, nativePackets: true,
                                            memoryLimit: memoryLimit, sortMemoryLimit: sortMemoryLimit, trims: false)
            let t = stream.finish(log)
            try stream.check()
            try t.writePerfetto(to: sink, packets: stream.packets!)
            return true
        }
        if result.configuration.platform == .android {
            guard let t = AndroidTraceExport.trace(result, scenario: scenario, timelineTracks: false, memoryLimit: memoryLimit) else {
                return false
            }
            try t.writePerfetto(to: sink, frameTimeline: AndroidTraceExport.frameTimeline(result, scenario: scenario),
                                inputEvents: InputEventTrace.touches(result), sortMemoryLimit: sortMemoryLimit)
            return true
        }
        guard let t = trace(result, scenario: scenario, memoryLimit: memoryLimit) else { return false }
        try t.writePerfetto(to: sink, sortMemoryLimit: sortMemoryLimit)
        return true
    }

    /// The trace of a run that kept its frame log; nil when it did not. An
    /// Android run gets Android's tracks and timelines (``AndroidTraceExport``).
    /// The trace holds `memoryLimit` bytes of its events, the rest in a spill file.
    public static func trace(_ result: RunResult, scenario: String, memoryLimit: Int = ChromeTrace.memoryLimit) -> ChromeTrace? {
        if result.configuration.platform == .android {
            return AndroidTraceExport.trace(result, scenario: scenario, memoryLimit: memoryLimit)
        }
        guard let log = result.frameLog else { return nil }
        let index = FrameLogIndex(log)
        var t = ChromeTrace(processName: "latsim \(scenario)", memoryLimit: memoryLimit)
        let tracks = trackNames.map { t.track(named: $0) }
        let (vsync, touch, app, server, gpu, display) = (tracks[0], tracks[1], tracks[2], tracks[3], tracks[4], tracks[5])
        let end = result.configuration.duration
        // the slices a flow may pass through, by what they are
        var scanSlice = SliceTable(), handlerSlice: [SimTime: ChromeTrace.SliceRef] = [:]
        var prepareSlice = SliceTable(), gpuSlice = SliceTable(), shownSlice = SliceTable()

        t.displayVsyncs(result, on: vsync)
        for s in log.scans {
            scanSlice[s.index] = t.slice(touch, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
                                         args: ["sample instant ms": .number(Double(s.instant) / 1e6), "ready ms": .number(Double(s.ready) / 1e6)])
        }
        for d in log.deliveries {
            t.instant(app, name: d.count > 1 ? "deliver \(d.count) coalesced touches" : "deliver touch", atNs: d.time,
                      args: ["main touch": .integer(d.last)])
        }
        for h in log.handlers {
            handlerSlice[h.start] = t.slice(app, name: "touch handler", startNs: h.start, durationNs: h.end - h.start,
                                            args: ["main touch": .integer(h.mainTouch), "run": .integer(h.run)])
        }
        for c in log.commits {
            t.instant(app, name: "commit", atNs: c.time, args: ["commit": .integer(c.seq), "main touch": .integer(c.mainTouch)])
        }
        for p in log.prepares {
            prepareSlice[p.frame] = t.slice(server, name: "prepare frame \(p.frame)", startNs: p.start, durationNs: p.end - p.start,
                                            args: ["commit": .integer(p.commitSeq), "buffer": .integer(Int64(p.buffer))])
        }
        for g in log.gpuJobs {
            let name = g.frame < 0 ? "Metal work (commit \(g.commitSeq))" : (g.metal ? "Metal frame \(g.frame)" : "render frame \(g.frame)")
            let ref = t.slice(gpu, name: name, startNs: g.start, durationNs: g.end - g.start,
                              args: ["commit": .integer(g.commitSeq), "buffer": .integer(Int64(g.buffer))])
            if g.frame >= 0 { gpuSlice[g.frame] = ref }
        }
        for (l, until) in index.shownFrames(until: end) {
            shownSlice[l.frame] = t.slice(display, name: "frame \(l.frame) on screen", startNs: l.time, durationNs: until - l.time,
                                          args: ["commit": .integer(l.commitSeq), "main touch": .integer(l.mainTouch),
                                                 "buffer": .integer(Int64(l.buffer))])
        }
        for l in log.latches where l.repeated {
            t.instant(display, name: l.hitch ? "repeated frame (hitch)" : "repeated frame", atNs: l.time)
        }
        for d in log.drops { t.instant(display, name: "dropped frame \(d.frame)", atNs: d.time) }
        for b in log.bufferSamples {
            t.counter("display buffers", atNs: b.time, values: ["in use": Double(b.held), "allocated": Double(b.allocated)])
        }
        // a flow per measured frame: scan -> handler -> prepare -> GPU -> display
        for l in log.latches where l.measured {
            guard let j = index.journey(of: l), let first = scanSlice[j.scan.index], let last = shownSlice[l.frame] else { continue }
            var steps = [first]
            if let h = j.handler, let ref = handlerSlice[h.start] { steps.append(ref) }
            if let ref = prepareSlice[l.frame] { steps.append(ref) }
            if let ref = gpuSlice[l.frame] { steps.append(ref) }
            steps.append(last)
            t.flow(id: UInt64(l.frame + 1), name: "touch \(j.scan.index)", through: steps)
        }
        return t
    }
}

/// A run's trace made as the run goes (``PipelineRun/consumeLog(with:)``),
/// for the runs whose trace can be: an Android run's, not front-buffered.
/// The trace reads the frame log every 1,024 vsyncs and empties it, so the
/// run's memory does not grow with its duration; the file it writes is
/// byte for byte the one ``PipelineTraceExport`` makes from the whole log.
public final class StreamedTrace {
    let stream: AndroidTraceStream
    /// True for Perfetto's own format, false for the Chrome JSON.
    public let native: Bool

    /// The trace of a run of `c`, made as it goes, or nil when such a
    /// run's trace is made from the whole log after the run.
    public init?(_ c: PipelineConfiguration, scenario: String, native: Bool,
                 memoryLimit: Int = ChromeTrace.memoryLimit, sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit, interval: Int = 1_024) {
        guard c.platform == .android, !c.frontBuffered else { return nil }
        self.native = native
        stream = AndroidTraceStream(c, scenario: scenario, timelineTracks: !native, nativePackets: native,
                                    memoryLimit: memoryLimit, sortMemoryLimit: sortMemoryLimit, interval: interval, trims: true)
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
        try stream.check()
        if native { try t.writePerfetto(to: sink, packets: stream.packets!) } else { try t.writeJSON(to: sink) }
        return t.eventCount
    }
}
