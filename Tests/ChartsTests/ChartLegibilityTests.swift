@testable import Charts
import Foundation
import FramePipeline
import Testing

/// The charts as a reader meets them, checked in their gnuplot scripts: a
/// gain drawn beside its bar and not over a stage, every series of a CDF
/// visible and in a hue of its own, legends in the colours of what they
/// explain, labels that do not run together, text kept off the axes.
@Suite struct ChartLegibilityTests {
    /// The budget's resampling gain is a strip under its bar, never over a
    /// stage: a bar spans its row's centre ±0.3, the strip 0.33 to 0.55 below
    /// it, and the next bar (1 lower) begins at 1 - 0.3 = 0.7 below: the
    /// three extents are disjoint. The Android bar starts at the sample: the
    /// example's android-nexus5 gains 4.2 ms, so its scan (8.33 ms) runs
    /// from -4.2 to 8.33 - 4.2 = 4.13 ms, and the strip from -4.2 to 0.
    @Test func theResamplingGainIsDrawnBesideTheBarNotOverTheScan() throws {
        let h = StageBudgetChart.barHalfHeight, strip = StageBudgetChart.gainStrip
        #expect(strip.top > h && strip.bottom > strip.top && strip.bottom < 1 - h)
        let script = StageBudgetChart.example.script
        let clauses = script.plot.components(separatedBy: ", \\\n")
        let scan = try #require(clauses.first { $0.contains("$scan using") && $0.contains("boxxyerror") })
        let gain = try #require(clauses.first { $0.contains("$resampling using") && $0.contains("boxxyerror") })
        #expect(scan.contains("($1-0.3):($1+0.3)"), "\(scan)")
        #expect(gain.contains("($1-0.55):($1-0.33)"), "\(gain)")
        #expect(!gain.contains("transparent"), "the strip covers nothing, so it needs no transparency")
        // the stage boxes and the strip are the only boxes: none other at the gain's height
        #expect(clauses.filter { $0.contains("boxxyerror") && $0.contains("($1-0.55)") }.count == 1)

        let scanRows = try #require(script.tables.first { $0.name == "scan" }).rows
        let gainRows = try #require(script.tables.first { $0.name == "resampling" }).rows
        // android-nexus5 is the second bar (y = -1)
        let androidScan = try #require(scanRows.first { $0[0] == .number(-1) })
        let androidGain = try #require(gainRows.first { $0[0] == .number(-1) })
        #expect(androidScan[1] == .number(-4.2) && androidGain[1] == .number(-4.2) && androidGain[2] == .number(0))
        if case .number(let end) = androidScan[2] { #expect(abs(end - 4.13) < 1e-9) } else { Issue.record("\(androidScan)") }
    }

    /// Every series of a CDF is visible where it coincides with another:
    /// the first solid, each later one dashed (so the one under it shows
    /// through), and the y range runs past 0 and 1 so a step along either
    /// lies off the axes (android-default's lognormal run sits at a
    /// fraction under 0.01 from 58.7 to 75 ms).
    @Test func everyCDFSeriesIsVisible() {
        let same = [(valueMs: 33.3, fraction: 1.0)]
        let chart = LatencyCDFChart(series: (0..<4).map { (name: "s\($0)", points: same) })
        let lines = chart.script.plot.components(separatedBy: ", \\\n")
        #expect(lines.count == 4)
        #expect(lines[0].contains("dt solid"))
        let dashes = lines.dropFirst().map { line in line.components(separatedBy: " dt ")[1].components(separatedBy: " ")[0] }
        #expect(dashes.allSatisfy { $0.hasPrefix("(") } && Set(dashes).count == 3, "\(dashes)")
        #expect(chart.script.setup.contains("set yrange [-0.04:1.04]"))
        // each drawn in its own colour
        let colours = lines.map { $0.components(separatedBy: " lc ")[1].prefix(14) }
        #expect(Set(colours).count == 4, "\(colours)")
    }

    /// No two of the first five series colours share a hue: every pair
    /// differs by more than the vermillion and the orange, which shared one
    /// when the orange was the fourth series (the platforms chart's two
    /// lognormal runs), and the blue and the sky blue are never both among
    /// them.
    @Test func seriesColoursOfOneChartDoNotShareAHue() {
        let old = ChartPaletteTests.difference(0xD55E00, 0xE69F00)
        let first = (0..<5).map { ChartStyle.color($0) }
        for (i, a) in first.enumerated() {
            for b in first[(i + 1)...] {
                let d = ChartPaletteTests.difference(a, b)
                #expect(d > old, "\(String(a, radix: 16)) and \(String(b, radix: 16)): \(d), not above \(old)")
            }
        }
        #expect(!(first.contains(0x0072B2) && first.contains(0x56B4E9)))
        #expect(!(first.contains(0xD55E00) && first.contains(0xE69F00)))
    }

    /// A sweep's legend shows each entry in its series' colour: with one
    /// series the style entries (p50, p99, fps, the interval band) are the
    /// series' colour; with several, each named entry is its series'.
    @Test func sweepLegendEntriesWearTheirSeriesColour() {
        var p = SweepChart.Point(x: 5, p50Ms: 29.2, p99Ms: 31.2, fps: 60, p50HalfWidth: 1, p99HalfWidth: 2, fpsHalfWidth: 0.1)
        p.p99SeedRange = 29.2...45.8
        let one = SweepChart(series: [.init(name: "s", points: [p])], xLabel: "x").script.plot
        let blue = GnuplotText.rgb(ChartStyle.color(0))
        let keys = one.components(separatedBy: ", \\\n").filter { $0.contains("keyentry") }
        #expect(keys.count == 4, "\(keys)")
        for k in keys { #expect(k.contains(blue), "\(k)") }
        #expect(!one.contains(GnuplotText.rgb(ChartStyle.annotation)))

        let two = SweepChart(series: [.init(name: "a", points: [p]), .init(name: "b", points: [p])], xLabel: "x").script.plot
        let named = two.components(separatedBy: ", \\\n").filter { $0.contains("keyentry with lines lw 6") }
        #expect(named.count == 2)
        #expect(named[0].contains(GnuplotText.rgb(ChartStyle.color(0))) && named[0].contains("title \"a\""))
        #expect(named[1].contains(GnuplotText.rgb(ChartStyle.color(1))) && named[1].contains("title \"b\""))
    }

    /// Two annotation lines a frame apart on a 23 ms axis (the platforms
    /// sweep's iOS at 9.5 and Android at 10.5): the left one's label goes
    /// to its left, the other's to its right; lines far apart keep theirs
    /// on the right.
    @Test func nearAnnotationLabelsGoEitherSide() {
        #expect(SweepChart.labelSides([9.5, 10.5], span: 23) == [true, false])
        #expect(SweepChart.labelSides([2, 14], span: 23) == [false, false])
        let chart = SweepChart(series: [(name: "s", points: [(x: 1, p50Ms: 33, p99Ms: 33, fps: 60), (x: 24, p50Ms: 50, p99Ms: 50, fps: 30)])],
                               xLabel: "x", annotations: [.init(x: 9.5, label: "iOS"), .init(x: 10.5, label: "Android")])
        let labels = chart.script.setup.components(separatedBy: "\n").filter { $0.hasPrefix("set label") }
        #expect(labels.count == 2)
        #expect(labels[0].contains("\"iOS\"") && labels[0].contains(" right "), "\(labels[0])")
        #expect(labels[1].contains("\"Android\"") && labels[1].contains(" left "), "\(labels[1])")
    }

    /// Validation: the x axis ends at the data's right (the example's
    /// highest point, agawi's p95 81.9 ms, times 1.08 = 88.5, rounded up to
    /// 90), and the verdicts stand in the right margin, past the axis's
    /// end, which is as wide as the longest verdict; the subtitle is two
    /// lines.
    @Test func validationVerdictsStandBesideTheAxis() {
        let chart = ValidationChart.example
        let s = chart.script
        #expect(s.setup.contains("set xrange [0:90]"), "\(s.setup)")
        let verdicts = chart.rows.map(chart.verdictText)
        #expect(s.setup.contains("set rmargin \(verdicts.map(\.count).max()! + 3)"))
        let labels = s.setup.components(separatedBy: "\n").filter { $0.hasPrefix("set label") && $0.contains("at graph 1,") }
        #expect(labels.count == chart.rows.count)
        #expect(!s.plot.contains("with labels"), "no verdict drawn inside the plot")
        let title = s.setup.components(separatedBy: "\n").first { $0.hasPrefix("set title") } ?? ""
        #expect(title.components(separatedBy: "{/*0.95").count == 3, "two subtitle lines: \(title)")
    }

    /// The timeline's legend sits in its own band at the foot: the bottom
    /// margin holds the tics and the label (4 lines) and one column of
    /// entries at 1.3 lines each: 6 entries 7.8, rounded up to 8: 12 lines;
    /// 3 entries 3.9: 8 lines.
    @Test func theTimelineLegendKeepsOffTheAxisLabel() {
        #expect(LatencyTimelineChart.bottomMargin(entries: 6) == 12)
        #expect(LatencyTimelineChart.bottomMargin(entries: 1) == 6) // 4 + 1.3 rounded up
        let chart = LatencyTimelineChart(points: [(seconds: 0.1, ms: 33.3), (seconds: 0.2, ms: 33.3)], hitches: [0.15], drops: [0.15])
        let setup = chart.script.setup
        #expect(setup.contains("set key at screen 0.5, screen 0.012 center bottom"))
        #expect(setup.contains("set bmargin 8"), "three entries: the line, hitches, drops: \(setup)")
    }

    /// The talk-table: a quoted label (the talk's words, not a count) shows
    /// the count it is plotted as, with a note on how the words became it,
    /// and many rows are rotated steeply enough not to run into each other.
    @Test func aQuotedTalkLabelSaysWhyItIsACount() {
        typealias Row = (scenario: String, label: String, talkFrames: Double, simulatedFrames: Double)
        var rows: [Row] = []
        for i in 0..<7 {
            let frames = Double(i + 1)
            rows.append((scenario: "s\(i)", label: "\(i + 1) frames", talkFrames: frames, simulatedFrames: frames))
        }
        rows.append((scenario: "ios9-metal", label: "\"the very next frame\"", talkFrames: 3, simulatedFrames: 3))
        let s = TalkTableChart(rows: rows).script
        #expect(s.setup.contains("\\\"the very next frame\\\" = 3\\n"), "\(s.setup)")
        #expect(s.setup.contains("rotate by -40"))
        #expect(s.setup.contains("the talk's words"))
        let plain = TalkTableChart(rows: Array(rows.prefix(7))).script.setup
        #expect(!plain.contains("the talk's words"))
    }
}
