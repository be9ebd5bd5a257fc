import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing
import TouchModel

@Suite struct ScenarioTests {
    func error(_ yaml: String, _ overrides: [String] = []) -> LatsimError? {
        do {
            _ = try Scenario(yaml: yaml, file: "test.yaml", defaultName: "test").configuration(overrides: overrides)
            return nil
        } catch let e as LatsimError {
            return e
        } catch {
            Issue.record("not a LatsimError: \(error)")
            return nil
        }
    }

    @Test func everyBuiltinScenarioLoadsAndHasADescription() throws {
        #expect(BuiltinScenarios.all().count == BuiltinScenarios.names.count)
        #expect(BuiltinScenarios.iosNames.count == 11 && BuiltinScenarios.androidNames.count == 8)
        for s in BuiltinScenarios.all() {
            #expect(!s.description.isEmpty)
            _ = try s.configuration()
        }
    }

    @Test func nestedAndDottedKeysAndMappingDistributionsAreRead() throws {
        let yaml = """
        name: custom
        os.renderServer: vsync
        app:
          handler: {uniform: [2ms, 6ms]}
          gpu: {lognormal: {median: 4ms, sigma: 0.3}}
          animations: [1s..2s, 3s..4s]
          prediction:
            predictor: kalman
        renderServer:
          prepare: {normal: {mean: 3ms, sd: 1ms}}
        gpu:
          render: {empirical: [1ms, 2ms, 0.5frames]}
        """
        let s = try Scenario(yaml: yaml, file: "t.yaml", defaultName: "x")
        let c = try s.configuration()
        #expect(s.name == "custom")
        #expect(c.renderServer == .vsync)
        #expect(c.handler == .uniform(2_000_000, 6_000_000))
        #expect(c.appGPU == .lognormal(median: 4_000_000, sigma: 0.3))
        #expect(c.prepare == .normal(mean: 3_000_000, sd: 1_000_000))
        #expect(c.gpuRender == .empirical([1_000_000, 2_000_000, 8_333_333]))
        #expect(c.animations == .intervals([1_000_000_000..<2_000_000_000, 3_000_000_000..<4_000_000_000]))
        #expect(c.predictor == PredictorSpec(.kalman))
    }

    @Test func commandLineOverridesWinAndDurationsInFramesFollowTheDisplay() throws {
        let c = try Scenario(yaml: "device: {displayHz: 120}", file: "t", defaultName: "t")
            .configuration(overrides: ["app.handler=uniform(2ms,1frame)", "app.prediction.horizon=1.5frames"])
        #expect(c.handler == .uniform(2_000_000, 8_333_333))
        #expect(c.horizon == 12_500_000)
    }

    @Test func anUnknownKeySuggestsTheNearestValidOne() throws {
        let e = try #require(error("app:\n  handlr: 4ms\n"))
        #expect(e.key == "app.handlr")
        #expect(e.line == 2)
        #expect(e.description.contains("did you mean 'app.handler'"))
        let e2 = try #require(error("", ["device.scanHZ=120"]))
        #expect(e2.description.contains("did you mean 'device.scanHz'"))
    }

    @Test func badValuesNameTheKeyTheValueAndWhatWasExpected() throws {
        let cases: [(String, String, String)] = [
            ("app:\n  handler: -4ms\n", "app.handler", "negative"),
            ("device:\n  scanHz: 0\n", "device.scanHz", "outside the range"),
            ("device:\n  displayHz: -60\n", "device.displayHz", "outside the range"),
            ("device:\n  sampleInstant: 1.5\n", "device.sampleInstant", "outside 0...1"),
            ("app:\n  commits: 0\n", "app.commits", "from 1 to 1000"),
            ("os:\n  renderServer: fast\n", "os.renderServer", "vsync or lowLatency"),
            ("app:\n  handler: fourms\n", "app.handler", "distribution"),
            ("gpu:\n  render: uniform(6ms,2ms)\n", "gpu.render", "upper bound"),
            ("duration: 0s\n", "duration", "above zero"),
            ("app:\n  presentsWithTransaction: maybe\n", "app.presentsWithTransaction", "true or false"),
        ]
        for (yaml, key, words) in cases {
            let e = try #require(error(yaml), "\(key) should be refused")
            #expect(e.key == key)
            #expect(e.file == "test.yaml")
            #expect(e.line == 2 || key == "duration", "\(key): line \(String(describing: e.line))")
            #expect(e.description.contains(words), "\(e.description)")
        }
    }

    @Test func malformedYAMLGivesLineAndColumn() throws {
        let e = try #require(error("app:\n  handler: [4ms\n  commits: 2\n"))
        #expect(e.line != nil && e.column != nil)
        #expect(e.description.hasPrefix("test.yaml:"))
        #expect(e.description.contains("malformed YAML"))
        let notMapping = try #require(error("- a\n- b\n"))
        #expect(notMapping.description.contains("mapping"))
    }

    /// A near miss gets the nearest name; the start of several names gets
    /// those names (not a name a few edits away); the message points to
    /// `latsim list` instead of quoting every name cut short.
    @Test func anUnknownScenarioNameSuggestsTheValidOnes() throws {
        do {
            _ = try Scenario.named("ios9-lowlatency")
            Issue.record("should fail")
        } catch {
            #expect(error.description.contains("did you mean 'ios9-low-latency'"))
            #expect(error.description.contains("one of the \(BuiltinScenarios.names.count) built-in scenarios"))
            #expect(error.seeAlso == .scenarios)
        }
        do {
            _ = try Scenario.named("android")
            Issue.record("should fail")
        } catch {
            let android = BuiltinScenarios.names.filter { $0.hasPrefix("android") }
            #expect(android.count >= 2)
            #expect(error.description.contains("did you mean one of '\(android[0])', '\(android[1])'"), "\(error)")
        }
    }

    @Test func resolvedYAMLReadsBackToTheSameConfiguration() throws {
        let s = try #require(try BuiltinScenarios.scenario(named: "ios8-complex"))
        let text = ScenarioYAML.resolved(name: s.name, description: s.description, settings: s.settings)
        let again = try Scenario(yaml: text, file: "resolved", defaultName: "x")
        let a = try s.configuration(), b = try again.configuration()
        #expect(a.prepare == b.prepare && a.gpuRender == b.gpuRender && a.renderServer == b.renderServer)
        #expect(again.name == "ios8-complex")
    }
}
