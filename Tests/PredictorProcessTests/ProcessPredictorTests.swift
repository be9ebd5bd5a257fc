import Foundation
import SimKernel
import Testing
import TouchModel
@testable import PredictorProcess
#if canImport(Glibc)
import Glibc
#endif

/// Where the examples are, and the tools the tests need.
enum Examples {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let python = packageRoot.appendingPathComponent("Examples/predictors/linear.py").path
    static let c = packageRoot.appendingPathComponent("Examples/predictors/linear.c").path
    static func found(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }
    static let hasPython = found("python3")
    static let hasCC = found("cc")

    /// The C example built with `cc` as its header says, once per test process.
    static let builtC: Result<String, Error> = Result {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-linear-\(getpid())").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "cc -O2 -ffp-contract=off -o '\(out)' '\(c)'"]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw LatsimError(problem: "cc failed with status \(p.terminationStatus)") }
        return out
    }

    /// A temporary script with `text`, run by python3.
    static func script(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-predictor-\(UUID().uuidString).py")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return "python3 '\(url.path)'"
    }

    /// A python predictor that says hello and then does `after` (Python
    /// source, run for each predict request with `m` the request).
    static func misbehaving(_ after: String) throws -> String {
        try script("""
        import json, sys
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello":
                print(json.dumps({"type": "hello", "version": 1, "name": "bad"}), flush=True)
            elif m["type"] == "predict":
        \(after.split(separator: "\n").map { "        " + $0 }.joined(separator: "\n"))
        """)
    }

    /// Samples of a curved motion, 8.333 ms apart.
    static func samples(_ n: Int) -> [TouchSample] {
        (0..<n).map { i in
            let t = Double(i) * 0.008333333
            return TouchSample(time: SimTime(i) * 8_333_333, position: TouchPoint(x: 100 + 300 * sin(t) + 0.1 * Double(i), y: 200 + 150 * cos(1.7 * t)))
        }
    }
}

/// A process's state: true while it (or a zombie of it) exists.
func exists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

@Suite(.serialized) struct ProcessPredictorTests {
    /// Feeds the same samples to a process and to latsim's linearFirst: the
    /// examples do its arithmetic, so every answer is the same double.
    func agreesWithLinearFirst(_ command: String) throws {
        var process = try PredictorCommand(command).start(frameInterval: 16_666_667)
        #expect(process.name == "example-linear")
        var reference = BuiltinPredictor(kind: .linearFirst)
        process.reset()
        for (i, s) in Examples.samples(400).enumerated() {
            if i == 200 { process.reset(); reference.reset() }
            process.observe(s)
            reference.observe(s)
            let h = SimTime(4_000_000 + 50_000 * (i % 300))
            #expect(process.predict(horizon: h, frameInterval: 16_666_667) == reference.predict(horizon: h), "sample \(i)")
        }
        #expect(process.answered == 400)
        #expect(process.finish() == nil)
        #expect(!exists(process.connection.child.pid), "not reaped")
    }

    @Test(.enabled(if: Examples.hasPython, "python3 is not on PATH; skipped"))
    func thePythonExampleIsLinearFirst() throws {
        try agreesWithLinearFirst("python3 '\(Examples.python)'")
    }

    @Test(.enabled(if: Examples.hasCC, "cc is not on PATH; skipped"))
    func theCExampleBuildsAndIsLinearFirst() throws {
        try agreesWithLinearFirst("'\(try Examples.builtC.get())'")
    }

    /// What went wrong, how it is classed, how long it took to find out.
    func failure(_ command: String, timeout: Double = 5, samples: Int = 3, predictions: Int = 3)
        throws -> (error: LatsimError, seconds: Double, pid: pid_t) {
        let start = Date()
        let cmd = try PredictorCommand(command, timeout: timeout)
        var p: ProcessPredictor
        do { p = try cmd.start(frameInterval: 16_666_667) } catch { return (error, Date().timeIntervalSince(start), 0) }
        p.reset()
        for s in Examples.samples(samples) { p.observe(s) }
        for _ in 0..<predictions { _ = p.predict(horizon: 8_000_000) }
        let e = try #require(p.finish(), "no failure from \(command)")
        #expect(p.predict(horizon: 8_000_000) == nil, "answers after a failure")
        #expect(!exists(p.connection.child.pid), "not reaped")
        return (e, Date().timeIntervalSince(start), p.connection.child.pid)
    }

    @Test(.enabled(if: Examples.hasPython))
    func aProcessThatDiesNamesTheRequest() throws {
        let (e, _, _) = try failure(try Examples.misbehaving("sys.exit(3)"))
        #expect(e.kind == .badInput)
        #expect(e.description.contains("exited with status 3") && e.description.contains(#""type":"predict","id":1"#), "\(e)")
    }

    @Test(.enabled(if: Examples.hasPython))
    func aHangIsATimeoutNotAHang() throws {
        let (e, seconds, _) = try failure(try Examples.misbehaving("import time; time.sleep(60)"), timeout: 0.3)
        #expect(e.kind == .badInput)
        #expect(e.description.contains("did not answer line") && e.description.contains("timeout of 0.3 s"), "\(e)")
        #expect(seconds < 5, "took \(seconds) s")
    }

