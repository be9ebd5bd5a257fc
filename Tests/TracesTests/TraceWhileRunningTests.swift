import Foundation
import FramePipeline
@testable import LatsimOutput
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// A run's trace made as the run goes (``StreamedTrace``): the
/// files are the bytes of the trace made from the whole log after the run,
/// however often the log is read and emptied, and the log no longer holds
/// the run.
@Suite("Traces made as the run goes")
struct TraceWhileRunningTests {
    /// Every built-in scenario (iOS, Android, front-buffered ink), and
    /// displays that switch their rate (ui-taps on the Pixel 6 and on the
    /// iPad Pro's ProMotion).
    static let cases: [(String, String?)] = BuiltinScenarios.names.map { ($0, nil) } + [("ui-taps", "pixel-6"), ("ui-taps", "ipad-pro-2017")]

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
                         memoryLimit: Int = ChromeTrace.memoryLimit, sortMemoryLimit: Int = ChromeTrace.sortMemoryLimit,
                         writing: StreamedTrace.Writing = .atEnd) throws -> (RunResult, Data) {
        let trace = StreamedTrace(c, scenario: name, native: native, memoryLimit: memoryLimit,
                                  sortMemoryLimit: sortMemoryLimit, interval: interval, writing: writing)
        var run = try PipelineRun(configuration: c, keepLog: true)
        run.dropFrameStages()
        run.consumeLog(with: trace.consumer)
        let r = try run.run()
        // what the trace read is gone from the log
        let log = try #require(r.frameLog)
        #expect(log.frames.count < interval)
        if let a = log.android { #expect(a.presents.count + a.frames.count + a.frontDraws.count <= 16 * interval + 16) }
        #expect(log.latches.count + log.scans.count <= 4 * interval + 8)
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
        // written as the run goes, on the run's thread and on a second one
        for (interval, threaded) in [(1, true), (7, false), (100, true)] {
            let writing = StreamedTrace.Writing.asRunGoes(threaded: threaded)
            let (_, j) = try Self.streamed(c, name: name, native: false, interval: interval, writing: writing)
            #expect(j == json, "\(name): JSON read every \(interval) vsyncs, written as the run goes (threaded: \(threaded))")
            let (_, p) = try Self.streamed(c, name: name, native: true, interval: interval, writing: writing)
            #expect(p == native, "\(name): Perfetto read every \(interval) vsyncs, written as the run goes (threaded: \(threaded))")
        }
    }

    /// With buffers of a few hundred bytes the events and packets spill,
    /// section by section, and the bytes are the same.
    @Test(arguments: ["android-default", "ios9-low-latency", "android-ink-front"])
    func aSpilledStreamedTraceIsTheSame(name: String) throws {
        let k = try #require(Self.cases.firstIndex { $0.0 == name })
        let c = try Self.configuration(k, seconds: 8)
        let kept = try PipelineRun.run(c, keepLog: true)
        let (_, j) = try Self.streamed(c, name: name, native: false, interval: 13, memoryLimit: 512)
        #expect(j == (try #require(PipelineTraceExport.trace(kept, scenario: name))).json())
        let (_, p) = try Self.streamed(c, name: name, native: true, interval: 13, memoryLimit: 512, sortMemoryLimit: 1_024)
        #expect(p == (try #require(try PipelineTraceExport.perfetto(kept, scenario: name))))
        for threaded in [false, true] {
            let writing = StreamedTrace.Writing.asRunGoes(threaded: threaded)
            let (_, j) = try Self.streamed(c, name: name, native: false, interval: 13, memoryLimit: 512, writing: writing)
            #expect(j == (try #require(PipelineTraceExport.trace(kept, scenario: name))).json())
            let (_, p) = try Self.streamed(c, name: name, native: true, interval: 13, memoryLimit: 512, sortMemoryLimit: 1_024,
                                           writing: writing)
            #expect(p == (try #require(try PipelineTraceExport.perfetto(kept, scenario: name))))
        }
    }

    /// `--frames` with `--trace`: the run's vsync rows go to the CSV as
    /// they come while the trace reads the log, and each file is the one
    /// the whole log gives; the log keeps no more than the trace's interval.
    @Test(arguments: ["android-default", "ios9-low-latency", "android-ink-front"], [false, true])
    func framesAndTraceFromOneRunAreTheWholeLogs(name: String, native: Bool) throws {
        let k = try #require(Self.cases.firstIndex { $0.0 == name })
        let c = try Self.configuration(k, seconds: 8)
        let whole = try PipelineRun(configuration: c, keepLog: true)
        let kept = try whole.run()
        let trace = StreamedTrace(c, scenario: name, native: native, interval: 50, writing: .asRunGoes(threaded: true))
        let csv = ByteSink.memory()
        let writer = try FrameCSV.Writer(c, to: csv)
        var run = try PipelineRun(configuration: c, keepLog: true)
        run.consumeLog(with: trace.consumer)
        run.streamFrames(to: writer)
        let r = try run.run()
        try writer.finish()
        let log = try #require(r.frameLog)
        #expect(log.frames.count < 50 && log.stageNanos.isEmpty)
        #expect(String(decoding: csv.bytes, as: UTF8.self) == FrameCSV.csv(kept))
        let file = ByteSink.memory()
        try trace.write(r, to: file)
        if native {
            #expect(file.bytes == (try #require(try PipelineTraceExport.perfetto(kept, scenario: name))))
        } else {
            #expect(file.bytes == (try #require(PipelineTraceExport.trace(kept, scenario: name))).json())
        }
    }

    /// A flow reaches its slices however long the run: past the 4,096
    /// flows after which the tables forget what no flow can reach, every
    /// measured frame still has its flow (90 s at 120 Hz).
    @Test func flowsLastTheWholeRun() throws {
        var c = try Scenario.named("ios9-coalescing-120hz").configuration()
        c.duration = 90_000_000_000
        let kept = try PipelineRun.run(c, keepLog: true)
        let (_, j) = try Self.streamed(c, name: "ios9-coalescing-120hz", native: false, interval: 50)
        #expect(j == (try #require(PipelineTraceExport.trace(kept, scenario: "ios9-coalescing-120hz"))).json())
        // written as the run goes, the flows' sections too leave the trace as they settle
        let (_, threaded) = try Self.streamed(c, name: "ios9-coalescing-120hz", native: false, interval: 50,
                                              writing: .asRunGoes(threaded: true))
        #expect(threaded == j)
        // a flow per measured frame whose touch was scanned in the run
        let log = try #require(kept.frameLog)
        let scanned = Set(log.scans.map(\.index))
        let measured = log.latches.filter { $0.measured && scanned.contains($0.mainTouch) }.count
        var ids = Set<Substring>()
        for part in String(decoding: j, as: UTF8.self).split(separator: "\"bind_id\":").dropFirst() {
            ids.insert(part.prefix { $0.isNumber })
        }
        #expect(measured > 4_096)
        #expect(ids.count == measured)
    }
}

