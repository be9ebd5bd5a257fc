import FramePipeline
import Foundation
import SimKernel
import TouchModel

/// Where a setting came from: a file position, or an origin on the command
/// line that the command line names (e.g. `--set`).
public struct SettingSource: Sendable, Hashable, Codable {
    /// The file, or the command-line origin.
    public var file: String?
    /// The 1-based line in the file.
    public var line: Int?
    /// The 1-based column in the file.
    public var column: Int?
    /// A source.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }
}

/// One `PATH=VALUE` assignment and where it came from.
public struct Assignment: Sendable, Hashable {
    /// The key path.
    public var path: String
    /// The value's text.
    public var value: String
    /// Where it was written.
    public var source: SettingSource

    /// An assignment from its parts.
    public init(path: String, value: String, source: SettingSource) {
        self.path = path
        self.value = value
        self.source = source
    }

    /// Parses `PATH=VALUE`.
    public init(parsing text: String, source: SettingSource) throws(LatsimError) {
        guard let eq = text.firstIndex(of: "=") else {
            throw LatsimError(file: source.file, value: text, problem: "not an assignment",
                              expected: "PATH=VALUE, e.g. app.handler=uniform(2ms,6ms)")
        }
        path = text[..<eq].trimmedWhitespace
        value = text[text.index(after: eq)...].trimmedWhitespace
        self.source = source
    }
}

/// The raw settings of a run: key path -> text, each with where it came
/// from. Later assignments override earlier ones (defaults, then the
/// scenario file, then the command line).
public struct Settings: Sendable {
    /// A key's text and its origin.
    public struct Entry: Sendable, Hashable {
        /// The value as written.
        public var text: String
        /// Where it was written.
        public var source: SettingSource
    }

    /// The keys set, by path.
    public private(set) var entries: [String: Entry] = [:]
    /// The device preset these settings started from (Docs/Devices.md); nil
    /// for the generic device.
    public var devicePreset: String?

    /// No key set: every key at its default.
    public init() {}

    /// The text a key resolves to (its default on the run's platform when unset).
    public func text(_ path: String) -> String {
        entries[path]?.text ?? ConfigurationKey.byPath[path]?.defaultValue(for: platform) ?? ""
    }

    /// The platform `os.platform` names (iOS when it is not a platform; the
    /// configuration then reports the bad value).
    public var platform: Platform {
        entries["os.platform"].flatMap { Platform(keyword: $0.text) } ?? .ios
    }

    /// Sets a key. An unknown key is refused with the nearest valid one.
    public mutating func set(_ path: String, _ text: String, source: SettingSource) throws(LatsimError) {
        do { _ = try ConfigurationKey.named(path) } catch {
            throw error.located(file: source.file, line: source.line, column: source.column)
        }
        entries[path] = Entry(text: text, source: source)
    }

    /// These settings with every key of `other` set over them (a device
    /// preset's, overridden by a scenario's own keys).
    public func overlaid(by other: Settings) -> Settings {
        var s = self
        for (path, e) in other.entries { s.entries[path] = e }
        if other.devicePreset != nil { s.devicePreset = other.devicePreset }
        return s
    }

    /// Applies an assignment.
    public mutating func apply(_ a: Assignment) throws(LatsimError) {
        try set(a.path, a.value, source: a.source)
    }

    /// The typed configuration: every key parsed and range-checked, the
    /// display rate first (durations may be written in its frames).
    public func configuration() throws(LatsimError) -> PipelineConfiguration {
        try checked(parsed())
    }

    /// Every key parsed and range-checked on its own, in the order
    /// ``configuration()`` reads them; the checks across keys are
    /// ``checked(_:)``'s.
    func parsed() throws(LatsimError) -> PipelineConfiguration {
        var c = PipelineConfiguration()
        var context = ParseContext(framePeriod: Rational(16_666_667))
        try resolve("device.displayHz", into: &c, context)
        context.framePeriod = c.framePeriod
        for key in ConfigurationKey.all where key.path != "device.displayHz" {
            try resolve(key.path, into: &c, context)
        }
        return c
    }

    /// `parsed` (these settings' keys, each parsed) once the keys are
    /// checked together: the platform's, the input's, the force's and the
    /// predictor's rules.
    func checked(_ parsed: consuming PipelineConfiguration) throws(LatsimError) -> PipelineConfiguration {
        try checkPlatform(parsed)
        return try checkedAcrossKeys(parsed)
    }

    /// ``checked(_:)`` without ``checkPlatform(_:)``: the rules between keys.
    /// These read the configuration alone (the settings only to place an
    /// error). `parsed` is taken, not copied (a sweep checks every point).
    func checkedAcrossKeys(_ parsed: consuming PipelineConfiguration) throws(LatsimError) -> PipelineConfiguration {
        var c = consume parsed
        try checkAcrossKeys(&c)
        return c
    }

