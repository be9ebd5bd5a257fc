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
    /// may handle by default: 7 × 10^5 × ``logBytesPerEvent``, about 2.5 GB
    /// of memory (it was 2 × 10^6 at a claimed 1,100 bytes an event, and a
    /// 1-hour android-default Perfetto trace took 4.9 GB where the refusal said 2).
    public static let defaultLogEventLimit = 7e5
    /// Memory a run keeping its frame log takes per estimated model event,
    /// bytes, for its costliest output: a Perfetto trace of an Android run,
    /// whose writer holds the trace's events, its packets and the encoded
    /// file at once. Measured as the growth of the peak resident memory
    /// from 20 s to 120 s of every built-in scenario and output (a release
    /// build): at most 2,663 bytes an estimated event (android-default's
    /// `.perfetto-trace`; its Chrome JSON 1,600, `--frames` alone 123), and
    /// about 2,900 in a debug build; Android's input events (two packets a
    /// touch) took the debug build to 3,180 (67,464 to 235,360 KB for the
    /// same 54,000 events); 3,500 covers both (Docs/Limits.md, "Work").
    public static let logBytesPerEvent = 3_500.0

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
            let mb = total * logBytesPerEvent / 1e6
            let memory = mb >= 1000 ? "\(formatDecimal(mb / 1000, places: 0)) GB" : "\(formatDecimal(mb, places: 0)) MB"
            var e = LatsimError(problem: "\(what) would keep a trace of about \(scientific(total)) events, about \(memory) of memory, past the limit of \(scientific(logLimit)) events",
                                expected: "a shorter duration (the trace holds every event)")
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
    static func scientific(_ x: Double) -> String {
        guard x >= 1e4 else { return formatDecimal(x, places: 0) }
        var e = 0
        var m = x
        while m >= 10 { m /= 10; e += 1 }
        return formatDecimal(m, places: 1) + "e" + String(e)
    }
}
