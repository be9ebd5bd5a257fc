import Foundation
import Testing

/// 3D Touch on the command line: the run table's press figures, the JSON
/// `force` block, and bad force input refused in one paragraph with nothing
/// written.
@Suite struct ForceCommandTests {
    @Test func aPeekPopRunPrintsItsPressesAndWritesTheForceBlock() throws {
        let dir = try Latsim.temporaryDirectory()
        let json = dir.appendingPathComponent("press.json")
        let o = try Latsim.run(["run", "ios9-peek-pop", "ios9-low-latency", "--duration", "2s", "--json", json.path])
        #expect(o.status == 0, "\(o.stderr)")
        // a row per figure, a column per scenario: the press figures only for the app that uses force
        let lines = o.stdout.split(separator: "\n")
        #expect(lines.first?.split(separator: " ").map(String.init) == ["figure", "ios9-peek-pop", "ios9-low-latency"])
        let photon = try #require(lines.first { $0.hasPrefix("peek photon ms") })
        #expect(photon.split(separator: " ").suffix(2).map(String.init) == ["113.095", "-"], "\(photon)")
        let docs = try Latsim.rows(try Data(contentsOf: json), kind: "run")
        let force = try #require(docs[0]["force"] as? [String: Any])
        #expect(force["interaction"] as? String == "peekPop")
        let peek = try #require(force["peek"] as? [String: Any])
        #expect(peek["recognized"] as? Int == 1)
        #expect(docs[1]["force"] is NSNull)
    }

    @Test(arguments: [
        (["--set", "input.press=ramp(peak=4, rise=fast)"], "input.press", "rise 'fast' not a duration"),
        (["--set", "input.press=squeeze()"], "input.press", "unknown press"),
        (["--set", "input.press=ramp(peak=9)"], "input.press", "above device.maximumForce"),
        (["--set", "app.force.peek=0.5"], "app.force.peek", "outside the range"),
        (["--set", "app.force.pop=2"], "app.force.pop", "not above app.force.peek"),
        (["--set", "input.trajectory=taps"], "input.press", "presses a tapping finger"),
    ] as [([String], String, String)])
    func badForceSettingsAreOneParagraphAndWriteNothing(_ args: [String], _ key: String, _ problem: String) throws {
        let dir = try Latsim.temporaryDirectory()
        let json = dir.appendingPathComponent("out.json")
        let o = try Latsim.run(["run", "ios9-peek-pop", "--json", json.path] + args)
        #expect(o.status == 2, "\(o.status): \(o.stderr)")
        #expect(o.stderr.contains(key) && o.stderr.contains(problem), "\(o.stderr)")
        #expect(o.stderr.split(separator: "\n").count == 1, "\(o.stderr)")
        #expect(!FileManager.default.fileExists(atPath: json.path))
    }

    @Test func aBadForceColumnNamesTheFileAndLine() throws {
        let dir = try Latsim.temporaryDirectory()
        let csv = dir.appendingPathComponent("press.csv")
        try "t_ms,x,y,force\n0,100,100,0.5\n16,100,100,2\n33,100,100,-1\n".write(to: csv, atomically: true, encoding: .utf8)
        let json = dir.appendingPathComponent("out.json")
        let o = try Latsim.run(["run", "ios9-low-latency", "--set", "input.trajectory=\(csv.path)", "--json", json.path])
        #expect(o.status == 2, "\(o.status): \(o.stderr)")
        #expect(o.stderr.contains("press.csv:4") && o.stderr.contains("force") && o.stderr.contains("'-1'"), "\(o.stderr)")
        #expect(o.stderr.contains("device.maximumForce"))
        #expect(!FileManager.default.fileExists(atPath: json.path))
        // the same file within range drives a press
        try "t_ms,x,y,force\n0,100,100,0.5\n300,100,100,4\n600,100,100,0.5\n".write(to: csv, atomically: true, encoding: .utf8)
        let ok = try Latsim.run(["run", "ios9-low-latency", "--set", "input.trajectory=\(csv.path)", "--set", "app.force.interaction=peekPop",
                                 "--json", "-", "--stable", "--duration", "1s"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let doc = try Latsim.onlyRun(ok.stdout)
        #expect(((doc["force"] as? [String: Any])?["peek"] as? [String: Any])?["recognized"] as? Int == 1)
    }
}
