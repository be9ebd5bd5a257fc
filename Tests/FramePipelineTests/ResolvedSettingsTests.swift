import FramePipeline
import Scenarios
import SimKernel
import Testing

/// A sweep parses its settings once and each point's keys over them
/// (``ResolvedSettings``, its ``ResolvedSettings/PointSetter``): every
/// point's configuration, or its error, must be the one that parsing every
/// key gives.
@Suite struct ResolvedSettingsTests {
    /// Every stored field of a configuration, as text.
    func fields(_ c: PipelineConfiguration) -> String {
        var s = ""
        dump(c, to: &s)
        return s
    }

    /// The configuration of `settings` with `changes` over them, parsed in full.
    func full(_ settings: Settings, _ changes: [Assignment]) -> Result<String, LatsimError> {
        Result { () throws(LatsimError) -> String in
            var s = settings
            for a in changes { try s.apply(a) }
            return fields(try s.configuration())
        }
    }

    /// The same from the settings parsed once.
    func once(_ resolved: ResolvedSettings, _ changes: [Assignment]) -> Result<String, LatsimError> {
        Result { () throws(LatsimError) -> String in fields(try resolved.configuration(setting: changes)) }
    }

    func set(_ path: String, _ value: String) -> Assignment {
        Assignment(path: path, value: value, source: SettingSource(file: "--vary"))
    }

    @Test func changedKeysOverTheParsedSettingsGiveWhatParsingEveryKeyGives() throws {
        let changes: [[Assignment]] = [
            [set("gpu.render", "7ms")],
            [set("gpu.render", "2ms"), set("renderServer.prepare", "3ms")],
            [set("app.handler", "uniform(2ms,6ms)")],
            [set("app.handler", "1.5frames")],
            [set("device.scanHz", "240")],
            [set("input.tool", "pencil")],           // the Pencil's scan rate, set by the checks
            [set("device.pencilScanHz", "240"), set("input.tool", "pencil")],
            [set("os.buffering", "triple")],
            [set("seed", "7"), set("duration", "2s")],
            [set("device.displayHz", "120")],       // re-reads durations written in frames
            [set("os.platform", "android")],        // other defaults
            [set("gpu.render", "-3ms")],            // bad values: the same error
            [set("renderServer.prepare", "nonsense"), set("gpu.render", "-3ms")],
            [set("gpu.render", "-3ms"), set("renderServer.prepare", "nonsense")],
            [set("app.liftResponse", "true")],      // a check across keys fails
            [set("android.appDuration", "10ms")],  // a key of the other platform on an iOS run: refused
            [set("gpu.render", "-3ms"), set("gpu.render", "4ms")],  // the same key twice: the last wins
            [set("gpu.render", "4ms"), set("gpu.render", "-3ms")],
        ]
        var compared = 0
        for scenario in BuiltinScenarios.all() {
            let base = scenario.settings
            let resolved = try ResolvedSettings(base)
            #expect(fields(resolved.configuration) == fields(try base.configuration()))
            for c in changes {
                let expected = full(base, c), got = once(resolved, c)
                #expect(got == expected, "\(scenario.name) \(c.map { "\($0.path)=\($0.value)" })")
                // a sweep's way: the keys' parsers found once, the values set at each point
                let setter = resolved.setter(c.map { ($0.path, $0.source) })
                let point = Result { () throws(LatsimError) -> String in fields(try setter.configuration(values: c.map(\.value))) }
                #expect(point == expected, "setter: \(scenario.name) \(c.map { "\($0.path)=\($0.value)" })")
                compared += 1
            }
        }
        #expect(compared == BuiltinScenarios.all().count * changes.count)
    }

    @Test func aDurationInFramesFollowsAVariedDisplayRate() throws {
        var base = Settings()
        try base.set("app.handler", "1frames", source: SettingSource(file: "test.yaml", line: 1))
        let resolved = try ResolvedSettings(base)
        let at120 = try resolved.configuration(setting: [set("device.displayHz", "120")])
        let at60 = resolved.configuration
        #expect(fields(at120) != fields(at60))
        #expect(once(resolved, [set("device.displayHz", "120")]) == full(base, [set("device.displayHz", "120")]))
    }
}
