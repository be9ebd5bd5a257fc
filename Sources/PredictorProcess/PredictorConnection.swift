#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SimKernel

/// The conversation with one predictor process: lines written, answers read
/// with a deadline, the first failure kept. Used by one thread at a time.
final class PredictorConnection: @unchecked Sendable {
    let command: String
    let timeout: Double
    /// The bound on the whole run, seconds, and when it ends (monotonic).
    let totalTimeout: Double
    let runDeadline: Double
    let child: ChildProcess
    let watcher: (any PredictorProcessWatcher)?
    /// Lines written so far (the number of the last one).
    private(set) var linesWritten = 0
    /// Lines read so far.
    private(set) var linesRead = 0
    private var pending: [UInt8] = []
    private var input: [UInt8] = []
    private var inputStart = 0
    /// The first failure; afterwards nothing more is said to the process.
    private(set) var failure: LatsimError?
    private var finished = false

    init(command: String, timeout: Double, totalTimeout: Double = PredictorProtocol.defaultTotalTimeout,
         watcher: (any PredictorProcessWatcher)?) throws(LatsimError) {
        self.command = command
        self.timeout = timeout
        self.totalTimeout = totalTimeout
        self.runDeadline = Monotonic.now() + totalTimeout
        self.watcher = watcher
        var made: Result<ChildProcess, LatsimError> = .failure(LatsimError(.internal, problem: "the predictor was not started"))
        let start = {
            made = Result { () throws(LatsimError) -> ChildProcess in try ChildProcess(command: command) }
            if case .success(let c) = made { watcher?.started(processGroup: c.pid) }
        }
        // started and registered as one step: an interrupt either comes
        // before the process exists or finds it registered
        if let watcher { watcher.whileStarting(start) } else { start() }
        child = try made.get()
        pending.reserveCapacity(4096)
    }

    deinit {
        if !finished { child.stop(); watcher?.ended(processGroup: child.pid) }
    }

    /// How errors name the predictor.
    var place: String {
        "predictor '" + LatsimError.shortened(command) + "'"
    }

    /// A failure of the predictor (bad input: exit 2), about the last line
    /// written unless a line it wrote is given.
    func fault(_ problem: String, answer: (line: Int, text: String)? = nil, expected: String? = nil) -> LatsimError {
        LatsimError(.badInput, file: place, line: answer?.line, value: answer?.text, problem: problem, expected: expected)
    }

    /// Queues a line (written at the next ``exchange(_:)``).
    func queue(_ line: String) {
        guard failure == nil else { return }
        pending.append(contentsOf: line.utf8)
        pending.append(0x0A)
        linesWritten += 1
    }

    /// Writes the queued lines and `request`, and reads one answer line;
    /// nil after a failure (kept in ``failure``; the process is stopped).
    func exchange(_ request: String) -> (line: Int, bytes: ArraySlice<UInt8>)? {
        guard failure == nil else { return nil }
        queue(request)
        lastRequest = request
        let deadline = min(Monotonic.now() + timeout, runDeadline)
        if let e = writePending(deadline: deadline) {
            // it stopped reading: what it wrote before that says more
            if case .success(let line) = readLine(deadline: min(deadline, Monotonic.now() + 0.2)) { return line }
            fail(e)
            return nil
        }
        switch readLine(deadline: deadline) {
        case .success(let line): return line
        case .failure(let e): fail(e); return nil
        }
    }

    /// Records the first failure and stops the process at once.
    func fail(_ e: LatsimError) {
        if failure == nil { failure = e }
        stopProcess()
    }

    private func stopProcess() {
        guard !finished else { return }
        finished = true
        child.stop()
        watcher?.ended(processGroup: child.pid)
    }

    /// Closes the process's stdin and gives it ``PredictorProtocol/exitGrace``
    /// to close its stdout, then stops its process group and reaps it.
    /// (A process that closes its stdout earlier is seen at once: its
    /// stdout is a socket of its own.)
    func finish() -> LatsimError? {
        if !finished {
            shutdown(child.input, Int32(SHUT_WR))
            let deadline = Monotonic.now() + PredictorProtocol.exitGrace
            var scratch = [UInt8](repeating: 0, count: 4096)
            reading: while Monotonic.now() < deadline {
                var p = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
                let ms = Int32(max(1, (deadline - Monotonic.now()) * 1000))
                if poll(&p, 1, ms) <= 0 { continue }
                let n = read(child.output, &scratch, scratch.count)
                if n == 0 { break reading }
                if n < 0 && errno != EINTR && errno != EAGAIN { break reading }
            }
            stopProcess()
        }
        return failure
    }

