import FramePipeline
import PerfettoProtos
import SimKernel
import Testing
@testable import Traces

/// A FrameTimeline start event is written by hand: its bytes are those
/// SwiftProtobuf writes for the same message, for every timeline, present
/// type, jank class, with and without a prediction, and for pids and
/// tokens whose varints take one byte or ten.
struct TimelineBytesTests {
    @Test func startEventsAreTheBytesOfTheMessage() throws {
        var rng = SeededRandom(seed: 29, stream: 7)
        let presents: [TimelineFrame.Present] = [.onTime, .late, .early, .dropped, .unknown]
        let layers = ["latsim android-default#0", "", "é layer with a long name " + String(repeating: "x", count: 200)]
        for n in 0..<2_000 {
            let token = n < 10 ? Int64(n) - 5 : Int64(bitPattern: rng.next() >> (rng.next() % 64))
            let start = SimTime(rng.next() % 1_000_000_000)
            let frame = TimelineFrame(token: token, expected: rng.next() % 3 == 0 ? nil : start...(start + 5),
                                      actual: start...(start + 9), displayExpected: nil, displayActual: nil,
                                      present: presents[Int(rng.next() % 5)], jank: JankClass.allCases[Int(rng.next() % UInt64(JankClass.allCases.count))],
                                      onTimeFinish: rng.next() % 2 == 0, displayPresent: presents[Int(rng.next() % 5)])
            let pids: [Int32] = [500, -1, Int32.max, Int32.min, 0]
            let ft = FrameTimelineTracks(frames: [], layerName: layers[n % layers.count], surfaceFlingerPid: pids[n % pids.count])
            let appPid = pids[(n / 5) % pids.count]
            let cookie = n % 7 == 0 ? -Int64(n) : Int64(rng.next() >> 1)
            for which in 0..<4 {
                let message: [UInt8] = try ChromeTrace.timelineStart(frame, which: which, cookie: cookie, ft: ft, appPid: appPid)
                    .serializedBytes()
                var hand: [UInt8] = []
                TimelineBytes.start(frame, which: which, cookie: cookie, ft: ft, appPid: appPid, into: &hand)
                #expect(hand == message, "frame \(n), timeline \(which)")
            }
        }
    }
}

extension ChromeTrace {
    /// FrameTimeline's start event of timeline `which` of ``timelines(_:)``
    /// with its `cookie` (its `FrameEnd` carries the same cookie), as a
    /// message: what ``TimelineBytes/start(_:which:cookie:ft:appPid:into:)``
    /// writes by hand, built through SwiftProtobuf to check it.
    static func timelineStart(_ f: TimelineFrame, which: Int, cookie: Int64, ft: FrameTimelineTracks, appPid: Int32)
        -> Perfetto_Protos_FrameTimelineEvent {
        func present(_ p: TimelineFrame.Present) -> Perfetto_Protos_FrameTimelineEvent.PresentType {
            switch p {
            case .onTime: return .presentOnTime
            case .late: return .presentLate
            case .early: return .presentEarly
            case .dropped: return .presentDropped
            case .unknown: return .presentUnknown
            }
        }
        let displayToken = f.token + 1_000_000_000
        var e = Perfetto_Protos_FrameTimelineEvent()
        switch which {
        case 0:
            e.expectedSurfaceFrameStart.cookie = cookie
            e.expectedSurfaceFrameStart.token = f.token
            e.expectedSurfaceFrameStart.displayFrameToken = displayToken
            e.expectedSurfaceFrameStart.pid = appPid
            e.expectedSurfaceFrameStart.layerName = ft.layerName
        case 1:
            var a = Perfetto_Protos_FrameTimelineEvent.ActualSurfaceFrameStart()
            a.cookie = cookie
            a.token = f.token
            a.displayFrameToken = displayToken
            a.pid = appPid
            a.layerName = ft.layerName
            a.presentType = present(f.present)
            a.onTimeFinish = f.onTimeFinish
            a.gpuComposition = false
            a.jankType = f.jank.perfettoJankBit
            a.predictionType = f.expected == nil ? .predictionUnknown : .predictionValid
            a.isBuffer = true
            e.actualSurfaceFrameStart = a
        case 2:
            e.expectedDisplayFrameStart.cookie = cookie
            e.expectedDisplayFrameStart.token = displayToken
            e.expectedDisplayFrameStart.pid = ft.surfaceFlingerPid
        default:
            var d = Perfetto_Protos_FrameTimelineEvent.ActualDisplayFrameStart()
            d.cookie = cookie
            d.token = displayToken
            d.pid = ft.surfaceFlingerPid
            d.presentType = present(f.displayPresent)
            d.onTimeFinish = f.displayPresent != .late
            d.gpuComposition = false
            d.jankType = f.jank == .surfaceFlingerDeadlineMissed ? JankClass.surfaceFlingerDeadlineMissed.perfettoJankBit
                : JankClass.onTime.perfettoJankBit
            d.predictionType = .predictionValid
            e.actualDisplayFrameStart = d
        }
        return e
    }
}
