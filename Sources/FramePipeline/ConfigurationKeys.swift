/// The configuration keys of MODEL.md section 10 (and the few latsim adds),
/// with their defaults and a sentence each. A scenario file, `--set` and
/// `latsim sweep --vary` all name settings by these paths.
public struct ConfigurationKey: Sendable, Hashable {
    public let path: String
    public let defaultValue: String
    /// What values are accepted, said for error messages and help.
    public let expected: String

    public static let all: [ConfigurationKey] = [
        .init("duration", "10s", "a simulated time > 0 with a unit, e.g. 10s, 1500ms, 600frames"),
        .init("seed", "1", "an unsigned integer"),
        .init("device.displayHz", "60", "a rate in Hz > 0, e.g. 60, 120, 59.94"),
        .init("device.scanHz", "60", "a digitizer scan rate in Hz > 0, e.g. 60, 120, 240"),
        .init("device.scanPhase", "0ms", "a duration >= 0 (scan windows start at vsync 0 plus this)"),
        .init("device.sampleInstant", "0.5", "a number in 0...1 (where in its scan window a sample is taken)"),
        .init("device.digitizerDelay", "0ms", "a duration >= 0 from the end of a scan window to the sample being ready"),
        .init("device.panelResponse", "0ms", "a duration >= 0 added to every photon time"),
        .init("device.pointsPerMM", "6.4", "a number > 0 (screen points per millimetre)"),
        .init("device.widthPoints", "768", "a number > 0 (screen width in points)"),
        .init("device.heightPoints", "1024", "a number > 0 (screen height in points)"),
        .init("device.noise", "0", "a number >= 0: Gaussian position noise per axis, sigma in points"),
        .init("device.quantization", "0", "a number >= 0: reported positions snap to multiples of this many points (0 = off)"),
        .init("os.renderServer", "lowLatency", "vsync or lowLatency"),
        .init("os.delivery", "coalesced", "coalesced or perScan"),
        .init("os.dispatchDelay", "0ms", "a duration >= 0 from vsync to the frame start at which touches are delivered"),
        .init("os.buffering", "adaptive", "double, triple or adaptive"),
        .init("os.present", "latest", "latest or fifo"),
        .init("os.tripleReleaseFrames", "10", "an integer >= 1 (vsyncs with a spare buffer before adaptive buffering gives the third back)"),
        .init("app.handler", "4ms", "a duration distribution, e.g. 4ms, uniform(2ms,6ms), normal(4ms,1ms), lognormal(4ms,0.3), empirical(1ms,2ms,5ms)"),
        .init("app.commits", "1", "an integer 1...1000 (transactions committed per handler run)"),
        .init("app.touches", "coalesced", "main or coalesced"),
        .init("app.animations", "never", "never, always, or intervals such as 2s..4s,6s..7s"),
        .init("app.rendering", "coreAnimation", "coreAnimation or metal"),
        .init("app.gpu", "2ms", "a duration distribution (Metal GPU work encoded by the handler)"),
        .init("app.presentsWithTransaction", "false", "true or false"),
        .init("app.prediction.predictor", "none", "none, linearFirst, linearSecond, leastSquares or kalman"),
        .init("app.prediction.horizon", "1frame", "a duration >= 0, e.g. 1frame, 8ms"),
        .init("app.prediction.smoothing", "none", "none or oneEuro (a 1€ filter on the predicted positions)"),
        .init("renderServer.prepare", "3ms", "a duration distribution (render-server prepare time)"),
        .init("gpu.render", "4ms", "a duration distribution (GPU time of a render-server frame)"),
        .init("input.trajectory", "strokes", "line, circle, strokes, flick, random, or a trace file (.xml, .csv) or directory of them"),
        .init("input.speed", "600", "a speed > 0 in points per second"),
        .init("input.liftOff", "false", "true or false (strokes: lift the finger 100-300 ms between strokes)"),
        .init("measure.row", "0.5", "a number in 0...1 (the screen row whose scan-out is the photon time) or touch"),
    ]

    /// Keys by path.
    public static let byPath: [String: ConfigurationKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) })

    /// Keys a scenario file may hold besides the settings.
    public static let metadataKeys: Set<String> = ["name", "description"]

    init(_ path: String, _ defaultValue: String, _ expected: String) {
        self.path = path
        self.defaultValue = defaultValue
        self.expected = expected
    }

    /// The valid path nearest to a mistyped one, for "did you mean".
    public static func suggestion(for path: String) -> String? {
        let candidates = all.map(\.path) + Array(metadataKeys)
        var best: (String, Int)?
        for c in candidates {
            var d = editDistance(path.lowercased(), c.lowercased())
            // a right leaf under a wrong parent (e.g. device.handler) is close too
            if let leaf = path.split(separator: ".").last, c.hasSuffix("." + leaf) || c == leaf { d = Swift.min(d, 2) }
            if best == nil || d < best!.1 { best = (c, d) }
        }
        guard let (c, d) = best, d <= Swift.max(3, path.count / 3) else { return nil }
        return c
    }
}

/// Levenshtein distance between two strings.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count), cur = Array(repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = Swift.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}
