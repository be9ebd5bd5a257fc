import FramePipeline
import SimKernel

/// A key's value in a run and where it came from, as result files record
/// it (Docs/Results.md): `default`, a file position (`ios8.yaml:7`,
/// `builtin:ios8:7`) or a command-line origin (`--set`, `--duration`).
public struct ResolvedSetting: Sendable, Hashable, Codable {
    /// The key path.
    public var key: String
    /// The value's text, as written (or the default's).
    public var value: String
    /// Where it came from.
    public var from: String

    /// A setting from its parts.
    public init(key: String, value: String, from: String) {
        self.key = key
        self.value = value
        self.from = from
    }
}

extension Settings {
    /// Where `path`'s value came from: `default`, `FILE:LINE`, or the
    /// command-line origin.
    public func origin(_ path: String) -> String {
        guard let source = entries[path]?.source, let file = source.file else { return "default" }
        if let line = source.line { return "\(file):\(line)" }
        return file
    }

    /// Every key of the run's platform with its value and origin, in the
    /// key table's order.
    public func resolved() -> [ResolvedSetting] {
        let p = platform
        return ConfigurationKey.all.filter { $0.platforms?.contains(p) ?? true }.map {
            ResolvedSetting(key: $0.path, value: text($0.path), from: origin($0.path))
        }
    }
}
