import Foundation
import PerfettoProtos
import Scenarios
import SimKernel

/// A device's recording turned into the figures of an Android scenario:
/// `latsim import` reads an Android Perfetto trace or a `dumpsys gfxinfo
/// PACKAGE framestats` dump (Docs/TraceFormats.md says what is read from
/// each and what is inferred).
public struct DeviceImport: Sendable {
    /// A figure with where it came from.
    public struct Figure<Value: Sendable>: Sendable {
        public var value: Value
        public var origin: String
    }

    /// What the recording was.
    public var kind: String
    /// The display rate, Hz.
    public var displayHz: Figure<Double>?
    /// FrameTimeline's `D_app` and `D_sf`, ns.
    public var appDuration, sfDuration: Figure<SimTime>?
    /// The input dispatch latency from Android's input events, ns.
    public var dispatchLatency: Figure<SimTime>?
    /// Measured durations per scenario key, ns, in the recording's order.
    public var stages: [(key: String, durations: Figure<[SimTime]>)] = []
    /// What was left out or could not be seen.
    public var notes: [String] = []
    /// The device's own frame figures, to set beside `latsim run` of the
    /// scenario (written as comments).
    public var measured: [String] = []

    /// The most durations kept per stage (a scenario file stays well under its 1 MiB).
    public static let maximumValues = 20_000

    /// The keys a stage's durations go to, in scenario order.
    public static let stageKeys = ["app.handler", "android.renderThread", "gpu.render", "android.sfCompose"]

    /// Reads `data` from `file`: a framestats dump when it is text holding
    /// framestats' header, a Perfetto trace otherwise.
    public static func read(_ data: Data, file: String) throws(LatsimError) -> DeviceImport {
        try read(TraceBytes(data, file: file))
    }

    /// Reads the recording at `path` as ``read(_:file:)`` does, `path`
    /// opened as an input of at most `maximumBytes` (bad input says what
    /// is `expected` there): a Perfetto trace is read piece by piece and
    /// never held whole; a framestats dump (text) is read whole.
    public static func read(path: String, expected: String, maximumBytes: Int) throws(LatsimError) -> DeviceImport {
        let opened = try InputFiles.open(path, expected: expected, maximumBytes: maximumBytes)
        guard opened.size > 0 else { throw LatsimError(file: path, problem: "is empty", expected: expected) }
        return try read(TraceBytes(opened))
    }

    /// The framestats dump or Perfetto trace in `bytes`.
    static func read(_ bytes: TraceBytes) throws(LatsimError) -> DeviceImport {
        func text(_ count: Int) throws(LatsimError) -> String? {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
            defer { buffer.deallocate() }
            if count > 0 { try bytes.read(at: 0, count: count, into: buffer.baseAddress!) }
            return String(bytes: buffer, encoding: .utf8)
        }
        if let head = try text(min(1 << 20, bytes.size)), head.contains("---PROFILEDATA---") || head.contains("IntendedVsync") {
            guard let whole = try text(bytes.size) else {
                throw LatsimError(file: bytes.file, problem: "is not UTF-8 text", expected: "the text of adb shell dumpsys gfxinfo PACKAGE framestats")
            }
            return try FramestatsImport.read(whole, file: bytes.file)
        }
        return try PerfettoImport.read(bytes)
    }

    /// The display period from instants on the vsync grid (frame starts or
    /// presents, some vsyncs skipped): the median of the gaps within 1.5 ×
    /// the shortest positive gap. Nil without two distinct instants. Gaps
    /// are taken at full width (instants a lifetime apart neither overflow
    /// nor trap: a gap past Int64 is the longest one).
    static func period(ofGridInstants instants: [SimTime]) -> SimTime? {
        let sorted = instants.sorted()
        let gaps = zip(sorted.dropFirst(), sorted).map { a, b in
            let (gap, overflow) = a.subtractingReportingOverflow(b)
            return overflow ? SimTime.max : gap
        }.filter { $0 > 0 }
        guard let shortest = gaps.min() else { return nil }
        // within 1.5 x the shortest: 2 x gap <= 3 x shortest, in doubles (exact enough here, never overflowing)
        let near = gaps.filter { Double($0) * 2 <= Double(shortest) * 3 }.sorted()
        return near[near.count / 2]
    }

