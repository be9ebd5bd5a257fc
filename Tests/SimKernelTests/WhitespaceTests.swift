import Foundation
import SimKernel
import Testing

/// `trimmedWhitespace` is Foundation's `trimmingCharacters(in: .whitespaces)`
/// found on the bytes: the same result for every text, ASCII or not.
struct WhitespaceTests {
    @Test func trimsAsFoundationDoes() {
        let texts = ["", " ", "\t", "  \t ", "4ms", " 4ms", "4ms ", "\t 4 ms \t", "a b", "\n4ms\n", " \n4ms \n",
                     "\u{00A0}4ms", "4ms\u{2003}", "\u{3000} x \u{3000}", " \u{00A0} ", "é", " é ", "ms é\u{00A0}",
                     "\u{200B}x", "x\r", "🙂", " 🙂\t"]
        for t in texts {
            #expect(t.trimmedWhitespace == t.trimmingCharacters(in: .whitespaces), "\(Array(t.unicodeScalars))")
            let sub = ("[" + t + "]").dropFirst().dropLast()
            #expect(sub.trimmedWhitespace == sub.trimmingCharacters(in: .whitespaces))
        }
    }
}
