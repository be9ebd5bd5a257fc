import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing

/// The Android keys (Docs/Android.md, "Configuration keys"): their
/// defaults, the keys of the other platform, and the keys that depend on
/// each other. Bad input is a LatsimError naming the key.
@Suite struct AndroidConfigurationTests {
    static func configuration(_ overrides: [String], scenario: String = "android-default") throws -> PipelineConfiguration {
        try Scenario.named(scenario).configuration(overrides: overrides)
    }

    static func refusal(_ overrides: [String], scenario: String = "android-default") -> LatsimError? {
        do {
            _ = try configuration(overrides, scenario: scenario)
            return nil
        } catch let e as LatsimError {
            return e
        } catch {
            return nil
        }
    }

    @Test func presentDefaultsToFIFOOnAndroidAndLatestOnIOS() throws {
        #expect(try Self.configuration([]).present == .fifo)
        #expect(try Self.configuration([], scenario: "ios8").present == .latest)
        #expect(try Self.configuration(["os.present=latest"]).present == .latest)
    }

    /// ANDROID.md A6's bad input, each naming the key at fault.
    @Test(arguments: [
        (["android.sfCompose=16.7ms"], "android.sfCompose"),
        (["android.sfCompose=uniform(1ms,17ms)"], "android.sfCompose"),
        (["android.sfCompose=empirical(1ms,16.7ms)"], "android.sfCompose"),
        (["device.displayHz=120", "android.sfCompose=9ms"], "android.sfCompose"),
        (["android.buffers=1"], "android.buffers"),
        (["android.buffers=65"], "android.buffers"),
        (["android.appDuration=1s", "android.sfDuration=1s"], "android.buffers"),
        (["android.renderMode=sometimes"], "android.renderMode"),
        (["android.appPhaseOffset=7.5ms"], "android.appPhaseOffset"),
        (["android.sfPhaseOffset=5ms"], "android.sfPhaseOffset"),
        (["android.appPhaseOffset=7.5ms", "android.sfDuration=10ms"], "android.appPhaseOffset"),
        (["android.appPhaseOffset=7.5ms", "android.sfPhaseOffset=5ms", "android.appDuration=20ms"], "android.appDuration"),
        (["android.appPhaseOffset=7.5ms", "android.sfPhaseOffset=5ms", "android.sfDuration=10ms"], "android.sfDuration"),
        (["android.appPhaseOffset=1ms", "android.sfPhaseOffset=17ms"], "android.sfPhaseOffset"),
        (["android.appDuration=-1ms"], "android.appDuration"),
        (["android.dispatchLatency=fast"], "android.dispatchLatency"),
        (["android.frobnicate=1"], "android.frobnicate"),
    ] as [([String], String)])
    func badAndroidInputNamesTheKey(_ overrides: [String], _ key: String) throws {
        let e = try #require(Self.refusal(overrides), "\(overrides) should be refused")
        #expect(e.kind == .badInput && e.key == key, "\(overrides): \(e)")
    }

    /// Every iOS-only key of A6 is refused on an Android run, even at its
    /// default value, and named as iOS-only.
    @Test(arguments: ["os.renderServer=lowLatency", "os.delivery=coalesced", "os.dispatchDelay=0ms", "os.buffering=adaptive",
                      "os.tripleReleaseFrames=10", "app.commits=1", "app.touches=coalesced", "app.animations=never",
                      "app.rendering=coreAnimation", "app.gpu=2ms", "app.presentsWithTransaction=false", "renderServer.prepare=3ms"])
    func iOSOnlyKeysAreBadInputOnAndroid(_ assignment: String) throws {
        let e = try #require(Self.refusal([assignment]))
        #expect(e.key == String(assignment.prefix { $0 != "=" }) && e.problem.contains("iOS-only") && e.problem.contains("Android run"))
    }

