/// The names latsim puts into file names and tables: scenario names and
/// device preset names. An identifier is 1 to ``maximumLength`` characters
/// from ``characters`` (ASCII letters, digits, `.`, `_` and `-`), not
/// starting with `.` or `-`: it can never name a folder above or beside
/// the one an output was asked for (`..`, `a/b`), hide a file (`.x`), look
/// like a flag (`-x`) or carry a control character into a message.
public enum Identifier {
    /// The longest identifier, in characters.
    public static let maximumLength = 64

    /// The characters an identifier may hold, as messages say them.
    public static let characters = "letters A-Z and a-z, digits, '.', '_' and '-' (not first: '.' or '-'), at most 64 characters"

    /// What is wrong with `text` as an identifier, or nil when it is one.
    /// `limit` replaces ``maximumLength`` for names made of identifiers
    /// (a chart's `diagram-NAME`).
    public static func problem(_ text: String, maximumLength limit: Int = maximumLength) -> String? {
        let bytes = Array(text.utf8)
        if bytes.isEmpty { return "an empty name" }
        if bytes.count > limit { return "a name of \(text.count) characters" }
        if bytes[0] == UInt8(ascii: ".") || bytes[0] == UInt8(ascii: "-") {
            return "a name may not start with '\(Character(UnicodeScalar(bytes[0])))'"
        }
        for b in bytes {
            let ok = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
            if !ok {
                if b == UInt8(ascii: "/") { return "a name may not contain '/'" }
                return b < 0x80 && b >= 0x20 ? "a name may not contain '\(Character(UnicodeScalar(b)))'" : "a name may not contain this character"
            }
        }
        return nil
    }

    /// True when `text` is an identifier.
    public static func isValid(_ text: String) -> Bool { problem(text) == nil }

    /// An identifier made from `text` (a file's name): each run of other
    /// characters becomes one `-`, a leading `.` or `-` and a trailing `-`
    /// go, and it is cut to ``maximumLength``; `fallback` when nothing is
    /// left. `dump (1)` gives `dump-1`.
    public static func made(from text: String, fallback: String) -> String {
        var out: [UInt8] = []
        for b in text.utf8 {
            let ok = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "_") || b == UInt8(ascii: "-")
            if ok {
                out.append(b)
            } else if out.last != UInt8(ascii: "-") {
                out.append(UInt8(ascii: "-"))
            }
        }
        while let first = out.first, first == UInt8(ascii: ".") || first == UInt8(ascii: "-") { out.removeFirst() }
        if out.count > maximumLength { out = Array(out.prefix(maximumLength)) }
        while out.last == UInt8(ascii: "-") { out.removeLast() }
        let made = String(decoding: out, as: UTF8.self)
        return isValid(made) ? made : fallback
    }
}
