import Foundation
import Testing
@testable import PredictorProcess
import TouchModel

/// The predictor's answers as latsim reads them, and latsim's lines as a
/// predictor reads them.
@Suite struct AnswerLineTests {
    func parse(_ text: String) throws -> AnswerLine {
        try AnswerLine(ArraySlice(Array(text.utf8)))
    }

    func problem(_ text: String) -> AnswerLineError? {
        do { _ = try parse(text); return nil } catch let e as AnswerLineError { return e } catch { return nil }
    }

    @Test func anyKeyOrderSpacingAndNestedValues() throws {
        let a = try parse(" { \"y\" : -2.5e1 , \"x\":1, \"type\":\"prediction\",\"id\":7, \"extra\": {\"a\":[1,{\"b\":null}]}, \"ok\": true } ")
        #expect(a["type"] == .string("prediction"))
        #expect(a["id"] == .number(7, integer: 7))
        #expect(a["x"] == .number(1, integer: 1))
        #expect(a["y"] == .number(-25, integer: nil))
        #expect(a["extra"] == .nested)
        #expect(a["ok"] == .bool(true))
        #expect(a["missing"] == nil)
        let s = try parse(#"{"name":"a\"b\\c\u00e9\ud83d\ude00\n"}"#)
        #expect(s["name"] == .string("a\"b\\cé😀\n"))
    }

    /// Numbers read back to the double written (shortest text, 17 digits,
    /// exponents): what a predictor computes reaches latsim exactly.
    @Test func numbersAreExact() throws {
        for x in [0.1, 7.5000002400000092, 1e-7, -0.0, 123456789.125, 5e300, 2.2250738585072014e-308] {
            for text in [x.description, String(format: "%.17g", x)] {
                guard case .number(let v, _)? = try parse("{\"x\":\(text)}")["x"] else { Issue.record("\(text)"); continue }
                #expect(v == x && v.sign == x.sign, "\(text)")
            }
        }
    }

    @Test(arguments: [
        ("garbage", 1), ("{\"a\":1,}", 8), ("{\"a\":01}", 7), ("{\"a\":1} x", 9), ("{\"a\":.5}", 6),
        ("{\"a\":1", 7), ("{a:1}", 2), ("{\"a\":tru}", 9), ("{\"a\":\"x\ty\"}", 8), ("[1,2]", 1), ("{\"a\":1e}", 8),
    ])
    func malformedLinesSayWhere(_ text: String, _ column: Int) {
        let e = problem(text)
        #expect(e != nil, "\(text) was accepted")
        #expect(e?.column == column, "\(text): \(String(describing: e))")
    }

    /// latsim's lines: fixed key order, no spaces, whole nanoseconds, the
    /// shortest text of each double.
    @Test func latsimsLinesHaveOneShape() {
        #expect(PredictorProtocol.hello == #"{"type":"hello","protocol":"latsim-predictor","version":1}"#)
        #expect(PredictorProtocol.begin == #"{"type":"begin"}"#)
        #expect(PredictorProtocol.sample(TouchSample(time: 8_333_333, position: TouchPoint(x: 120.5, y: 0.1)))
                == #"{"type":"sample","t":8333333,"x":120.5,"y":0.1}"#)
        #expect(PredictorProtocol.predict(id: 3, horizon: 16_666_667, frameInterval: 8_333_333)
                == #"{"type":"predict","id":3,"horizon":16666667,"frameInterval":8333333}"#)
        #expect(PredictorProtocol.checkName("kalman") != nil)
        #expect(PredictorProtocol.checkName("") != nil)
        #expect(PredictorProtocol.checkName("a\u{1}b") != nil)
        #expect(PredictorProtocol.checkName("team-predictor v2") == nil)
    }
}
