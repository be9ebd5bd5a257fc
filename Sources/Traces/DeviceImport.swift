import Foundation
import PerfettoProtos
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
        if let text = String(data: data.prefix(1 << 20), encoding: .utf8),
           text.contains("---PROFILEDATA---") || text.contains("IntendedVsync") {
            guard let whole = String(data: data, encoding: .utf8) else {
                throw LatsimError(file: file, problem: "is not UTF-8 text", expected: "the text of adb shell dumpsys gfxinfo PACKAGE framestats")
            }
            return try FramestatsImport.read(whole, file: file)
        }
        return try PerfettoImport.read(data, file: file)
    }

    /// The display period from instants on the vsync grid (frame starts or
    /// presents, some vsyncs skipped): the median of the gaps within 1.5 ×
    /// the shortest positive gap. Nil without two distinct instants.
    static func period(ofGridInstants instants: [SimTime]) -> SimTime? {
        let sorted = instants.sorted()
        let gaps = zip(sorted.dropFirst(), sorted).map { $0 - $1 }.filter { $0 > 0 }
        guard let shortest = gaps.min() else { return nil }
        let near = gaps.filter { $0 * 2 <= shortest * 3 }.sorted()
        return near[near.count / 2]
    }

    static func median(_ values: [SimTime]) -> SimTime? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        return s[s.count / 2]
    }

    /// `ns` as milliseconds, exact: `4123456` is `4.123456ms`.
    static func milliseconds(_ ns: SimTime) -> String {
        let whole = ns / 1_000_000, fraction = ns % 1_000_000
        guard fraction != 0 else { return "\(whole)ms" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits)ms"
    }

    /// The scenario YAML: `os.platform: android`, the display rate and the
    /// work durations found, each stage an empirical distribution of the
    /// measured durations, every value with a comment saying where it came
    /// from. A stage draw at or above the display period is refused for
    /// `android.sfCompose` (composition must fit a period) and left out here.
    public func scenarioYAML(name: String, source: String) -> String {
        var lines: [String] = []
        lines.append("# Imported by latsim import from \(source) (\(kind)).")
        lines.append("# Each value says where it came from; a stage's durations are the measured")
        lines.append("# frames' own, one drawn per frame (Docs/TraceFormats.md).")
        for m in measured { lines.append("# Measured: \(m)") }
        for n in notes { lines.append("# Note: \(n)") }
        lines.append("name: \(name)")
        lines.append("description: \(Self.quoted("measured on a device: \(source) (\(kind))"))")
        lines.append("os:")
        lines.append("  platform: android")
        if let hz = displayHz {
            lines.append("device:")
            lines.append("  # \(hz.origin)")
            lines.append("  displayHz: \(formatDecimal(hz.value, places: 3))")
        }
        let period = displayHz.map { SimTime((1e9 / $0.value).rounded()) }
        var android: [String] = [], app: [String] = [], gpu: [String] = []
        if let a = appDuration { android += ["  # \(a.origin)", "  appDuration: \(Self.milliseconds(a.value))"] }
        if let s = sfDuration { android += ["  # \(s.origin)", "  sfDuration: \(Self.milliseconds(s.value))"] }
        for (key, figure) in stages {
            var values = figure.value.filter { $0 >= 0 }
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
            guard !values.isEmpty else { continue }
            let field = key.split(separator: ".").last.map(String.init) ?? key
            let entry = ["  # \(origin) (\(values.count) values)",
                         "  \(field): {empirical: [\(values.map(Self.milliseconds).joined(separator: ", "))]}"]
            if key.hasPrefix("android.") { android += entry } else if key.hasPrefix("gpu.") { gpu += entry } else { app += entry }
        }
        if !android.isEmpty { lines += ["android:"] + android }
        if !app.isEmpty { lines += ["app:"] + app }
        if !gpu.isEmpty { lines += ["gpu:"] + gpu }
        return lines.joined(separator: "\n") + "\n"
    }

    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// `adb shell dumpsys gfxinfo PACKAGE framestats`: HWUI's per-frame
/// timestamps (ns, CLOCK_MONOTONIC) between `---PROFILEDATA---` lines.
enum FramestatsImport {
    /// The columns read; a dump without one of them is refused.
    static let required = ["Flags", "IntendedVsync", "HandleInputStart", "SyncQueued", "SyncStart", "SwapBuffers", "FrameCompleted"]

