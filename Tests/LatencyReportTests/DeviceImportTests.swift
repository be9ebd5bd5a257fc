import Foundation
import SimKernel
import Testing
@testable import LatencyReport

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