    private func writePending(deadline: Double) -> LatsimError? {
        var offset = 0
        defer { pending.removeAll(keepingCapacity: true) }
        while offset < pending.count {
            let n = pending.withUnsafeBytes { buffer -> Int in
                #if os(Linux)
                return send(child.input, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #else
                return send(child.input, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #endif
            }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                let left = deadline - Monotonic.now()
                if left <= 0 { return timedOut(writing: true) }
                var p = pollfd(fd: child.input, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, Int32(min(left * 1000 + 1, 1_000_000)))
                continue
            }
            return gone(while: "reading line \(linesWritten) of its input")
        }
        return nil
    }

    private func readLine(deadline: Double) -> Result<(line: Int, bytes: ArraySlice<UInt8>), LatsimError> {
        if inputStart > 0 && inputStart == input.count { input.removeAll(keepingCapacity: true); inputStart = 0 }
        var scanned = inputStart
        var scratch = [UInt8](repeating: 0, count: 16_384)
        while true {
            if let nl = input[scanned...].firstIndex(of: 0x0A) {
                var end = nl
                if end > inputStart && input[end - 1] == 0x0D { end -= 1 }
                let line = input[inputStart..<end]
                inputStart = nl + 1
                linesRead += 1
                return .success((linesRead, line))
            }
            scanned = input.count
            if input.count - inputStart > PredictorProtocol.maximumLine {
                return .failure(fault("line \(linesRead + 1) of its output is longer than \(PredictorProtocol.maximumLine) bytes",
                                      expected: "one JSON object per line, ending in a newline"))
            }
            let left = deadline - Monotonic.now()
            if left <= 0 { return .failure(timedOut(writing: false)) }
            var p = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, Int32(min(left * 1000 + 1, 1_000_000)))
            if ready == 0 { continue }
            if ready < 0 { if errno == EINTR { continue }; return .failure(gone(while: "answering line \(linesWritten) of its input")) }
            let n = read(child.output, &scratch, scratch.count)
            if n > 0 {
                if inputStart > 0 && inputStart == input.count { input.removeAll(keepingCapacity: true); inputStart = 0; scanned = 0 }
                input.append(contentsOf: scratch[0..<n])
                continue
            }
            if n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) { continue }
            return .failure(gone(while: "answering line \(linesWritten) of its input"))
        }
    }

    /// The process closed its side: it exited (how), or closed its stdout.
    private func gone(while doing: String) -> LatsimError {
        let exited = child.awaitExit(seconds: 1)
        let how = exited ? child.exitDescription() : nil
        let request = lastRequestText
        if let how, linesRead == 0, let status = how.status, status == 126 || status == 127 {
            return LatsimError(.badInput, file: place, problem: "could not be started (the shell \(how.text): "
                               + (status == 127 ? "command not found" : "not executable") + ")",
                               expected: "a command that runs from this directory, e.g. 'python3 predictor.py'")
        }
        let what = how.map { "the process \($0.text)" } ?? "the process closed its output"
        return fault("\(what) before \(doing)\(request)", expected: "an answer to every request, and exiting only when its input closes")
    }

    private func timedOut(writing: Bool) -> LatsimError {
        if Monotonic.now() >= runDeadline {
            let total = formatDecimal(totalTimeout, places: 3)
            return fault("did not finish its run within the total time allowed a predictor, \(total) s (\(linesRead) answers read)\(lastRequestText)",
                         expected: "a predictor fast enough for the run, or a larger total time")
        }
        let seconds = formatDecimal(timeout, places: 3)
        let what = writing ? "did not read its input" : "did not answer line \(linesWritten) of its input"
        return fault("\(what) within the predictor timeout of \(seconds) s\(lastRequestText)",
                     expected: "an answer to each request within the timeout, written as one line and flushed")
    }

    /// ` (line N: '{...}')` for the last request written.
    private var lastRequestText: String {
        lastRequest.isEmpty ? "" : " ('" + LatsimError.shortened(lastRequest) + "')"
    }

    /// The last line that asked for an answer.
    var lastRequest = ""
}

/// Told when a predictor process starts and ends, so that a command line
/// can stop the process group if it is interrupted.
public protocol PredictorProcessWatcher: Sendable {
    /// Runs `body`, which starts a process and calls ``started(processGroup:)``,
    /// so that nothing the watcher guards against happens in between (the
    /// command line holds off its interrupt cleanup).
    func whileStarting(_ body: () -> Void)
    /// A process group was started (its id is the leader's process id).
    func started(processGroup: Int32)
    /// The process group was stopped and its leader reaped.
    func ended(processGroup: Int32)
}

extension PredictorProcessWatcher {
    /// Runs `body`.
    public func whileStarting(_ body: () -> Void) { body() }
}
