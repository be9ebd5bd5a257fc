import Foundation
import Testing
import Yams
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Standard output as an output (`-`, `/dev/stdout`, `/dev/fd/1`): at most
/// one output takes it, and then nothing else is printed there, in every
/// command that has such outputs; a per-scenario file name is derived only
/// from a real path.
@Suite struct StandardOutputTests {
    /// Names that a derived per-scenario file once took in the current
    /// folder or in /dev (as root).
    static let strays = ["/dev/null-ios8", "/dev/null-ios9-low-latency", "/dev/stdout-ios8", "/dev/stdout-ios9-low-latency"]

    static func removeStrays() {
        for s in strays where (try? FileManager.default.attributesOfItem(atPath: s)[.type] as? FileAttributeType) == .typeRegular {
            try? FileManager.default.removeItem(atPath: s)
        }
    }

    /// `--trace -` with two scenarios wrote files named `--ios8` and
    /// `--ios9-low-latency` into the current folder; `/dev/stdout` and
    /// `/dev/null` made regular files in /dev.
    @Test(arguments: ["--trace", "--frames"])
    func aPerScenarioNameIsDerivedOnlyFromARealPath(flag: String) throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir); Self.removeStrays() }
        for destination in ["-", "/dev/stdout", "/dev/null", "/dev/fd/1"] {
            let o = try Latsim.run(["run", "ios8", "ios9-low-latency", "--duration", "200ms", flag, destination], in: dir)
            #expect(o.status == 2, "\(flag) \(destination): \(o.stderr)")
            #expect(o.stderr.contains(flag) && o.stderr.contains(destination) && o.stderr.contains("expected"), "\(o.stderr)")
            #expect(o.stdout.isEmpty, "\(o.stdout.prefix(200))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty, "files were made in the current folder")
            for s in Self.strays {
                #expect((try? FileManager.default.attributesOfItem(atPath: s)[.type] as? FileAttributeType) != .typeRegular, "\(s) was made")
            }
        }
        // a real path still gives each scenario its own file
        let o = try Latsim.run(["run", "ios8", "ios9-low-latency", "--duration", "200ms", flag, "out.csv"], in: dir)
        #expect(o.status == 0, "\(o.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) == ["out-ios8.csv", "out-ios9-low-latency.csv"])
    }

    enum Parsed { case json, csv, xml, yaml, markdown }

    /// Checks that `text` is exactly one document of its kind.
    static func isValid(_ text: String, as kind: Parsed) -> Bool {
        switch kind {
        case .json:
            return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil
        case .csv:
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            guard let header = lines.first, text.hasSuffix("\n"), !header.contains(" ") || header.contains(",") else { return false }
            // no quoted cells in these files: every line has the header's fields
            let n = header.split(separator: ",", omittingEmptySubsequences: false).count
            return n > 1 && lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == n }
        case .xml:
            let parser = XMLParser(data: Data(text.utf8))
            return parser.parse()
        case .yaml:
            return ((try? Yams.load(yaml: text)) as? [String: Any]) != nil
        case .markdown:
            return text.hasPrefix("## ") && !text.contains("latsim regress:") && !text.contains("compared 1 entry")
        }
    }

    /// Every command with an output that can be standard output: what
    /// reaches stdout is that output alone (valid JSON, CSV, XML, YAML).
    /// `run --trace -` printed the result table after the trace,
    /// `regress --junit -` the report before the XML, and every
    /// `--json /dev/stdout` its table after the JSON.
    @Test func whatTakesStandardOutputIsAllThatIsPrinted() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try StepSummaryTests.gate(in: dir)
        let dump = Latsim.packageRoot.appendingPathComponent("Examples/traces/framestats-120hz.txt").path
        let gate = ["regress", "--spec", g.spec, "--baseline", g.baseline, "--predictor", "linearFirst"]
        var cases: [([String], Parsed)] = []
        for out in ["-", "/dev/stdout"] {
            cases += [
                (["run", "ios8", "--duration", "200ms", "--trace", out], .json),
                (["run", "ios8", "--duration", "200ms", "--frames", out], .csv),
                (["run", "ios8", "--duration", "200ms", "--json", out, "--budget"], .json),
                (["run", "ios8", "--duration", "200ms", "--seeds", "2", "--json", out], .json),
                (["figures", "--json", out], .json),
                (["table", "--duration", "200ms", "--json", out], .json),
                (["compare", "ios8", "--b-set", "gpu.render=6ms", "--seeds", "2", "--duration", "200ms", "--json", out], .json),
                (["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--duration", "200ms", "--csv", out], .csv),
                (["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--duration", "200ms", "--json", out], .json),
                (["predict", "--predictor", "linearFirst", "--horizon", "1", "--duration", "2s", "--json", out], .json),
                (["validate", "--json", out], .json),
                (gate + ["--junit", out], .xml),
                (gate + ["--junit", out, "--format", "github"], .xml),
                (gate + ["--summary", out], .markdown),
                (["import", dump, "--out", out], .yaml),
            ]
        }
        for (args, kind) in cases {
            let o = try Latsim.run(args, in: dir)
            #expect(o.status == 0 || (args[0] == "table" && o.status == 1), "\(args): \(o.stderr)")
            #expect(Self.isValid(o.stdout, as: kind), "\(args.joined(separator: " ")) printed more than its output:\n\(o.stdout.prefix(300))\n...\n\(o.stdout.suffix(300))")
        }
        // the readable text is not lost: it goes to standard error
        let run = try Latsim.run(["run", "ios8", "--duration", "200ms", "--frames", "-"], in: dir)
        #expect(run.stderr.contains("t2p p50 ms"), "\(run.stderr)")
        let junit = try Latsim.run(gate + ["--junit", "-"], in: dir)
        #expect(junit.stderr.contains("passed: 1 entry compared"), "\(junit.stderr)")
    }

    /// Two outputs on standard output are refused before anything runs.
    @Test func onlyOneOutputMayTakeStandardOutput() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let g = try StepSummaryTests.gate(in: dir)
        for args in [["run", "ios8", "--duration", "200ms", "--json", "-", "--trace", "/dev/stdout"],
                     ["sweep", "ios8", "--vary", "gpu.render=2ms,4ms", "--csv", "-", "--json", "/dev/fd/1"],
                     ["regress", "--spec", g.spec, "--baseline", g.baseline, "--predictor", "linearFirst", "--junit", "-", "--summary", "-"]] {
            let o = try Latsim.run(args, in: dir)
            #expect(o.status == 2 && o.stderr.contains("standard output"), "\(args): \(o.stderr)")
            #expect(o.stdout.isEmpty)
        }
    }
}
