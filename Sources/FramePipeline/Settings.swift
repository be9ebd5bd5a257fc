import SimKernel
import TouchModel

/// The raw settings of a run: key path -> text, each with where it came
/// from. Later assignments override earlier ones (defaults, then the
/// scenario file, then `--set`).
public struct Settings: Sendable {
    public struct Entry: Sendable, Hashable {
        public var text: String
        public var source: SettingSource
    }

    public private(set) var entries: [String: Entry] = [:]

    public init() {}

    /// The text a key resolves to (its default when unset).
    public func text(_ path: String) -> String {
        entries[path]?.text ?? ConfigurationKey.byPath[path]?.defaultValue ?? ""
    }

    /// Sets a key. Unknown keys are refused with the nearest valid one.
    public mutating func set(_ path: String, _ text: String, source: SettingSource) throws(ScenarioError) {
        guard ConfigurationKey.byPath[path] != nil else {
            var message = "unknown key"
            if let s = ConfigurationKey.suggestion(for: path) { message += "; did you mean '\(s)'?" }
            message += " (`latsim keys` lists every key)"
            throw ScenarioError(file: source.file, keyPath: path, line: source.line, column: source.column, message: message)
        }
        entries[path] = Entry(text: text, source: source)
    }

    /// Applies a `PATH=VALUE` assignment from the command line.
    public mutating func apply(assignment: String) throws(ScenarioError) {
        guard let eq = assignment.firstIndex(of: "=") else {
            throw ScenarioError(file: "--set", value: assignment, message: "expected PATH=VALUE, e.g. --set app.handler=uniform(2ms,6ms)")
        }
        let path = assignment[..<eq].trimmingCharacters(in: .whitespaces)
        let value = assignment[assignment.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        try set(path, value, source: .commandLine)
    }
}

/// Reads typed values out of ``Settings``, turning every failure into a
/// ``ScenarioError`` that names the key, the value and where it came from.
struct SettingReader {
    let settings: Settings
    var framePeriod = Rational(16_666_667)

    init(settings: Settings) { self.settings = settings }

    /// - Parameter saysWhatToWrite: the detail already says what is
    ///   expected (the duration syntax's messages do), so the key's own
    ///   description is not repeated.
    func fail(_ path: String, _ detail: String? = nil, saysWhatToWrite: Bool = false) -> ScenarioError {
        let e = settings.entries[path]
        let key = ConfigurationKey.byPath[path]
        var message = "expected " + (key?.expected ?? "a valid value")
        if var detail {
            // the value is named once, up front
            let quoted = "'\(settings.text(path))': "
            if detail.hasPrefix(quoted) { detail.removeFirst(quoted.count) }
            message = saysWhatToWrite ? detail : detail + "; " + message
        }
        return ScenarioError(file: e?.source.file, keyPath: path, line: e?.source.line, column: e?.source.column,
                             value: settings.text(path), message: message)
    }

    func text(_ path: String) throws(ScenarioError) -> String {
        let t = settings.text(path)
        guard !t.isEmpty else { throw fail(path, "empty value") }
        return t
    }

    func rate(_ path: String) throws(ScenarioError) -> Rational {
        guard let r = Rational(decimal: settings.text(path)) else { throw fail(path) }
        guard r.isPositive else { throw fail(path, "a rate must be above zero") }
        return r
    }

    func duration(_ path: String, positive: Bool = false) throws(ScenarioError) -> SimTime {
        let v: SimTime
        do { v = try DurationSyntax.parse(settings.text(path), framePeriod: framePeriod) } catch {
            throw fail(path, error.message, saysWhatToWrite: true)
        }
        if v < 0 { throw fail(path, "a duration cannot be negative") }
        if positive && v == 0 { throw fail(path, "must be above zero") }
        return v
    }

    func distribution(_ path: String) throws(ScenarioError) -> DurationDistribution {
        let text = settings.text(path)
        do { return try DurationDistribution.parse(text, framePeriod: framePeriod) } catch {
            // a distribution's own message lists the forms; a plain value's
            // does not mention distributions, so the key's description follows
            throw fail(path, error.message, saysWhatToWrite: text.contains("("))
        }
    }

    func fraction(_ path: String) throws(ScenarioError) -> Rational {
        guard let r = Rational(decimal: settings.text(path)), !r.isNegative, r.numerator <= r.denominator else { throw fail(path) }
        return r
    }

    func number(_ path: String, positive: Bool) throws(ScenarioError) -> Double {
        guard let v = Double(settings.text(path).trimmingCharacters(in: .whitespaces)), v.isFinite else { throw fail(path) }
        if positive ? v <= 0 : v < 0 { throw fail(path) }
        return v
    }

    func integer(_ path: String, minimum: Int, maximum: Int = .max) throws(ScenarioError) -> Int {
        guard let v = Int(settings.text(path).trimmingCharacters(in: .whitespaces)), v >= minimum, v <= maximum else { throw fail(path) }
        return v
    }

    func unsigned(_ path: String) throws(ScenarioError) -> UInt64 {
        guard let v = UInt64(settings.text(path).trimmingCharacters(in: .whitespaces)) else { throw fail(path) }
        return v
    }

    func bool(_ path: String) throws(ScenarioError) -> Bool {
        switch settings.text(path).trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw fail(path)
        }
    }

    func choice<T: RawRepresentable & CaseIterable>(_ path: String) throws(ScenarioError) -> T where T.RawValue == String {
        let t = settings.text(path).trimmingCharacters(in: .whitespaces)
        if let v = T(rawValue: t) { return v }
        if let v = T.allCases.first(where: { $0.rawValue.lowercased() == t.lowercased() }) { return v }
        throw fail(path)
    }

    func animations(_ path: String) throws(ScenarioError) -> AnimationSchedule {
        let t = settings.text(path).trimmingCharacters(in: .whitespaces)
        if t == "never" { return .never }
        if t == "always" { return .always }
        var ranges: [Range<SimTime>] = []
        for part in t.split(separator: ",") {
            let ends = part.components(separatedBy: "..")
            guard ends.count == 2 else { throw fail(path, "'\(part)' is not an interval like 2s..4s") }
            let lo: SimTime, hi: SimTime
            do {
                lo = try DurationSyntax.parse(ends[0], framePeriod: framePeriod)
                hi = try DurationSyntax.parse(ends[1], framePeriod: framePeriod)
            } catch { throw fail(path, error.message) }
            guard lo >= 0, lo <= hi else { throw fail(path, "interval '\(part)' must start at 0 or later and end after it starts") }
            ranges.append(lo..<hi)
        }
        guard !ranges.isEmpty else { throw fail(path) }
        return .intervals(ranges.sorted { $0.lowerBound < $1.lowerBound })
    }

    func row(_ path: String) throws(ScenarioError) -> MeasureRow {
        let t = settings.text(path).trimmingCharacters(in: .whitespaces)
        if t == "touch" { return .touch }
        return .fraction(try fraction(path))
    }
}

import Foundation