    static func median(_ values: [SimTime]) -> SimTime? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        return s[s.count / 2]
    }

    /// `ns` as milliseconds, exact: `4123456` is `4.123456ms`, `-15` is
    /// `-0.000015ms`; every value, Int64.min included.
    static func milliseconds(_ ns: SimTime) -> String {
        let magnitude = ns.magnitude
        let whole = magnitude / 1_000_000, fraction = magnitude % 1_000_000
        let sign = ns < 0 ? "-" : ""
        guard fraction != 0 else { return "\(sign)\(whole)ms" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(whole).\(digits)ms"
    }

    /// The display periods a recording may give: 1 ms to 1 s (1 to 1000 Hz,
    /// `device.displayHz`'s range).
    static let periods = Nanos.perMillisecond...Nanos.perSecond

    /// A work duration's range (`android.appDuration`, `android.sfDuration`).
    static let workDurations: ClosedRange<SimTime> = 0...Nanos.perSecond

    /// A stage's measured durations' range (every stage key's: an hour).
    static let stageDurations: ClosedRange<SimTime> = 0...ValueLimits.stage

    /// The display rate of a recording's period, or bad input naming it
    /// when no display has it.
    static func displayRate(period p: SimTime, of what: String, file: String) throws(LatsimError) -> Double {
        guard periods.contains(p) else {
            throw LatsimError(file: file, value: "\(p) ns",
                              problem: "\(what) are \(p) ns apart, a display rate of \(formatDecimal(1e9 / Double(p), places: 1)) Hz",
                              expected: "a display period from 1 ms to 1 s (1 to 1000 Hz), as a device's recording has")
        }
        return 1e9 / Double(p)
    }

    /// Text from a recording (a thread's, a process's or a file's name) as
    /// it may stand in a YAML comment or a quoted string: at most
    /// ``LatsimError/echoLimit`` characters, on one line, every character
    /// YAML cannot hold as it is, and every line break (CR, LF, NEL, U+2028,
    /// U+2029), written as an escape such as `\n` or `\u2028`: a name
    /// holding `\nandroid.buffers: 2` can never start a line of settings.
    static func recorded(_ text: String) -> String {
        var out = ""
        for c in LatsimError.shortened(text).unicodeScalars {
            switch c.value {
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09, 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF:
                out.unicodeScalars.append(c)
            default: out += c.value <= 0xFFFF ? "\\u" + hex(c.value, 4) : "\\U" + hex(c.value, 8)
            }
        }
        return out
    }

    static func hex(_ v: UInt32, _ width: Int) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - h.count)) + h
    }

    /// A comment line: `# ` and the text, which never leaves its line.
    static func comment(_ text: String) -> String {
        var line = "# "
        for c in text.unicodeScalars {
            switch c.value {
            case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: line += " "
            default: line.unicodeScalars.append(c)
            }
        }
        return line
    }

    /// The scenario YAML: `os.platform: android`, the display rate and the
    /// work durations found, each stage an empirical distribution of the
    /// measured durations, every value with a comment saying where it came
    /// from. A stage draw at or above the display period is refused for
    /// `android.sfCompose` (composition must fit a period) and left out here.
    ///
    /// `name` is written quoted (the command line checks it is an
    /// identifier); `source`, like every name taken from the recording, is
    /// escaped by ``recorded(_:)`` so that nothing in it leaves its comment.
    public func scenarioYAML(name: String, source: String) -> String {
        let source = Self.recorded(source)
        var lines: [String] = []
        lines.append(Self.comment("Imported by latsim import from \(source) (\(kind))."))
        lines.append("# Each value says where it came from; a stage's durations are the measured")
        lines.append("# frames' own, one drawn per frame (Docs/TraceFormats.md).")
        for m in measured { lines.append(Self.comment("Measured: \(m)")) }
        for n in notes { lines.append(Self.comment("Note: \(n)")) }
        for w in warnings { lines.append(Self.comment("Warning: \(w)")) }
        let unread = unreadKeys(written: writtenKeys)
        lines.append("# Not in the recording: each of these \(unread.count) keys keeps the value shown (set one here or")
        lines.append("# with --set when you know your device's; Docs/TraceFormats.md, \"What a recording does not give\"):")
        for u in unread { lines.append(Self.comment("  \(u.key): \(u.value)" + (u.why.map { " (\($0))" } ?? ""))) }
        lines.append("name: \(Self.quoted(name))")
        lines.append("description: \(Self.quoted("measured on a device: \(source) (\(kind))"))")
        lines.append("os:")
        lines.append("  platform: android")
        if let hz = displayHz {
            lines.append("device:")
            lines.append("  " + Self.comment(hz.origin))
            lines.append("  displayHz: \(formatDecimal(hz.value, places: 3))")
            lines.append("  " + Self.comment("not in the recording: \(Self.scanAssumption)"))
            lines.append("  scanHz: \(formatDecimal(hz.value, places: 3))")
        }
        var android: [String] = [], app: [String] = [], gpu: [String] = []
        if let a = appDuration { android += ["  " + Self.comment(a.origin), "  appDuration: \(Self.milliseconds(a.value))"] }
        if let s = sfDuration { android += ["  " + Self.comment(s.origin), "  sfDuration: \(Self.milliseconds(s.value))"] }
        if let d = dispatchLatency { android += ["  " + Self.comment(d.origin), "  dispatchLatency: \(Self.milliseconds(d.value))"] }
        for (key, figure) in stages {
            let (values, origin) = keptValues(key, figure)
            guard !values.isEmpty else { continue }
            let field = key.split(separator: ".").last.map(String.init) ?? key
            let entry = ["  " + Self.comment("\(origin) (\(values.count) values)"),
                         "  \(field): {empirical: [\(values.map(Self.milliseconds).joined(separator: ", "))]}"]
            if key.hasPrefix("android.") { android += entry } else if key.hasPrefix("gpu.") { gpu += entry } else { app += entry }
        }
        if !android.isEmpty { lines += ["android:"] + android }
        if !app.isEmpty { lines += ["app:"] + app }
        if !gpu.isEmpty { lines += ["gpu:"] + gpu }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Why an imported scenario's touch scan runs at its display's rate: no
    /// recording holds the digitizer's rate, and the key's own default (60
    /// Hz) on a faster display leaves most frames without a new touch.
    static let scanAssumption = "the display rate, assumed: a touch scan at least as fast as the display; set the digitizer's rate when you know it"

    /// The keys this scenario sets from the recording (``scenarioYAML(name:source:)``
    /// writes them), `os.platform` and `device.scanHz` among them.
    var writtenKeys: Set<String> {
        var keys: Set<String> = ["os.platform"]
        if displayHz != nil { keys.formUnion(["device.displayHz", "device.scanHz"]) }
        if appDuration != nil { keys.insert("android.appDuration") }
        if sfDuration != nil { keys.insert("android.sfDuration") }
        if dispatchLatency != nil { keys.insert("android.dispatchLatency") }
        for (key, figure) in stages where !keptValues(key, figure).values.isEmpty { keys.insert(key) }
        return keys
    }

    /// True for a key that says what the device, its Android release or the
    /// app is (every key an Android run uses but the experiment's own:
    /// `duration`, `seed`, `input.*`, `measure.*`, which say what is run and
    /// measured, never what a recording could show).
    static func isDeviceKey(_ key: ConfigurationKey) -> Bool {
        key.applies(to: .android) && key.path != "duration" && key.path != "seed"
            && !key.path.hasPrefix("input.") && !key.path.hasPrefix("measure.")
    }

    /// Every device key the recording does not give, with the value the
    /// scenario runs with (the key's Android default) and, for the scan
    /// rate, why it is what it is; in `latsim keys` order. `device.scanHz`
    /// is listed too: it is written (as the display rate) but never read.
    public func unreadKeys() -> [(key: String, value: String, why: String?)] { unreadKeys(written: writtenKeys) }

    func unreadKeys(written: Set<String>) -> [(key: String, value: String, why: String?)] {
        ConfigurationKey.all.filter(Self.isDeviceKey).compactMap { key in
            if key.path == "device.scanHz", let hz = displayHz {
                return (key.path, formatDecimal(hz.value, places: 3), Self.scanAssumption)
            }
            guard !written.contains(key.path) else { return nil }
            return (key.path, key.defaultValue(for: .android), nil)
        }
    }

    /// What the scenario's defaults contradict in the recording, one
    /// sentence each (written as the scenario's warnings, and said by
    /// `latsim import` on stderr): a touch scan slower than the recorded
    /// display, under which many frames have no new touch and are repeated.
    public var warnings: [String] {
        guard let hz = displayHz?.value else { return [] }
        return Self.contradictions(scanHz: hz, displayHz: hz)
    }

    /// The contradictions of a scan rate with the recorded display rate.
    static func contradictions(scanHz: Double, displayHz: Double) -> [String] {
        guard scanHz < displayHz else { return [] }
        return ["device.scanHz \(formatDecimal(scanHz, places: 3)) Hz is slower than the recorded display (\(formatDecimal(displayHz, places: 3)) Hz): "
                + "many frames would have no new touch to draw, and the run's fps, repeated frames and hitches would be the scan's, not the device's"]
    }

    /// A stage's durations as the scenario keeps them, with their origin.
    func keptValues(_ key: String, _ figure: Figure<[SimTime]>) -> (values: [SimTime], origin: String) {
        let period = displayHz.map { SimTime((1e9 / $0.value).rounded()) }
        var values = figure.value.filter { Self.stageDurations.contains($0) }
        var origin = figure.origin
        if key == "android.sfCompose", let period {
            let kept = values.filter { $0 < period }
            if kept.count < values.count { origin += "; \(values.count - kept.count) at or above the display period left out" }
            values = kept
        }
        if values.count > Self.maximumValues {
            origin += "; the first \(Self.maximumValues) of \(values.count) kept"
            values = Array(values.prefix(Self.maximumValues))
        }
        return (values, origin)
    }

    /// A YAML double-quoted string: `\` and `"` escaped, and every
    /// character YAML cannot hold as it is (line breaks among them).
    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c.value {
            case 0x5C: out += "\\\\"
            case 0x22: out += "\\\""
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x20...0x7E, 0xA0...0x2027, 0x202A...0xD7FF, 0xE000...0xFEFE, 0xFF00...0xFFFD, 0x10000...0x10FFFF:
                out.unicodeScalars.append(c)
            default: out += c.value <= 0xFFFF ? "\\u" + hex(c.value, 4) : "\\U" + hex(c.value, 8)
            }
        }
        return out + "\""
    }
}

