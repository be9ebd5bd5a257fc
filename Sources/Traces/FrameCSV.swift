import FramePipeline
import LatsimOutput
import SimKernel

/// `latsim run --frames FILE.csv`: one row per vsync from the first frame
/// on (Docs/Budget.md, "Per-frame export"). Times are ms from the start of
/// the run at nanosecond precision; a measured frame (`shows` = `new`)
/// carries its touch-to-photon, pipeline frames and the duration of each
/// stage of its platform's budget, which add up to its touch-to-photon.
public enum FrameCSV {
    /// The columns of a run of configuration `c` (its platform's stages;
    /// an Android command-mode panel's include the idle wake).
    public static func header(_ c: PipelineConfiguration) -> [String] {
        ["vsync_ms", "frame", "shows", "hitch", "dropped", "buffers_held", "touch_scan", "touch_ms", "photon_ms",
         "touch_to_photon_ms", "pipeline_frames"] + BudgetStage.stages(of: c).map { Self.column($0) }
    }

    /// The column of a stage: `scan_ms`, `render_server_wait_ms`, ...
    public static func column(_ stage: BudgetStage) -> String {
        var out = ""
        for ch in stage.rawValue {
            if ch.isUppercase { out += "_" + ch.lowercased() } else { out.append(ch) }
        }
        return out + "_ms"
    }

    /// The CSV of a run kept with its frame log; nil without one (what
    /// ``write(_:to:)`` writes).
    public static func csv(_ r: RunResult) -> String? {
        let sink = ByteSink.memory()
        guard (try! write(r, to: sink)) else { return nil }  // a memory sink does not fail
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// Writes the CSV row by row; false (nothing written) when the run kept
    /// no frame log.
    @discardableResult
    public static func write(_ r: RunResult, to sink: ByteSink) throws -> Bool {
        guard let log = r.frameLog else { return false }
        let stages = BudgetStage.stages(of: r.configuration).count
        try sink.write(header(r.configuration).joined(separator: ",") + "\n")
        var out = ""
        out.reserveCapacity(1 << 16)
        for f in log.frames {
            var cells = [ms(f.vsync), String(f.frame), f.kind.rawValue, f.hitch ? "1" : "0", String(f.dropped),
                         String(f.buffersHeld), String(f.touchScan)]
            if f.touchScan >= 0 {
                cells += [ms(f.touchTime), ms(f.photon)]
            } else {
                cells += ["", ""]
            }
            cells.append(f.touchToPhoton.map(ms) ?? "")
            cells.append(f.pipelineFrames.map { formatDecimal($0, places: 6, fixed: true) } ?? "")
            let s = log.stages(of: f, count: stages)
            if s.isEmpty {
                cells += Array(repeating: "", count: stages)
            } else {
                cells += s.map(ms)
            }
            out += cells.joined(separator: ",")
            out += "\n"
            if out.utf8.count >= 1 << 16 {
                try sink.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        try sink.write(out)
        return true
    }

    /// Nanoseconds as milliseconds with six decimals (exact).
    static func ms(_ t: SimTime) -> String {
        let sign = t < 0 ? "-" : ""
        let m = t.magnitude
        let whole = m / 1_000_000, frac = m % 1_000_000
        let f = String(frac)
        return sign + String(whole) + "." + String(repeating: "0", count: 6 - f.count) + f
    }
}
