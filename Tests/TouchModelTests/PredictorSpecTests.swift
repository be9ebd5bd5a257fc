import Foundation
import SimKernel
import Testing
@testable import TouchModel

@Suite("Predictor specs: names typed by a user")
struct PredictorSpecTests {
    @Test func latsimNamesMapToTheBuiltinConfigurations() throws {
        #expect(try PredictorSpec(parsing: "kalman") == .latsim(PredictorConfiguration(kind: .kalman)))
        #expect(try PredictorSpec(parsing: " LinearFirst ") == .latsim(PredictorConfiguration(kind: .linearFirst)))
        #expect(try PredictorSpec(parsing: "leastsquares+1E") == .latsim(PredictorConfiguration(kind: .leastSquares, oneEuro: OneEuroParameters())))
        #expect(try PredictorSpec(parsing: "none") == .latsim(PredictorConfiguration(kind: .none)))
    }

    @Test func everyNamePrintsAsItself() throws {
        for name in PredictorSpec.names {
            #expect(try PredictorSpec(parsing: name).description == name)
            #expect(try PredictorSpec(parsing: name.uppercased()).description == name, "one rule: case does not matter")
        }
        #expect(PredictorSpec.names.count == 12)
    }

    @Test("canonical spelling", arguments: [
        ("CHROMIUM.KALMAN( DirectionCutOff , heuristics )+1e", "chromium.kalman(heuristics,directionCutOff)+1e"),
        ("chromium.kalman()", "chromium.kalman"),
        ("chromium.linearResampling(TIME)", "chromium.linearResampling(time)"),
        ("chromium.linearResampling(time=3.3)", "chromium.linearResampling(time)"),
        ("chromium.linearResampling(time=1.0)", "chromium.linearResampling(time=1)"),
        ("chromium.linearResampling(frames=0.375)", "chromium.linearResampling(frames=0.375)"),
        ("chromium.linearResampling(frames = 0.5)", "chromium.linearResampling(frames)"),
        ("chromium.linearResampling(Experiment)+1E", "chromium.linearResampling(experiment)+1e"),
        ("chromium.linearResampling(fixedms)", "chromium.linearResampling(fixedMs)"),
        ("chromium.linearResampling(fixedMs=-3)", "chromium.linearResampling(fixedMs=-3)"),
        ("chromium.linearResampling(fractional=0.25)", "chromium.linearResampling(fractional=0.25)"),
        ("androidx.kalman(SAFE, stylus, offset=-4)", "androidx.kalman(safe,stylus,offset=-4)"),
        ("androidx.kalman(balanced,finger)", "androidx.kalman(finger)"),
        ("Androidx.Kalman(aggressive)", "androidx.kalman(aggressive)"),
        ("kalman +1e", "kalman+1e"),
        ("chromium.linearFirst +1E2019", "chromium.linearFirst+1e2019"),
    ])
    func canonicalSpelling(text: String, printed: String) throws {
        let spec = try PredictorSpec(parsing: text)
        #expect(spec.description == printed)
        #expect(try PredictorSpec(parsing: printed) == spec, "the printed name parses back")
    }

