import Charts
import Experiments
import Foundation
import FramePipeline
import Measures
import Scenarios
import SimKernel

extension ReportWriter {
    /// The presets whose displays change their rate, as the transitions
    /// section shows them (Docs/Devices.md).
    static let transitionDevices = ["iphone-13-pro", "ipad-pro-m4", "pixel-4", "pixel-5", "pixel-6", "pixel-7", "pixel-8"]
    /// The devices of the idle-timer trade-off, and the timers it tries.
    static let residencyDevices = ["iphone-13-pro", "pixel-5"]
    static let idleTimers = ["50ms", "100ms", "200ms", "500ms", "1000ms", "2000ms", "4000ms"]

    /// ui-taps (a minute: 20 first taps, 60 steady ones) on `device` with
    /// the report's seed and `sets`.
    func tapsOn(_ device: String, _ sets: [String] = [], budget: Bool = false) throws -> RunResult {
        let s = try Scenario.named("ui-taps").applying(device: try DevicePreset.named(device))
        let source = SettingSource(file: "report")
        let a = [Assignment(path: "seed", value: String(seed), source: source)]
            + sets.map { kv in
                let p = kv.split(separator: "=", maxSplits: 1).map(String.init)
                return Assignment(path: p[0], value: p[1], source: source)
            }
        return try PipelineRun.run(try s.configuration(a), keepBudget: budget)
    }

    /// "Transitions": the first touch after a quiet screen against steady
    /// touches on every device whose display changes its rate, what its
    /// idle timer costs, and the time at the peak rate it buys.
    func transitionsSection(_ page: Page) throws -> Page {
        var page = page
        progress("transitions")
        page.add("## Transitions: the first touch after a quiet screen")
        page.add()
        page.add("`ui-taps` on each preset whose display changes its rate: a minute of taps in bursts of four, 100 ms apart, every 3 s, so each burst's first tap finds a quiet screen (Docs/Figures.md, \"First touch after idle\"). The displays drop to their lowest rate on their idle timers and come back on a touch (Android's touch timer, iOS's ramp, a labelled unknown); the stage budget names what a first touch waits for (`rate switch wait`). Each device is run again with its idle timer off, the display held at its peak.")
        page.add()
        var results: [(name: String, result: RunResult)] = []
        var rows: [FirstTouchChart.Row] = []
        var off: [String: RunResult] = [:]
        for device in Self.transitionDevices {
            let r = try tapsOn(device, budget: true)
            results.append(("ui-taps on \(device)", r))
            off[device] = try tapsOn(device, ["display.idleTimer=off"])
            let m = r.measurements
            guard let s50 = m.steadyTouchMs.percentile(50), let s99 = m.steadyTouchMs.percentile(99),
                  let f50 = m.firstTouchMs.percentile(50), let f99 = m.firstTouchMs.percentile(99) else { continue }
            let c = r.configuration
            var low = c.rate.minimumHz.map { "\(formatDecimal($0.doubleValue, places: 0)) Hz idle" } ?? "one rate"
            if let t = c.rate.idleTimer {
                low += " after \(DurationSyntax.format(t))"
            } else if c.rate.switches {
                low += ", its timer unknown: held at the peak"
            }
            rows.append(.init(device: device, detail: "\(formatDecimal(c.displayHz.doubleValue, places: 0)) Hz, \(low)",
                              steady: (s50, s99), first: (f50, f99)))
        }
        for (title, table) in FigureTable.grouped(results) where title == "first touch after idle and the display's rate" {
            page.add(table.markdown())
            page.add()
        }
        page.chart(try render(FirstTouchChart(rows: rows, subtitle: "ui-taps for a minute on each device: medians joined by a bar, 99th percentiles open"),
                              "first-touch"), alt: "first touch after idle against steady touches, per device")
        page.add(Self.firstTouchReading(results, off: off))
        page.add()
        // the trade-off: a shorter idle timer keeps the display at its peak less of the time
        var series: [SweepChart.Series] = []
        for device in Self.residencyDevices {
            var points: [SweepChart.Point] = []
            for timer in Self.idleTimers {
                let r = try tapsOn(device, ["display.idleTimer=\(timer)"])
                guard let rate = r.measurements.displayRate, let p50 = r.measurements.firstTouchMs.percentile(50),
                      let p99 = r.measurements.firstTouchMs.percentile(99) else { continue }
                points.append(SweepChart.Point(x: rate.peakPercent, p50Ms: p50, p99Ms: p99))
            }
            series.append(SweepChart.Series(name: device, points: points))
        }
        let chart = SweepChart(series: series, xLabel: "time at the display's peak rate (%)",
                               latencyLabel: "latency of the first touch after idle (ms)",
                               title: "What a lower idle rate costs the first touch",
                               subtitle: "ui-taps with the idle timer at \(Self.idleTimers.first!) to \(Self.idleTimers.last!): first-touch p50 (solid) and p99 (dashed)")
        page.chart(try render(chart, "first-touch-residency"), alt: "first-touch latency against the time at the peak rate")
        page.add(Self.residencyReading(series))
        page.add()
        return page
    }