/// `adb shell dumpsys gfxinfo PACKAGE framestats`: HWUI's per-frame
/// timestamps (ns, CLOCK_MONOTONIC) between `---PROFILEDATA---` lines.
enum FramestatsImport {
    /// The columns read; a dump without one of them is refused.
    static let required = ["Flags", "IntendedVsync", "HandleInputStart", "SyncQueued", "SyncStart", "SwapBuffers", "FrameCompleted"]

    /// The timestamps of a frame in the order HWUI takes them (FrameInfo):
    /// each at or after the one before.
    static let ordered = ["IntendedVsync", "HandleInputStart", "SyncQueued", "SyncStart", "SwapBuffers", "FrameCompleted"]

    /// The lines of `text`, ended by LF, CRLF or any number of CRs before
    /// the LF (`adb shell` gives `\r\n`, some terminals `\r\r\n`).
    static func lines(_ text: String) -> [String] {
        text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            var end = line.endIndex
            while end > line.startIndex, line[line.index(before: end)] == 0x0D { end = line.index(before: end) }
            return String(decoding: line[line.startIndex..<end], as: UTF8.self)
        }
    }

    /// Why a frame row is not used, or nil for a normal frame: HWUI marks
    /// frames that are not normal ones with Flags (a window's visibility or
    /// layout changed, a frame it skipped...; developer.android.com, "Test
    /// UI performance": rows whose Flags is not 0 are to be ignored), and
    /// writes sentinel values (0, or numbers near 2^56 and 2^57) into the
    /// timestamps of frames it could not time.
    enum Exclusion { case flagged, timing }

    static func exclusion(_ r: [String: Int64]) -> Exclusion? {
        if r["Flags"] != 0 { return .flagged }
        let t = ordered.map { r[$0] ?? 0 }
        guard t.allSatisfy({ $0 > 0 }), zip(t, t.dropFirst()).allSatisfy({ $0 <= $1 }),
              t.last! - t.first! <= ValueLimits.stage else { return .timing }
        return nil
    }

    static func read(_ text: String, file: String) throws(LatsimError) -> DeviceImport {
        let lines = lines(text)
        var inside = false, header: [String]? = nil, headerLine = 0
        var rows: [(line: Int, cells: [String: Int64])] = []
        var blocks = 0
        for (i, raw) in lines.enumerated() {
            let line = raw.trimmedWhitespace
            if line == "---PROFILEDATA---" {
                inside.toggle()
                if inside { blocks += 1 } else { header = nil }
                continue
            }
            guard inside, !line.isEmpty else { continue }
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmedWhitespace }
            if cells.last == "" { cells.removeLast() }
            if header == nil {
                guard cells.first == "Flags" else {
                    throw LatsimError(file: file, line: i + 1, value: LatsimError.shortened(line),
                                      problem: "a ---PROFILEDATA--- block does not start with its header",
                                      expected: "a line Flags,IntendedVsync,... naming the columns")
                }
                for column in required where !cells.contains(column) {
                    throw LatsimError(file: file, line: i + 1, key: column, problem: "the framestats header has no column \(column)",
                                      expected: "the columns of Android 6 or later: \(required.joined(separator: ", "))")
                }
                header = cells
                headerLine = i + 1
                continue
            }
            let names = header!
            guard cells.count == names.count else {
                throw LatsimError(file: file, line: i + 1, value: LatsimError.shortened(line),
                                  problem: "a frame row has \(cells.count) fields, the header on line \(headerLine) names \(names.count)",
                                  expected: "one integer per column")
            }
            var row: [String: Int64] = [:]
            for (name, cell) in zip(names, cells) {
                guard let v = Int64(cell) else {
                    throw LatsimError(file: file, line: i + 1, key: name, value: LatsimError.shortened(cell),
                                      problem: "is not an integer", expected: "a timestamp or duration in nanoseconds")
                }
                row[name] = v
            }
            rows.append((i + 1, row))
        }
        if blocks == 0 {
            throw LatsimError(file: file, problem: "holds no ---PROFILEDATA--- block",
                              expected: "the output of adb shell dumpsys gfxinfo PACKAGE framestats (Android 6 or later)")
        }
        if inside && header == nil && rows.isEmpty {
            throw LatsimError(file: file, line: lines.count, problem: "ends inside a ---PROFILEDATA--- block before its header",
                              expected: "a header line and frame rows, closed by ---PROFILEDATA---")
        }
        var result = DeviceImport(kind: "dumpsys gfxinfo framestats")
        let reasons = rows.map { exclusion($0.cells) }
        let valid = zip(rows, reasons).filter { $0.1 == nil }.map(\.0)
        let flagged = reasons.filter { $0 == .flagged }.count, badTiming = reasons.filter { $0 == .timing }.count
        var why: [String] = []
        if flagged > 0 {
            why.append("\(flagged) with Flags not 0 (HWUI's mark of a frame that is not a normal one: a window's first frame or a layout change, a skipped frame)")
        }
        if badTiming > 0 {
            why.append("\(badTiming) with a missing, out-of-order or impossible timestamp (HWUI's sentinel values in a frame it could not time: 0, or more than an hour from IntendedVsync to FrameCompleted)")
        }
        guard !valid.isEmpty else {
            throw LatsimError(file: file, problem: "has no usable frame: all \(rows.count) frame\(rows.count == 1 ? "" : "s") left out" + (why.isEmpty ? "" : " (" + why.joined(separator: "; ") + ")"),
                              expected: "a dump taken while the app drew frames, with Flags 0 and \(ordered.joined(separator: " <= ")) set")
        }
        if valid.count < rows.count {
            result.notes.append("\(rows.count - valid.count) of \(rows.count) frames left out: " + why.joined(separator: "; "))
        }
        /// The column's values in the frames used, when every one of them
        /// lies in `range`.
        func column(_ name: String, within range: ClosedRange<SimTime>) -> [SimTime]? {
            let v = valid.compactMap { $0.cells[name] }
            return v.count == valid.count && v.allSatisfy({ range.contains($0) }) ? v : nil
        }
        // Android 12 to 14 print FrameInterval and FrameStartTime's names in the
        // other order than their values: the interval is the column that holds
        // display periods, whichever name it has
        let interval = ["FrameInterval", "FrameStartTime"].first { column($0, within: DeviceImport.periods) != nil }
        if let interval, let p = DeviceImport.median(column(interval, within: DeviceImport.periods)!) {
            let label = interval == "FrameInterval" ? "FrameInterval"
                : "frame interval (under the FrameStartTime header, whose name Android 12-14 swap with FrameInterval's)"
            result.displayHz = .init(value: 1e9 / Double(p), origin: "median \(label) of \(valid.count) frames: \(DeviceImport.milliseconds(p))")
        } else if let p = DeviceImport.period(ofGridInstants: valid.map { $0.cells["IntendedVsync"]! }) {
            let hz = try DeviceImport.displayRate(period: p, of: "the frames' IntendedVsync", file: file)
            result.displayHz = .init(value: hz, origin: "median spacing of the frames' IntendedVsync: \(DeviceImport.milliseconds(p))")
        }
        // HWUI's unknown deadline is Int64.max: only deadlines a work duration can be are read
        let deadlines = valid.compactMap { r -> (row: [String: Int64], d: SimTime)? in
            guard let deadline = r.cells["FrameDeadline"] else { return nil }
            let (d, overflow) = deadline.subtractingReportingOverflow(r.cells["IntendedVsync"]!)
            return !overflow && d > 0 && DeviceImport.workDurations.contains(d) ? (r.cells, d) : nil
        }
        if let m = DeviceImport.median(deadlines.map(\.d)) {
            var origin = "median FrameDeadline - IntendedVsync (the app's work duration Choreographer was given)"
            if deadlines.count < valid.count { origin += " of the \(deadlines.count) frames with a known deadline within 1 s" }
            result.appDuration = .init(value: m, origin: origin)
        } else if rows.first?.cells["FrameDeadline"] != nil {
            result.notes.append("no frame has a known FrameDeadline within 1 s of its IntendedVsync: android.appDuration keeps its default")
        }
        func stage(_ key: String, _ end: String, _ start: String, _ what: String, rows: [(line: Int, cells: [String: Int64])] = valid, note: String = "") {
            let v = rows.map { $0.cells[end]! - $0.cells[start]! }
            result.stages.append((key, .init(value: v, origin: "\(what): \(end) - \(start) per frame\(note)")))
        }
        stage("app.handler", "SyncQueued", "HandleInputStart", "UI thread from input to the sync (input, animation, traversal, draw)")
        stage("android.renderThread", "SwapBuffers", "SyncStart", "RenderThread from the sync to eglSwapBuffers")
        // the GPU's completion, where HWUI knows it: at or after the swap, within the hour
        let gpuTimed = valid.filter { r in
            guard let done = r.cells["GpuCompleted"], let swap = r.cells["SwapBuffers"], done >= swap else { return false }
            return done - swap <= ValueLimits.stage
        }
        if !gpuTimed.isEmpty {
            let missing = valid.count - gpuTimed.count
            stage("gpu.render", "GpuCompleted", "SwapBuffers", "GPU from the swap to its completion", rows: gpuTimed,
                  note: missing == 0 ? "" : "; \(missing) frame\(missing == 1 ? "" : "s") without a usable GpuCompleted left out")
            if missing > 0 {
                result.notes.append("\(missing) frame\(missing == 1 ? "" : "s") without a usable GpuCompleted (0, before the swap, or a sentinel) left out of gpu.render")
            }
        } else {
            stage("gpu.render", "FrameCompleted", "SwapBuffers", "from the swap to the frame's completion (no GpuCompleted column, or none set)")
        }
        let totals = valid.map { $0.cells["FrameCompleted"]! - $0.cells["IntendedVsync"]! }.sorted()
        result.measured.append("\(valid.count) frames, IntendedVsync to FrameCompleted p50 \(DeviceImport.milliseconds(totals[totals.count / 2])), "
            + "p99 \(DeviceImport.milliseconds(totals[min(totals.count - 1, totals.count * 99 / 100)]))")
        if !deadlines.isEmpty {
            let late = deadlines.filter { $0.row["FrameCompleted"]! > $0.row["FrameDeadline"]! }.count
            result.measured.append("\(late) of \(deadlines.count) frames completed after their FrameDeadline")
        }
        result.notes.append("framestats has no SurfaceFlinger timing: android.sfDuration and android.sfCompose keep their defaults")
        return result
    }
}

