import Foundation
import Measures
import Testing

/// A run's figures are kept as one double a figure, a marker standing for
/// "no value": what is read back, compared and written is what optional
/// values would give, a NaN that a figure computes included.
struct FigureValuesStorageTests {
    @Test func valuesReadBackAsTheOptionalsTheyWere() throws {
        let figures = Array(Figure.allCases.prefix(8))
        let given: [Double?] = [nil, 0, -0.0, .nan, .infinity, 1.5, nil, -2.25]
        let v = FigureValues(figures, values: given)
        for (f, x) in zip(figures, given) {
            switch (v[f], x) {
            case (nil, nil): break
            case (let a?, let b?): #expect(a.bitPattern == b.bitPattern, "\(f)")
            default: Issue.record("\(f): \(String(describing: v[f])) for \(String(describing: x))")
            }
        }
        // every other figure has no value
        for f in Figure.allCases.dropFirst(8) { #expect(v[f] == nil) }
        #expect(v.values.count == Figure.allCases.count)
        #expect(v.values.prefix(8).map { $0 == nil } == given.map { $0 == nil })
    }

    @Test func equalityIsThatOfTheOptionals() {
        let figures = Array(Figure.allCases.prefix(3))
        let a = FigureValues(figures, values: [nil, 1, 2])
        #expect(a == FigureValues(figures, values: [nil, 1, 2]))
        #expect(a != FigureValues(figures, values: [0, 1, 2]))
        #expect(FigureValues(figures, values: [0, 1, 2]) != a)
        #expect(a != FigureValues(figures, values: [nil, 1, 3]))
        #expect(FigureValues(figures, values: [0.0]) == FigureValues(figures, values: [-0.0]))
        // a NaN value is a value, and unequal to itself as a Double? is
        #expect(FigureValues(figures, values: [.nan]) != FigureValues(figures, values: [.nan]))
        #expect(FigureValues(figures, values: [.nan]) != FigureValues(figures, values: [nil]))
    }

    @Test func writtenAndReadAsAnObjectOfTheValuesThereAre() throws {
        let figures = Array(Figure.allCases.prefix(4))
        let v = FigureValues(figures, values: [nil, 3.5, nil, 0])
        let data = try JSONEncoder().encode(v)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Double])
        #expect(Set(object.keys) == [figures[1].rawValue, figures[3].rawValue])
        #expect(try JSONDecoder().decode(FigureValues.self, from: data) == v)
    }
}
