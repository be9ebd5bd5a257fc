import Foundation
import PerfettoProtos
import Scenarios
import SimKernel
import Testing
@testable import Traces

/// Perfetto traces an adversary (or a broken recorder) makes: extreme pids
/// and tids, names holding line breaks, slices and timelines of absurd
/// length, display frames years apart, a corrupt packet. Each is imported
/// (what is impossible left out, with a note) or refused as bad input;
/// never a trap, and the scenario always loads and sets only what an
/// import measures.
@Suite("Device import: hostile traces")
struct PerfettoImportHostileTests {
    /// A trace made packet by packet.
    struct Builder {
        var packets: [Perfetto_Protos_TracePacket] = []
        var cookie: Int64 = 0

        /// A thread track: its `TrackDescriptor`, and the process's name.
        mutating func thread(uuid: UInt64, pid: Int32, tid: Int64, name: String, process: String? = nil) {
            if let process {
                var d = Perfetto_Protos_TrackDescriptor()
                d.uuid = uuid + 1_000_000
                d.process.pid = pid
                d.process.processName = process
                var p = Perfetto_Protos_TracePacket()
                p.trackDescriptor = d
                packets.append(p)
            }
            var d = Perfetto_Protos_TrackDescriptor()
            d.uuid = uuid
            d.thread.pid = pid
            d.thread.tid = tid
            d.thread.threadName = name
            var p = Perfetto_Protos_TracePacket()
            p.trackDescriptor = d
            packets.append(p)
        }

        /// A slice as a `TrackEvent` begin/end pair.
        mutating func slice(track: UInt64, _ name: String, at ts: SimTime, for dur: SimTime) {
            for (type, t) in [(Perfetto_Protos_TrackEvent.TypeEnum.sliceBegin, ts), (.sliceEnd, ts + dur)] {
                var e = Perfetto_Protos_TrackEvent()
                e.type = type
                e.trackUuid = track
                if type == .sliceBegin { e.name = name }
                var p = Perfetto_Protos_TracePacket()
                p.timestamp = UInt64(t)
                p.trackEvent = e
                packets.append(p)
            }
        }

        enum Timeline { case expectedDisplay, actualSurface }

        /// A FrameTimeline timeline from `ts`, `dur` long.
        mutating func timeline(_ kind: Timeline, pid: Int32, token: Int64, at ts: SimTime, for dur: SimTime) {
            cookie += 1
            var start = Perfetto_Protos_FrameTimelineEvent()
            switch kind {
            case .expectedDisplay:
                start.expectedDisplayFrameStart.cookie = cookie
                start.expectedDisplayFrameStart.token = token
                start.expectedDisplayFrameStart.pid = pid
            case .actualSurface:
                start.actualSurfaceFrameStart.cookie = cookie
                start.actualSurfaceFrameStart.token = token
                start.actualSurfaceFrameStart.pid = pid
                start.actualSurfaceFrameStart.jankType = 1
            }
            var end = Perfetto_Protos_FrameTimelineEvent()
            end.frameEnd.cookie = cookie
            for (t, e) in [(ts, start), (ts + dur, end)] {
                var p = Perfetto_Protos_TracePacket()
                p.timestamp = UInt64(t)
                p.frameTimelineEvent = e
                packets.append(p)
            }
        }

        /// Ten 60 Hz display frames of FrameTimeline from t = 1 s, each
        /// expected 6 ms before its present.
        mutating func displays(count: Int = 10) {
            for k in 0..<count {
                timeline(.expectedDisplay, pid: 600, token: 1_000 + Int64(k), at: 1_000_000_000 + SimTime(k) * 16_666_667 - 6_000_000, for: 6_000_000)
            }
        }

        func data() throws -> Data {
            var t = Perfetto_Protos_Trace()
            t.packet = packets
            return try t.serializedBytes()
        }
    }

    /// The keys an import may set (the scan rate as the display's).
    static let importedKeys: Set<String> = ["os.platform", "device.displayHz", "device.scanHz", "android.appDuration", "android.sfDuration",
                                            "app.handler", "android.renderThread", "gpu.render", "android.sfCompose"]

    /// Imports `data`: the import, or the bad input it was refused as. An
    /// import's scenario must load, configure and set only imported keys.
    static func importing(_ data: Data) throws -> Result<(DeviceImport, String), LatsimError> {
        let imported: DeviceImport
        do { imported = try DeviceImport.read(data, file: "t.perfetto-trace") } catch {
            #expect(error.kind == .badInput, "\(error)")
            #expect(error.description.count < 1_000)
            return .failure(error)
        }
        let yaml = imported.scenarioYAML(name: "t", source: "t.perfetto-trace")
        let scenario = try Scenario(yaml: yaml, file: "t.yaml", defaultName: "t")
        _ = try scenario.configuration()
        #expect(Set(scenario.settings.entries.keys).isSubset(of: importedKeys), "\(scenario.settings.entries.keys.sorted())\n\(yaml)")
        return .success((imported, yaml))
    }

    /// A pid of -2^31 or a tid of -2^63 overflowed the tie-break's negation (exit 132).
    @Test func extremePidsAndTidsAreNoTrap() throws {
        var b = Builder()
        b.displays()
        b.thread(uuid: 1, pid: Int32.min, tid: Int64.min, name: "RenderThread")
        b.thread(uuid: 2, pid: Int32.min, tid: Int64.max, name: "main")
        for k in 0..<10 {
            let t = 1_000_000_000 + SimTime(k) * 16_666_667
            b.timeline(.actualSurface, pid: Int32.min, token: Int64(k), at: t, for: 8_000_000)
            b.timeline(.actualSurface, pid: Int32.max, token: 100 + Int64(k), at: t, for: 8_000_000)
            b.slice(track: 1, "DrawFrame \(k)", at: t + 3_000_000, for: 2_000_000)
            b.slice(track: 2, "Choreographer#doFrame \(k)", at: t + 100_000, for: 3_000_000)
        }
        let (imported, _) = try Self.importing(try b.data()).get()
        // equal counts: the lower pid is the app, as Perfetto lists processes
        #expect(imported.measured.contains { $0.contains("pid -2147483648") }, "\(imported.measured)")
        #expect(imported.stages.map(\.key) == ["app.handler", "android.renderThread"])
    }