/// An Android Perfetto trace: FrameTimeline, the app's atrace or TrackEvent
/// slices (`Choreographer#doFrame`, `DrawFrame`), SurfaceFlinger's.
enum PerfettoImport {
    /// One FrameTimeline timeline from its start packet to its `FrameEnd`
    /// (dur -1 when it never ended, as Perfetto shows it).
    struct Timeline: Sendable, Equatable {
        enum Kind: Sendable, Equatable { case expectedDisplay, actualDisplay, expectedSurface, actualSurface }
        var kind: Kind
        var ts: SimTime
        var dur: SimTime
        var pid: Int32
        var token: Int64
        var displayToken: Int64
        var layer: String?
        var presentType: Int
        var jankType: Int32
    }

    /// A slice on a thread that one of ``sliceRules`` reads (no other is
    /// kept: a device trace holds millions).
    struct Slice: Sendable {
        var tid: Int64
        var ts, dur: SimTime
        var thread: String
        var pid: Int32
        /// The rules whose prefixes its name has, a bit each (bit k: ``sliceRules``[k]).
        var rules: UInt8
    }

    /// The stages read from slices: the key, the slice names' prefixes,
    /// whether only the app's threads count, and what they are called.
    static let sliceRules: [(key: String, prefixes: [String], appOnly: Bool, what: String)] = [
        ("app.handler", ["Choreographer#doFrame"], true, "Choreographer#doFrame slices"),
        ("android.renderThread", ["DrawFrame"], true, "DrawFrame slices"),
        ("gpu.render", ["GPU frame", "waiting for GPU completion"], true, "GPU slices"),
        ("android.sfCompose", ["latch and composite", "composite", "onMessageRefresh"], false, "SurfaceFlinger's composition slices"),
    ]

