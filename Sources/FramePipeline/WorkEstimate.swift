import SimKernel

/// How much work a run is, known before it starts (Docs/Limits.md): an upper
/// bound on its model events from its rates and duration, and the memory its
/// frame log needs when a trace or a diagram keeps one. Commands refuse work
/// past a limit, with the estimate, instead of running for hours or until
/// memory runs out.
public enum WorkEstimate {
    /// The default limit on the model events of one command: about a
    /// minute of work at 16 million events a second, a few seconds on a fast
    /// machine.
    public static let defaultEventLimit = 1e9
    /// The most events a run that keeps its frame log (a trace, a diagram)
    /// may handle by default: 1.6 × 10^7 × ``logBytesPerEvent``, about
    /// 2.4 GB of memory, 8.2 hours of android-default (``memoryText(events:)``
    /// states it). It was 2.5 × 10^6 at 1,000 bytes an event while the
    /// traces held their events, and 7 × 10^5 at 3,500 before the files
    /// were written as they are made.
    public static let defaultLogEventLimit = 1.6e7
    /// Memory a run keeping its frame log takes per estimated model event,
    /// bytes, for its costliest output: a trace, whose run holds its frame
    /// log (the trace's events go to a spill file past 4 MiB, its packets
    /// are sorted in 32 MiB, the file is written through a 1 MiB buffer).
    /// Measured as the growth of the peak resident memory over 648,000 to
    /// 972,000 more estimated events (600 s to 1,800 s to 3,600 s of
    /// android-default; 300 s to 900 s of the others), release build:
    /// android-default 96 and 88 bytes an event for its `.perfetto-trace`,
    /// 67 and 74 for its Chrome JSON; android-ink-front 88;
    /// ios9-low-latency 71. 150 covers them with a margin (Docs/Limits.md,
    /// "Work").
    public static let logBytesPerEvent = 150.0

    /// The memory `events` estimated events of a run keeping its frame log
    /// take, as messages and help say it (`2.5 GB`, `700 MB`).
    public static func memoryText(events: Double) -> String {
        let mb = events * logBytesPerEvent / 1e6
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
            let memory = memoryText(events: total)
            var e = LatsimError(problem: "\(what) would keep a trace of about \(scientific(total)) events, about \(memory) of memory, past the limit of \(scientific(logLimit)) events",
                                expected: "a shorter duration (the run keeps its frame log in memory for the trace)")
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