/// A trace's settled flow marks go to a record log: the files are those of
/// a trace that kept every mark, and a flow through a settled slice is an
/// internal error, not a file without it.
@Suite("Settled flow marks")
struct SettledFlowMarkTests {
    /// Slices in three sections, a flow through one slice of each every
    /// few events, made as a stream makes them (each joining one of the
    /// last three slices of a section), the marks settled every 50 events
    /// when `settle`, before the last three of each section.
    static func trace(settle: Bool, memoryLimit: Int = ChromeTrace.memoryLimit,
                      settled: ((ChromeTrace) -> SettledEvents)? = nil) -> ChromeTrace {
        var t = ChromeTrace(processName: "flows", memoryLimit: memoryLimit)
        let track = t.track(named: "track")
        t.settledEvents = settled?(t)
        var rng = SeededRandom(seed: 7)
        var recent: [[ChromeTrace.SliceRef]] = [[], [], []]
        for i in 0..<6_000 {
            let k = Int(rng.next() % 3)
            t.section(k)
            recent[k].append(t.slice(track, name: "slice \(i)", startNs: SimTime(i) * 1_000, durationNs: 500))
            if i % 5 == 4, recent.allSatisfy({ $0.count >= 3 }) {
                let steps = recent.map { $0[$0.count - 1 - Int(rng.next() % 3)] }
                t.flow(id: UInt64(i), name: "touch \(i) ✓", through: steps)
            }
            if settle && i % 50 == 49 {
                for k in 0..<3 where recent[k].count >= 3 { t.settleMarks(section: k, below: recent[k][recent[k].count - 3].index, force: true) }
            }
        }
        return t
    }

