import Foundation
import SimKernel

/// The finger's true motion over time: a synthetic generator or a recorded
/// trace (Docs/Model.md, "Finger motion").
///
/// ``state(at:)`` is a pure function of the instant: it may be called at
/// sample instants, predicted timestamps and photon times in any order, from
/// any thread. Synthetic kinds are O(1) per call and hold no memory that
/// grows with time (the k-th stroke is rebuilt from a generator seeded with
/// `(seed, k)`); traces are O(log n).
public struct Trajectory: Sendable {
    /// The kinds of synthetic motion ``make(_:parameters:)`` knows by name.
    public static let syntheticKinds: [String] = ["line", "circle", "strokes", "flick", "random", "drags"]
    /// The finger that taps without moving (``TapTiming``): not a motion.
    public static let tapsName = "taps"
    /// No finger: nothing touches the glass (an app that draws on its own,
    /// such as WALT's screen test).
    public static let noneName = "none"

    /// The motion behind a trajectory (a closed set, dispatched by a switch).
    enum Motion: Sendable {
        case line(LineMotion)
        case circle(CircleMotion)
        case strokes(StrokeMotion)
        case flick(FlickMotion)
        case random(RandomMotion)
        case drags(DragMotion)
        case trace(RecordedTrace)
        case taps(TapMotion)
        case none
    }

    let motion: Motion

    /// A short name for reports: the synthetic kind, or the trace path as given.
    public var name: String

    /// The synthetic press that gives the finger its force while it is
    /// down (``PressProfile/none``: the motion's own force, 0 for synthetic
    /// motion). It replaces a recorded trace's force column.
    public var press: PressProfile = .none

    init(name: String, motion: Motion) {
        self.name = name
        self.motion = motion
    }

    /// This trajectory with the finger's force given by `press`.
    public func pressing(_ press: PressProfile) -> Trajectory {
        var t = self
        t.press = press
        return t
    }

    /// True when the finger's force can be above 0: a press, or a recorded
    /// trace with a force column.
    public var hasForce: Bool {
        if !press.isNone { return true }
        if case .trace(let m) = motion { return m.forces != nil }
        return false
    }

    /// `state` with the press's force at `t` (when there is a press).
    @inline(__always)
    func pressed(_ state: FingerState, at t: SimTime) -> FingerState {
        if press.isNone { return state }
        var s = state
        s.force = s.isDown ? Swift.max(0, press.force(at: t)) : 0
        return s
    }

    /// Builds a trajectory from its specification: a synthetic kind
    /// (``syntheticKinds``), a `.xml` ($1 gesture log) or `.csv` trace file, or
    /// a directory of such files played one after another.
    public static func make(_ spec: String, parameters: TrajectoryParameters) throws(LatsimError) -> Trajectory {
        try parameters.validate()
        return try makeMotion(spec, parameters: parameters).pressing(parameters.press)
    }

    /// The motion `spec` names, without a press.
    static func makeMotion(_ spec: String, parameters: TrajectoryParameters) throws(LatsimError) -> Trajectory {
        switch spec {
        case "line": return Trajectory(name: spec, motion: .line(LineMotion(parameters)))
        case "circle": return Trajectory(name: spec, motion: .circle(CircleMotion(parameters)))
        case "strokes": return Trajectory(name: spec, motion: .strokes(StrokeMotion(parameters)))
        case "flick": return Trajectory(name: spec, motion: .flick(FlickMotion(parameters)))
        case "random": return Trajectory(name: spec, motion: .random(RandomMotion(parameters)))
        case "drags": return Trajectory(name: spec, motion: .drags(DragMotion(parameters)))
        case tapsName: return Trajectory(name: spec, motion: .taps(TapMotion(parameters)))
        case noneName: return Trajectory(name: spec, motion: .none)
        default: break
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spec, isDirectory: &isDirectory) else {
            throw LatsimError(problem: "unknown trajectory '\(spec)'", expected: "one of \(syntheticKinds.joined(separator: ", ")), \(tapsName), \(noneName), or the path of an existing .xml/.csv trace file or of a directory of them")
        }
        if isDirectory.boolValue {
            return try loadDirectory(spec, parameters: parameters, skipBad: false).trajectory
        }
        let stroke = try TraceFile.load(spec, maximumForce: parameters.maximumForce)
        try RecordedTrace.checkLength([stroke], gap: parameters.traceGap, name: spec)
        return Trajectory(name: spec, motion: .trace(RecordedTrace(strokes: [stroke], gap: parameters.traceGap)))
    }

    /// Loads the `.xml` and `.csv` files under `path` (recursively, sorted
    /// by path; with `include`, only those with a folder of one of those
    /// names on their path below `path`, see ``TraceFiles/list(under:include:)``)
    /// as one trace, each file one stroke, separated by `parameters.traceGap`
    /// with the finger up. The trajectory is named `path`.
    ///
    /// With `skipBad` a malformed file is left out and its error returned in
    /// `skipped`; without it the first malformed file throws. A directory
    /// with no usable file throws either way.
    public static func loadDirectory(_ path: String, include: [String] = [], parameters: TrajectoryParameters,
                                     skipBad: Bool, jobs: Int = 1) throws(LatsimError) -> (trajectory: Trajectory, skipped: [LatsimError]) {
        try parameters.validate()
        let files = try TraceFiles.list(under: path, include: include)
        return try load(files.map { (path as NSString).appendingPathComponent($0) }, name: path,
                        parameters: parameters, skipBad: skipBad, jobs: jobs)
    }

