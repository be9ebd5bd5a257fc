import Foundation
import FramePipeline
import Scenarios
import SimKernel
import TouchModel

/// Where the finger's motion of a prediction study comes from.
public enum PredictionMotion: Sendable {
    /// A synthetic generator (`Trajectory.syntheticKinds`) with its seed.
    case synthetic(kind: String, seed: UInt64)
    /// A trajectory already built, typically recorded traces.
    case trajectory(Trajectory)
}

/// One motion that predictors are scored on.
public struct PredictionCorpusItem: Sendable {
    /// A stable, machine-independent name: it identifies the item's entries
    /// in a stored baseline.
    public var name: String
    /// The finger's motion.
    public var motion: PredictionMotion
    /// Simulated time in the duration syntax (`20s`, `600frames`); nil for a
    /// recorded trace means the trace's own length.
    public var duration: String?

    /// An item from its parts.
    public init(name: String, motion: PredictionMotion, duration: String?) {
        self.name = name
        self.motion = motion
        self.duration = duration
    }
}

/// A set of motions and the device settings predictors are scored with:
/// the input of `latsim predict` and of the regression gate of
/// `latsim regress`.
///
/// Every run is the built-in ``PredictionCorpus/scenarioName`` scenario with
/// the predictor, horizon, scan and display rates, smoothing and finger
/// motion set. The `none` predictor is scored too, as the reference: it
/// draws the newest delivered touch, which the pipeline does not score on
/// its own (``RunResult/predictionScore`` is nil for it). It is never
/// smoothed, so that it stays the raw touch whatever the smoothing.
public struct PredictionCorpus: Sendable {
    /// The built-in scenario every run starts from.
    public static let scenarioName = "ios9-prediction"
    /// The horizons of the standard study: half, one and one and a half
    /// display frames.
    public static let standardHorizons = ["0.5frames", "1frame", "1.5frames"].map { try! Horizon(parsing: $0) }
    /// Simulated time of each synthetic item of ``synthetic``.
    public static let syntheticDuration = "20s"

    /// The motions, in report order.
    public var items: [PredictionCorpusItem]
    /// Digitizer scan rate, Hz (`device.scanHz`).
    public var scanHz: Rational
    /// Display refresh rate, Hz (`device.displayHz`).
    public var displayHz: Rational
    /// Smoothing of the predicted positions (`app.prediction.smoothing`).
    public var smoothing: PredictionSmoothing
    /// The scenario every run starts from: a built-in scenario's name or a
    /// scenario file's path (``scenarioName`` unless set).
    public var scenario: String = PredictionCorpus.scenarioName
    /// A device preset the scenario runs on (`latsim devices`), if any.
    public var device: String?
    /// What touches the glass (`input.tool`); with a pencil the digitizer
    /// scans at ``scanHz`` too (`device.pencilScanHz`).
    public var tool: InputTool = .finger

    /// A corpus from its parts; by default a 120 Hz digitizer, a 60 Hz
    /// display and no smoothing.
    public init(items: [PredictionCorpusItem], scanHz: Rational = Rational(120), displayHz: Rational = Rational(60),
                smoothing: PredictionSmoothing = .none) {
        self.items = items
        self.scanHz = scanHz
        self.displayHz = displayHz
        self.smoothing = smoothing
    }

    /// The scenario the runs start from, on ``device`` when one is set.
    public func baseScenario() throws(LatsimError) -> Scenario {
        let s = try Scenario.named(scenario)
        guard let device else { return s }
        return try s.applying(device: DevicePreset.named(device))
    }

    /// The fixed synthetic corpus of the regression gate: minimum-jerk
    /// strokes with seeds 1 and 2, a circle, a flick and random smooth
    /// motion, 20 s each, 120 Hz scan, 60 Hz display. Its item names
    /// (`strokes-seed1`, ...) are stable: baselines refer to them.
    public static var synthetic: PredictionCorpus {
        let specs: [(String, UInt64)] = [("strokes", 1), ("strokes", 2), ("circle", 1), ("flick", 1), ("random", 1)]
        return PredictionCorpus(items: specs.map { kind, seed in
            PredictionCorpusItem(name: "\(kind)-seed\(seed)", motion: .synthetic(kind: kind, seed: seed),
                                 duration: syntheticDuration)
        })
    }

    /// Items for a directory of recorded traces: one per folder that
    /// directly holds `.xml`/`.csv` files, named `dataset/` plus the folder's
    /// path relative to `directory` (`dataset/.` for files at the top), its
    /// files played one after another as ``Trajectory/loadDirectory(_:parameters:skipBad:)``
    /// plays a directory. `include` keeps only files that have a folder of
    /// one of these names on their relative path (empty keeps every file).
    ///
    /// With `skipBad`, malformed files are left out and returned; without
    /// it the first one throws.
    public static func datasetItems(directory: String, include: [String] = [], skipBad: Bool,
                                    parameters: TrajectoryParameters = TrajectoryParameters(), jobs: Int = 1)
        throws(LatsimError) -> (items: [PredictionCorpusItem], skipped: [LatsimError]) {
        let files = try TraceFiles.list(under: directory, include: include)
        var groups: [String: [String]] = [:]
        for f in files {
            let folder = (f as NSString).deletingLastPathComponent
            groups[folder.isEmpty ? "." : folder, default: []].append((directory as NSString).appendingPathComponent(f))
        }
        var items: [PredictionCorpusItem] = []
        var skipped: [LatsimError] = []
        let folders = groups.keys.sorted()
        let loaded = try Trajectory.load(groups: folders.map { groups[$0]! }, name: directory, parameters: parameters,
                                         skipBad: skipBad, jobs: jobs)
        for (folder, group) in zip(folders, loaded) {
            skipped += group.skipped
            items.append(PredictionCorpusItem(name: "dataset/" + folder, motion: .trajectory(group.trajectory), duration: nil))
        }
        return (items, skipped)
    }
}
