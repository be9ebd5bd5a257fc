import Foundation
import FramePipeline
import LatsimOutput
@testable import Measures
import Scenarios
import Testing

/// The results schema: each figure and each listed quantity declared once,
/// and every output read from the declarations.
@Suite struct SchemaTests {
    static func run(_ name: String, _ sets: [String] = []) throws -> RunResult {
        let s = try Scenario.named(name)
        let assignments = (["duration=2s"] + sets).map {
            let kv = $0.split(separator: "=", maxSplits: 1).map(String.init)
            return Assignment(path: kv[0], value: kv[1], source: SettingSource(file: "test"))
        }
        return try PipelineRun.run(try s.settings(with: assignments).configuration(), keepBudget: true)
    }

    /// Names and columns each name one figure, and a former name the
    /// figure it became (never a figure's name now): a table, a CSV header
    /// or `--fail-if-worse` could not tell two apart otherwise.
    @Test func everyNameAndColumnIsOneFiguresOwn() {
        let d = FigureCatalogue.declarations
        for key in [\FigureDeclaration.name, \.column] {
            let values = d.map { $0[keyPath: key] }
            #expect(Set(values).count == values.count, "\(values)")
        }
        #expect(Figure.allCases.map(\.rawValue) == d.map(\.name))
        #expect(Figure.allCases.allSatisfy { Figure(rawValue: $0.rawValue) == $0 })
        #expect(Figure(rawValue: "noSuchFigure") == nil)
        for (old, new) in FigureCatalogue.formerNames {
            #expect(FigureCatalogue.index[old] == nil && Figure(rawValue: old)?.rawValue == new, "\(old) -> \(new)")
        }
    }

    /// The figures the code names (headlines, the sweep chart's lines, the
    /// narrative's findings) are declared: reading them does not trap.
    @Test func everyFigureTheCodeNamesIsDeclared() {
        let named = Figure.namedByCode
        #expect(named.count == Set(named).count)
        #expect(named.allSatisfy { Figure.allCases.contains($0) })
        #expect(Figure.headline(for: try! Self.run("ios9-low-latency").configuration) == .touchToPhotonP50)
    }

    /// The summary's `latency`, `display` and `work` list exactly the
    /// catalogue's measures of that section, in its order: an iOS run all
    /// but the Android ones, an Android run all of them; the display's
    /// `rate` only where the display changes its rate.
    @Test(arguments: [("ios9-low-latency", [String]()), ("android-default", []),
                      ("android-default", ["device.displayHz=120", "display.minHz=60", "display.idleTimer=80ms"]),
                      ("ios9-low-latency", ["device.displayHz=120", "display.minHz=10", "display.idleTimer=100ms"])])
    func theSummarysSectionsAreTheMeasureCatalogue(_ name: String, _ sets: [String]) throws {
        let r = try Self.run(name, sets)
        let switches = !sets.isEmpty
        guard case .object(let fields) = RunSummary.json(r, scenario: name, timing: .omit) else {
            Issue.record("the summary is not an object")
            return
        }
        for section in Measure.Section.allCases {
            let object = try #require(fields.first { $0.0 == section.rawValue }?.1)
            guard case .object(let entries) = object else {
                Issue.record("\(section) is not an object")
                continue
            }
            let expected = MeasureCatalogue.measures.filter {
                $0.section == section && ($0.platform == .both || (r.configuration.platform == .android) == ($0.platform == .android))
                    && ($0.name != "rate" || switches)
            }
            #expect(entries.map(\.0) == expected.map(\.name), "\(name) \(section)")
        }
        // a count is the run's own: what the pipeline measured, not a copy
        let display = try #require(fields.first { $0.0 == "display" }?.1)
        guard case .object(let d) = display else { return }
        #expect(d.first { $0.0 == "framesPresented" }?.1 == .int(r.measurements.framesPresented))
    }

    /// A point of one seed has the figures of its run: pooling one run's
    /// frames gives its own percentiles (the merged histogram is its
    /// histogram), and the mean of one run's value is that value.
    @Test(arguments: ["ios9-low-latency", "android-default", "ios9-peek-pop", "agawi-glkit"])
    func pooledOverOneSeedAFigureIsTheRunsOwn(_ name: String) throws {
        let r = try Self.run(name)
        let own = FigureValues(r)
        let pooled = FigureValues(pooling: [(own, r.measurements)], configuration: r.configuration)
        #expect(pooled == own)
        #expect(own[.touchToPhotonP50] == (r.configuration.taps ? nil : r.measurements.touchToPhotonMs.percentile(50)))
    }

    /// Two seeds pooled: a latency statistic is over both runs' frames (the
    /// merged histogram), a count the mean of the two counts.
    @Test func twoSeedsPoolTheirFramesAndAverageTheirCounts() throws {
        let sets = ["app.handler=lognormal(4ms,0.6)"]
        let a = try Self.run("ios9-low-latency", sets + ["seed=1"]), b = try Self.run("ios9-low-latency", sets + ["seed=2"])
        let pooled = FigureValues(pooling: [(FigureValues(a), a.measurements), (FigureValues(b), b.measurements)],
                                  configuration: a.configuration)
        var merged = a.measurements.touchToPhotonMs
        merged.merge(b.measurements.touchToPhotonMs)
        #expect(pooled[.touchToPhotonP99] == merged.percentile(99))
        let presented = Double(a.measurements.framesPresented + b.measurements.framesPresented) / 2
        #expect(pooled[.framesPresented] == presented)
        #expect(pooled[.triplePercent] == (a.tripleBufferedFraction * 100 + b.tripleBufferedFraction * 100) / 2)
    }

    /// A point's figures are written by name, only those with a value, and
    /// read back the same; a name that is no figure's is refused, and one
    /// left out (a part written before it was declared) reads as nil.
    @Test func figureValuesAreWrittenByName() throws {
        let r = try Self.run("ios9-low-latency")
        let values = FigureValues(r)
        let data = try JSONEncoder().encode(values)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Double])
        #expect(Set(object.keys) == Set(Figure.allCases.filter { values[$0] != nil }.map(\.rawValue)))
        #expect(try JSONDecoder().decode(FigureValues.self, from: data) == values)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FigureValues.self, from: Data(#"{"t2pP50Ms": 1}"#.utf8)) }
        let partial = try JSONDecoder().decode(FigureValues.self, from: Data(#"{"fps": 60}"#.utf8))
        #expect(partial[.fps] == 60 && partial[.touchToPhotonP50] == nil)
    }
}
