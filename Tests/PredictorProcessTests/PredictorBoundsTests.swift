import Foundation
import SimKernel
import Testing
import TouchModel
@testable import PredictorProcess
#if canImport(Glibc)
import Glibc
#endif

/// A predictor's whole run is bounded, and nothing it starts outlives it,
/// whatever group or session it moves to.
@Suite(.serialized) struct PredictorBoundsTests {
    /// A predictor answering correctly but slowly (each answer well inside
    /// the per-answer timeout) once stretched a 2 s run past a minute.
    @Test(.enabled(if: Examples.hasPython))
    func aSlowButTimelyPredictorIsStoppedAtItsTotalTime() throws {
        let command = try Examples.script("""
        import json, sys, time
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello":
                print(json.dumps({"type": "hello", "protocol": "latsim-predictor", "version": 1, "name": "slow"}), flush=True)
            elif m["type"] == "predict":
                time.sleep(0.2)
                print(json.dumps({"type": "prediction", "id": m["id"], "x": None, "y": None}), flush=True)
        """)
        let start = Date()
        let e: LatsimError
        do {
            var p = try PredictorCommand(command, timeout: 10).bounded(total: 3).start(frameInterval: 16_666_667)
            p.reset()
            for s in Examples.samples(3) { p.observe(s) }
            for _ in 0..<200 { _ = p.predict(horizon: 8_000_000) }
            e = try #require(p.finish())
        } catch let failure as LatsimError {
            e = failure // a machine so loaded that the handshake alone took 3 s
        }
        let seconds = Date().timeIntervalSince(start)
        #expect(e.kind == .badInput && e.description.contains("total time") && e.description.contains(" 3 s"), "\(e)")
        // unbounded, 200 answers of 0.2 s would take 40 s (the bound is 3 s; the rest is slack for a loaded machine)
        #expect(seconds < 20, "took \(seconds) s")
        #expect(throws: LatsimError.self) { try PredictorCommand("x").bounded(total: 0) }
        #expect(throws: LatsimError.self) { try PredictorCommand("x").bounded(total: .infinity) }
        #expect(throws: LatsimError.self) { try PredictorCommand("x").bounded(total: 100_000) }
    }

    /// A process the predictor started in a session of its own (`setsid`)
    /// kept running after latsim exited; it carries the predictor's tag in
    /// its environment and is stopped with it.
    @Test(.enabled(if: Examples.hasPython && Examples.found("setsid")))
    func aProcessInASessionOfItsOwnIsStoppedToo() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-setsid-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: marker) }
        var p = try PredictorCommand("setsid sh -c 'echo $$ > \(marker); exec sleep 300' & python3 '\(Examples.python)'")
            .start(frameInterval: 16_666_667)
        var text = ""
        for _ in 0..<200 where text.isEmpty {
            text = ((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { usleep(10_000) }
        }
        let escaped = try #require(pid_t(text))
        #expect(exists(escaped))
        // it left the predictor's group and session
        let stat = try String(contentsOfFile: "/proc/\(escaped)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
        #expect(pid_t(fields[3]) == escaped, "a session leader")
        p.reset()
        #expect(p.finish() == nil)
        var gone = false
        for _ in 0..<100 where !gone {
            gone = !exists(escaped) || (try? String(contentsOfFile: "/proc/\(escaped)/stat", encoding: .utf8))?.contains(") Z ") == true
            if !gone { usleep(20_000) }
        }
        #expect(gone, "the setsid process \(escaped) still runs")
        if !gone { kill(escaped, SIGKILL) }
    }
}