    @Test func optionsReachTheConfiguration() throws {
        #expect(try PredictorSpec(parsing: "chromium.kalman(directionCutOff)")
            == .platform(.chromium(.init(.kalman(.directionCutOff)))))
        #expect(try PredictorSpec(parsing: "chromium.linearResampling(fractional=0.25)+1e")
            == .platform(.chromium(.init(.linearResampling(.fractional(0.25)), oneEuro: true))))
        #expect(try PredictorSpec(parsing: "chromium.empty+1e2019")
            == .platform(.chromium(.init(.empty, oneEuro: true, oneEuroVersion: .v2019))))
        #expect(try PredictorSpec(parsing: "androidx.kalman(stylus,offset=3)")
            == .platform(.androidx(.init(strategy: .balanced, tool: .stylus, offsetMilliseconds: 3))))
    }

    @Test("bad input says what is wrong and what was expected", arguments: [
        ("kalmann", "unknown predictor 'kalmann'", "one of none, linearFirst"),
        ("", "no predictor named", "chromium.kalman"),
        ("chromium.kalman(heuristic)", "chromium.kalman has no option 'heuristic'", "heuristics and/or directionCutOff"),
        ("chromium.kalman(heuristics,heuristics)", "heuristics is given twice", "each option once"),
        ("chromium.kalman(heuristics=1)", "heuristics takes no value", "heuristics"),
        ("chromium.kalman(heuristics", "the option list is not closed by a final ')'", "name(option,option)"),
        ("chromium.kalman)", "a ')' without '('", "name(option,option)"),
        ("chromium.kalman(heuristics,,directionCutOff)", "an empty option", "single commas"),
        ("kalman(heuristics)", "kalman has no option 'heuristics'", "kalman alone, or kalman+1e"),
        ("chromium.linearFirst(time)", "chromium.linearFirst has no option 'time'", "chromium.linearFirst alone"),
        ("chromium.linearResampling(time,frames)", "chromium.linearResampling takes one latency variant, not 2", "fractional=ratio"),
        ("chromium.linearResampling(frames=half)", "frames= needs a number, not 'half'", "frames=<number>"),
        ("chromium.linearResampling(time=inf)", "time= needs a number, not 'inf'", "time=<number>"),
        ("chromium.linearResampling(fractional)", "fractional needs a ratio", "fractional=<ratio"),
        ("androidx.kalman+1e", "androidx.kalman has no 1€ filter", "without +1e"),
        ("androidx.kalman+1e2019", "androidx.kalman has no 1€ filter", "without +1e"),
        ("kalman+1e2019", "+1e2019 is Chromium's 2019 1€ filter, for chromium.* predictors", "kalman+1e"),
        ("androidx.kalman(safe,aggressive)", "two strategies, safe and aggressive", "balanced, safe, aggressive"),
        ("androidx.kalman(finger,stylus)", "two tools, finger and stylus", "finger, stylus"),
        ("androidx.kalman(offset=1.5)", "offset needs a whole number of milliseconds", "offset=<ms>"),
        ("androidx.kalman(fast)", "androidx.kalman has no option 'fast'", "offset=<ms>"),
    ])
    func badInput(text: String, problem: String, expected: String) {
        do {
            _ = try PredictorSpec(parsing: text)
            Issue.record("'\(text)' parsed")
        } catch {
            #expect(error.kind == .badInput && error.key == nil && error.value == text)
            #expect(error.problem == problem)
            #expect(error.expected?.contains(expected) == true, "expected: \(error.expected ?? "nil")")
        }
    }

    @Test func unknownNamesListEveryValidName() throws {
        let error = try #require(throws: LatsimError.self) { try PredictorSpec(parsing: "chromium.lsq") }
        for name in PredictorSpec.names { #expect(error.expected?.contains(name) == true, "\(name) listed") }
        #expect(error.description.hasPrefix("'chromium.lsq': unknown predictor 'chromium.lsq'; expected one of none"))
    }

    @Test func codableAsTheName() throws {
        let specs = try ["kalman+1e", "chromium.kalman(heuristics)", "androidx.kalman(safe)"].map { try PredictorSpec(parsing: $0) }
        let data = try JSONEncoder().encode(specs)
        #expect(String(decoding: data, as: UTF8.self) == #"["kalman+1e","chromium.kalman(heuristics)","androidx.kalman(safe)"]"#)
        #expect(try JSONDecoder().decode([PredictorSpec].self, from: data) == specs)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([PredictorSpec].self, from: Data(#"["kalmann"]"#.utf8)) }
        #expect(PredictorSpec("chromium.empty") == .platform(.chromium(.init(.empty))))
        #expect(PredictorSpec("nothing") == nil)
    }

    /// Samples of an accelerating, curving motion every 8 ms.
    static let motion: [TouchSample] = (0..<30).map { i in
        let s = Double(i) * 0.008
        return TouchSample(time: SimTime(i) * 8_000_000, position: TouchPoint(x: 100 + 400 * s + 900 * s * s, y: 300 - 200 * s * s))
    }

    // the spec's predictor for a latsim name is BuiltinPredictor, number for number
    @Test("latsim names make BuiltinPredictor", arguments: ["none", "linearFirst", "linearSecond", "leastSquares", "kalman", "kalman+1e"])
    func latsimPredictorsAreTheBuiltins(name: String) throws {
        let spec = try PredictorSpec(parsing: name)
        guard case .latsim(let configuration) = spec else { Issue.record("not latsim's"); return }
        var made = spec.makePredictor(), builtin = BuiltinPredictor(configuration)
        guard case .builtin = made else { Issue.record("not the builtin case"); return }
        for s in Self.motion {
            made.observe(s); builtin.observe(s)
            #expect(made.predict(horizon: 12_000_000) == builtin.predict(horizon: 12_000_000))
        }
        made.reset(); builtin.reset()
        #expect(made.predict(horizon: 0) == builtin.predict(horizon: 0))
    }

    @Test func platformSpecsMakePlatformPredictors() throws {
        var made = try PredictorSpec(parsing: "chromium.linearResampling(frames)").makePredictor(frameInterval: 8_000_000)
        var direct = PlatformPredictor(.chromium(.init(.linearResampling(.frames(ratio: 0.5)))), frameInterval: 8_000_000)
        guard case .platform = made else { Issue.record("not the platform case"); return }
        for s in Self.motion.prefix(5) { made.observe(s); direct.observe(s) }
        #expect(made.predict(horizon: 10_000_000) == direct.predict(horizon: 10_000_000))
        #expect(made.predict(horizon: 10_000_000, frameInterval: 4_000_000) == direct.predict(horizon: 10_000_000, frameInterval: 4_000_000))
        #expect(made.predict(horizon: 10_000_000, frameInterval: 4_000_000) != direct.predict(horizon: 10_000_000))
    }
}
