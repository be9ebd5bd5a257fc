/// A problem with touch input: a trace file that cannot be read or is
/// malformed, or a trajectory specification that names nothing known.
///
/// The description is one paragraph a user can act on:
/// `FILE:LINE: what is wrong (value) — what was expected`.
public struct TouchInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file at fault, when there is one.
    public var file: String?
    /// The 1-based line in `file`, when the fault is on one line.
    public var line: Int?
    /// What is wrong and what was expected.
    public var message: String

    /// An error from its parts.
    public init(file: String? = nil, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`, `FILE: message` or just the message.
    public var description: String {
        switch (file, line) {
        case let (f?, l?): return "\(f):\(l): \(message)"
        case let (f?, nil): return "\(f): \(message)"
        default: return message
        }
    }
}