    /// The rules' prefixes as bytes, rule by rule (the fast path's).
    static let sliceRulePrefixes: [[[UInt8]]] = sliceRules.map { $0.prefixes.map { Array($0.utf8) } }

    /// The rules a slice named by the UTF-8 bytes `b[from..<to]` falls under.
    static func rules(ofBytes b: UnsafeRawBufferPointer, from: Int, to: Int) -> UInt8 {
        var bits: UInt8 = 0
        for (k, prefixes) in sliceRulePrefixes.enumerated() {
            for prefix in prefixes where prefix.count <= to - from {
                var same = true
                for j in 0..<prefix.count where b[from + j] != prefix[j] {
                    same = false
                    break
                }
                if same {
                    bits |= 1 << k
                    break
                }
            }
        }
        return bits
    }

    /// A track event's fields read here: its type, track and the rules its name falls under.
    struct TrackEventFields {
        var type: Int32 = 0
        var track: UInt64 = 0
        var rules: UInt8 = 0
    }

    /// Reads a packet that holds a track event and no other field read
    /// here, straight from its bytes: its timestamp and the event's type,
    /// track and name (as the rules it falls under). Nil for any other
    /// packet, and for anything the full decoder may judge otherwise (a
    /// field of the wrong wire type, a name that is not ASCII, a length
    /// past the end): the full decoder reads those. Fields not read (debug
    /// annotations, categories, flows, counters) are skipped unread, as the
    /// full decoder's values of them are never used.
    static func trackEventPacket(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int) -> (timestamp: UInt64, event: TrackEventFields)? {
        var event: TrackEventFields?
        // a track event given twice is merged, as the decoder merges it
        let header = packetFields(b, from: start, to: end, reading: 11) { i, eventEnd in
            var i = i, e = event ?? TrackEventFields()
            while i < eventEnd {
                guard let tag = varint(b, &i, end: eventEnd) else { return false }
                let field = tag >> 3, wire = tag & 7
                switch field {
                case 9, 11:  // type, track_uuid
                    guard wire == 0, let v = varint(b, &i, end: eventEnd) else { return false }
                    if field == 9 { e.type = Int32(truncatingIfNeeded: v) } else { e.track = v }
                case 10:  // name_iid: the name is interned, so read as none
                    guard wire == 0, varint(b, &i, end: eventEnd) != nil else { return false }
                    e.rules = 0
                case 23:  // name
                    guard wire == 2, let n = varint(b, &i, end: eventEnd), n <= UInt64(eventEnd - i) else { return false }
                    let nameEnd = i + Int(n)
                    for j in i..<nameEnd where b[j] >= 0x80 { return false }
                    e.rules = rules(ofBytes: b, from: i, to: nameEnd)
                    i = nameEnd
                case 22, 30, 4:  // categories, counter_value, debug_annotations
                    guard wire == (field == 30 ? 0 : 2), skip(b, wire, &i, eventEnd) else { return false }
                case 44:  // double_counter_value
                    guard wire == 1, skip(b, wire, &i, eventEnd) else { return false }
                case 47, 48:  // flow ids, packed or not
                    guard wire == 1 || wire == 2, skip(b, wire, &i, eventEnd) else { return false }
                default:
                    guard skip(b, wire, &i, eventEnd) else { return false }
                }
            }
            event = e
            return true
        }
        guard let header, let event else { return nil }
        return (header.timestamp, event)
    }

    /// The rules a slice named `name` falls under, a bit each; 0 for none.
    static func rules(of name: some StringProtocol) -> UInt8 {
        var bits: UInt8 = 0
        for (k, rule) in sliceRules.enumerated() where rule.prefixes.contains(where: { name.hasPrefix($0) }) { bits |= 1 << k }
        return bits
    }

    /// An app frame: its process and vsync id.
    struct PidToken: Hashable {
        var pid: Int32
        var token: Int64
    }

    struct Contents {
        var timelines: [Timeline] = []
        var slices: [Slice] = []
        var processNames: [Int32: String] = [:]
        var input = InputEventImport.Collected()
    }

    static func read(_ bytes: TraceBytes) throws(LatsimError) -> DeviceImport {
        let c = try contents(bytes)
        return try figures(c, file: bytes.file)
    }

    /// The fields of a `TracePacket` read here: `ftrace_events` (1),
    /// `process_tree` (2), `track_event` (11), `track_descriptor` (60),
    /// `frame_timeline_event` (76) and `winscope_extensions` (112, Android's
    /// input events). A packet with none of them is skipped unread.
    static let fieldsRead: [UInt64] = [1, 2, 11, 60, timelineField, 112]

    /// `TracePacket`'s `frame_timeline_event`.
    static let timelineField: UInt64 = 76

