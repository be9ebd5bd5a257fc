import Foundation

extension StringProtocol {
    /// The text without the spaces and tabs (and any other Unicode space,
    /// category Zs) at its ends: `trimmingCharacters(in: .whitespaces)`'s
    /// result, found on the UTF-8 bytes. Foundation is asked only when an
    /// end is not ASCII (where a non-ASCII space may lie): its trimming
    /// bridges through NSString, thousands of instructions a call, and
    /// reading a scenario trims every number it holds.
    public var trimmedWhitespace: String { trimmingWhitespace(Substring(self), whole: nil) }
}

extension String {
    /// ``StringProtocol/trimmedWhitespace`` of a string: the string itself
    /// when there is nothing to trim (a sweep's values, parsed at every
    /// point), found without asking at run time whether the text is a
    /// `String`.
    public var trimmedWhitespace: String { trimmingWhitespace(Substring(self), whole: self) }
}

/// `text` without the whitespace at its ends; `whole`, the string `text`
/// is all of, when there is none.
private func trimmingWhitespace(_ text: Substring, whole: String?) -> String {
    let u = text.utf8
    var start = u.startIndex, end = u.endIndex
    while start != end, u[start] == 0x20 || u[start] == 0x09 { start = u.index(after: start) }
    while start != end {
        let before = u.index(before: end)
        guard u[before] == 0x20 || u[before] == 0x09 else { break }
        end = before
    }
    if start == end { return "" }
    guard u[start] < 0x80, u[u.index(before: end)] < 0x80 else { return text.trimmingCharacters(in: .whitespaces) }
    if start == u.startIndex, end == u.endIndex, let whole { return whole }
    return String(text[start..<end])
}
