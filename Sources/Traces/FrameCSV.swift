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
        let writer = try Writer(r.configuration, to: sink)
        for f in log.frames {
            let s = log.stages(of: f, count: stages)
            if s.isEmpty {
                writer.frame(f, stages: nil)
            } else {
                s.withUnsafeBufferPointer { writer.frame(f, stages: $0) }
            }
        }
        try writer.finish()
        return true
    }

    /// Writes the CSV as a run makes its records
    /// (``PipelineRun/streamFrames(to:)``): the header at once, each row as
    /// its vsync comes, through a 64 KiB buffer. A failed write is kept and
    /// thrown by ``finish()`` (the run itself cannot stop for it); nothing
    /// is written after it.
    public final class Writer: FrameRecordSink {
        let sink: ByteSink
        let stageCount: Int
        var out = ""
        var failure: (any Error)?
        /// The rows written (vsyncs).
        public private(set) var rows = 0

        /// Writes the header of a run of configuration `c`.
        public init(_ c: PipelineConfiguration, to sink: ByteSink) throws {
            self.sink = sink
            stageCount = BudgetStage.stages(of: c).count
            out.reserveCapacity(1 << 16)
            try sink.write(header(c).joined(separator: ",") + "\n")
        }

        public func frame(_ f: FrameRecord, stages: UnsafeBufferPointer<SimTime>?) {
            guard failure == nil else { return }
            rows += 1
            var cells = [ms(f.vsync), String(f.frame), f.kind.rawValue, f.hitch ? "1" : "0", String(f.dropped),
                         String(f.buffersHeld), String(f.touchScan)]
            if f.touchScan >= 0 {
                cells += [ms(f.touchTime), ms(f.photon)]
            } else {
                cells += ["", ""]
            }
            cells.append(f.touchToPhoton.map(ms) ?? "")
            cells.append(f.pipelineFrames.map { formatDecimal($0, places: 6, fixed: true) } ?? "")
            if let stages, !stages.isEmpty {
                cells += stages.prefix(stageCount).map(ms)
            } else {
                cells += Array(repeating: "", count: stageCount)
            }
            out += cells.joined(separator: ",")
            out += "\n"
            if out.utf8.count >= 1 << 16 {
                do { try sink.write(out) } catch { failure = error }
                out.removeAll(keepingCapacity: true)
            }
        }

        /// Writes what is buffered; throws the first failed write.
        public func finish() throws {
            if let failure { throw failure }
            try sink.write(out)
            out.removeAll(keepingCapacity: true)
        }
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
