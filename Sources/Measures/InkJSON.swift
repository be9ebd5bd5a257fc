import FramePipeline
import LatsimOutput
import SimKernel

/// The `ink` block of the summary JSON (Docs/Ink.md, "What is measured"):
/// present only in a run of an ink app (`app.ink`, a front-buffered app,
/// or an iOS app with a mid-frame read), so that every other run's JSON is
/// what it was.
public enum InkJSON {
    /// The `("ink", block)` field of a run, or none.
    public static func field(_ r: RunResult) -> [(String, JSONValue)] {
        let c = r.configuration
        guard r.measurements.ink != nil || c.midFrameRead else { return [] }
        return [("ink", json(r))]
    }

    /// The block for a run.
    public static func json(_ r: RunResult) -> JSONValue {
        let c = r.configuration
        let stats = RunSummary.stats
        var fields: [(String, JSONValue)] = [
            ("midFrameLeadMs", c.ink.midFrameLead.map { .ms(Double($0) / 1e6) } ?? .null),
        ]
        if c.platform == .android {
            fields.append(("unbufferedDispatch", .bool(c.ink.unbufferedDispatch)))
            fields.append(("frontBuffered", .bool(c.frontBuffered)))
            fields.append(("frontBufferPlane", c.frontBuffered ? .string(c.ink.frontBufferPlane.rawValue) : .null))
        }
        if let i = r.measurements.ink {
            fields += [
                ("penToInkMs", stats(i.penToInkMs)),
                ("errorPt", stats(i.errorPoints)),
                ("errorRmsPt", .ms(i.errorMoments.rms)),
            ]
            if c.frontBuffered {
                fields += [
                    ("wetDraws", .int(i.wetDraws)),
                    ("tornDraws", .int(i.tornDraws)),
                    ("tornPerSecond", .number(i.tornPerSecond, places: 6)),
                    ("composedDraws", .int(i.composedDraws)),
                    ("dryCommits", .int(i.dryCommitMs.count)),
                    ("dryCommitMs", stats(i.dryCommitMs)),
                ]
            }
        }
        if c.midFrameRead, let m = r.measurements.ink {
            fields += [("lateReads", .int(m.lateReads)), ("lateReadTouches", .int(m.lateReadTouches))]
        }
        return .object(fields)
    }
}
