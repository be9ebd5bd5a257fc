import LatsimOutput
import Scenarios
import SimKernel

/// The header every JSON result starts with (Docs/Results.md): what made
/// it, in which format, of which kind, from which command line.
public enum ResultHeader {
    /// `{"version", "format", "result", "command"}`.
    public static func json(result kind: String, command: String) -> JSONValue {
        .object([
            ("version", .string(LatsimVersion.current)),
            ("format", .int(LatsimVersion.resultFormat)),
            ("result", .string(kind)),
            ("command", .string(command)),
        ])
    }

    /// A result: `{"latsim": header, ...body}`.
    public static func document(_ kind: String, command: String, _ body: [(String, JSONValue)]) -> JSONValue {
        .object(fields(kind, command: command, body))
    }

    /// The fields of ``document(_:command:_:)``: the header, then `body`.
    public static func fields(_ kind: String, command: String, _ body: [(String, JSONValue)]) -> [(String, JSONValue)] {
        [("latsim", json(result: kind, command: command))] + body
    }

    /// Settings as an object keyed by path, each `{"value", "from"}`, in
    /// the key table's order.
    public static func settings(_ settings: [ResolvedSetting]) -> JSONValue {
        .object(settings.map { ($0.key, .object([("value", .string($0.value)), ("from", .string($0.from))])) })
    }

    /// The options that choose where results go or how fast they are
    /// made, not what they hold: a result's command line leaves them out,
    /// so the same results carry the same bytes whatever the paths, the
    /// thread count or the shard.
    public static let outputOptions: Set<String> = [
        "--json", "--csv", "--plot", "--jobs", "--shard", "--part", "--trace", "--frames",
        "--max-events", "--max-log-events", "--junit", "--format", "--out", "--predictor-timeout", "--predictor-timeout-total",
    ]
    /// The same, for flags (no value).
    public static let outputFlags: Set<String> = ["--stable", "--budget"]

    /// The canonical command line of `arguments` (argv): `latsim` and the
    /// arguments, without ``outputOptions`` (and their values) and ``outputFlags``, each quoted
    /// for a POSIX shell where it needs it.
    public static func command(_ arguments: [String]) -> String {
        var out = ["latsim"]
        var i = 1
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if a == "--" {
                out += arguments[(i - 1)...].map(quoted)
                break
            }
            if outputFlags.contains(a) { continue }
            let name = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
            if outputOptions.contains(name) {
                // `--json PATH` or `--json=PATH`
                if !a.contains("=") && i < arguments.count { i += 1 }
                continue
            }
            out.append(quoted(a))
        }
        return out.joined(separator: " ")
    }

    static func quoted(_ s: String) -> String {
        let plain = !s.isEmpty && s.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_./=:,+@%".unicodeScalars.contains($0)
        }
        return plain ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