    /// ``fieldsRead`` as bits: field `f` is bit `f % 64` of word `f / 64`.
    private static let fieldsReadBits: (UInt64, UInt64) = fieldsRead.reduce((0, 0)) { bits, f in
        f < 64 ? (bits.0 | 1 << f, bits.1) : (bits.0, bits.1 | 1 << (f - 64))
    }

    /// Whether `field` of a `TracePacket` is one of ``fieldsRead``.
    @inline(__always) static func isRead(_ field: UInt64) -> Bool {
        field < 64 ? fieldsReadBits.0 >> field & 1 != 0 : field < 128 && fieldsReadBits.1 >> (field - 64) & 1 != 0
    }

    /// What a trace's packets are, as a first pass finds them: each packet
    /// that holds a field read, with its timestamp and where it lies. 16
    /// bytes a packet, whatever it holds; empty or unread packets cost
    /// nothing.
    struct PacketIndex {
        var timestamp: UInt64
        var start: UInt32
        /// The length (31 bits: a trace is at most 2 GiB) and, in the top
        /// bit, whether the packet holds a FrameTimeline event.
        var bits: UInt32
        var length: UInt32 { bits & 0x7FFF_FFFF }
        var timeline: Bool { bits >> 31 != 0 }
        init(timestamp: UInt64, start: UInt32, length: UInt32, timeline: Bool) {
            self.timestamp = timestamp
            self.start = start
            bits = length | (timeline ? 1 << 31 : 0)
        }
    }

