import Foundation
import SimKernel
import Testing
@testable import PredictorProcess

/// A predictor that closes its stdout without exiting: latsim sees the end
/// of its output at once and says so, instead of waiting out the timeout
/// and calling it slow (its stdin and stdout were one socket, so closing
/// stdout alone left the socket open).
@Suite(.serialized) struct EndOfOutputTests {
    @Test(.enabled(if: Examples.hasPython))
    func closingStdoutIsSeenAtItsEndNotAtTheTimeout() throws {
        let command = try Examples.misbehaving("import os, time; os.close(1); time.sleep(60)")
        var p = try PredictorCommand(command, timeout: 30).start(frameInterval: 16_666_667)
        p.reset()
        for s in Examples.samples(3) { p.observe(s) }
        #expect(p.predict(horizon: 8_000_000) == nil)
        let e = try #require(p.finish())
        #expect(e.kind == .badInput)
        #expect(e.description.contains("closed its output") && !e.description.contains("timeout"), "\(e)")
        #expect(!exists(p.connection.child.pid), "not reaped")
    }

    /// The same with the shell: `exec 1>&-` after the handshake.
    @Test func aShellPredictorThatClosesStdoutIsSeenAtOnce() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-close-\(UUID().uuidString).sh")
        try #"""
        read -r line
        echo '{"type":"hello","version":1,"name":"closer"}'
        exec 1>&-
        sleep 60
        """#.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        var p = try PredictorCommand("sh '\(script.path)'", timeout: 30).start(frameInterval: 16_666_667)
        p.reset()
        for s in Examples.samples(3) { p.observe(s) }
        #expect(p.predict(horizon: 8_000_000) == nil)
        let e = try #require(p.finish())
        #expect(e.description.contains("closed its output"), "\(e)")
    }
}