    /// A predictor that stops reading: latsim's writes would block once the
    /// socket's buffer is full; they time out instead.
    @Test(.enabled(if: Examples.hasPython))
    func aProcessThatStopsReadingTimesOut() throws {
        let (e, seconds, _) = try failure(try Examples.misbehaving("import time; time.sleep(60)"), timeout: 0.5, samples: 20_000, predictions: 2)
        #expect(e.description.contains("did not read its input") || e.description.contains("did not answer"), "\(e)")
        #expect(seconds < 8, "took \(seconds) s")
    }

    @Test(.enabled(if: Examples.hasPython), arguments: [
        ("print('oops', flush=True)", "'oops': not a JSON object"),
        ("print(json.dumps({'type': 'prediction', 'id': m['id'] + 1, 'x': 1, 'y': 2}), flush=True)", "answers out of order"),
        ("print(json.dumps({'type': 'prediction', 'id': m['id'], 'x': 1}), flush=True)", "only one of"),
        ("print(json.dumps({'type': 'prediction', 'id': m['id'], 'x': 'a', 'y': 1}), flush=True)", "is not a number"),
        ("print(json.dumps({'type': 'guess', 'id': m['id']}), flush=True)", "type is not \"prediction\""),
        ("print('{\"type\":\"prediction\",\"id\":1,\"x\":1e999,\"y\":0}', flush=True)", "not a finite number"),
    ])
    func garbageNamesTheLine(_ body: String, _ words: String) throws {
        let (e, _, _) = try failure(try Examples.misbehaving(body))
        #expect(e.kind == .badInput)
        #expect(e.line == 2, "\(e)")
        #expect(e.description.contains(words) && e.description.contains("line 6 of its input"), "\(e)")
    }

    /// A command its shell cannot start is the command's fault (bad input,
    /// exit 2): the shell's 127 said as "command not found".
    @Test func aCommandThatCannotStartIsBadInput() throws {
        let (e, _, _) = try failure("no-such-predictor-command-here")
        #expect(e.kind == .badInput)
        #expect(e.description.contains("could not be started") && e.description.contains("127"), "\(e)")
    }

    /// A simple command whose program is missing or not executable is
    /// refused before anything starts; one the shell interprets, or one
    /// that names a program on PATH or an executable file, passes.
    @Test func aMissingProgramIsRefusedBeforeItStarts() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-startable-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.txt")
        try "x".write(to: plain, atomically: true, encoding: .utf8)
        for (command, words) in [("no-such-predictor-command-here --flag", "no program 'no-such-predictor-command-here' on PATH"),
                                 ("'\(dir.path)/missing' --flag", "'\(dir.path)/missing' does not exist"),
                                 ("\"\(plain.path)\"", "is not an executable file")] {
            let e = try #require(throws: LatsimError.self) { try PredictorCommand(command).checkStartable() }
            #expect(e.kind == .badInput && e.description.contains(words), "\(e)")
        }
        for command in ["sh -c 'exit 0'", "/bin/sh", "no-such-program | cat", "X=1 no-such-program", "~/no-such-program", "/bin/s?"] {
            #expect(throws: Never.self) { try PredictorCommand(command).checkStartable() }
        }
    }

    @Test(.enabled(if: Examples.hasPython), arguments: [
        ("{\"type\":\"hello\",\"version\":2,\"name\":\"x\"}", "version 2"),
        ("{\"type\":\"hello\",\"version\":1}", "no \"name\""),
        ("{\"type\":\"hello\",\"version\":1,\"name\":\"kalman\"}", "a name latsim cannot use"),
        ("{\"type\":\"hello\",\"protocol\":\"other\",\"version\":1,\"name\":\"x\"}", "another protocol"),
        ("hello", "not a JSON object"),
    ])
    func aBadHandshakeIsTheProcesssFault(_ answer: String, _ words: String) throws {
        let script = try Examples.script("import sys\nsys.stdin.readline()\nprint(\(String(reflecting: answer)), flush=True)\nsys.stdin.read()\n")
        let (e, _, _) = try failure(script)
        #expect(e.kind == .badInput)
        #expect(e.line == 1 && e.description.contains(words) && e.description.contains("handshake"), "\(e)")
    }

    /// Everything the predictor started is stopped with it: its process
    /// group is killed before it is reaped.
    @Test(.enabled(if: Examples.hasPython))
    func nothingItStartedOutlivesIt() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-child-\(UUID().uuidString)").path
        var p = try PredictorCommand("sleep 300 & echo $! > '\(marker)'; python3 '\(Examples.python)'").start(frameInterval: 16_666_667)
        let text = try String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let child = try #require(pid_t(text))
        #expect(exists(child))
        p.reset()
        #expect(p.predict(horizon: 1) == nil)
        #expect(p.finish() == nil)
        // the sleep is the shell's child: killed with the group, reaped by init
        var gone = false
        for _ in 0..<100 where !gone {
            gone = !exists(child) || (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8))?.contains(") Z ") == true
            if !gone { usleep(20_000) }
        }
        #expect(gone)
        try? FileManager.default.removeItem(atPath: marker)
    }

    @Test func badCommandsAndTimeoutsAreBadInput() {
        #expect(throws: LatsimError.self) { try PredictorCommand("  ") }
        #expect(throws: LatsimError.self) { try PredictorCommand("x", timeout: 0) }
        #expect(throws: LatsimError.self) { try PredictorCommand("x", timeout: .nan) }
    }
}
