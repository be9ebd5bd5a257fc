import Foundation
import Testing

/// Every number a report caption gives is read back from the caption and
/// recomputed from the `.dat` of the chart above it: prose and chart agree
/// number for number.
@Suite struct CaptionTests {
    /// The report, written once without gnuplot (the `.dat` files are the
    /// data either way), and its page.
    static let report: (dir: URL, page: String)? = {
        guard let dir = try? Latsim.temporaryDirectory(),
              let o = try? Latsim.run(["report", "--out", dir.path, "--duration", "5s"], environment: ["PATH": "/nonexistent"]),
              o.status == 0,
              let page = try? String(contentsOf: dir.appendingPathComponent("README.md"), encoding: .utf8) else { return nil }
        return (dir, page)
    }()

    /// The paragraph under the chart `name`.
    static func caption(_ name: String) throws -> String {
        let page = try #require(report?.page)
        let lines = page.components(separatedBy: "\n")
        let at = try #require(lines.firstIndex { $0.hasSuffix("](\(name).png)") }, "no chart \(name)")
        return try #require(lines[(at + 1)...].first { !$0.isEmpty })
    }

    /// The tables of a chart's `.dat`: name -> rows of cells (blank lines dropped).
    static func tables(_ name: String) throws -> [String: [[String]]] {
        let dir = try #require(report?.dir)
        let text = try String(contentsOf: dir.appendingPathComponent("\(name).dat"), encoding: .utf8)
        var out: [String: [[String]]] = [:]
        var current: String?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("# table ") { current = String(line.dropFirst(8)); out[current!] = []; continue }
            guard let c = current, !line.hasPrefix("#"), !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            // cells: numbers, or a quoted text
            var cells: [String] = []
            var rest = Substring(line)
            while let first = rest.first {
                if first == " " { rest = rest.dropFirst(); continue }
                if first == "\"" {
                    let body = rest.dropFirst()
                    let end = body.firstIndex(of: "\"") ?? body.endIndex
                    cells.append(String(body[..<end]))
                    rest = end < body.endIndex ? body[body.index(after: end)...] : ""
                } else {
                    let end = rest.firstIndex(of: " ") ?? rest.endIndex
                    cells.append(String(rest[..<end]))
                    rest = rest[end...]
                }
            }
            out[c, default: []].append(cells)
        }
        return out
    }

    /// `x` as the report prints it with `places` decimals (trailing zeros dropped).
    static func shown(_ x: Double, _ places: Int) -> String {
        var s = String(format: "%.\(places)f", x)
        if s.contains(".") { while s.hasSuffix("0") { s.removeLast() }; if s.hasSuffix(".") { s.removeLast() } }
        return s == "-0" ? "0" : s
    }

    /// The numbers of `text` matched by `pattern`'s capture groups.
    static func numbers(_ text: String, _ pattern: String) throws -> [String] {
        let re = try NSRegularExpression(pattern: pattern)
        let m = try #require(re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), "\(pattern) not in: \(text)")
        return (1..<m.numberOfRanges).map { String(text[Range(m.range(at: $0), in: text)!]) }
    }

    /// True when `printed` is `value` rounded to `places` decimals (either
    /// way at an exact half, where the .dat's 6 places hide which side it was).
    static func agrees(_ printed: String, _ value: Double, _ places: Int) -> Bool {
        guard let p = Double(printed) else { return false }
        return abs(p - value) <= 0.5 * pow(10, -Double(places)) + 1e-6
    }

    static func median(_ xs: [Double]) -> Double { xs.sorted()[(xs.count - 1) / 2] }

    @Test func theReportIsWritten() { #expect(Self.report != nil) }

    /// The CDF caption: the lognormal variant's median and p99, from its table.
    @Test func cdfCaption() throws {
        let text = try Self.caption("latency-cdf")
        let t = try Self.tables("latency-cdf")
        let names = t.keys.filter { $0.hasPrefix("cdf") }.sorted { Int($0.dropFirst(3))! < Int($1.dropFirst(3))! }
        let lastName = try #require(names.last)
        let last = try #require(t[lastName])
        let points = last.map { (Double($0[0])!, Double($0[1])!) }
        func q(_ p: Double) -> Double { points.first { $0.1 >= p / 100 - 1e-9 }!.0 }
        let n = try Self.numbers(text, #"median is ([0-9.]+) ms and its 99th percentile ([0-9.]+) ms, ([0-9.]+) display frames? more"#)
        #expect(n[0] == Self.shown(q(50), 1) && n[1] == Self.shown(q(99), 1), "\(n) vs \(q(50)), \(q(99))")
        #expect(n[2] == Self.shown((q(99) - q(50)) / (1000.0 / 60), 1))
        let steps = names.dropLast().filter { name in Set(t[name]!.map { (Double($0[0])! * 1000).rounded() }).count == 1 }.count
        if steps == names.count - 1 {
            #expect(try Self.numbers(text, #"With fixed durations each of the ([0-9]+) scenarios is a single vertical step"#) == [String(steps)])
        } else {
            #expect(try Self.numbers(text, #"With fixed durations ([0-9]+) of the ([0-9]+) scenarios"#) == [String(steps), String(names.count - 1)])
        }
    }

    /// The timeline caption: medians inside and outside the animations, the
    /// hitches and what the log shows at each, recounted from the `.dat`; no
    /// cause the log does not give.
    @Test func timelineCaption() throws {
        let text = try Self.caption("timeline-ios9-low-latency")
        let t = try Self.tables("timeline-ios9-low-latency")
        let points = try #require(t["latency"]).map { (Double($0[0])!, Double($0[1])!) }
        let intervals = try #require(t["intervals"]).map { (from: Double($0[0])!, to: Double($0[1])!, label: $0[2]) }
        let animations = intervals.filter { $0.label.hasPrefix("animations") }
        let inside = points.filter { p in animations.contains { p.0 >= $0.from && p.0 < $0.to } }.map(\.1)
        let outside = points.filter { p in !animations.contains { p.0 >= $0.from && p.0 < $0.to } }.map(\.1)
        let m = try Self.numbers(text, #"the median frame takes ([0-9.]+) ms against ([0-9.]+) ms outside them"#)
        #expect(m == [Self.shown(Self.median(inside), 1), Self.shown(Self.median(outside), 1)])
        let hitches = try #require(t["hitches"])
        let h = try Self.numbers(text, #"The run has ([0-9]+) hitch"#)
        #expect(h == [String(hitches.count)])
        for (context, phrase) in [("gpu-rendering", "the GPU still rendering"), ("preparing", "the render server still preparing"),
                                  ("no-frame-in-flight", "no frame in flight")] {
            let count = hitches.filter { $0[1] == context }.count
            if count > 0 { #expect(text.contains("\(count) with \(phrase)"), "\(context): \(count) in \(text)") } else { #expect(!text.contains(phrase)) }
        }
        let gaps = intervals.filter { $0.label == "no new touch content" }
        let inGaps = hitches.filter { h in gaps.contains { Double(h[0])! >= $0.from && Double(h[0])! <= $0.to } }.count
        #expect(text.contains(inGaps == 0 ? "none falls in a lift-off gap" : "\(inGaps) fall"))
        #expect(text.contains("The grey gaps (\(gaps.count))"))
        // the old claim, that hitches come from lift-offs, only if the log says so
        if inGaps == 0 { #expect(!text.contains("After each lift-off")) }
    }

    /// The finger-path caption: each drawn end's lag in points and in ms,
    /// from the chart's `ends` table; without prediction the lag is the
    /// touch-to-photon latency the horizon chart marks, and the distance is
    /// that much of the finger's 600 pt/s.
    @Test func motionCaption() throws {
        let text = try Self.caption("prediction-motion")
        let ends = try #require(try Self.tables("prediction-motion")["ends"])
        #expect(ends.count == 3)
        let n = try Self.numbers(text, #"no prediction ([0-9.]+) pt \(([0-9.]+) ms of motion\); linearFirst 1 frame ahead ([0-9.]+) pt \(([0-9.]+) ms of motion\); kalman 1 frame ahead ([0-9.]+) pt \(([0-9.]+) ms"#)
        for i in 0..<3 {
            #expect(n[2 * i] == Self.shown(Double(ends[i][3])!, 1) && n[2 * i + 1] == Self.shown(Double(ends[i][4])!, 1), "\(n) vs \(ends)")
        }
        let latency = try #require(try Self.tables("prediction-horizon")["latency"]?.first.flatMap { Double($0[0]) })
        #expect(abs(Double(ends[0][4])! - latency) < 1e-3, "lag \(ends[0][4]) ms, touch-to-photon \(latency) ms")
        let expectedPoints = latency / 1000 * 600
        #expect(abs(Double(ends[0][3])! - expectedPoints) / expectedPoints < 0.05, "\(ends[0][3]) pt for \(latency) ms at 600 pt/s")
    }

    /// The horizon caption: each predictor's least error and its horizon,
    /// from its table, and the latency line.
    @Test func horizonCaption() throws {
        let text = try Self.caption("prediction-horizon")
        let t = try Self.tables("prediction-horizon")
        let names = t.keys.filter { $0.hasPrefix("err") }.sorted { Int($0.dropFirst(3))! < Int($1.dropFirst(3))! }
        var minima: [String] = []
        for name in names.dropFirst() { // the first is `none`
            let best = t[name]!.map { (Double($0[0])!, Double($0[1])!) }.min { ($0.1, $0.0) < ($1.1, $1.0) }!
            minima.append("\(Self.shown(best.1, 2)) pt at \(Self.shown(best.0, 1)) ms")
        }
        for m in minima { #expect(text.contains(m), "\(m) not in \(text)") }
        let latency = try #require(t["latency"]?.first.flatMap { Double($0[0]) })
        #expect(text.contains("touch-to-photon latency of \(Self.shown(latency, 1)) ms"))
        #expect(text.contains("synthetic minimum-jerk strokes only"))
    }

    /// The seeded sweep's caption: how many points have a p99 interval, and
    /// the widest, from the chart's table.
    @Test func seedSweepCaption() throws {
        let text = try Self.caption("sweep-seeds")
        let rows = try #require(try Self.tables("sweep-seeds")["sweep0"])
        // x p50 p99 fps p50_hw95 p99_hw95 ...
        let wide = rows.filter { Double($0[5])! > 0 } // the .dat keeps 6 places: 1 ns
        guard let widest = rows.max(by: { Double($0[5])! < Double($1[5])! }), !wide.isEmpty else {
            #expect(!text.contains("The 99th percentile is the uncertain figure"))
            return
        }
        let n = try Self.numbers(text, #"at ([0-9]+) of ([0-9]+) points, by up to ±([0-9.]+) ms at ([0-9.]+)ms"#)
        #expect(n[0] == String(wide.count) && n[1] == String(rows.count))
        #expect(n[2] == String(format: "%.1f", Double(widest[5])!) && n[3] == Self.shown(Double(widest[0])!, 3))
        // the drawn band of p99 never reaches below the p50 line
        for r in rows where Double(r[5])! > 0 { #expect(Double(r[9])! >= Double(r[1])! - 1e-9, "\(r)") }
    }

    /// The budget caption: each bar's largest stage and its total, from the
    /// stage tables and the totals of `budget.dat` (bar i at y = -i).
    @Test func budgetCaption() throws {
        let text = try Self.caption("budget")
        let t = try Self.tables("budget")
        let totals = try #require(t["totals"])
        let re = try NSRegularExpression(pattern: #"([a-z0-9-]+): [a-zA-Z -]+? ([0-9]+(?:\.[0-9]+)?) ms of ([0-9]+(?:\.[0-9]+)?)"#)
        let items = re.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
            (1..<4).map { String(text[Range(m.range(at: $0), in: text)!]) }
        }
        #expect(items.count == totals.count, "\(items.count) items, \(totals.count) bars: \(text)")
        for (i, item) in items.enumerated() {
            let y = String(-i)
            // the stages drawn right of zero (the resampling gain is drawn left of it and is never the largest)
            let widths = t.filter { $0.key != "totals" && $0.key != "resampling" }.flatMap { $0.value }
                .filter { $0[0] == y }.map { Double($0[2])! - Double($0[1])! }
            let total = try #require(totals.first { $0[0] == y }.flatMap { Double($0[1]) })
            // within the printed precision: the .dat keeps 6 places of what the caption rounds to 1
            #expect(Self.agrees(item[1], try #require(widths.max()), 1) && Self.agrees(item[2], total, 1), "\(item) at y \(y)")
        }
    }
}
