import Foundation
import Testing

/// `latsim run --bmf`: the figures as Bencher's Metric Format, which its
/// JSON schema (https://bencher.dev/bmf.json) describes as an object of
/// benchmarks, each an object of measures, each an object with a number
/// `value` and optional number `lower_value` and `upper_value`.
@Suite struct BencherOutputTests {
    static let stochastic = ["--set", "app.handler=lognormal(6ms,0.5)", "--duration", "2s", "--stable"]

    /// Checks the schema by hand and returns the document.
    static func bmf(_ text: String) throws -> [String: [String: [String: Double]]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var out: [String: [String: [String: Double]]] = [:]
        for (benchmark, measures) in object {
            let m = try #require(measures as? [String: Any], "\(benchmark)")
            #expect(!m.isEmpty)
            for (measure, metric) in m {
                #expect(!measure.isEmpty && measure.count <= 64, "\(measure)")
                let values = try #require(metric as? [String: Any], "\(measure)")
                #expect(values["value"] is NSNumber, "\(measure)")
                #expect(Set(values.keys).isSubset(of: ["value", "lower_value", "upper_value"]), "\(measure)")
                #expect((values["lower_value"] == nil) == (values["upper_value"] == nil))
                out[benchmark, default: [:]][measure] = values.compactMapValues { ($0 as? NSNumber)?.doubleValue }
            }
        }
        return out
    }

    @Test func seedsGiveTheMeanAndItsInterval() throws {
        let args = ["run", "ios9-low-latency", "android-default", "--seeds", "3"] + Self.stochastic
        let o = try Latsim.run(args + ["--bmf", "-"])
        #expect(o.status == 0, "\(o.stderr)")
        let doc = try Self.bmf(o.stdout)
        #expect(Set(doc.keys) == ["ios9-low-latency", "android-default"])
        // the same runs' JSON: each measure is a figure's mean, its bounds the mean -/+ the 95% half-width
        let j = try Latsim.run(args + ["--json", "-"])
        let runs = try #require((try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])?["runs"] as? [[String: Any]])
        for run in runs {
            let name = try #require(run["scenario"] as? String)
            let figures = try #require((run["seeds"] as? [String: Any])?["figures"] as? [String: [String: Any]])
            let measured = figures.filter { $0.value["mean"] is Double }
            #expect(doc[name]?.count == measured.count, "\(name)")
            let t2p = try #require(figures["touchToPhotonMean"])
            let mean = try #require(t2p["mean"] as? Double), h = try #require(t2p["halfWidth95"] as? Double)
            #expect(h > 0)
            let metric = try #require(doc[name]?["touchToPhotonMean (ms)"])
            // at the figure's 3 decimals
            #expect(abs(metric["value"]! - mean) <= 0.0005 + 1e-9)
            #expect(abs(metric["lower_value"]! - (mean - h)) <= 0.0005 + 1e-9 && abs(metric["upper_value"]! - (mean + h)) <= 0.0005 + 1e-9)
            #expect(metric["lower_value"]! < metric["value"]! && metric["value"]! < metric["upper_value"]!)
        }
    }

    @Test func oneRunHasValuesAloneAndAFileIsWrittenWithTheTable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-bmf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bench.json").path
        let o = try Latsim.run(["run", "ios8", "--duration", "2s", "--bmf", file])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(o.stdout.contains("t2p p50 ms"), "the table still prints")
        let doc = try Self.bmf(try String(contentsOfFile: file, encoding: .utf8))
        let ios8 = try #require(doc["ios8"])
        // ios8's fixed pipeline: 50 ms from touch to photon (the talk's 3 frames at 60 Hz)
        #expect(ios8["touchToPhotonP50 (ms)"] == ["value": 50])
        #expect(ios8.values.allSatisfy { $0.count == 1 })
    }

    @Test(arguments: [["--bmf", "-", "--json", "-"], ["--bmf", "/etc/hostname/b.json"]])
    func badDestinationsAreRefusedBeforeRunning(_ args: [String]) throws {
        let o = try Latsim.run(["run", "ios8", "--duration", "1s"] + args)
        #expect(o.status == 2, "\(o.stderr)")
        #expect(o.stdout.isEmpty)
    }
}
