import Foundation
import PerfettoProtos
import SimKernel
import Testing
@testable import Traces

/// The FrameTimeline reader of `latsim import` on Perfetto's own test trace
/// (frame_timeline_events.py from google/perfetto, made into
/// Tests/Fixtures/import/frame_timeline_events.perfetto-trace by the script
/// beside it): the timelines it reads are the rows Perfetto's tests expect
/// in `expected_frame_timeline_slice` and `actual_frame_timeline_slice`
/// (tests.py beside that file: test_expected_frame_timeline_events and
/// test_actual_frame_timeline_events; present types 1 on time, 2 late,
/// 3 early, 4 dropped, 5 unknown).
@Suite("Device import")
struct DeviceImportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import")

    struct Row: Hashable, CustomStringConvertible {
        var ts, dur: Int64
        var pid: Int32
        var displayToken: Int64
        var surfaceToken: Int64?
        var layer: String?
        var present: Int?
        var description: String { "\(ts),\(dur),\(pid),\(displayToken),\(surfaceToken.map(String.init) ?? "-"),\(layer ?? "-"),\(present.map(String.init) ?? "")" }
    }

    static func rows(_ kinds: [PerfettoImport.Timeline.Kind], present: Bool) throws -> [Row] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("frame_timeline_events.perfetto-trace"))
        let c = try PerfettoImport.contents(data, file: "frame_timeline_events.perfetto-trace")
        return c.timelines.filter { kinds.contains($0.kind) }.map { t in
            let surface = t.kind == .expectedSurface || t.kind == .actualSurface
            return Row(ts: t.ts, dur: t.dur, pid: t.pid, displayToken: t.displayToken, surfaceToken: surface ? t.token : nil,
                       layer: surface ? t.layer : nil, present: present ? t.presentType : nil)
        }.sorted { ($0.ts, $0.dur, $0.layer ?? "") < ($1.ts, $1.dur, $1.layer ?? "") }
    }

    @Test func expectedTimelinesAreThoseOfPerfettosTest() throws {
        let expected: [Row] = [
            Row(ts: 20, dur: 6, pid: 666, displayToken: 2), Row(ts: 21, dur: 15, pid: 1000, displayToken: 4, surfaceToken: 1, layer: "Layer1"),
            Row(ts: 40, dur: 6, pid: 666, displayToken: 4), Row(ts: 41, dur: 15, pid: 1000, displayToken: 6, surfaceToken: 5, layer: "Layer1"),
            Row(ts: 80, dur: 6, pid: 666, displayToken: 6), Row(ts: 90, dur: 16, pid: 1000, displayToken: 8, surfaceToken: 7, layer: "Layer1"),
            Row(ts: 120, dur: 6, pid: 666, displayToken: 8), Row(ts: 140, dur: 6, pid: 666, displayToken: 12),
            Row(ts: 150, dur: 20, pid: 1000, displayToken: 15, surfaceToken: 14, layer: "Layer1"),
            Row(ts: 170, dur: 6, pid: 666, displayToken: 15), Row(ts: 200, dur: 6, pid: 666, displayToken: 17),
            Row(ts: 220, dur: -1, pid: 666, displayToken: 18), Row(ts: 220, dur: 10, pid: 666, displayToken: 18),
        ]
        let got = try Self.rows([.expectedDisplay, .expectedSurface], present: false)
        #expect(got == expected, "\(got)")
    }

    @Test func actualTimelinesAreThoseOfPerfettosTest() throws {
        func r(_ ts: Int64, _ dur: Int64, _ pid: Int32, _ d: Int64, _ s: Int64?, _ layer: String?, _ present: Int) -> Row {
            Row(ts: ts, dur: dur, pid: pid, displayToken: d, surfaceToken: s, layer: layer, present: present)
        }
        let expected: [Row] = [
            r(20, 6, 666, 2, nil, nil, 1), r(21, 16, 1000, 4, 1, "Layer1", 1), r(41, 33, 1000, 6, 5, "Layer1", 2),
            r(42, 5, 666, 4, nil, nil, 1), r(80, 110, 1000, 17, 16, "Layer1", 5), r(81, 7, 666, 6, nil, nil, 1),
            r(90, 16, 1000, 8, 7, "Layer1", 3), r(108, 4, 666, 8, nil, nil, 3), r(148, 8, 666, 12, nil, nil, 2),
            r(150, 17, 1000, 15, 14, "Layer1", 1), r(150, 17, 1000, 15, 14, "Layer2", 1), r(170, 6, 666, 15, nil, nil, 1),
            r(200, 6, 666, 17, nil, nil, 1), r(245, -1, 666, 18, nil, nil, 2), r(245, 15, 666, 18, nil, nil, 4),
        ]
        #expect(try Self.rows([.actualDisplay, .actualSurface], present: true) == expected)
    }

    @Test func milliseconds() {
        #expect(DeviceImport.milliseconds(4_123_456) == "4.123456ms")
        #expect(DeviceImport.milliseconds(16_666_667) == "16.666667ms")
        #expect(DeviceImport.milliseconds(2_000_000) == "2ms")
        #expect(DeviceImport.milliseconds(1_500_000) == "1.5ms")
        #expect(DeviceImport.milliseconds(7) == "0.000007ms")
    }

    /// Vsyncs 8.333 ms apart with some skipped: the period is the median
    /// of the gaps near the shortest.
    @Test func periodOfInstantsOnAGrid() {
        let t: SimTime = 8_333_333
        let instants = [0, 1, 2, 4, 5, 8, 9, 10].map { $0 * t }
        #expect(DeviceImport.period(ofGridInstants: instants) == t)
        #expect(DeviceImport.period(ofGridInstants: [5]) == nil)
    }
}

