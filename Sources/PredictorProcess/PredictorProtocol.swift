import SimKernel
import TouchModel

/// The predictor protocol: how latsim talks to a predictor in another
/// process, any language (Docs/Prediction.md, "Your own predictor").
///
/// JSON Lines over the process's stdin (from latsim) and stdout (to
/// latsim): one JSON object per line, UTF-8, `\n` at the end. latsim writes
/// its lines with the keys in the order shown and no spaces, so a minimal
/// parser (`sscanf`) can read them; it reads the predictor's lines with any
/// JSON spacing and key order. The predictor's stderr is passed through;
/// its stdout carries nothing but protocol lines and must be flushed after
/// each answer.
///
/// Version 1:
///
///     → {"type":"hello","protocol":"latsim-predictor","version":1}
///     ← {"type":"hello","protocol":"latsim-predictor","version":1,"name":"my-predictor"}
///     → {"type":"begin"}                              a stroke begins: forget history
///     → {"type":"sample","t":8333333,"x":120.5,"y":300.25}
///     → {"type":"predict","id":1,"horizon":16666667,"frameInterval":16666667}
///     ← {"type":"prediction","id":1,"x":131.0,"y":301.5}
///     ← {"type":"prediction","id":2,"x":null,"y":null}   no prediction (too little history)
///
/// - `t` is the sample's time, whole nanoseconds of simulated time; `x` and
///   `y` are points (the origin top left, y down). Samples come in time
///   order and only once delivered: never a sample the app has not seen.
/// - `predict` asks for the position `horizon` ns after the newest sample,
///   for display frames `frameInterval` ns apart. latsim asks once per
///   delivery of touches and waits for the answer (`id` counts from 1), so
///   answers come in order and one at a time.
/// - `name` (required in the answer to `hello`) names the predictor in
///   tables and baselines: 1 to 64 printable characters, not a latsim or
///   platform predictor's name.
/// - When latsim is done it closes the predictor's stdin: the predictor
///   exits. It is stopped (SIGKILL, with any process it started in its
///   process group) if it has not closed its stdout within a second.
///
/// An answer that is not one JSON object, has the wrong `type` or `id`, a
/// number that is not finite, or only one of `x` and `y`; a process that
/// exits, closes its stdout, or does not answer within the timeout: each
/// stops the run with an error naming the line.
public enum PredictorProtocol {
    /// The protocol's name, in both `hello` lines.
    public static let name = "latsim-predictor"
    /// The version this latsim speaks.
    public static let version = 1
    /// How long latsim waits for each answer (the handshake included) unless
    /// told otherwise, seconds.
    public static let defaultTimeout = 10.0
    /// How long one predictor process may take for its whole run (from its
    /// start to its last answer) unless told otherwise, seconds: the
    /// per-answer timeout alone lets a slow predictor stretch a run without
    /// bound (200 answers of 9 s each fit a 10 s timeout).
    public static let defaultTotalTimeout = 600.0
    /// The largest total timeout, seconds (a day).
    public static let maximumTotalTimeout = 86_400.0
    /// The shortest timeout, either kind, seconds: a millisecond. A
    /// timeout of 1e-300 s was once accepted and reported as "0 s".
    public static let minimumTimeout = 0.001
    /// The per-answer timeouts accepted, seconds: a millisecond to an hour.
    public static let timeouts = minimumTimeout...3_600
    /// The total timeouts accepted, seconds: a millisecond to a day.
    public static let totalTimeouts = minimumTimeout...maximumTotalTimeout
    /// How long a predictor has to exit once its stdin is closed, seconds.
    public static let exitGrace = 1.0
    /// The longest answer line, bytes.
    public static let maximumLine = 65_536

    /// The handshake latsim sends.
    static let hello = "{\"type\":\"hello\",\"protocol\":\"\(name)\",\"version\":\(version)}"
    /// A stroke begins.
    static let begin = "{\"type\":\"begin\"}"

    /// A delivered sample.
    static func sample(_ s: TouchSample) -> String {
        "{\"type\":\"sample\",\"t\":\(s.time),\"x\":\(number(s.position.x)),\"y\":\(number(s.position.y))}"
    }

    /// A request for a prediction.
    static func predict(id: Int, horizon: SimTime, frameInterval: SimTime) -> String {
        "{\"type\":\"predict\",\"id\":\(id),\"horizon\":\(horizon),\"frameInterval\":\(frameInterval)}"
    }

    /// A number as JSON: the shortest text that reads back as the same
    /// double (so a predictor sees exactly the positions latsim's own
    /// predictors see).
    static func number(_ x: Double) -> String {
        x.isFinite ? x.description : "0"
    }

    /// Checks a predictor's name from its handshake.
    static func checkName(_ name: String) -> String? {
        if name.isEmpty || name.count > 64 { return "a name of 1 to 64 characters" }
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return "a name without control characters" }
        if (try? PredictorSpec(parsing: name)) != nil { return "a name that is not a latsim or platform predictor's ('\(name)' is)" }
        return nil
    }
}
