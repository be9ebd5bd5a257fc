import FramePipeline
import Scenarios
import SimKernel

/// Turns an Android run's frame log into a Chrome trace-event file laid
/// out as Perfetto shows an Android trace: a track per thread (input, UI
/// thread, RenderThread, GPU, SurfaceFlinger, display) with vsync-app and
/// vsync-sf instants, and (from Android 12) FrameTimeline's "Expected Timeline" and "Actual
/// Timeline" tracks, one slice per app frame, the actual slices carrying
/// the jank type and coloured by it. Overlapping frames (a pipeline deeper
/// than a period) go on numbered timeline tracks.
public enum AndroidTraceExport {
    /// The thread tracks, top to bottom (after the vsync track). HWUI's
    /// thread is named "RenderThread" on a device; here it is "HWUI render
    /// thread", since Perfetto's UI lifts any `*RenderThread*` thread above
    /// the others (``ChromeTrace/perfettoPromotes(_:)``) and the tracks
    /// would no longer read from input to display.
    public static var threadTracks: [String] {
        PipelineLane.android.map { $0 == .renderThread ? "HWUI render thread" : $0.trackName }
    }

    /// The trace viewers' colour for each FrameTimeline class (Perfetto:
    /// green on time, light green stuffed, red the app's jank, yellow
    /// SurfaceFlinger's, blue dropped).
    static func color(_ j: JankClass) -> String {
        switch j {
        case .onTime: return "good"
        case .bufferStuffing: return "olive"
        case .appDeadlineMissed: return "terrible"
        case .surfaceFlingerDeadlineMissed: return "yellow"
        case .dropped: return "rail_load"
        case .unknown: return "grey"
        }
    }

    /// The trace of an Android `result` that kept its frame log; with
    /// `timelineTracks` FrameTimeline's timelines are thread tracks (the
    /// JSON has no other way to show them; a native trace carries them as
    /// FrameTimeline packets, ``timelineFrame(_:timing:)``). The trace
    /// holds `memoryLimit` bytes of its events, the rest in a spill file.
    /// It is the one a run's trace made as the run goes gives
    /// (``AndroidTraceStream``), read here from the whole log at once.
    public static func trace(_ result: RunResult, scenario: String, timelineTracks: Bool = true,
                             memoryLimit: Int = ChromeTrace.memoryLimit) -> ChromeTrace? {
        guard let log = result.frameLog, log.android != nil else { return nil }
        let c = result.configuration
        if c.frontBuffered {
            return FrontBufferTraceStream(c, scenario: scenario, timelineTracks: timelineTracks, nativePackets: false,
                                          memoryLimit: memoryLimit, trims: false).finish(log)
        }
        return AndroidTraceStream(c, scenario: scenario, timelineTracks: timelineTracks, nativePackets: false,
                                  memoryLimit: memoryLimit, trims: false).finish(log)
    }

    /// A scan window's slice on the input track, its sample's instant and
    /// evdev time as args.
    static func scan(_ s: FrameLog.Scan, on track: ChromeTrace.TrackID, in t: inout ChromeTrace) -> ChromeTrace.SliceRef {
        t.slice(track, name: "scan \(s.index)", startNs: s.windowStart, durationNs: s.windowEnd - s.windowStart,
                args: ["sample instant ms": .number(Double(s.instant) / 1e6), "evdev time ms": .number(Double(s.ready) / 1e6)])
    }

    /// A frame's slice on the expected timeline, `[A_k, V_k - D_sf]` (none
    /// for a frame without a vsync id).
    static func expectedSlice(_ f: AndroidFrameLog.Frame, _ timing: AndroidTiming, on tracks: inout TimelineTracks, in t: inout ChromeTrace) {
        guard f.expected >= 0 else { return }
        let start = f.expected - (timing.appDuration + timing.sfDuration)
        let track = tracks.track(for: start, end: f.deadline, in: &t)
        t.slice(track, name: "\(f.seq)", startNs: start, durationNs: f.deadline - start,
                args: ["expected present ms": .number(Double(f.expected) / 1e6), "deadline ms": .number(Double(f.deadline) / 1e6)],
                color: "good")
    }

    /// A frame's slice on the actual timeline, `[frame time, max(queue,
    /// GPU done)]` (none when its work had not ended by the run's end).
    static func actualSlice(_ f: AndroidFrameLog.Frame, on tracks: inout TimelineTracks, in t: inout ChromeTrace) {
        let end = max(f.queued, f.gpuDone)
        guard end >= f.frameTime else { return }
        let track = tracks.track(for: f.frameTime, end: end, in: &t)
        t.slice(track, name: "\(f.seq)", startNs: f.frameTime, durationNs: end - f.frameTime, args: actualArgs(f, end: end), color: color(f.jank))
    }