    /// ``checkedAcrossKeys(_:)`` in place: a sweep point's configuration
    /// is checked where it is made (returned from here, it was copied
    /// again, about 1 KB each time).
    func checkAcrossKeys(_ c: inout PipelineConfiguration) throws(LatsimError) {
        completeAcrossKeys(&c)
        try checkAcrossKeys(lent: c)
    }

    /// The rules of ``checkAcrossKeys(_:)``, which read `c` alone: called
    /// with it lent once (each rule given the configuration held `inout`
    /// had been handed a copy of its 1 KB).
    private func checkAcrossKeys(lent c: borrowing PipelineConfiguration) throws(LatsimError) {
        if c.platform == .android { try checkAndroid(c) }
        try checkDisplayRate(c)
        try checkInput(c)
        try checkForce(c)
        try checkInk(c)
        if c.smoothing == .oneEuro, !c.predictor.isNone, c.predictor.withOneEuro == nil {
            let source = entries["app.prediction.smoothing"]?.source
            throw LatsimError(file: source?.file ?? "default", line: source?.line, column: source?.column,
                              key: "app.prediction.smoothing", value: text("app.prediction.smoothing"),
                              problem: "\(c.predictor) has no 1€ filter",
                              expected: "smoothing none with \(c.predictor), or a latsim or Chromium predictor")
        }
    }

    /// What ``checkAcrossKeys(_:)`` sets besides checking (the checks read
    /// neither): a pencil's own scan rate, and the device preset. A point
    /// made again after it passed the checks sets only these.
    func completeAcrossKeys(_ c: inout PipelineConfiguration) {
        if c.tool == .pencil, let pencil = c.pencilScanHz { c.scanHz = pencil }
        c.devicePreset = devicePreset
    }

    /// The folder a value set in `file` reads the files it names from: the
    /// file's own, when it is a file in another folder; nil (the working
    /// folder) otherwise. A name without a folder (`--vary`, `scenario.yaml`)
    /// is read in the working folder whether or not it is a file, so it
    /// costs no look-up (a sweep sets its axes' keys at every grid point).
    static func folder(of file: String?) -> String? {
        guard let file, file.utf8.contains(UInt8(ascii: "/")), FileManager.default.fileExists(atPath: file) else { return nil }
        return (file as NSString).deletingLastPathComponent
    }

    /// The error about the key at `path`, placed where it was set.
    func error(_ path: String, problem: String, expected: String? = nil) -> LatsimError {
        let source = entries[path]?.source
        return LatsimError(file: source?.file ?? "default", line: source?.line, column: source?.column, key: path,
                           value: text(path), problem: problem, expected: expected)
    }

    func resolve(_ path: String, into c: inout PipelineConfiguration, _ context: ParseContext) throws(LatsimError) {
        let key = ConfigurationKey.byPath[path]!
        let text = self.text(path)
        var context = context
        if let folder = Self.folder(of: entries[path]?.source.file) { context.folder = folder }
        do { try key.apply(text, &c, context) } catch {
            var e = error
            if e.file != nil {
                // an error inside a file the value names (measured durations):
                // that file's place, and the key that named it
                e.problem += " (for \(path))"
                throw e
            }
            let source = entries[path]?.source
            e.file = source?.file ?? "default"
            e.line = source?.line
            e.column = source?.column
            e.key = path
            e.value = text
            throw e
        }
    }
}

/// Settings parsed once, from which the configurations of settings that
/// differ from them in a few keys are made by parsing only those keys (a
/// sweep's grid points, Docs/Engine.md, "Sweeps resolve once").
///
/// Every key is written by its own parser into its own field, and no
/// parser reads another field, so parsing the changed keys over the parsed
/// base gives the configuration that parsing every key gives. Two keys
/// change how the others are read, the display rate (durations written in
/// frames) and the platform (its defaults): changing either parses
/// everything again.
public struct ResolvedSettings: Sendable {
    /// The settings.
    public let settings: Settings
    /// The settings' configuration (``Settings/configuration()``).
    public let configuration: PipelineConfiguration
    private let parsed: PipelineConfiguration

    /// The keys whose value changes how other keys are read.
    static let rereadAll: Set<String> = ["device.displayHz", "os.platform"]

    /// Parses and checks `settings`, with ``Settings/configuration()``'s errors.
    public init(_ settings: Settings) throws(LatsimError) {
        self.settings = settings
        parsed = try settings.parsed()
        configuration = try settings.checked(parsed)
    }

