import Foundation
import Testing
import Yams

/// Examples/ci as a team meets it: the workflow's shell steps, run in
/// order with bash in a team's repository (the example's spec, the C example
/// predictor as `src/predictor.c`), as the Actions runner would run them.
/// The steps that fetch and build latsim (`Install ...`) are left out: the
/// test puts this build's latsim on PATH instead, which is what they leave
/// behind; `scripts/build-static.sh` they call is checked for syntax here.
@Suite(.serialized) struct CIExampleTests {
    static let ci = Latsim.packageRoot.appendingPathComponent("Examples/ci")

    /// The workflow's `run` steps, by name, in order.
    static func steps() throws -> [(name: String, run: String)] {
        let text = try String(contentsOf: ci.appendingPathComponent("prediction-gate.yml"), encoding: .utf8)
        let doc = try #require(try Yams.load(yaml: text) as? [String: Any])
        let jobs = try #require(doc["jobs"] as? [String: Any])
        let job = try #require(jobs["prediction-gate"] as? [String: Any])
        let steps = try #require(job["steps"] as? [[String: Any]])
        return steps.compactMap { s in (s["run"] as? String).map { ((s["name"] as? String) ?? "", $0) } }
    }

    /// Runs `script` with bash -e in `dir`; status and output.
    static func bash(_ script: String, in dir: URL, environment: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-e", "-c", script]
        p.currentDirectoryURL = dir
        p.environment = environment
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test(.enabled(if: GateCommandTests.found("cc") && FileManager.default.isExecutableFile(atPath: "/bin/bash"), "cc or bash is missing; skipped"))
    func theWorkflowGatesAStylusPredictorOnTwoMetrics() throws {
        let repo = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: repo) }
        let fm = FileManager.default
        try fm.createDirectory(at: repo.appendingPathComponent("ci"), withIntermediateDirectories: true)
        try fm.createDirectory(at: repo.appendingPathComponent("src"), withIntermediateDirectories: true)
        try fm.copyItem(at: Self.ci.appendingPathComponent("gate.yaml"), to: repo.appendingPathComponent("ci/gate.yaml"))
        let source = repo.appendingPathComponent("src/predictor.c")
        try fm.copyItem(at: Latsim.packageRoot.appendingPathComponent("Examples/predictors/linear.c"), to: source)
        // this build's latsim on PATH, as the Install steps leave it
        let bin = repo.appendingPathComponent(".bin")
        try fm.createDirectory(at: bin, withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: bin.appendingPathComponent("latsim"), withDestinationURL: Latsim.binary)
        let summary = repo.appendingPathComponent("step-summary.md"), githubPath = repo.appendingPathComponent("github-path")
        try Data().write(to: summary)
        try Data().write(to: githubPath)
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = bin.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["GITHUB_STEP_SUMMARY"] = summary.path
        env["GITHUB_PATH"] = githubPath.path
        env["GITHUB_WORKSPACE"] = repo.path
        env["RUNNER_TEMP"] = repo.path
        env["HOME"] = repo.path

        let steps = try Self.steps().filter { !$0.name.hasPrefix("Install") }
        #expect(steps.map(\.name) == ["Put latsim on PATH", "Build the predictor", "Prediction gate"])
        #expect(try Self.bash("bash -n '\(Latsim.packageRoot.appendingPathComponent("scripts/build-static.sh").path)'", in: repo, environment: env).status == 0)

        // the baseline, recorded once as the example's README says
        let record = try Self.bash("cc -O2 -ffp-contract=off -o predictor src/predictor.c\n"
                                   + "latsim regress --spec ci/gate.yaml --baseline ci/prediction-baseline.json --predictor-command ./predictor --update",
                                   in: repo, environment: env)
        #expect(record.status == 0, "\(record.stdout)\(record.stderr)")
        #expect(record.stdout.contains("wrote 6 entries (3 items x 1 predictor x 2 horizons)"), "\(record.stdout)")
        let baseline = try String(contentsOf: repo.appendingPathComponent("ci/prediction-baseline.json"), encoding: .utf8)
        #expect(baseline.contains("\"scanHz\" : \"240\"") && baseline.contains("\"tool\" : \"stylus\""), "\(baseline)")

        func runSteps() throws -> [(status: Int32, stdout: String, stderr: String)] {
            var out: [(Int32, String, String)] = []
            for step in steps {
                let r = try Self.bash(step.run, in: repo, environment: env)
                out.append(r)
                if r.status != 0 { break }
            }
            return out
        }

