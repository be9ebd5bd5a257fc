import SimKernel
import Foundation

/// The scenarios shipped with latsim (Docs/Model.md, "Scenarios"), read from the
/// YAML resources in `Scenarios/`.
public enum BuiltinScenarios {
    /// The iOS scenarios, in the order of the talk.
    public static let iosNames = [
        "ios8", "ios8-complex", "ios8-metal", "ios9-low-latency", "ios9-animations",
        "ios9-metal", "ios9-metal-sync", "ios9-coalescing-120hz", "ios9-prediction",
        "promotion-pencil", "slow-app",
    ]

    /// The 3D Touch scenarios (Docs/Force.md): iOS runs whose app uses force.
    public static let forceNames = ["ios9-peek-pop", "ios9-force-drawing"]

    /// The Android scenarios (Docs/Android.md).
    public static let androidNames = [
        "android-default", "android-120hz-scan", "android-no-resampling", "android-slow-app",
        "android-gl-continuous", "android-pixel4", "android-gs101-120hz", "android-nexus5-offsets",
    ]

    /// The apps that published measurements used (Docs/Devices.md, "App
    /// models"), to run on a device preset (`--device NAME`).
    public static let appNames = [
        "walt-screen", "agawi-glkit", "agawi-glsurfaceview", "pencil-drawing", "android-scroll", "ios-scroll",
        "ui-taps",
    ]

    /// The ink apps (Docs/Ink.md): Pencil ink on the 2017 iPad Pro without
    /// and with mid-frame input and prediction, and an Android stylus
    /// tablet's ink app multi-buffered and front-buffered.
    public static let inkNames = [
        "pencil-ink", "pencil-ink-midframe", "pencil-ink-predicted", "android-ink-buffered", "android-ink-front",
    ]

    /// The scenarios of each platform's pipeline: iOS first (the talk's,
    /// then 3D Touch), then Android.
    public static let platformNames = iosNames + forceNames + androidNames

    /// Every built-in scenario: iOS, Android, the app models, then the ink apps.
    public static let names = platformNames + appNames + inkNames

    /// The YAML text of a built-in scenario, or nil if there is none of that name.
    public static func yaml(named name: String) -> String? {
        guard names.contains(name) else { return nil }
        return BundledFile.yaml(name, in: "Builtin")
    }

    /// A built-in scenario, or nil if there is none of that name.
    public static func scenario(named name: String) throws(LatsimError) -> Scenario? {
        guard let text = yaml(named: name) else { return nil }
        return try Scenario(yaml: text, file: "builtin:\(name)", defaultName: name)
    }

    /// Every built-in scenario, in order.
    public static func all() -> [Scenario] {
        names.compactMap { try? scenario(named: $0) }
    }
}