    /// Reads trace files (paths as given) on up to `jobs` threads, each
    /// file's stroke or its error at the file's index: the same at any
    /// number of threads.
    static func strokes(_ files: [String], parameters: TrajectoryParameters,
                        jobs: Int = 1) -> [Result<TraceStroke, LatsimError>] {
        let maximumForce = parameters.maximumForce
        return Parallel.map(files.count, jobs: jobs) { i in
            Result { () throws(LatsimError) -> TraceStroke in try TraceFile.load(files[i], maximumForce: maximumForce) }
        }
    }

    /// Loads trace files (paths as given) as one trace named `name`, in this
    /// order, one stroke per file, as ``loadDirectory(_:include:parameters:skipBad:)`` does.
    public static func load(_ files: [String], name: String, parameters: TrajectoryParameters,
                            skipBad: Bool, jobs: Int = 1) throws(LatsimError) -> (trajectory: Trajectory, skipped: [LatsimError]) {
        try parameters.validate()
        return try load(strokes(files, parameters: parameters, jobs: jobs)[...], files: files, name: name,
                        parameters: parameters, skipBad: skipBad)
    }

    /// Several trajectories at once, one per group of files, as
    /// ``load(_:name:parameters:skipBad:jobs:)`` loads each (named `name`),
    /// the files of all groups read together on up to `jobs` threads.
    /// Without `skipBad` the first file that failed, in group and file
    /// order, throws.
    public static func load(groups: [[String]], name: String, parameters: TrajectoryParameters, skipBad: Bool,
                            jobs: Int = 1) throws(LatsimError) -> [(trajectory: Trajectory, skipped: [LatsimError])] {
        try parameters.validate()
        let read = strokes(groups.flatMap { $0 }, parameters: parameters, jobs: jobs)
        var loaded: [(trajectory: Trajectory, skipped: [LatsimError])] = []
        var first = 0
        for files in groups {
            loaded.append(try load(read[first..<(first + files.count)], files: files, name: name,
                                   parameters: parameters, skipBad: skipBad))
            first += files.count
        }
        return loaded
    }

    /// The trajectory of the strokes read from `files` (each one's stroke or
    /// error, in file order): without `skipBad` the first error throws.
    static func load(_ read: ArraySlice<Result<TraceStroke, LatsimError>>, files: [String], name: String,
                     parameters: TrajectoryParameters,
                     skipBad: Bool) throws(LatsimError) -> (trajectory: Trajectory, skipped: [LatsimError]) {
        var strokes: [TraceStroke] = []
        var skipped: [LatsimError] = []
        for result in read {
            switch result {
            case .success(let stroke): strokes.append(stroke)
            case .failure(let error):
                if !skipBad { throw error }
                skipped.append(error)
            }
        }
        guard !strokes.isEmpty else {
            throw LatsimError(file: name, problem: "no usable trace (\(files.count) .xml/.csv files, \(skipped.count) malformed)",
                              expected: "at least one readable .xml or .csv trace")
        }
        try RecordedTrace.checkLength(strokes, gap: parameters.traceGap, name: name)
        let trace = RecordedTrace(strokes: strokes, gap: parameters.traceGap)
        return (Trajectory(name: name, motion: .trace(trace)).pressing(parameters.press), skipped)
    }

    /// A trajectory from samples already in memory, one array per stroke
    /// (times in ns, relative to the stroke's own start), played one after
    /// another with `gap` between them. Each stroke needs two distinct times.
    public static func trace(name: String, strokes: [[TouchSample]],
                             gap: SimTime = 200 * Nanos.perMillisecond) throws(LatsimError) -> Trajectory {
        var built: [TraceStroke] = []
        for (i, samples) in strokes.enumerated() {
            built.append(try TraceStroke(source: "\(name) stroke \(i + 1)", samples: samples))
        }
        guard !built.isEmpty else { throw LatsimError(problem: "trace '\(name)' has no stroke", expected: "at least one") }
        try RecordedTrace.checkLength(built, gap: gap, name: name)
        return Trajectory(name: name, motion: .trace(RecordedTrace(strokes: built, gap: gap)))
    }

    /// The true finger state at `t` (any instant, in any order).
    public func state(at t: SimTime) -> FingerState {
        pressed(motionState(at: t), at: t)
    }

    /// The motion's own state at `t`, before any press.
    @inline(__always)
    func motionState(at t: SimTime) -> FingerState {
        switch motion {
        case .line(let m): return m.state(at: t)
        case .circle(let m): return m.state(at: t)
        case .strokes(let m): return m.state(at: t)
        case .flick(let m): return m.state(at: t)
        case .random(let m): return m.state(at: t)
        case .drags(let m): return m.state(at: t)
        case .trace(let m): return m.state(at: t)
        case .taps(let m): return m.state(at: t)
        case .none: return FingerState(position: .zero, velocity: .zero, isDown: false)
        }
    }

    /// The instant of contact `i` (from 0) of a tapping finger; nil for
    /// every other trajectory.
    public func tapContact(_ i: Int64) -> SimTime? {
        if case .taps(let m) = motion { return m.contact(i) }
        return nil
    }

    /// The contact (touch-down instant) of the gesture a finger of `drags`
    /// is in, or last was in, at `t`; nil before the first contact and for
    /// every other trajectory.
    public func gestureContact(atOrBefore t: SimTime) -> SimTime? {
        if case .drags(let m) = motion { return m.contact(atOrBefore: t) }
        return nil
    }

    /// True for a tapping finger (``tapsName``).
    public var taps: Bool {
        if case .taps = motion { return true }
        return false
    }

    /// The length of a recorded trace (from its first to its last point,
    /// gaps included); nil for synthetic motion, which never ends.
    public var duration: SimTime? {
        if case .trace(let m) = motion { return m.duration }
        return nil
    }

    /// The number of strokes of a recorded trace (files of a directory); nil
    /// for synthetic motion.
    public var strokeCount: Int? {
        if case .trace(let m) = motion { return m.strokeCount }
        return nil
    }
}