    /// What the first-touch chart shows, from its runs.
    static func firstTouchReading(_ results: [(name: String, result: RunResult)], off: [String: RunResult]) -> String {
        var parts: [String] = [], offGaps: [Double] = []
        for (name, r) in results {
            let device = String(name.dropFirst("ui-taps on ".count))
            guard let f = r.measurements.firstTouchMs.percentile(50), let s = r.measurements.steadyTouchMs.percentile(50) else { continue }
            var part = "\(device) \(formatSigned(f - s)) ms"
            if r.measurements.displayRate?.switches == 0 {
                part += " (no switch: its timers are unknown)"
            } else if let o = off[device], let of = o.measurements.firstTouchMs.percentile(50), let os = o.measurements.steadyTouchMs.percentile(50) {
                part += " (idle timer off: \(formatSigned(of - os)))"
                offGaps.append(abs(of - os))
            }
            parts.append(part)
        }
        guard !parts.isEmpty else { return "" }
        var out = "The first touch's median against the steady touches': " + parts.joined(separator: ", ") + "."
        if let most = offGaps.max() {
            out += " With the idle timer off the two medians are within \(formatDecimal(most, places: 1)) ms of each other on every device that switches, so a larger difference with it on is the idle rate's."
        }
        return out
    }

    /// What the residency chart shows, from its series: the first touch at
    /// the timers that let the display idle between bursts against those
    /// that hold it at its peak.
    static func residencyReading(_ series: [SweepChart.Series]) -> String {
        var parts: [String] = []
        for s in series {
            let idles = s.points.filter { $0.x < 100 }, held = s.points.filter { $0.x >= 100 }
            guard let lo = idles.map(\.p50Ms).min(), let hi = idles.map(\.p50Ms).max(),
                  let minShare = idles.map(\.x).min(), let maxShare = idles.map(\.x).max() else { continue }
            var part = "\(s.name): \(formatDecimal(lo, places: 1)) to \(formatDecimal(hi, places: 1)) ms while the display idles between bursts (\(formatDecimal(minShare, places: 0)) to \(formatDecimal(maxShare, places: 0))% of the time at its peak)"
            if let h = held.first { part += ", \(formatDecimal(h.p50Ms, places: 1)) ms when the timer outlasts the gap (100%)" }
            parts.append(part)
        }
        guard !parts.isEmpty else { return "" }
        return "First-touch p50 against the share of the run at the peak rate, the idle timer varied: " + parts.joined(separator: "; ") + ". A timer shorter than the 3 s between bursts lets the display drop before every first tap however long it is, so the first touch pays about the same while the time at the peak (the power) changes with the timer; only a timer longer than the quiet stretch spares the first touch, and keeps the display at its peak throughout."
    }

    static func formatSigned(_ x: Double) -> String { (x >= 0 ? "+" : "") + formatDecimal(x, places: 1) }
}