    @Test func settledMarksWriteTheBytesOfKeptOnes() throws {
        let kept = Self.trace(settle: false), settled = Self.trace(settle: true, memoryLimit: 512)
        #expect(settled.json() == kept.json())
        #expect(try settled.perfetto() == kept.perfetto())
        #expect(kept.json().count > 100_000)
    }

    /// Events written as they settle (``SettledEvents``), on a second
    /// thread or not, their text and packets spilled, give the bytes of a
    /// trace that kept them.
    @Test(arguments: [false, true])
    func eventsWrittenAsTheySettleAreTheSame(threaded: Bool) throws {
        let kept = Self.trace(settle: false)
        // section 1's last events are written as a kept section is, on the thread while the others are copied
        let json = Self.trace(settle: true, memoryLimit: 512) { t in
            let s = SettledJSON(t, threaded: threaded, memoryLimit: 300)
            s.kept = [1]
            return s
        }
        #expect(json.json() == kept.json())
        #expect(json.json() == kept.json(), "written a second time")
        let packets = NativePackets(sortMemoryLimit: 1_024, pid: kept.pid)
        let native = Self.trace(settle: true, memoryLimit: 512) { SettledPackets($0, packets: packets, threaded: threaded) }
        let sink = ByteSink.memory()
        try native.writePerfetto(to: sink, packets: packets)
        #expect(sink.bytes == (try kept.perfetto()))
        #expect(packets.sorter.runCount > 10)
    }

    /// A track added before others of its group after events of a later
    /// one were written as they settled would move them: an internal
    /// error, not a file with the wrong tids.
    @Test(arguments: [false, true])
    func aTrackMovedUnderWrittenEventsIsAnInternalError(threaded: Bool) throws {
        var t = ChromeTrace(processName: "tracks")
        let late = t.track(named: "late", group: 1)
        t.settledEvents = SettledJSON(t, threaded: threaded)
        for i in 0..<600 { t.instant(late, name: "tick", atNs: SimTime(i)) }
        t.settleMarks(section: 0, below: 600)
        _ = t.track(named: "early")
        #expect {
            try t.writeJSON(to: ByteSink.memory())
        } throws: { error in
            (error as? LatsimError)?.kind == .internal && "\(error)".contains("moved")
        }
    }

    /// What writing settled events meets (a spill file that cannot be
    /// made, say) is thrown when the trace is written, after everything
    /// queued has gone by: nothing waits for work that will not be done.
    @Test(arguments: [false, true])
    func aFailureWritingSettledEventsIsThrownNotWaitedFor(threaded: Bool) throws {
        let t = ChromeTrace(processName: "failing")
        let settled = SettledJSON(t, threaded: threaded)
        var after = 0
        settled.add(work: { throw LatsimError(.environment, problem: "no room") })
        for _ in 0..<10 { settled.add(work: { after += 1 }) }
        #expect(throws: LatsimError.self) { try settled.drain() }
        #expect(throws: LatsimError.self) { try settled.finish() }
        #expect(after == 0)
    }

    @Test func aFlowThroughASettledSliceIsAnInternalError() throws {
        var t = ChromeTrace(processName: "flows", memoryLimit: 4_096)
        let track = t.track(named: "track")
        let first = t.slice(track, name: "first", startNs: 0, durationNs: 1)
        let a = t.slice(track, name: "a", startNs: 1, durationNs: 1), b = t.slice(track, name: "b", startNs: 2, durationNs: 1)
        t.flow(id: 1, through: [a, b])
        t.settleMarks(section: 0, below: 2, force: true)
        let added = t.flow(id: 2, through: [first, b])
        #expect(!added)
        #expect(throws: LatsimError.self) { try t.writeJSON(to: ByteSink.memory()) }
    }
}