        // the job on the unchanged predictor passes
        let pass = try runSteps()
        #expect(pass.count == 3 && pass.allSatisfy { $0.status == 0 }, "\(pass)")
        let gate = pass.last!
        #expect(gate.stdout.contains("gated: errorRms 5%, alongTrackMean 0.25pt, jitter 10%, photonRms 5%") && gate.stdout.contains("passed: 6 entries compared"), "\(gate.stdout)")
        #expect(gate.stdout.contains("::notice file=ci/prediction-baseline.json,title=prediction gate::passed"), "\(gate.stdout)")
        #expect(gate.stderr.contains("latsim regress: 6 of 6 runs done"), "progress on stderr: \(gate.stderr)")
        let junit = try String(contentsOf: repo.appendingPathComponent("prediction-gate.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count - 1 == 6 && !junit.contains("<failure"))
        #expect(try String(contentsOf: summary, encoding: .utf8).contains("## Prediction gate: passed"))
        #expect(try String(contentsOf: githubPath, encoding: .utf8).contains("latsim"))

        // a commit that makes the predictor aim 30% too far fails the job
        var c = try String(contentsOf: source, encoding: .utf8)
        #expect(c.contains(": 1.0;"))
        c = c.replacingOccurrences(of: ": 1.0;", with: ": 1.3;")
        try c.write(to: source, atomically: true, encoding: .utf8)
        let fail = try runSteps()
        let failed = try #require(fail.last)
        #expect(fail.count == 3 && failed.status == 1, "\(fail)")
        let errors = failed.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("::error file=ci/prediction-baseline.json,") }
        // at most ten (GitHub's limit a step), the summary last; every other
        // on the line of the baseline where its entry begins
        #expect(errors.count >= 2 && errors.count <= 10 && errors.last?.contains("title=prediction gate::FAILED: ") == true, "\(failed.stdout)")
        #expect(errors.dropLast().allSatisfy { $0.hasPrefix("::error file=ci/prediction-baseline.json,line=") }, "\(failed.stdout)")
        #expect(failed.stdout.contains("entries regressed") && failed.stdout.contains("REGRESSION"), "\(failed.stdout)")
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        #expect(markdown.contains("## Prediction gate: FAILED") && markdown.contains("### Regressions"), "\(markdown)")
        #expect(try String(contentsOf: repo.appendingPathComponent("prediction-gate.xml"), encoding: .utf8).contains("type=\"PredictionRegression\""))

        // a baseline of another spec stops the job as bad input, with a JUnit error case
        var spec = try String(contentsOf: repo.appendingPathComponent("ci/gate.yaml"), encoding: .utf8)
        spec = spec.replacingOccurrences(of: "scanHz: 240", with: "scanHz: 120")
        try spec.write(to: repo.appendingPathComponent("ci/gate.yaml"), atomically: true, encoding: .utf8)
        let other = try runSteps()
        #expect(other.last?.status == 2 && other.last?.stderr.contains("scanHz (baseline: 240, now: 120)") == true, "\(other)")
        #expect(try String(contentsOf: repo.appendingPathComponent("prediction-gate.xml"), encoding: .utf8).contains("<error type=\"BadInput\""))
    }

