import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The exit statuses `latsim --help` promises: 0 success, 1 a check failed
/// (a regression: PredictCommandTests), 2 bad input of any kind (argument
/// parsing and validation included), 3 a failure of the environment or of
/// latsim itself.
@Suite struct ExitStatusTests {
    /// Argument errors are bad input like any other: never ArgumentParser's 64.
    @Test(arguments: [
        ["diagram", "ios8", "--frames", "0"],
        ["sweep", "ios8", "--vary", "gpu.render=2ms...4ms", "--seeds", "0"],
        ["sweep", "ios8", "--vary", "gpu.render=2ms...4ms", "--jobs", "0"],
        ["run", "ios8", "--no-such-flag"],
        ["run"],
        ["frobnicate"],
        ["predict", "--trajectory", "line", "--dataset", "/tmp"],
        ["predict", "--smoothing", "silky", "--duration", "1s"],
        ["regress", "--baseline", "x.json", "--tolerance", "-1"],
        ["run", "ios8", "--seed", "-1"],
        ["run", "ios8", "--seed", "0x10"],
        ["run", "ios8", "--duration", "1e10s"],
    ])
    func badArgumentsExitTwo(_ args: [String]) throws {
        let o = try Latsim.run(args)
        #expect(o.status == 2, "\(args): status \(o.status): \(o.stderr)")
        #expect(o.stderr.contains("error"), "\(args): \(o.stderr)")
        #expect(!o.stderr.contains("Fatal error"))
    }

    /// A keyword option follows the one case rule everywhere, like `--set`.
    @Test func keywordOptionsIgnoreCaseAsSettingsDo() throws {
        let a = try Latsim.run(["predict", "--smoothing", "OneEuro", "--predictor", "KALMAN", "--duration", "1s", "--trajectory", "line"])
        #expect(a.status == 0, "\(a.stderr)")
        let b = try Latsim.run(["run", "ios8", "--set", "os.renderServer=VSYNC", "--duration", "1s"])
        #expect(b.status == 0, "\(b.stderr)")
    }

    /// gnuplot crashing is a failure of the environment: exit 3, with its words.
    @Test func aCrashingGnuplotExitsThree() throws {
        let tools = try Latsim.temporaryDirectory()
        let fake = tools.appendingPathComponent("gnuplot")
        try "#!/bin/sh\necho 'gnuplot: segmentation fault' >&2\nexit 139\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let out = try Latsim.temporaryDirectory()
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = tools.path + ":" + (env["PATH"] ?? "")
        let o = try Latsim.run(["diagram", "ios8", "--out", out.path], environment: env)
        #expect(o.status == 3, "\(o.status): \(o.stderr)")
        #expect(o.stderr.contains("gnuplot failed") && o.stderr.contains("segmentation fault"), "\(o.stderr)")
    }

    /// A full disk is a failure of the environment too, and the device stays a device.
    @Test func aFullDiskExitsThree() throws {
        let o = try Latsim.run(["run", "ios8", "--duration", "1s", "--json", "/dev/full"])
        #expect(o.status == 3, "\(o.status): \(o.stderr)")
        #expect(o.stderr.contains("no space left on device"))
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR, "/dev/full is still a character device")
    }

    /// `--help` states the statuses.
    @Test func helpStatesTheExitStatuses() throws {
        let o = try Latsim.run(["--help"])
        #expect(o.status == 0)
        #expect(o.stdout.contains("Exit status: 0 success, 1 a check failed"))
    }
}

/// `latsim compare` and `latsim scenario diff` as a user meets them.
@Suite struct CompareCommandTests {
    @Test func compareNamesTheChangeAndItsVerdict() throws {
        let o = try Latsim.run(["compare", "ios9-coalescing-120hz", "--b-set", "gpu.render=9ms", "--set", "app.handler=lognormal(4ms,0.5)",
                                "--duration", "3s", "--seeds", "4"])
        #expect(o.status == 0, "\(o.stderr)")
        #expect(o.stdout.contains("gpu.render  4ms  9ms"))
        let p99 = try #require(o.stdout.split(separator: "\n").first { $0.hasPrefix("t2p p99 ms") })
        // a slower GPU: a real difference, worse for a latency
        #expect(p99.hasSuffix("worse"), "\(p99)")
        let j = try Latsim.run(["compare", "ios8", "ios9-low-latency", "--duration", "1s", "--seeds", "2", "--json", "-"])
        #expect(j.status == 0 && j.stdout.contains("\"figures\""))
    }

    @Test func scenarioDiffListsTheKeysWithTheirOrigins() throws {
        let o = try Latsim.run(["scenario", "diff", "ios8", "ios9-prediction"])
        #expect(o.status == 0)
        #expect(o.stdout.contains("os.renderServer") && o.stdout.contains("builtin:ios8:6") && o.stdout.contains("app.prediction.predictor"))
        let bad = try Latsim.run(["scenario", "diff", "ios8"])
        #expect(bad.status == 2)
    }
}