    @Test func androidKeysAreBadInputOnIOS() throws {
        for assignment in ["android.buffers=3", "android.resampling=false", "android.appPhaseOffset=unset"] {
            let e = try #require(Self.refusal([assignment], scenario: "ios9-low-latency"))
            #expect(e.key == String(assignment.prefix { $0 != "=" }) && e.problem.contains("iOS run"))
        }
        // the other way round: os.platform=ios on an Android scenario that sets android.* keys
        let e = try #require(Self.refusal(["os.platform=ios"], scenario: "android-gs101-120hz"))
        #expect(e.key == "android.appDuration")
    }

    /// Shared keys, and the two offsets with `auto` durations, are accepted.
    @Test func sharedKeysAndOffsetsWithAutoDurationsAreAccepted() throws {
        let c = try Self.configuration(["os.present=latest", "app.handler=uniform(2ms,6ms)", "gpu.render=3ms", "device.scanHz=240",
                                        "app.prediction.predictor=kalman", "measure.row=touch", "android.appPhaseOffset=7.5ms",
                                        "android.sfPhaseOffset=-1ms", "android.appDuration=auto", "android.sfCompose=normal(1ms,20ms)"])
        #expect(c.androidTiming.sfDuration == 17_666_667)
        #expect(c.android.sfPhaseOffset == -1_000_000)
    }

    /// `scenario show --resolved` writes the keys of the run's platform only,
    /// and reads back to the same configuration.
    @Test func resolvedAndroidYAMLReadsBack() throws {
        let s = try #require(try BuiltinScenarios.scenario(named: "android-nexus5-offsets"))
        let text = ScenarioYAML.resolved(name: s.name, description: s.description, settings: s.settings)
        #expect(!text.contains("renderServer") && text.contains("appPhaseOffset: 7.5ms") && text.contains("present: fifo"))
        let again = try Scenario(yaml: text, file: "resolved", defaultName: "x")
        let a = try s.configuration(), b = try again.configuration()
        #expect(a.android == b.android && a.present == b.present && a.platform == .android && b.platform == .android)
    }
}

/// Docs/Android.md's invariants on every Android scenario, under noise and
/// the variations that stress buffers and SurfaceFlinger.
@Suite struct AndroidInvariantTests {
    static let noise = ["app.handler=normal(4ms,1ms)", "android.renderThread=uniform(1ms,3ms)", "gpu.render=lognormal(4ms,0.3)",
                        "android.sfCompose=empirical(0.5ms,1ms,2ms)"]

    @Test(arguments: BuiltinScenarios.androidNames)
    func androidScenariosKeepTheInvariants(_ name: String) throws {
        let unsignaled = ["android.latchUnsignaled=true", "gpu.render=lognormal(10ms,0.5)"]
        let variants: [[String]] = [[], Self.noise, Self.noise + ["android.buffers=2"], Self.noise + ["os.present=latest"],
                                    Self.noise + unsignaled, Self.noise + unsignaled + ["os.present=latest", "android.sfCompose=uniform(0ms,7ms)"],
                                    ["input.trajectory=strokes", "input.liftOff=true", "device.scanHz=240"]]
        for v in variants {
            let label = "\(name) \(v.joined(separator: " "))"
            let r = try runScenario(name, v, duration: "3s", seed: 7)
            InvariantTests.check(r, label)
            #expect(r.measurements.framesPresented > 0, "\(label)")
        }
    }

    @Test func theSameSeedGivesTheSameAndroidRun() throws {
        let a = try runScenario("android-120hz-scan", Self.noise, duration: "20s", seed: 42)
        let b = try runScenario("android-120hz-scan", Self.noise, duration: "20s", seed: 42)
        let c = try runScenario("android-120hz-scan", Self.noise, duration: "20s", seed: 43)
        #expect(DeterminismTests.fingerprint(a) == DeterminismTests.fingerprint(b))
        #expect(DeterminismTests.fingerprint(a) != DeterminismTests.fingerprint(c))
    }
}
