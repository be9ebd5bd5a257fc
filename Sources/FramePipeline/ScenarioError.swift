/// A scenario or setting that cannot be used, said so a user can fix it: the
/// file, the key path, the line and column where known, the value given and
/// what was expected.
public struct ScenarioError: Error, Sendable, CustomStringConvertible, Equatable {
    public var file: String?
    public var keyPath: String?
    public var line: Int?
    public var column: Int?
    public var value: String?
    /// What is wrong and what was expected, as one or two sentences.
    public var message: String

    public init(file: String? = nil, keyPath: String? = nil, line: Int? = nil, column: Int? = nil,
                value: String? = nil, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.line = line
        self.column = column
        self.value = value
        self.message = message
    }

    /// One paragraph: `FILE:LINE:COLUMN: KEY = VALUE: message`.
    public var description: String {
        var place = file ?? ""
        if let line { place += (place.isEmpty ? "line " : ":") + "\(line)" }
        if let column, line != nil { place += ":\(column)" }
        var head = place.isEmpty ? "" : place + ": "
        if let keyPath {
            head += value.map { "\(keyPath) = '\($0)': " } ?? "\(keyPath): "
        } else if let value {
            head += "'\(value)': "
        }
        return head + message
    }
}

/// Where a setting came from: a file position, or the command line.
public struct SettingSource: Sendable, Hashable {
    public var file: String?
    public var line: Int?
    public var column: Int?
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }
    public static let commandLine = SettingSource(file: "--set")
}
