import SimKernel

/// How much work a run is, known before it starts (Docs/Limits.md): an upper
/// bound on its model events from its rates and duration, and the file its
/// trace writes. Commands refuse work past a limit, with the estimate,
/// instead of running for hours or filling the disk.
public enum WorkEstimate {
    /// The default limit on the model events of one command: about a
    /// minute of work at 16 million events a second, a few seconds on a fast
    /// machine.
    public static let defaultEventLimit = 1e9
    /// The most estimated model events a run writing a trace may have:
    /// 1.6 × 10^7, 8.2 hours of android-default, whose Chrome JSON trace
    /// takes about 260 bytes an estimated event (4.2 GB at the limit; its
    /// Perfetto trace about 160) and about as much again in TMPDIR while
    /// it is written (``fileText(events:)`` states it). A trace is made as
    /// its run goes and its memory does not grow with it; the limit guards
    /// the disk. It was 2.5 × 10^6 at 1,000 bytes of memory an event while
    /// the traces held their events, and 7 × 10^5 at 3,500 before the
    /// files were written as they are made.
    public static let defaultLogEventLimit = 1.6e7
    /// The bytes of trace file per estimated model event: android-default's
    /// Chrome JSON, the larger format (506,675,308 bytes for an hour's
    /// 1,944,000 estimated events: 261; android-ink-front 229,
    /// ios9-low-latency 180, from 100 s runs). Docs/Limits.md, "Work".
    public static let traceBytesPerEvent = 260.0

    /// The file `events` estimated events of a traced run take, as messages
    /// and help say it (`4.2 GB`, `700 MB`).
    public static func fileText(events: Double) -> String {
        let mb = events * traceBytesPerEvent / 1e6
        return mb >= 1000 ? "\(formatDecimal(mb / 1000, places: 1)) GB" : "\(formatDecimal(mb, places: 0)) MB"
    }

    /// An upper bound on the model events of a run of `c`.
    public static func events(_ c: PipelineConfiguration) -> Double {
        let seconds = Double(c.duration) / 1e9
        let display = c.displayHz.doubleValue, scan = c.scanHz.doubleValue
        switch c.platform {
        case .ios:
            // per vsync a latch, a wake and a frame start; per frame at most
            // its commits, a prepare, a GPU job and Metal work; per scan a
            // sample and, per scan delivery, a delivery and a handler run's work
            let perFrame = 3 + Double(c.commits) + 3
            let perScan = c.delivery == .perScan ? 2 + Double(c.commits) + 3 : 1
            return seconds * (display * perFrame + scan * perScan)
        case .android:
            // per vsync a vsync-app, a vsync-sf and a present; per frame its UI
            // work, queueBuffer, GPU job and composition; per scan a sample
            // and its arrival in the input channel
            return seconds * (display * 7 + scan * 2)
        }
    }

    /// Refuses `runs` when they would handle more than `limit` model events
    /// in all, or, when they keep their frame logs, more than `logLimit`.
    public static func check(_ runs: [PipelineConfiguration], keepLog: Bool = false,
                             limit: Double = defaultEventLimit, logLimit: Double = defaultLogEventLimit) throws(LatsimError) {
        var total = 0.0
        for c in runs { total += events(c) }
        try check(events: total, runs: runs.count, keepLog: keepLog, limit: limit, logLimit: logLimit)
    }

    /// Refuses work of `events` model events over `runs` runs past the limits.
    public static func check(events total: Double, runs: Int, keepLog: Bool = false,
                             limit: Double = defaultEventLimit, logLimit: Double = defaultLogEventLimit) throws(LatsimError) {
        let what = runs == 1 ? "this run" : "these \(runs) runs"
        if keepLog && total > logLimit {
            var e = LatsimError(problem: "\(what) would write a trace of about \(scientific(total)) events, about \(fileText(events: total)) of file, past the limit of \(scientific(logLimit)) events",
                                expected: "a shorter duration, or room on the disk for the file and as much again in TMPDIR while it is written")
            e.seeAlso = .workLimit
            throw e
        }
        if total > limit {
            var e = LatsimError(problem: "\(what) would handle about \(scientific(total)) model events, past the limit of \(scientific(limit))",
                                expected: "a shorter duration or fewer runs")
            e.seeAlso = .workLimit
            throw e
        }
    }

    /// `4.8e9`, `2e6`: two significant digits.
    public static func scientific(_ x: Double) -> String {
        guard x >= 1e4 else { return formatDecimal(x, places: 0) }
        var e = 0
        var m = x
        while m >= 10 { m /= 10; e += 1 }
        return formatDecimal(m, places: 1) + "e" + String(e)
    }
}