    /// The workflow as zizmor and actionlint want it, and as GitHub runs it
    /// after Node 20 left its runners (2026-09-16): read-only permissions,
    /// every action pinned to a full commit hash with its release beside it,
    /// each a major that runs on Node 24 (checkout from v5, cache from v5,
    /// upload-artifact from v6, per their release notes), checkout without
    /// persisted credentials, Swift from its official image at latsim's tools
    /// version, and a cache keyed by the latsim commit, not a branch.
    @Test func theWorkflowIsPinnedAndReadOnly() throws {
        let text = try String(contentsOf: Self.ci.appendingPathComponent("prediction-gate.yml"), encoding: .utf8)
        let doc = try #require(try Yams.load(yaml: text) as? [String: Any])
        #expect((doc["permissions"] as? [String: String]) == ["contents": "read"])
        let job = try #require((doc["jobs"] as? [String: Any])?["prediction-gate"] as? [String: Any])
        let package = try String(contentsOf: Latsim.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let tools = try #require(package.components(separatedBy: "\n").first?.components(separatedBy: "swift-tools-version:").last)
            .trimmingCharacters(in: .whitespaces)
        let image = try #require(job["container"] as? String)
        #expect(image.hasPrefix("swift:\(tools)-") || image == "swift:\(tools)", "\(image) for tools \(tools)")
        let steps = try #require(job["steps"] as? [[String: Any]])
        let node24: [String: Int] = ["actions/checkout": 5, "actions/cache": 5, "actions/upload-artifact": 6]
        var used: [String] = []
        for step in steps {
            guard let uses = step["uses"] as? String else { continue }
            let parts = uses.split(separator: "@").map(String.init)
            #expect(parts.count == 2 && parts[1].range(of: "^[0-9a-f]{40}$", options: .regularExpression) != nil, "\(uses) is not pinned to a commit")
            let line = try #require(text.components(separatedBy: "\n").first { $0.contains(uses) })
            let release = try #require(line.range(of: #"# v([0-9]+)(\.[0-9]+)*$"#, options: .regularExpression).map { String(line[$0]) }, "\(line)")
            let major = Int(release.dropFirst(3).prefix { $0.isNumber }) ?? 0
            #expect(major >= (node24[parts[0]] ?? Int.max), "\(uses) \(release) runs on Node 20")
            used.append(parts[0])
            if parts[0] == "actions/checkout" { #expect((step["with"] as? [String: Any])?["persist-credentials"] as? Bool == false) }
            if parts[0] == "actions/cache" {
                let key = try #require((step["with"] as? [String: Any])?["key"] as? String)
                #expect(key.contains("LATSIM_COMMIT") && !key.contains("REF") && !key.contains("ref"), "\(key)")
            }
        }
        #expect(used.sorted() == ["actions/cache", "actions/checkout", "actions/upload-artifact"])
        #expect(!text.contains("example.org") && !text.contains("setup-swift"))
    }

    /// The install step fetches exactly the commit named by LATSIM_COMMIT
    /// from LATSIM_GIT and builds it (here a repository whose build script
    /// leaves a stand-in binary); an unset URL or a commit that is no full
    /// hash (a branch name) stops the job with an annotation saying which
    /// variable to set.
    @Test(.enabled(if: GateCommandTests.found("git") && FileManager.default.isExecutableFile(atPath: "/bin/bash"), "git or bash is missing; skipped"))
    func theInstallStepBuildsTheRecordedCommit() throws {
        let text = try String(contentsOf: Self.ci.appendingPathComponent("prediction-gate.yml"), encoding: .utf8)
        let doc = try #require(try Yams.load(yaml: text) as? [String: Any])
        let job = try #require((doc["jobs"] as? [String: Any])?["prediction-gate"] as? [String: Any])
        let steps = try #require(job["steps"] as? [[String: Any]])
        let install = try #require(steps.first { ($0["name"] as? String) == "Install latsim" }?["run"] as? String)

        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let source = dir.appendingPathComponent("latsim")
        try FileManager.default.createDirectory(at: source.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        let script = source.appendingPathComponent("scripts/build-static.sh")
        try "#!/bin/sh\ncd \"$(dirname \"$0\")/..\" && mkdir -p \"$1\" && git rev-parse HEAD > \"$1/latsim\"\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        var env = ProcessInfo.processInfo.environment
        env["HOME"] = dir.path
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        let git = "git -C '\(source.path)' -c user.name=t -c user.email=t@t"
        let made = try Self.bash("\(git) init -q && \(git) add . && \(git) commit -qm build && \(git) rev-parse HEAD", in: dir, environment: env)
        let commit = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(made.status == 0 && commit.count == 40, "\(made)")
        // a second commit: the step must build the first, not the branch's head
        let later = try Self.bash("echo x > '\(source.path)/x' && \(git) add x && \(git) commit -qm later", in: dir, environment: env)
        #expect(later.status == 0, "\(later)")

        env["RUNNER_TEMP"] = dir.appendingPathComponent("runner-temp").path
        try FileManager.default.createDirectory(atPath: env["RUNNER_TEMP"]!, withIntermediateDirectories: true)
        env["LATSIM_GIT"] = source.path
        env["LATSIM_COMMIT"] = commit
        let ok = try Self.bash(install, in: dir, environment: env)
        #expect(ok.status == 0, "\(ok)")
        let built = try String(contentsOf: dir.appendingPathComponent("latsim/latsim"), encoding: .utf8)
        #expect(built.trimmingCharacters(in: .whitespacesAndNewlines) == commit)

        env["LATSIM_COMMIT"] = "main"
        let branch = try Self.bash(install, in: dir, environment: env)
        #expect(branch.status == 2 && branch.stdout.contains("::error title=latsim::set the repository variable LATSIM_COMMIT"), "\(branch)")
        env["LATSIM_COMMIT"] = commit
        env["LATSIM_GIT"] = ""
        let noURL = try Self.bash(install, in: dir, environment: env)
        #expect(noURL.status == 2 && noURL.stdout.contains("set the repository variable LATSIM_GIT"), "\(noURL)")
    }
}
