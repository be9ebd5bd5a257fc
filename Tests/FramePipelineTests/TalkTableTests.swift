import Experiments
import FramePipeline
import Scenarios
import Testing

/// Docs/Model.md, "The talk's table": with durations that fit in a frame, every displayed
/// frame of each scenario has the talk's pipeline-frames value.
@Suite struct TalkTableTests {
    @Test(arguments: TalkTable.rows.map(\.scenario))
    func everyDisplayedFrameMatchesTheTalk(_ scenario: String) throws {
        let row = try #require(TalkTable.rows.first { $0.scenario == scenario })
        let r = try runScenario(scenario)
        let m = r.measurements
        let measured = row.measure == .pipelineFrames ? m.pipelineFrames : m.effectiveFrames
        #expect(measured.count > 500, "frames measured: \(measured.count)")
        #expect(abs(measured.min - row.talkFrames) < 1e-6, "min \(measured.min), talk \(row.talkFrames)")
        #expect(abs(measured.max - row.talkFrames) < 1e-6, "max \(measured.max), talk \(row.talkFrames)")
        #expect(m.droppedFrames == 0 && m.hitches == 0)
    }

    @Test func talkTableRunReportsAgreementForEveryRow() throws {
        let rows = try TalkTableRun.run(try cli(duration: "2s"))
        #expect(rows.count == 8)
        for r in rows { #expect(r.agrees, "\(r.row.scenario): \(r.range) vs \(r.row.talkFrames)") }
    }

    @Test func coalescingAt120HzIsTwoAndAHalfFramesAndTouchToPhotonIs29Ms() throws {
        let r = try runScenario("ios9-coalescing-120hz")
        // the newest sample is taken mid-way through the second half-frame
        // scan window: 2.5 frames minus a quarter frame, plus half a frame of scan-out
        #expect(abs(try #require(r.measurements.touchToPhotonMs.mean) - 29.166667) < 1e-5)
    }

    @Test func promotionPencilIsTwoAndAHalf120HzFrames() throws {
        let r = try runScenario("promotion-pencil")
        #expect(allFrames(r.measurements.pipelineFrames) == 2.5)
    }
}
