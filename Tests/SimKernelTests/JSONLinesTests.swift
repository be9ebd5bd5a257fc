import Foundation
import SimKernel
import Testing

/// Where each element of a JSON array begins: the line a report points a
/// reader at.
@Suite struct JSONLinesTests {
    @Test func linesOfAnArraysElements() {
        // line 1 `{`, 2 the key, 3 the first element's `{`, 6 the second's,
        // 7 the third (on the same line as a nested array, which is not counted)
        let text = """
        {
          "entries": [
            {
              "item": "a,\\"b\\"\\n"
            },
            { "item": "c" },
            {"item": "d", "list": [1, {"x": [2]}]}
          ],
          "other": [5, 6]
        }
        """
        #expect(JSONKeys.elementLines(in: Data(text.utf8), array: "entries") == [3, 6, 7])
        #expect(JSONKeys.elementLines(in: Data(text.utf8), array: "other") == [9, 9])
        // no such array, or not an array, or not JSON: nil
        #expect(JSONKeys.elementLines(in: Data(text.utf8), array: "missing") == nil)
        #expect(JSONKeys.elementLines(in: Data(#"{"entries": {"a": 1}}"#.utf8), array: "entries") == nil)
        #expect(JSONKeys.elementLines(in: Data(#"{"entries": []}"#.utf8), array: "entries") == [])
        // one line: every element on line 1; CRLF ends lines too
        #expect(JSONKeys.elementLines(in: Data(#"{"entries":[{},{}]}"#.utf8), array: "entries") == [1, 1])
        #expect(JSONKeys.elementLines(in: Data("{\r\n\"entries\": [\r\n{},\r\n{}]}".utf8), array: "entries") == [3, 4])
        // a key repeated does not stop the walk (the duplicate check is separate)
        #expect(JSONKeys.elementLines(in: Data("{\"a\": 1, \"a\": 2,\n\"entries\": [\n0]}".utf8), array: "entries") == [3])
        #expect(JSONKeys.firstDuplicate(in: Data("{\"a\": 1, \"a\": 2}".utf8))?.key == "a")
    }
}