    /// Thread and process names went into YAML comments unescaped: a thread
    /// named `x\nandroid.buffers: 2` set two buffers (exit 0).
    @Test func namesFromTheTraceCannotInjectSettings() throws {
        var b = Builder()
        b.displays()
        b.thread(uuid: 1, pid: 4000, tid: 4020, name: "x\nandroid.buffers: 2\r\ngpu.render: 1ms\u{2028}app.commits: 3", process: "app\nos.platform: ios")
        for k in 0..<10 {
            let t = 1_000_000_000 + SimTime(k) * 16_666_667
            b.timeline(.actualSurface, pid: 4000, token: Int64(k), at: t, for: 8_000_000)
            b.slice(track: 1, "DrawFrame \(k)", at: t + 3_000_000, for: 2_000_000)
        }
        let (_, yaml) = try Self.importing(try b.data()).get()
        #expect(!yaml.contains("\u{2028}"), "\(yaml)")
        for line in yaml.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(!line.contains("\r"), "\(yaml)")
            #expect(!line.hasPrefix("android.buffers") && !line.hasPrefix("gpu.render") && !line.hasPrefix("os.platform"), "\(yaml)")
        }
    }

    /// A 2,500-hour slice and a 9e18 ns display frame went into the
    /// scenario, which then did not load (exit 3).
    @Test func slicesAndTimelinesOfImpossibleLengthAreLeftOut() throws {
        var b = Builder()
        b.displays()
        for k in 0..<11 {
            b.timeline(.expectedDisplay, pid: 600, token: 2_000 + Int64(k), at: 2_000_000_000 + SimTime(k) * 16_666_667, for: 9_000_000_000_000_000_000)
        }
        b.thread(uuid: 1, pid: 4000, tid: 4020, name: "RenderThread")
        for k in 0..<10 {
            let t = 1_000_000_000 + SimTime(k) * 16_666_667
            b.timeline(.actualSurface, pid: 4000, token: Int64(k), at: t, for: 8_000_000)
            b.slice(track: 1, "DrawFrame \(k)", at: t + 3_000_000, for: 2_000_000)
        }
        b.slice(track: 1, "DrawFrame long", at: 2_000_000_000, for: 2_500 * 3_600 * Nanos.perSecond)
        let (imported, yaml) = try Self.importing(try b.data()).get()
        #expect(imported.sfDuration?.value == 6_000_000)
        #expect(imported.stages.first { $0.key == "android.renderThread" }?.durations.value == Array(repeating: 2_000_000, count: 10))
        #expect(yaml.contains("11 expected display frames") && yaml.contains("1 DrawFrame slice"), "\(yaml)")
    }

    /// Display frames more than 2^62 ns apart overflowed the period
    /// computation (exit 132): a display rate no device has is bad input.
    @Test func displayFramesYearsApartAreRefused() throws {
        var b = Builder()
        b.timeline(.expectedDisplay, pid: 600, token: 1, at: 1_000_000, for: 6_000_000)
        b.timeline(.expectedDisplay, pid: 600, token: 2, at: 5_000_000_000_000_000_000, for: 6_000_000)
        guard case .failure(let e) = try Self.importing(try b.data()) else {
            Issue.record("accepted")
            return
        }
        #expect(e.description.contains("Hz") && e.description.contains("1 to 1000"), "\(e)")
    }

    /// Decoded packet by packet, a corrupt packet is named by its place.
    @Test func aCorruptPacketIsNamedByItsOffset() throws {
        var b = Builder()
        b.displays(count: 2)
        var data = try b.data()
        let offset = data.count
        // field 1 of the Trace, 3 bytes long, holding a field whose length runs past the packet
        data.append(contentsOf: [0x0A, 0x03, 0x0A, 0x7F, 0x00])
        guard case .failure(let e) = try Self.importing(data) else {
            Issue.record("accepted")
            return
        }
        #expect(e.description.contains("packet 5") && e.description.contains("byte \(offset)"), "\(e)")
        // a Trace whose length runs past the end of the file
        guard case .failure(let cut) = try Self.importing(Data([0x0A, 0x10, 0x00])) else {
            Issue.record("accepted")
            return
        }
        #expect(cut.description.contains("byte 0"), "\(cut)")
    }

    /// The duration formatting and the period never trap.
    @Test func durationsAndPeriodsOfAnyValue() {
        #expect(DeviceImport.milliseconds(-15) == "-0.000015ms")
        #expect(DeviceImport.milliseconds(-1_500_000) == "-1.5ms")
        #expect(DeviceImport.milliseconds(Int64.min) == "-9223372036854.775808ms")
        #expect(DeviceImport.milliseconds(Int64.max) == "9223372036854.775807ms")
        #expect(DeviceImport.period(ofGridInstants: [0, Int64.max]) == Int64.max)
        #expect(DeviceImport.period(ofGridInstants: [Int64.min, Int64.max, 0]) != nil)
        #expect(DeviceImport.period(ofGridInstants: [5, 5]) == nil)
    }
}