    static func read(_ text: String, file: String) throws(LatsimError) -> DeviceImport {
        let lines = text.components(separatedBy: "\n").map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
        var inside = false, header: [String]? = nil, headerLine = 0
        var rows: [(line: Int, cells: [String: Int64])] = []
        var blocks = 0
        for (i, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line == "---PROFILEDATA---" {
                inside.toggle()
                if inside { blocks += 1 } else { header = nil }
                continue
            }
            guard inside, !line.isEmpty else { continue }
            var cells = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
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
        let valid = rows.filter { r in
            r.cells["Flags"] == 0 && required.dropFirst().allSatisfy { (r.cells[$0] ?? 0) > 0 }
                && r.cells["HandleInputStart"]! <= r.cells["SyncQueued"]! && r.cells["SyncStart"]! <= r.cells["SwapBuffers"]!
                && r.cells["SwapBuffers"]! <= r.cells["FrameCompleted"]!
        }
        if valid.count < rows.count {
            result.notes.append("\(rows.count - valid.count) of \(rows.count) frames left out (Flags not 0, which HWUI sets on frames to ignore, or a missing or out-of-order timestamp)")
        }
        guard !valid.isEmpty else {
            throw LatsimError(file: file, problem: "has no frame with Flags 0 and all of \(required.dropFirst().joined(separator: ", ")) set in order",
                              expected: "a dump taken while the app drew frames")
        }
        func column(_ name: String) -> [SimTime]? {
            let v = valid.compactMap { $0.cells[name] }
            return v.count == valid.count && v.allSatisfy({ $0 > 0 }) ? v : nil
        }
        // Android 12 to 14 print FrameInterval and FrameStartTime's names in the
        // other order than their values: the interval is the column that holds
        // durations (under a second), whichever name it has
        let interval = ["FrameInterval", "FrameStartTime"].first { name in
            column(name).map { v in v.allSatisfy { $0 < Nanos.perSecond } } ?? false
        }
        if let interval, let p = DeviceImport.median(column(interval)!) {
            let label = interval == "FrameInterval" ? "FrameInterval"
                : "frame interval (under the FrameStartTime header, whose name Android 12-14 swap with FrameInterval's)"
            result.displayHz = .init(value: 1e9 / Double(p), origin: "median \(label) of \(valid.count) frames: \(DeviceImport.milliseconds(p))")
        } else if let p = DeviceImport.period(ofGridInstants: valid.map { $0.cells["IntendedVsync"]! }) {
            result.displayHz = .init(value: 1e9 / Double(p), origin: "median spacing of the frames' IntendedVsync: \(DeviceImport.milliseconds(p))")
        }
        if let deadlines = column("FrameDeadline") {
            let d = zip(deadlines, valid).map { $0 - $1.cells["IntendedVsync"]! }.filter { $0 > 0 }
            if let m = DeviceImport.median(d) {
                result.appDuration = .init(value: m, origin: "median FrameDeadline - IntendedVsync (the app's work duration Choreographer was given)")
            }
        }
        func stage(_ key: String, _ end: String, _ start: String, _ what: String) {
            let v = valid.map { $0.cells[end]! - $0.cells[start]! }
            result.stages.append((key, .init(value: v, origin: "\(what): \(end) - \(start) per frame")))
        }
        stage("app.handler", "SyncQueued", "HandleInputStart", "UI thread from input to the sync (input, animation, traversal, draw)")
        stage("android.renderThread", "SwapBuffers", "SyncStart", "RenderThread from the sync to eglSwapBuffers")
        if column("GpuCompleted") != nil {
            stage("gpu.render", "GpuCompleted", "SwapBuffers", "GPU from the swap to its completion")
        } else {
            stage("gpu.render", "FrameCompleted", "SwapBuffers", "from the swap to the frame's completion (no GpuCompleted column)")
        }
        let totals = valid.map { $0.cells["FrameCompleted"]! - $0.cells["IntendedVsync"]! }.sorted()
        result.measured.append("\(valid.count) frames, IntendedVsync to FrameCompleted p50 \(DeviceImport.milliseconds(totals[totals.count / 2])), "
            + "p99 \(DeviceImport.milliseconds(totals[min(totals.count - 1, totals.count * 99 / 100)]))")
        if column("FrameDeadline") != nil {
            let late = valid.filter { $0.cells["FrameCompleted"]! > $0.cells["FrameDeadline"]! }.count
            result.measured.append("\(late) of \(valid.count) frames completed after their FrameDeadline")
        }
        result.notes.append("framestats has no SurfaceFlinger timing: android.sfDuration and android.sfCompose keep their defaults")
        result.notes.append("the buffer count is not in framestats: android.buffers stays auto")
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

    /// A slice on a thread.
    struct Slice: Sendable {
        var pid: Int32
        var tid: Int64
        var thread: String
        var name: String
        var ts, dur: SimTime
    }

    struct Contents {
        var timelines: [Timeline] = []
        var slices: [Slice] = []
        var processNames: [Int32: String] = [:]
    }

    static func read(_ data: Data, file: String) throws(LatsimError) -> DeviceImport {
        let c = try contents(data, file: file)
        return try figures(c, file: file)
    }

    /// Decodes the trace and gathers FrameTimeline's timelines and the thread slices.
    static func contents(_ data: Data, file: String) throws(LatsimError) -> Contents {
        let trace: Perfetto_Protos_Trace
        do { trace = try Perfetto_Protos_Trace(serializedBytes: data) } catch {
            throw LatsimError(file: file, problem: "is neither a framestats dump nor a Perfetto trace (protobuf decoding failed: \(error))",
                              expected: "a .perfetto-trace recorded on the device or the text of adb shell dumpsys gfxinfo PACKAGE framestats")
        }
        if trace.packet.isEmpty || !trace.unknownFields.data.isEmpty {
            throw LatsimError(file: file, problem: "is not a Perfetto trace (no trace packets)",
                              expected: "a .perfetto-trace recorded on the device or the text of adb shell dumpsys gfxinfo PACKAGE framestats")
        }
        var c = Contents()
        var timelines: [Timeline] = [], openByCookie: [Int64: Int] = [:], expectedSeen: Set<String> = []
        var threads: [Int64: (pid: Int32, name: String)] = [:]
        var tracks: [UInt64: (pid: Int32, tid: Int64, name: String)] = [:]
        var trackStacks: [UInt64: [(name: String, ts: SimTime)]] = [:]
        var printStacks: [Int64: [(name: String, ts: SimTime)]] = [:]
        var pendingPrint: [(tid: Int64, pid: Int32, name: String, ts: SimTime, dur: SimTime)] = []
        // in time order, as Perfetto reads them (a stable sort: ties keep the file's order)
        let packets = trace.packet.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
        for p in packets {
            let ts = SimTime(clamping: p.timestamp)
            if p.hasFrameTimelineEvent, let e = p.frameTimelineEvent.event {
                func open(_ cookie: Int64, _ t: Timeline) {
                    openByCookie[cookie] = timelines.count
                    timelines.append(t)
                }
                switch e {
                case .expectedDisplayFrameStart(let s):
                    guard s.hasCookie else { continue }
                    open(s.cookie, Timeline(kind: .expectedDisplay, ts: ts, dur: -1, pid: s.pid, token: s.token, displayToken: s.token,
                                            layer: nil, presentType: 0, jankType: 0))
                case .actualDisplayFrameStart(let s):
                    guard s.hasCookie else { continue }
                    open(s.cookie, Timeline(kind: .actualDisplay, ts: ts, dur: -1, pid: s.pid, token: s.token, displayToken: s.token,
                                            layer: nil, presentType: s.presentType.rawValue, jankType: s.jankType))
                case .expectedSurfaceFrameStart(let s):
                    // an app frame drawn into several layers has one expected
                    // timeline, as Perfetto keeps it: the first for its token
                    guard s.hasCookie, expectedSeen.insert("\(s.pid)/\(s.token)").inserted else { continue }
                    open(s.cookie, Timeline(kind: .expectedSurface, ts: ts, dur: -1, pid: s.pid, token: s.token,
                                            displayToken: s.displayFrameToken, layer: s.layerName, presentType: 0, jankType: 0))
                case .actualSurfaceFrameStart(let s):
                    guard s.hasCookie else { continue }
                    open(s.cookie, Timeline(kind: .actualSurface, ts: ts, dur: -1, pid: s.pid, token: s.token,
                                            displayToken: s.displayFrameToken, layer: s.layerName,
                                            presentType: s.presentType.rawValue, jankType: s.jankType))
                case .frameEnd(let f):
                    if let i = openByCookie.removeValue(forKey: f.cookie) { timelines[i].dur = ts - timelines[i].ts }
                }
            }
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
                guard let track = tracks[e.trackUuid] else { continue }
                if e.type == .sliceBegin {
                    trackStacks[e.trackUuid, default: []].append((e.name, ts))
                } else if e.type == .sliceEnd, let open = trackStacks[e.trackUuid]?.popLast() {
                    c.slices.append(Slice(pid: track.pid, tid: track.tid, thread: track.name, name: open.name, ts: open.ts, dur: ts - open.ts))
                }
            case .ftraceEvents(let bundle)?:
                for e in bundle.event {
                    guard case .print(let printEvent)? = e.event else { continue }
                    let tid = Int64(e.pid), at = SimTime(clamping: e.timestamp)
                    let parts = printEvent.buf.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
                    guard let tag = parts.first else { continue }
                    if tag == "B", parts.count >= 3 {
                        var name = String(parts[2])
                        if name.hasSuffix("\n") { name.removeLast() }
                        printStacks[tid, default: []].append((name, at))
                    } else if tag.hasPrefix("E"), let open = printStacks[tid]?.popLast() {
                        let pid = parts.count >= 2 ? Int32(parts[1].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 : 0
                        pendingPrint.append((tid, pid, open.name, open.ts, at - open.ts))
                    }
                }
            default:
                break
            }
        }
        c.timelines = timelines
        for s in pendingPrint {
            let t = threads[s.tid]
            c.slices.append(Slice(pid: t?.pid ?? s.pid, tid: s.tid, thread: t?.name ?? "", name: s.name, ts: s.ts, dur: s.dur))
        }
        return c
    }

    static func figures(_ c: Contents, file: String) throws(LatsimError) -> DeviceImport {
        var result = DeviceImport(kind: "Perfetto trace")
        let surfaces = c.timelines.filter { $0.kind == .actualSurface }
        // the app: the process with the most actual surface frames
        var perPid: [Int32: Int] = [:]
        for s in surfaces { perPid[s.pid, default: 0] += 1 }
        let app = perPid.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
        let appName = app.flatMap { c.processNames[$0] } ?? app.map { "pid \($0)" } ?? "-"
        let displays = c.timelines.filter { $0.kind == .expectedDisplay && $0.dur > 0 }
        if let p = DeviceImport.period(ofGridInstants: displays.map { $0.ts + $0.dur }) {
            guard (Nanos.perMillisecond...Nanos.perSecond).contains(p) else {
                throw LatsimError(file: file, value: "\(p) ns",
                                  problem: "FrameTimeline's expected presents are \(p) ns apart, a display rate of \(formatDecimal(1e9 / Double(p), places: 1)) Hz",
                                  expected: "a display period from 1 ms to 1 s (1 to 1000 Hz), as a device's trace has")
            }
            result.displayHz = .init(value: 1e9 / Double(p),
                                     origin: "median spacing of FrameTimeline's expected presents (\(displays.count) display frames): \(DeviceImport.milliseconds(p))")
        }
        if let app {
            let expected = c.timelines.filter { $0.kind == .expectedSurface && $0.pid == app && $0.dur > 0 }.map(\.dur)
            if let m = DeviceImport.median(expected) {
                result.appDuration = .init(value: m, origin: "median of \(expected.count) expected surface frames of \(appName) (FrameTimeline)")
            }
        }
        if let m = DeviceImport.median(displays.map(\.dur)) {
            result.sfDuration = .init(value: m, origin: "median of \(displays.count) expected display frames (FrameTimeline)")
        }
        /// The slices named `prefixes` on the thread (of the app when known) that has the most of them.
        func busiest(_ prefixes: [String], appOnly: Bool) -> (thread: String, tid: Int64, values: [SimTime])? {
            var byThread: [Int64: [Slice]] = [:]
            for s in c.slices where prefixes.contains(where: { s.name.hasPrefix($0) }) && s.dur >= 0 {
                if appOnly, let app, s.pid != app { continue }
                byThread[s.tid, default: []].append(s)
            }
            guard let best = byThread.max(by: { ($0.value.count, -$0.key) < ($1.value.count, -$1.key) }) else { return nil }
            let sorted = best.value.sorted { $0.ts < $1.ts }
            return (sorted.first?.thread ?? "", best.key, sorted.map(\.dur))
        }
        let rules: [(key: String, prefixes: [String], appOnly: Bool, what: String)] = [
            ("app.handler", ["Choreographer#doFrame"], true, "Choreographer#doFrame slices"),
            ("android.renderThread", ["DrawFrame"], true, "DrawFrame slices"),
            ("gpu.render", ["GPU frame", "waiting for GPU completion"], true, "GPU slices"),
            ("android.sfCompose", ["latch and composite", "composite", "onMessageRefresh"], false, "SurfaceFlinger's composition slices"),
        ]
        for r in rules {
            guard let found = busiest(r.prefixes, appOnly: r.appOnly), !found.values.isEmpty else {
                result.notes.append("no \(r.what) (\(r.prefixes.joined(separator: ", "))): \(r.key) keeps its default")
                continue
            }
            let thread = found.thread.isEmpty ? "thread \(found.tid)" : "thread '\(found.thread)' (tid \(found.tid))"
            result.stages.append((r.key, .init(value: found.values, origin: "\(r.what) on \(thread)")))
        }
        if result.displayHz == nil && result.stages.isEmpty {
            throw LatsimError(file: file, problem: "is a Perfetto trace with neither FrameTimeline packets nor the app's frame slices",
                              expected: "a trace recorded with the android.surfaceflinger.frametimeline data source and atrace categories gfx and view (Android 12 or later)")
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
        result.notes.append("the buffer count is not read from traces: android.buffers stays auto")
        return result
    }
}
