import Charts
import FramePipeline
import Foundation
import Scenarios
import SimKernel
import Testing

/// A pipeline diagram numbers frames once, by its time axis (display
/// frames from the window's start): no box carries a frame number of its
/// own, and a Display box names the buffer it shows, the same buffer whose
/// colour the work that drew it wears.
@Suite struct DiagramNumberingTests {
    static func diagram(_ scenario: String) throws -> PipelineDiagramChart {
        let s = try Scenario.named(scenario)
        let duration = Assignment(path: "duration", value: "1s", source: SettingSource(file: "--duration"))
        let r = try PipelineRun.run(try s.configuration([duration]), keepLog: true, keepBudget: true)
        return try #require(PipelineDiagramBuilder.diagram(r, scenario: scenario))
    }

    @Test(arguments: ["ios8", "ios9-metal", "android-default", "android-ink-front"])
    func framesAreNumberedOnlyByTheAxis(_ scenario: String) throws {
        let chart = try Self.diagram(scenario)
        let numbered = try NSRegularExpression(pattern: #"\b(frame|compose|dry|scan) [0-9-]"#)
        for box in chart.boxes {
            let range = NSRange(box.label.startIndex..., in: box.label)
            #expect(numbered.firstMatch(in: box.label, range: range) == nil, "\(scenario): \(box.lane) \"\(box.label)\"")
        }
        // every Display box names a buffer, in the legend's words for its colour
        let display = chart.boxes.filter { $0.lane == .display }
        // a front-buffered app's wet ink never goes through the display's
        // buffers: its Display row holds only the dry layer's commits, which
        // the diagram's window of a 1 s stroke need not contain
        if scenario != "android-ink-front" { #expect(!display.isEmpty) }
        for box in display {
            #expect(box.label.hasSuffix(DiagramBox.bufferName(box.colorKey)), "\(scenario): \(box.label) in colour \(box.colorKey)")
            #expect(chart.colorNames[box.colorKey]?.contains(DiagramBox.bufferName(box.colorKey)) == true)
        }
        // the axis: one tic a frame from 0, and the text says so
        #expect(chart.script.setup.contains("set xtics 0,1"))
    }

    @Test func buffersAreNamedByLetter() {
        #expect((0..<4).map(DiagramBox.bufferName) == ["buffer A", "buffer B", "buffer C", "buffer D"])
    }
}