    /// The args of a frame's slice on FrameTimeline's actual timeline
    /// (whose work ended at `end`).
    static func actualArgs(_ f: AndroidFrameLog.Frame, end: SimTime) -> TraceArgs {
        // added in key order, so putting them in order takes a comparison each
        var args: TraceArgs = ["Jank type": .string(f.jank.perfettoName)]
        args.pairs.reserveCapacity(8)
        if f.expected >= 0 {
            args.append("On time finish", .string(end <= f.deadline ? "Yes" : "No"))
            let late = f.presented - f.expected
            args.append("Present type", .string(f.presented < 0 ? "Dropped Frame" : (late <= 2_000_000 ? "On-time Present" : "Late Present")))
        }
        if f.presented >= 0 { args.append("actual present ms", .number(Double(f.presented) / 1e6)) }
        args.append("buffer", .integer(Int64(f.buffer)))
        args.append("class", .string(f.jank.rawValue))
        if f.expected >= 0 { args.append("expected present ms", .number(Double(f.expected) / 1e6)) }
        args.append("resampled", .string(f.resampled.name))
        return args
    }

    /// A frame as FrameTimeline reports it: the app's expected timeline
    /// `[A_k, V_k - D_sf]` and actual `[frame time, max(queue, GPU done)]`
    /// as in the JSON's timeline tracks; SurfaceFlinger's actual timeline
    /// from the latch to the present, its expected one the `D_sf` before
    /// the present it aimed at (the frame's expected present when the frame
    /// is SurfaceFlinger's jank, its present otherwise). Present type:
    /// dropped, on time within 2 ms of the expected present (AOSP's
    /// threshold), late or early beyond; unknown for a frame without a
    /// vsync id. Nil for a frame whose work had not ended by the run's end
    /// (left out). A release before Android 12 has no FrameTimeline.
    static func timelineFrame(_ f: AndroidFrameLog.Frame, timing: AndroidTiming) -> TimelineFrame? {
        let lead = timing.appDuration + timing.sfDuration
        let end = max(f.queued, f.gpuDone)
        guard end >= f.frameTime else { return nil }
        let expected: ClosedRange<SimTime>? = f.expected >= 0 ? min(f.expected - lead, f.deadline)...f.deadline : nil
        let present: TimelineFrame.Present
        if f.presented < 0 { present = .dropped }
        else if f.expected < 0 { present = .unknown }
        else if f.presented - f.expected > FrameTimelineThreshold.present { present = .late }
        else if f.expected - f.presented > FrameTimelineThreshold.present { present = .early }
        else { present = .onTime }
        var displayExpected: ClosedRange<SimTime>?, displayActual: ClosedRange<SimTime>?
        let sfLate = f.jank == .surfaceFlingerDeadlineMissed
        if f.presented >= 0 {
            let target = sfLate ? f.expected : f.presented
            displayExpected = min(target - timing.sfDuration, target)...target
            if f.latched >= 0 && f.latched <= f.presented { displayActual = f.latched...f.presented }
        }
        return TimelineFrame(token: f.seq + 1, expected: expected, actual: f.frameTime...end,
                             displayExpected: displayExpected, displayActual: displayActual, present: present,
                             jank: f.jank, onTimeFinish: f.expected < 0 || end <= f.deadline,
                             displayPresent: sfLate ? .late : .onTime)
    }
}

/// FrameTimeline's thresholds (AOSP `FrameTimeline`: 2 ms for a present).
enum FrameTimelineThreshold {
    static let present: SimTime = 2 * Nanos.perMillisecond
}

/// The tracks of one FrameTimeline timeline: a slice goes on the first
/// track free at its start, a new numbered track when none is.
struct TimelineTracks {
    let name: String
    /// The group of the trace's tracks they are (``ChromeTrace/track(named:group:)``).
    let group: Int
    private var tracks: [(id: ChromeTrace.TrackID, freeFrom: SimTime)] = []

    init(name: String, group: Int = 0) {
        self.name = name
        self.group = group
    }

    mutating func track(for start: SimTime, end: SimTime, in t: inout ChromeTrace) -> ChromeTrace.TrackID {
        if let i = tracks.firstIndex(where: { $0.freeFrom <= start }) {
            tracks[i].freeFrom = max(end, start + 1)
            return tracks[i].id
        }
        let id = t.track(named: tracks.isEmpty ? name : "\(name) (\(tracks.count + 1))", group: group)
        tracks.append((id, max(end, start + 1)))
        return id
    }
}

extension Array {
    /// The elements in increasing `key` (``sorted(by:)``); the array itself,
    /// not a copy, when it already is (a long run's frames usually are).
    func sortedIfNeeded(by key: (Element) -> Int64) -> [Element] {
        var previous = Int64.min
        for e in self {
            let k = key(e)
            if k < previous { return sorted { key($0) < key($1) } }
            previous = k
        }
        return self
    }
}
