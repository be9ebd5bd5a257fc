import SimKernel
import TouchModel

/// How to start a predictor that runs in another process, any language,
/// speaking ``PredictorProtocol`` on its stdin and stdout.
public struct PredictorCommand: Sendable {
    /// The command, run by `/bin/sh -c` (so `python3 my.py --flag` works).
    public var command: String
    /// How long to wait for each answer, the handshake included, seconds.
    public var timeout: Double
    /// How long one process may take for its whole run, seconds
    /// (``PredictorProtocol/defaultTotalTimeout``).
    public var totalTimeout: Double = PredictorProtocol.defaultTotalTimeout
    /// Told when a process starts and ends (a command line stops the
    /// process groups it was told of when it is interrupted).
    public var watcher: (any PredictorProcessWatcher)?

    /// A command; bad input when it is empty or the timeout is not a
    /// number of seconds from a millisecond to an hour.
    public init(_ command: String, timeout: Double = PredictorProtocol.defaultTimeout,
                watcher: (any PredictorProcessWatcher)? = nil) throws(LatsimError) {
        guard !command.trimmedWhitespace.isEmpty else {
            throw LatsimError(value: command, problem: "an empty predictor command", expected: "a command such as 'python3 predictor.py'")
        }
        guard PredictorProtocol.timeouts.contains(timeout) else {
            throw LatsimError(value: String(timeout), problem: "not a timeout", expected: "a number of seconds from 0.001 to 3600")
        }
        self.command = command
        self.timeout = timeout
        self.watcher = watcher
    }

    /// Bad input (exit 2) when the command cannot start: a simple command
    /// (a program and its arguments, which runs with `exec`) whose program
    /// does not exist or is not executable, checked before any process is
    /// started, so that a mistyped command is said once and nothing runs.
    /// A command the shell interprets (a pipe, `;`, `&&`, a variable) is
    /// checked when it starts (``start(frameInterval:)``).
    public func checkStartable() throws(LatsimError) {
        if let why = ChildProcess.unstartable(command, path: ProcessInfoPath.current) {
            throw LatsimError(file: "predictor '" + LatsimError.shortened(command) + "'", problem: "cannot start: \(why)",
                              expected: "a command that runs from this directory, e.g. 'python3 predictor.py' or './predictor'")
        }
    }

    /// The same command with a bound on each process's whole run; bad input
    /// unless it is a number of seconds from a millisecond to a day.
    public func bounded(total seconds: Double) throws(LatsimError) -> PredictorCommand {
        guard PredictorProtocol.totalTimeouts.contains(seconds) else {
            throw LatsimError(value: String(seconds), problem: "not a total timeout", expected: "a number of seconds from 0.001 to 86400")
        }
        var c = self
        c.totalTimeout = seconds
        return c
    }

    /// Starts the process and shakes hands: a predictor for one run, for
    /// display frames `frameInterval` ns apart. Throws an environment error
    /// when the process cannot be started, bad input when it answers the
    /// handshake wrongly (or not at all).
    public func start(frameInterval: SimTime) throws(LatsimError) -> ProcessPredictor {
        let c = try PredictorConnection(command: command, timeout: timeout, totalTimeout: totalTimeout, watcher: watcher)
        guard let (line, bytes) = c.exchange(PredictorProtocol.hello) else { throw c.failure! }
        let text = String(decoding: bytes, as: UTF8.self)
        let expected = "{\"type\":\"hello\",\"protocol\":\"\(PredictorProtocol.name)\",\"version\":\(PredictorProtocol.version),\"name\":\"...\"}"
        func bad(_ problem: String, _ what: String = expected) -> LatsimError {
            let e = c.fault(problem + " (answering the handshake, line 1 of its input)", answer: (line, text), expected: what)
            c.fail(e)
            return e
        }
        let answer: AnswerLine
        do { answer = try AnswerLine(bytes) } catch {
            throw bad("not a JSON object: \(error.problem) at column \(error.column)")
        }
        guard answer["type"] == .string("hello") else { throw bad("its type is not \"hello\"") }
        if let p = answer["protocol"], p != .string(PredictorProtocol.name) { throw bad("another protocol than \(PredictorProtocol.name)") }
        guard case .number(_, let v?)? = answer["version"] else { throw bad("no whole-number \"version\"") }
        guard v == PredictorProtocol.version else {
            throw bad("it speaks protocol version \(v); this latsim speaks version \(PredictorProtocol.version)",
                      "\"version\":\(PredictorProtocol.version)")
        }
        guard case .string(let name)? = answer["name"] else { throw bad("no \"name\" string") }
        if let problem = PredictorProtocol.checkName(name) { throw bad("a name latsim cannot use", problem) }
        return ProcessPredictor(connection: c, name: name, frameInterval: frameInterval)
    }
}