    /// The configuration of these settings with `changes` set over them
    /// (in order): the configuration, or the error,
    /// ``Settings/configuration()`` gives for those settings.
    public func configuration(setting changes: [Assignment]) throws(LatsimError) -> PipelineConfiguration {
        if let c = quickConfiguration(setting: changes) { return c }
        var s = settings
        for a in changes { try s.apply(a) }
        if changes.contains(where: { Self.rereadAll.contains($0.path) }) { return try s.configuration() }
        var c = parsed
        let context = ParseContext(framePeriod: c.framePeriod)
        // in the order every key is parsed, so that of two bad values the
        // same one is reported
        let changed = Set(changes.map(\.path))
        for key in ConfigurationKey.all where changed.contains(key.path) {
            try s.resolve(key.path, into: &c, context)
        }
        return try s.checked(c)
    }

    /// ``configuration(setting:)`` when every change is good: each changed
    /// key parsed over the parsed base without copying the settings, then
    /// the rules between keys (the base passed the platform's, and each
    /// changed key must apply to the platform). Nil when a change rereads
    /// every key, or anything fails: the full path then gives the error,
    /// placed as ``Settings/configuration()`` places it. A sweep makes
    /// every grid point here (Docs/Engine.md, "Sweeps resolve once").
    func quickConfiguration(setting changes: [Assignment]) -> PipelineConfiguration? {
        guard let setters = quickSetters(changes.map { ($0.path, $0.source) }) else { return nil }
        var c = parsed
        return quickSet(setters, values: changes.map(\.value), into: &c) ? c : nil
    }

    /// A changed key's parser and the context its value is read in.
    struct QuickSetter: Sendable {
        let apply: @Sendable (String, inout PipelineConfiguration, ParseContext) throws(LatsimError) -> Void
        let context: ParseContext
    }

    /// The parsers of `keys`, in order, for ``quickSet(_:values:into:)``;
    /// nil when a key rereads every key or does not apply to the platform.
    func quickSetters(_ keys: [(path: String, source: SettingSource)]) -> [QuickSetter]? {
        // Android's checks ask which keys are set (durations with phase
        // offsets), not only the values: those points take the full path
        guard parsed.platform == .ios else { return nil }
        let context = ParseContext(framePeriod: parsed.framePeriod)
        var setters: [QuickSetter] = []
        for k in keys {
            guard !Self.rereadAll.contains(k.path), let key = ConfigurationKey.byPath[k.path], key.applies(to: parsed.platform) else { return nil }
            var keyContext = context
            // a value naming a file (measured durations) reads it beside
            // the file that set it, as Settings.resolve does
            if let folder = Settings.folder(of: k.source.file) { keyContext.folder = folder }
            setters.append(QuickSetter(apply: key.apply, context: keyContext))
        }
        return setters
    }

    /// Each of `values` set by its setter into `c` (the parsed base), then
    /// the rules between keys; false when anything fails. In place: each
    /// hop of a configuration returned by value had copied it.
    func quickSet(_ setters: [QuickSetter], values: [String], into c: inout PipelineConfiguration,
                  checkingAcrossKeys: Bool = true) -> Bool {
        for (setter, value) in zip(setters, values) {
            do { try setter.apply(value, &c, setter.context) } catch { return false }
        }
        guard checkingAcrossKeys else {
            settings.completeAcrossKeys(&c)
            return true
        }
        do { try settings.checkAcrossKeys(&c) } catch { return false }
        return true
    }

    /// Sets the same keys at many points, as a sweep's axes do: each key's
    /// parser is found once (``PointSetter/configuration(values:)``).
    public func setter(_ keys: [(path: String, source: SettingSource)]) -> PointSetter {
        PointSetter(resolved: self, keys: keys, quick: quickSetters(keys))
    }

    /// ``ResolvedSettings/configuration(setting:)`` of the same keys at many points.
    public struct PointSetter: Sendable {
        let resolved: ResolvedSettings
        let keys: [(path: String, source: SettingSource)]
        let quick: [QuickSetter]?

        /// The configuration with each key set to its value (`values[i]`
        /// is the `i`th key's), or the error ``ResolvedSettings/configuration(setting:)``
        /// gives for the same assignments. Without `checkingAcrossKeys`
        /// the rules between keys are not checked when each value is good:
        /// for a point made again that passed them before (a sweep's
        /// large grid, Docs/Engine.md).
        public func configuration(values: [String], checkingAcrossKeys: Bool = true) throws(LatsimError) -> PipelineConfiguration {
            if let quick {
                var c = resolved.parsed
                if resolved.quickSet(quick, values: values, into: &c, checkingAcrossKeys: checkingAcrossKeys) { return c }
            }
            return try resolved.configuration(setting: zip(keys, values).map {
                Assignment(path: $0.path, value: $1, source: $0.source)
            })
        }
    }
}
