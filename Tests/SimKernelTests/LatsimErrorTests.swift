import Testing
@testable import SimKernel

/// An error stays one short paragraph, and what it cuts from a long list
/// or path it cuts between words, never inside one.
@Suite struct LatsimErrorTests {
    @Test func aLongListIsCutBetweenWords() {
        let names = (1...60).map { "android-scenario-\($0)" }
        let e = LatsimError(value: "x", problem: "unknown", expected: "one of " + names.joined(separator: ", "))
        let text = e.description
        let expected = text[text.range(of: "; expected ")!.upperBound...]
        #expect(expected.count <= 300)
        let cut = expected.range(of: "...")!
        // each side of the cut is a whole number of names
        let head = expected[..<cut.lowerBound], tail = expected[cut.upperBound...]
        #expect(head.hasSuffix(", ") || head.hasSuffix(","), "\(head)")
        for piece in (head.dropFirst("one of ".count) + "," + tail).split(separator: ",") {
            let name = piece.trimmingCharacters(in: .whitespaces)
            #expect(name.isEmpty || names.contains(name), "'\(name)' is a name cut short")
        }
    }

    @Test func aLongPathIsCutAtItsSlashes() {
        let path = "/" + (1...40).map { "folder\($0)" }.joined(separator: "/") + "/file.yaml"
        let text = LatsimError(file: path, problem: "not found").description
        #expect(text.count < path.count)
        #expect(text.contains("/file.yaml: not found"))
        let cut = text.range(of: "...")!
        #expect(text[..<cut.lowerBound].hasSuffix("/"))
        #expect(text[cut.upperBound...].hasPrefix("folder"))
    }

    @Test func aShortTextIsUntouched() {
        #expect(LatsimError.clipped("a, b, c", 300) == "a, b, c")
    }
}