    /// A varint at `i` (advanced past it), or nil when the bytes end first
    /// or it runs past 10 bytes.
    static func varint(_ b: UnsafeRawBufferPointer, _ i: inout Int, end: Int) -> UInt64? {
        var value: UInt64 = 0, shift: UInt64 = 0
        while i < end, shift < 64 {
            let byte = b[i]
            i += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    /// Scans a packet's own fields (not what they hold): its timestamp
    /// (field 8) and whether it holds a field read; nil when its fields do
    /// not parse (the decoder then says what is wrong).
    static func scanPacket(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int) -> (timestamp: UInt64, read: Bool, timeline: Bool)? {
        var i = start, timestamp: UInt64 = 0, read = false, timeline = false
        while i < end {
            guard let tag = varint(b, &i, end: end) else { return nil }
            let field = tag >> 3
            switch tag & 7 {
            case 0:
                guard let v = varint(b, &i, end: end) else { return nil }
                if field == 8 { timestamp = v }
            case 1: guard end - i >= 8 else { return nil }; i += 8
            case 5: guard end - i >= 4 else { return nil }; i += 4
            case 2:
                guard let n = varint(b, &i, end: end), n <= UInt64(end - i) else { return nil }
                i += Int(n)
            default: return nil // groups: left to the decoder
            }
            if isRead(field) {
                read = true
                if field == timelineField { timeline = true }
            }
        }
        return (timestamp, read, timeline)
    }

    /// The packets of the trace that hold a field read, in time order (a
    /// stable sort: ties keep the file's order), found packet by packet in
    /// chunks of ``TraceBytes/chunk`` bytes read in order: the outer message is field 1
    /// (`packet`), length-delimited, repeated, and nothing else. Bad input
    /// names the packet and its byte.
    static func packets(_ bytes: TraceBytes) throws(LatsimError) -> [PacketIndex] {
        let file = bytes.file, size = bytes.size
        let notATrace = "a .perfetto-trace recorded on the device or the text of adb shell dumpsys gfxinfo PACKAGE framestats"
        guard size <= Int(Int32.max) else {
            throw LatsimError(file: file, problem: "has \(size) bytes", expected: "a trace of at most 2 GiB")
        }
        var chunks = TraceChunks(bytes, chunk: bytes.chunk)
        var index: [PacketIndex] = []
        var count = 0
        while chunks.offset < size {
            // a tag and a length: at most 10 bytes each
            try chunks.ensure(20)
            let at = chunks.offset
            count += 1
            var i = chunks.position
            guard let tag = varint(chunks.view, &i, end: chunks.filled), tag == 0x0A else {
                throw LatsimError(file: file, problem: "is neither a framestats dump nor a Perfetto trace: at byte \(at), packet \(count) is no field 1 (a Trace holds only its packets)",
                                  expected: notATrace)
            }
            guard let n = varint(chunks.view, &i, end: chunks.filled), n <= UInt64(size - (chunks.base + i)) else {
                throw LatsimError(file: file, problem: "is neither a framestats dump nor a Perfetto trace: packet \(count) at byte \(at) runs past the end of the file (\(size) bytes)",
                                  expected: notATrace)
            }
            let header = i - chunks.position
            try chunks.ensure(header + Int(n))
            let start = chunks.position + header, end = start + Int(n)
            let fileStart = chunks.base + start
            chunks.position = end
            if let scanned = scanPacket(chunks.view, from: start, to: end) {
                guard scanned.read else { continue }
                index.append(PacketIndex(timestamp: scanned.timestamp, start: UInt32(fileStart), length: UInt32(n), timeline: scanned.timeline))
                continue
            }
            // its fields do not parse here: the decoder says why, or reads it after all
            do {
                let p = try Perfetto_Protos_TracePacket(serializedBytes: Data(UnsafeRawBufferPointer(rebasing: chunks.view[start..<end])))
                index.append(PacketIndex(timestamp: p.timestamp, start: UInt32(fileStart), length: UInt32(n), timeline: p.hasFrameTimelineEvent))
            } catch {
                throw LatsimError(file: file, problem: "packet \(count) at byte \(at) is not a trace packet (protobuf decoding failed: \(error))",
                                  expected: notATrace)
            }
        }
        if count == 0 {
            throw LatsimError(file: file, problem: "is not a Perfetto trace (no trace packets)", expected: notATrace)
        }
        // in time order, as Perfetto reads them; `start` keeps the file's
        // order within a timestamp (a trace written in order needs no sort)
        if zip(index, index.dropFirst()).contains(where: { ($0.timestamp, $0.start) > ($1.timestamp, $1.start) }) {
            index.sort { ($0.timestamp, $0.start) < ($1.timestamp, $1.start) }
        }
        return index
    }

    /// ``contents(_:)`` of a trace in memory.
    static func contents(_ data: Data, file: String) throws(LatsimError) -> Contents {
        try contents(TraceBytes(data, file: file))
    }

    /// Decodes the trace packet by packet (never as one message, nor the
    /// file held whole: memory stays 16 bytes a packet read, whatever it
    /// holds, the block cache and what is gathered) and gathers
    /// FrameTimeline's timelines and the thread slices.
    static func contents(_ bytes: TraceBytes) throws(LatsimError) -> Contents {
        let file = bytes.file
        let index = try packets(bytes)
        var c = Contents()

        var timelines: [Timeline] = [], openByCookie: [Int64: Int] = [:], expectedSeen: Set<PidToken> = []
        // room for a timeline per FrameTimeline packet at once (an array
        // grown by doubling holds 1.5 times its size while it is copied)
        timelines.reserveCapacity(index.reduce(0) { $0 + ($1.timeline ? 1 : 0) })
        var threads: [Int64: (pid: Int32, name: String)] = [:]
        var tracks: [UInt64: (pid: Int32, tid: Int64, name: String)] = [:]
        // open slices by track (or thread), each with the rules its name falls under
        var trackStacks: [UInt64: [(rules: UInt8, ts: SimTime)]] = [:]
        var printStacks: [Int64: [(rules: UInt8, ts: SimTime)]] = [:]
        var pendingPrint: [(tid: Int64, pid: Int32, rules: UInt8, ts: SimTime, dur: SimTime)] = []
        /// A track event's begin or end on its track.
        func trackEvent(_ e: TrackEventFields, at ts: SimTime) {
            guard let track = tracks[e.track] else { return }
            if e.type == Int32(Perfetto_Protos_TrackEvent.TypeEnum.sliceBegin.rawValue) {
                trackStacks[e.track, default: []].append((e.rules, ts))
            } else if e.type == Int32(Perfetto_Protos_TrackEvent.TypeEnum.sliceEnd.rawValue), let open = trackStacks[e.track]?.popLast() {
                if open.rules != 0 {
                    c.slices.append(Slice(tid: track.tid, ts: open.ts, dur: ts - open.ts, thread: track.name, pid: track.pid, rules: open.rules))
                }
            }
        }
        /// A FrameTimeline event: a timeline opened by its cookie, or closed.
        func timelineEvent(_ e: TimelineEventFields, at ts: SimTime) {
            guard let kind = e.start else {
                if let i = openByCookie.removeValue(forKey: e.cookie) { timelines[i].dur = ts - timelines[i].ts }
                return
            }
            // an app frame drawn into several layers has one expected
            // timeline, as Perfetto keeps it: the first for its token
            guard e.hasCookie, kind != .expectedSurface || expectedSeen.insert(PidToken(pid: e.pid, token: e.token)).inserted else { return }
            let surface = kind == .expectedSurface || kind == .actualSurface
            openByCookie[e.cookie] = timelines.count
            timelines.append(Timeline(kind: kind, ts: ts, dur: -1, pid: e.pid, token: e.token, displayToken: e.displayToken,
                                      layer: surface ? e.layer : nil, presentType: e.presentType, jankType: e.jankType))
        }
        for entry in index {
            let start = Int(entry.start), length = Int(entry.length)
            // a track event, a FrameTimeline event or an input event, read from its bytes; any other packet, or one they cannot read: the decoder
            let fast = try bytes.withBytes(at: start, count: length) { b throws(LatsimError) -> Bool in
                if !entry.timeline, let t = trackEventPacket(b, from: 0, to: length) {
                    trackEvent(t.event, at: SimTime(clamping: t.timestamp))
                    return true
                }
                if entry.timeline, let t = frameTimelinePacket(b, from: 0, to: length) {
                    timelineEvent(t.event, at: SimTime(clamping: t.timestamp))
                    return true
                }
                if !entry.timeline, let t = InputEventImport.packet(b, from: 0, to: length) {
                    if let e = t.event { InputEventImport.add(e, at: SimTime(clamping: t.timestamp), clock: t.clock, to: &c.input) }
                    return true
                }
                return false
            }
            if fast { continue }
            let packet = try bytes.data(at: start, count: length)
            let p: Perfetto_Protos_TracePacket
            do { p = try Perfetto_Protos_TracePacket(serializedBytes: packet) } catch {
                if let input = InputEventImport.corruption(packet) {
                    throw LatsimError(file: file, problem: "the packet at byte \(entry.start) is not a trace packet: \(input) (protobuf decoding failed: \(error))",
                                      expected: "a .perfetto-trace recorded on the device, its input events as Android's android.input.inputevent data source writes them")
                }
                throw LatsimError(file: file, problem: "the packet at byte \(entry.start) is not a trace packet (protobuf decoding failed: \(error))",
                                  expected: "a .perfetto-trace recorded on the device")
            }
            let ts = SimTime(clamping: p.timestamp)
            if p.hasWinscopeExtensions, let e = InputEventImport.fields(p) {
                InputEventImport.add(e, at: ts, clock: p.hasTimestampClockID ? p.timestampClockID : nil, to: &c.input)
            }
            if p.hasFrameTimelineEvent, let e = TimelineEventFields(p.frameTimelineEvent) { timelineEvent(e, at: ts) }
            switch p.data {
            case .processTree(let tree)?:
                for proc in tree.processes {
                    if let name = proc.cmdline.first { c.processNames[proc.pid] = name }
                }
                for t in tree.threads { threads[Int64(t.tid)] = (t.tgid, t.name) }
            case .trackDescriptor(let d)?:
                if d.hasProcess { c.processNames[d.process.pid] = d.process.processName }
                if d.hasThread {
                    tracks[d.uuid] = (d.thread.pid, d.thread.tid, d.thread.threadName)
                    threads[d.thread.tid] = (d.thread.pid, d.thread.threadName)
                }
            case .trackEvent(let e)?:
                trackEvent(TrackEventFields(type: Int32(truncatingIfNeeded: e.type.rawValue), track: e.trackUuid, rules: rules(of: e.name)), at: ts)
            case .ftraceEvents(let bundle)?:
                for e in bundle.event {
                    guard case .print(let printEvent)? = e.event else { continue }
                    let tid = Int64(e.pid), at = SimTime(clamping: e.timestamp)
                    let parts = printEvent.buf.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
                    guard let tag = parts.first else { continue }
                    if tag == "B", parts.count >= 3 {
                        // a trailing line break changes no prefix the rules read
                        printStacks[tid, default: []].append((rules(of: parts[2]), at))
                    } else if tag.hasPrefix("E"), let open = printStacks[tid]?.popLast() {
                        guard open.rules != 0 else { continue }
                        let pid = parts.count >= 2 ? Int32(parts[1].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 : 0
                        pendingPrint.append((tid, pid, open.rules, open.ts, at - open.ts))
                    }
                }
            default:
                break
            }
        }
        c.timelines = timelines
        for s in pendingPrint {
            let t = threads[s.tid]
            c.slices.append(Slice(tid: s.tid, ts: s.ts, dur: s.dur, thread: t?.name ?? "", pid: t?.pid ?? s.pid, rules: s.rules))
        }
        return c
    }

    /// `n` things, singular or plural: `1 DrawFrame slice`, `2 DrawFrame slices`.
    static func count(_ n: Int, _ plural: String) -> String {
        "\(n) \(n == 1 && plural.hasSuffix("s") ? String(plural.dropLast()) : plural)"
    }

    /// The key with the most values, ties to the lower key (as Perfetto
    /// lists processes and threads): no arithmetic on the keys, which may
    /// be any pid or tid.
    static func most<K: Comparable, V>(_ d: [K: V], by count: (V) -> Int) -> (key: K, value: V)? {
        d.max { a, b in count(a.value) != count(b.value) ? count(a.value) < count(b.value) : a.key > b.key }
    }

    static func figures(_ c: Contents, file: String) throws(LatsimError) -> DeviceImport {
        var result = DeviceImport(kind: "Perfetto trace")
        let surfaces = c.timelines.filter { $0.kind == .actualSurface }
        // the app: the process with the most actual surface frames
        var perPid: [Int32: Int] = [:]
        for s in surfaces { perPid[s.pid, default: 0] += 1 }
        let app = most(perPid) { $0 }?.key
        let appName = DeviceImport.recorded(app.flatMap { c.processNames[$0] } ?? app.map { "pid \($0)" } ?? "-")
        // FrameTimeline's work durations lie within a second (the keys' range):
        // a timeline longer is no frame of a device, and is left out
        let allDisplays = c.timelines.filter { $0.kind == .expectedDisplay && $0.dur > 0 }
        let displays = allDisplays.filter { DeviceImport.workDurations.contains($0.dur) }
        if displays.count < allDisplays.count {
            result.notes.append("\(count(allDisplays.count - displays.count, "expected display frames")) longer than 1 s left out")
        }
        if let p = DeviceImport.period(ofGridInstants: displays.map { $0.ts + $0.dur }) {
            let hz = try DeviceImport.displayRate(period: p, of: "FrameTimeline's expected presents", file: file)
            result.displayHz = .init(value: hz,
                                     origin: "median spacing of FrameTimeline's expected presents (\(displays.count) display frames): \(DeviceImport.milliseconds(p))")
        }
        if let app {
            let all = c.timelines.filter { $0.kind == .expectedSurface && $0.pid == app && $0.dur > 0 }.map(\.dur)
            let expected = all.filter { DeviceImport.workDurations.contains($0) }
            if expected.count < all.count {
                result.notes.append("\(count(all.count - expected.count, "expected surface frames")) of \(appName) longer than 1 s left out")
            }
            if let m = DeviceImport.median(expected) {
                result.appDuration = .init(value: m, origin: "median of \(expected.count) expected surface frames of \(appName) (FrameTimeline)")
            }
        }
        if let m = DeviceImport.median(displays.map(\.dur)) {
            result.sfDuration = .init(value: m, origin: "median of \(displays.count) expected display frames (FrameTimeline)")
        }
        /// The slices of rule `k` on the thread (of the app when known) that has the most of them.
        func busiest(_ k: Int, appOnly: Bool) -> (thread: String, tid: Int64, values: [SimTime])? {
            var byThread: [Int64: [Slice]] = [:]
            for s in c.slices where s.rules & (1 << k) != 0 && s.dur >= 0 {
                if appOnly, let app, s.pid != app { continue }
                byThread[s.tid, default: []].append(s)
            }
            guard let best = most(byThread, by: \.count) else { return nil }
            let sorted = best.value.sorted { $0.ts < $1.ts }
            return (sorted.first?.thread ?? "", best.key, sorted.map(\.dur))
        }
        for (k, r) in sliceRules.enumerated() {
            guard let found = busiest(k, appOnly: r.appOnly), !found.values.isEmpty else {
                result.notes.append("no \(r.what) (\(r.prefixes.joined(separator: ", "))): \(r.key) keeps its default")
                continue
            }
            // a slice longer than any stage may be (an hour) is no frame's work
            let values = found.values.filter { DeviceImport.stageDurations.contains($0) }
            if values.count < found.values.count {
                result.notes.append("\(count(found.values.count - values.count, r.what)) longer than an hour left out of \(r.key)")
            }
            guard !values.isEmpty else { continue }
            let thread = found.thread.isEmpty ? "thread \(found.tid)" : "thread '\(DeviceImport.recorded(found.thread))' (tid \(found.tid))"
            result.stages.append((r.key, .init(value: values, origin: "\(r.what) on \(thread)")))
        }
        InputEventImport.figures(c.input, into: &result)
        if result.displayHz == nil && result.stages.isEmpty && result.dispatchLatency == nil {
            throw LatsimError(file: file, problem: "is a Perfetto trace with neither FrameTimeline packets, the app's frame slices nor dispatched input events",
                              expected: "a trace recorded with the android.surfaceflinger.frametimeline data source and atrace categories gfx and view (Android 12 or later), or android.input.inputevent")
        }
        if let app {
            let mine = surfaces.filter { $0.pid == app }
            let names: [(Int32, String)] = [(1, "onTime"), (64, "appDeadlineMissed"), (128, "bufferStuffing"),
                                            (16, "surfaceFlingerDeadlineMissed"), (1024, "dropped"), (256, "unknown")]
            var counts: [String] = []
            for (bit, name) in names {
                let n = mine.filter { bit == 1 ? $0.jankType == 1 : $0.jankType & bit != 0 }.count
                if n > 0 { counts.append("\(name) \(n)") }
            }
            let other = mine.filter { t in !names.contains { bit, _ in bit == 1 ? t.jankType == 1 : t.jankType & bit != 0 } }.count
            if other > 0 { counts.append("other jank types \(other)") }
            result.measured.append("\(mine.count) frames of \(appName) in FrameTimeline: " + (counts.isEmpty ? "none classed" : counts.joined(separator: ", ")))
        }
        return result
    }
}