/// A predictor in another process (``PredictorCommand``), as a
/// ``TouchPredictor``. Observed samples are queued and written with the
/// next prediction request, one write per delivery; the answer is awaited.
///
/// The protocol cannot throw from inside a run: the first failure (the
/// process died, hung past the timeout, answered garbage or out of order)
/// is kept, the process stopped, and every later request answered with
/// nil. ``finish()`` ends the process and returns that failure; a run with
/// one must be discarded.
public struct ProcessPredictor: TouchPredictor {
    let connection: PredictorConnection
    /// The name the predictor gave in its handshake.
    public let name: String
    /// The frame interval sent when a request does not give one, ns.
    public let frameInterval: SimTime
    private var nextID = 1

    init(connection: PredictorConnection, name: String, frameInterval: SimTime) {
        self.connection = connection
        self.name = name
        self.frameInterval = frameInterval
    }

    /// The first failure so far, if any.
    public var failure: LatsimError? { connection.failure }

    /// Requests answered so far.
    public var answered: Int { nextID - 1 }

    /// A stroke begins: `begin`.
    public mutating func reset() { connection.queue(PredictorProtocol.begin) }

    /// A delivered sample: `sample`.
    public mutating func observe(_ sample: TouchSample) { connection.queue(PredictorProtocol.sample(sample)) }

    /// `predict` with the frame interval this predictor was made with.
    public mutating func predict(horizon: SimTime) -> TouchPoint? {
        predict(horizon: horizon, frameInterval: frameInterval)
    }

    /// `predict`, and the answer; nil when the predictor has none, or after
    /// a failure.
    public mutating func predict(horizon: SimTime, frameInterval: SimTime) -> TouchPoint? {
        let id = nextID
        nextID += 1
        guard let (line, bytes) = connection.exchange(PredictorProtocol.predict(id: id, horizon: horizon, frameInterval: frameInterval)) else {
            return nil
        }
        switch ProcessPredictor.point(bytes, id: id) {
        case .success(let p):
            return p
        case .failure(let problem):
            let request = connection.linesWritten
            connection.fail(connection.fault(problem.problem + " (answering line \(request) of its input, predict id \(id))",
                                             answer: (line, String(decoding: bytes, as: UTF8.self)),
                                             expected: problem.expected))
            return nil
        }
    }

    /// Ends the process (stdin closed, a grace period, then its process
    /// group stopped and reaped) and returns the run's first failure.
    /// Idempotent.
    public func finish() -> LatsimError? { connection.finish() }

    struct Problem: Error {
        var problem: String
        var expected: String
    }

    /// The point of an answer to request `id`.
    static func point(_ bytes: ArraySlice<UInt8>, id: Int) -> Result<TouchPoint?, Problem> {
        let expected = "{\"type\":\"prediction\",\"id\":\(id),\"x\":<number>,\"y\":<number>} or with \"x\":null,\"y\":null"
        let answer: AnswerLine
        do { answer = try AnswerLine(bytes) } catch {
            return .failure(Problem(problem: "not a JSON object: \(error.problem) at column \(error.column)", expected: expected))
        }
        guard answer["type"] == .string("prediction") else {
            return .failure(Problem(problem: "its type is not \"prediction\"", expected: expected))
        }
        guard case .number(_, let got?)? = answer["id"] else {
            return .failure(Problem(problem: "no whole-number \"id\"", expected: expected))
        }
        guard got == Int64(id) else {
            return .failure(Problem(problem: "it answers id \(got) where id \(id) was asked: answers out of order", expected: expected))
        }
        func coordinate(_ key: String) -> Result<Double?, Problem> {
            switch answer[key] {
            case nil, .null?: return .success(nil)
            case .number(let v, _)? where v.isFinite: return .success(v)
            case .number?: return .failure(Problem(problem: "\"\(key)\" is not a finite number", expected: expected))
            default: return .failure(Problem(problem: "\"\(key)\" is not a number", expected: expected))
            }
        }
        switch (coordinate("x"), coordinate("y")) {
        case (.failure(let p), _), (_, .failure(let p)): return .failure(p)
        case (.success(let x?), .success(let y?)): return .success(TouchPoint(x: x, y: y))
        case (.success(nil), .success(nil)): return .success(nil)
        default: return .failure(Problem(problem: "only one of \"x\" and \"y\"", expected: expected))
        }
    }
}

/// How latsim reads one answer line of a predictor, for tools that check
/// it (the fuzz target): the point, or the bad input it is.
public enum PredictorAnswer {
    /// The answer `bytes` (one line, without its newline) to request `id`.
    public static func read(_ bytes: [UInt8], id: Int) -> Result<TouchPoint?, LatsimError> {
        switch ProcessPredictor.point(ArraySlice(bytes), id: id) {
        case .success(let p): return .success(p)
        case .failure(let problem):
            return .failure(LatsimError(.badInput, file: "predictor", value: String(decoding: bytes, as: UTF8.self),
                                        problem: problem.problem, expected: problem.expected))
        }
    }
}