/// A trace as a device records it: atrace slices as ftrace `print` events
/// (`B|pid|name`, `E|pid`), thread names from the process tree, and
/// FrameTimeline on a 120 Hz display; the importer finds the app's UI
/// thread and RenderThread by their slices.
@Suite("Device import: atrace")
struct AtraceImportTests {
    static let period: SimTime = 8_333_333

    static func trace() throws -> Data {
        var packets: [Perfetto_Protos_TracePacket] = []
        var tree = Perfetto_Protos_ProcessTree()
        var proc = Perfetto_Protos_ProcessTree.Process()
        proc.pid = 4000
        proc.cmdline = ["com.example.app"]
        tree.processes = [proc]
        for (tid, name) in [(4000, "com.example.app"), (4020, "RenderThread"), (600, "surfaceflinger")] {
            var t = Perfetto_Protos_ProcessTree.Thread()
            t.tid = Int32(tid)
            t.tgid = tid == 600 ? 600 : 4000
            t.name = name
            tree.threads.append(t)
        }
        var first = Perfetto_Protos_TracePacket()
        first.processTree = tree
        packets.append(first)
        var bundle = Perfetto_Protos_FtraceEventBundle()
        func print(_ tid: UInt32, _ ts: SimTime, _ buf: String) {
            var e = Perfetto_Protos_FtraceEvent()
            e.timestamp = UInt64(ts)
            e.pid = tid
            e.print.buf = buf
            bundle.event.append(e)
        }
        var cookie: Int64 = 0
        for k in 1...10 {
            let v = SimTime(k) * period + 1_000_000_000
            print(4000, v + 100_000, "B|4000|Choreographer#doFrame \(k)\n")
            print(4000, v + 100_000 + SimTime(k) * 300_000, "E|4000\n")
            print(4020, v + 4_000_000, "B|4000|DrawFrames \(k)\n")
            print(4020, v + 6_000_000, "E|4000\n")
            print(600, v + 2 * period - 3_000_000, "B|600|composite \(k)\n")
            print(600, v + 2 * period - 2_000_000, "E|600\n")
            // FrameTimeline: the app frame (D_app = 2T) and its display frame (D_sf = 6 ms)
            func ft(_ ts: SimTime, _ e: Perfetto_Protos_FrameTimelineEvent) {
                var p = Perfetto_Protos_TracePacket()
                p.timestamp = UInt64(ts)
                p.frameTimelineEvent = e
                packets.append(p)
            }
            func end(_ ts: SimTime, _ c: Int64) {
                var e = Perfetto_Protos_FrameTimelineEvent()
                e.frameEnd.cookie = c
                ft(ts, e)
            }
            var s = Perfetto_Protos_FrameTimelineEvent()
            cookie += 1
            s.expectedSurfaceFrameStart.cookie = cookie
            s.expectedSurfaceFrameStart.token = Int64(k)
            s.expectedSurfaceFrameStart.pid = 4000
            s.expectedSurfaceFrameStart.layerName = "com.example.app/Main#0"
            ft(v, s)
            end(v + 2 * period, cookie)
            var a = Perfetto_Protos_FrameTimelineEvent()
            cookie += 1
            a.actualSurfaceFrameStart.cookie = cookie
            a.actualSurfaceFrameStart.token = Int64(k)
            a.actualSurfaceFrameStart.pid = 4000
            ft(v, a)
            end(v + 6_000_000, cookie)
            var d = Perfetto_Protos_FrameTimelineEvent()
            cookie += 1
            d.expectedDisplayFrameStart.cookie = cookie
            d.expectedDisplayFrameStart.token = Int64(100 + k)
            d.expectedDisplayFrameStart.pid = 600
            ft(v + 3 * period - 6_000_000, d)
            end(v + 3 * period, cookie)
        }
        var ftrace = Perfetto_Protos_TracePacket()
        ftrace.ftraceEvents = bundle
        packets.append(ftrace)
        var t = Perfetto_Protos_Trace()
        t.packet = packets
        return try t.serializedBytes()
    }

    @Test func atraceSlicesAndFrameTimelineBecomeTheScenario() throws {
        let imported = try DeviceImport.read(try Self.trace(), file: "device.perfetto-trace")
        #expect(imported.kind == "Perfetto trace")
        #expect(imported.displayHz.map { abs($0.value - 1e9 / Double(Self.period)) < 1e-6 } == true)
        #expect(imported.appDuration?.value == 2 * Self.period)
        #expect(imported.sfDuration?.value == 6_000_000)
        let stages = Dictionary(uniqueKeysWithValues: imported.stages.map { ($0.key, $0.durations) })
        #expect(stages["app.handler"]?.value == (1...10).map { SimTime($0) * 300_000 })
        #expect(stages["app.handler"]?.origin.contains("'com.example.app' (tid 4000)") == true)
        #expect(stages["android.renderThread"]?.value == Array(repeating: 2_000_000, count: 10))
        #expect(stages["android.renderThread"]?.origin.contains("RenderThread") == true)
        #expect(stages["android.sfCompose"]?.value == Array(repeating: 1_000_000, count: 10))
        #expect(stages["gpu.render"] == nil, "no GPU slices in this trace")
        let yaml = imported.scenarioYAML(name: "device", source: "device.perfetto-trace")
        #expect(yaml.contains("displayHz: 120") && yaml.contains("appDuration: 16.666666ms") && yaml.contains("sfCompose: {empirical: [1ms,"))
    }
}

/// The defaults an imported scenario keeps, against the recording.
@Suite struct DeviceImportDefaultsTests {
    /// A scan slower than the recorded display is the contradiction warned
    /// of (0.10.0 wrote none, so a 120 Hz device ran with a 60 Hz scan); at
    /// or above the display's rate there is nothing to say.
    @Test func aScanSlowerThanTheDisplayIsAContradiction() {
        let w = DeviceImport.contradictions(scanHz: 60, displayHz: 120.313)
        #expect(w.count == 1 && w[0].hasPrefix("device.scanHz 60 Hz is slower than the recorded display (120.313 Hz)"), "\(w)")
        #expect(DeviceImport.contradictions(scanHz: 120.313, displayHz: 120.313).isEmpty)
        #expect(DeviceImport.contradictions(scanHz: 240, displayHz: 120).isEmpty)
    }

    /// An import that found no display rate sets no scan rate: both keep
    /// their defaults (60 Hz, one rate) and both are named.
    @Test func withoutADisplayRateBothRatesAreNamedDefaults() {
        var d = DeviceImport(kind: "test")
        d.stages = [(key: "app.handler", durations: .init(value: [4_000_000], origin: "test"))]
        let unread = d.unreadKeys()
        #expect(unread.contains { $0.key == "device.displayHz" && $0.value == "60" && $0.why == nil })
        #expect(unread.contains { $0.key == "device.scanHz" && $0.value == "60" && $0.why == nil })
        #expect(!unread.contains { $0.key == "app.handler" || $0.key == "os.platform" })
        let yaml = d.scenarioYAML(name: "t", source: "t")
        #expect(!yaml.contains("\n  scanHz:") && yaml.contains("\n#   device.scanHz: 60\n") && d.warnings.isEmpty, "\(yaml)")
    }
}
