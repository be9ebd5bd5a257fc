import Foundation
import SimKernel

/// A synthetic press: how hard the finger pushes over time, repeated every
/// `every` (Docs/Force.md, "Presses"). It gives the finger's force while
/// the trajectory has it down; the position still comes from the trajectory.
///
/// Forces are normalised as UIKit's `UITouch.force`: 1.0 is an average
/// touch. Segments are straight lines between the levels, so a threshold
/// crossing has a closed form (a ramp from 0 to `peak` over `rise` crosses
/// `θ` at `rise · θ / peak`).
///
/// Written `ramp(peak=4, rise=200ms, hold=0ms, fall=150ms)`,
/// `peekPop(peek=3.5, pop=5.5, rise=150ms, hold=300ms, fall=150ms)` or
/// `hold(force=3, rise=150ms, wobble=0.3, wobbleHz=8)`, each with
/// `at=` (the first press starts, default 500ms) and `every=` (a new press
/// starts, default 2s; 0 presses once); parameters left out take their
/// defaults (``PressProfile/expected`` lists them).
public struct PressProfile: Sendable, Hashable, CustomStringConvertible {
    /// The shape of one press, from its start.
    public enum Shape: Sendable, Hashable {
        /// No press: the finger's force is 0 (or a recorded trace's own).
        case none
        /// Up from 0 to `peak` in `rise`, held for `hold`, down to 0 in `fall`.
        case ramp(peak: Double, rise: SimTime, hold: SimTime, fall: SimTime)
        /// Up to `peek` in `rise`, held for `hold`, up to `pop` in `rise`,
        /// held for `hold`, down to 0 in `fall`: a press to peek, then to pop.
        case peekPop(peek: Double, pop: Double, rise: SimTime, hold: SimTime, fall: SimTime)
        /// Up to `force` in `rise`, then held there until the next press
        /// begins, wavering by `wobble` (a sine of `wobbleHz`, the hand's
        /// tremor): a press that hovers around a level.
        case hold(force: Double, rise: SimTime, wobble: Double, wobbleHz: Double)
    }

    /// The shape of each press.
    public var shape: Shape
    /// When the first press starts.
    public var start: SimTime
    /// From one press's start to the next; 0 presses once.
    public var period: SimTime

    /// A profile from its parts (``parse(_:framePeriod:)`` checks them).
    public init(shape: Shape, start: SimTime = 500 * Nanos.perMillisecond, period: SimTime = 2 * Nanos.perSecond) {
        self.shape = shape
        self.start = start
        self.period = period
    }

    /// No press.
    public static let none = PressProfile(shape: .none, start: 0, period: 0)

    /// True for ``none``.
    @inlinable
    public var isNone: Bool { if case .none = shape { return true } else { return false } }

    /// The largest force a press reaches.
    public var peakForce: Double {
        switch shape {
        case .none: return 0
        case .ramp(let peak, _, _, _): return peak
        case .peekPop(_, let pop, _, _, _): return pop
        case .hold(let force, _, let wobble, _): return force + wobble
        }
    }

    /// How long one press lasts; nil for `hold`, which lasts until the next
    /// press begins (for ever when it presses once).
    public var pressLength: SimTime? {
        switch shape {
        case .none: return 0
        case .ramp(_, let rise, let hold, let fall): return rise + hold + fall
        case .peekPop(_, _, let rise, let hold, let fall): return 2 * rise + 2 * hold + fall
        case .hold: return nil
        }
    }

    /// The start of the press under way at `t` (nil before the first).
    public func pressStart(at t: SimTime) -> SimTime? {
        guard !isNone, t >= start else { return nil }
        return period > 0 ? t - (t - start) % period : start
    }

    /// The force at `t` (the finger assumed down).
    @inlinable
    public func force(at t: SimTime) -> Double {
        guard t >= start else { return 0 }
        var local = t - start
        if period > 0 { local %= period }
        return Self.force(shape, local)
    }

    /// The force `local` ns after a press's start.
    @usableFromInline
    static func force(_ shape: Shape, _ local: SimTime) -> Double {
        switch shape {
        case .none:
            return 0
        case .ramp(let peak, let rise, let hold, let fall):
            var rest = local
            if rest < rise { return line(rest, rise, 0, peak) }
            rest -= rise
            if rest < hold { return peak }
            rest -= hold
            return rest < fall ? line(rest, fall, peak, 0) : 0
        case .peekPop(let peek, let pop, let rise, let hold, let fall):
            var rest = local
            if rest < rise { return line(rest, rise, 0, peek) }
            rest -= rise
            if rest < hold { return peek }
            rest -= hold
            if rest < rise { return line(rest, rise, peek, pop) }
            rest -= rise
            if rest < hold { return pop }
            rest -= hold
            return rest < fall ? line(rest, fall, pop, 0) : 0
        case .hold(let force, let rise, let wobble, let hz):
            if local < rise { return line(local, rise, 0, force) }
            guard wobble > 0 else { return force }
            let seconds = Double(local - rise) / 1e9
            return force + wobble * sin(2 * Double.pi * hz * seconds)
        }
    }

    /// `from` + (`to` - `from`) · `t` / `length` (`t` < `length`, so
    /// `length` > 0).
    @usableFromInline @inline(__always)
    static func line(_ t: SimTime, _ length: SimTime, _ from: Double, _ to: Double) -> Double {
        from + (to - from) * (Double(t) / Double(length))
    }

    // MARK: text

    /// What a press profile looks like, with every parameter's default.
    public static let expected = "none, ramp(peak=4, rise=200ms, hold=0ms, fall=150ms), "
        + "peekPop(peek=3.5, pop=5.5, rise=150ms, hold=300ms, fall=150ms) or hold(force=3, rise=150ms, wobble=0, wobbleHz=8), "
        + "each also taking at=500ms (the first press starts) and every=2s (a new press starts; 0 presses once); "
        + "forces above 0 (1.0 is an average touch), durations from 0 to 3600s"

    /// The default largest force (`device.maximumForce`): 6.67, what
    /// developers read from `maximumPossibleForce` on the iPhone 6s
    /// (Docs/Force.md, "The numbers").
    public static let defaultMaximumForce = 6.666667

    /// The longest duration a parameter may have: an hour, as any stage.
    static let longest: SimTime = 3_600 * Nanos.perSecond
    /// The latest first press: the longest run.
    static let latestStart: SimTime = 10_000_000 * Nanos.perSecond
    /// The largest force a parameter may have, whatever the device; the
    /// device's largest force (`device.maximumForce`) is checked with the
    /// rest of a configuration.
    public static let largestForce = 1_000.0

    /// The canonical text, e.g. `ramp(peak=4, rise=200ms, hold=0ms, fall=150ms, at=500ms, every=2s)`.
    public var description: String {
        let d = DurationSyntax.format
        func n(_ x: Double) -> String { formatDecimal(x, places: 6) }
        let timing = "at=\(d(start)), every=\(d(period))"
        switch shape {
        case .none: return "none"
        case .ramp(let peak, let rise, let hold, let fall):
            return "ramp(peak=\(n(peak)), rise=\(d(rise)), hold=\(d(hold)), fall=\(d(fall)), \(timing))"
        case .peekPop(let peek, let pop, let rise, let hold, let fall):
            return "peekPop(peek=\(n(peek)), pop=\(n(pop)), rise=\(d(rise)), hold=\(d(hold)), fall=\(d(fall)), \(timing))"
        case .hold(let force, let rise, let wobble, let hz):
            return "hold(force=\(n(force)), rise=\(d(rise)), wobble=\(n(wobble)), wobbleHz=\(n(hz)), \(timing))"
        }
    }

    /// Parses a press profile (``expected``); durations may be written in
    /// display frames of `framePeriod` ns.
    ///
    /// - Throws: ``LatsimError`` (the value set, no key) naming the part
    ///   that is wrong.
    public static func parse(_ text: String, framePeriod: Rational) throws(LatsimError) -> PressProfile {
        let t = text.trimmedWhitespace
        func bad(_ problem: String) -> LatsimError { LatsimError(value: text, problem: problem, expected: expected) }
        if t.lowercased() == "none" { return .none }
        guard let open = t.firstIndex(of: "("), t.hasSuffix(")") else {
            throw bad("not a press profile")
        }
        let name = t[..<open].trimmedWhitespace.lowercased()
        let inside = t[t.index(after: open)..<t.index(before: t.endIndex)]
        var given: [String: String] = [:]
        var order: [String] = []
        for part in inside.split(separator: ",", omittingEmptySubsequences: false) {
            let p = part.trimmedWhitespace
            if p.isEmpty && inside.trimmedWhitespace.isEmpty { continue }
            guard let eq = p.firstIndex(of: "=") else { throw bad("'\(p)' is not a parameter like peak=4") }
            let key = p[..<eq].trimmedWhitespace
            let value = p[p.index(after: eq)...].trimmedWhitespace
            guard given[key] == nil else { throw bad("\(key) is given twice") }
            given[key] = value
            order.append(key)
        }
        let known: [String: [String]] = [
            "ramp": ["peak", "rise", "hold", "fall"],
            "peekpop": ["peek", "pop", "rise", "hold", "fall"],
            "hold": ["force", "rise", "wobble", "wobbleHz"],
        ]
        guard let parameters = known[name] else { throw bad("unknown press '\(t[..<open].trimmedWhitespace)'") }
        for key in order where !(parameters + ["at", "every"]).contains(key) {
            throw bad("\(name == "peekpop" ? "peekPop" : name) has no parameter '\(key)' (it takes \((parameters + ["at", "every"]).joined(separator: ", ")))")
        }
        func force(_ key: String, _ fallback: Double, zero: Bool = false) throws(LatsimError) -> Double {
            guard let text = given[key] else { return fallback }
            guard let v = NumberSyntax.double(text) else { throw bad("\(key) '\(LatsimError.shortened(text))' is not a number") }
            guard zero ? v >= 0 : v > 0, v <= largestForce else {
                throw bad("\(key)=\(text) is outside the range (\(zero ? "0" : "above 0") to \(formatDecimal(largestForce, places: 0)))")
            }
            return v
        }
        func duration(_ key: String, _ fallback: SimTime, upTo limit: SimTime = longest) throws(LatsimError) -> SimTime {
            guard let text = given[key] else { return fallback }
            let v: SimTime
            do throws(LatsimError) { v = try DurationSyntax.parse(text, framePeriod: framePeriod) } catch {
                throw bad("\(key) '\(LatsimError.shortened(text))' \(error.problem)")
            }
            guard v >= 0, v <= limit else { throw bad("\(key)=\(text) is outside the range (0 to \(DurationSyntax.format(limit)))") }
            return v
        }
        let ms = Nanos.perMillisecond
        let shape: Shape
        switch name {
        case "ramp":
            shape = .ramp(peak: try force("peak", 4), rise: try duration("rise", 200 * ms),
                          hold: try duration("hold", 0), fall: try duration("fall", 150 * ms))
        case "peekpop":
            let peek = try force("peek", 3.5), pop = try force("pop", 5.5)
            guard pop > peek else { throw bad("pop=\(formatDecimal(pop, places: 6)) is not above peek=\(formatDecimal(peek, places: 6))") }
            shape = .peekPop(peek: peek, pop: pop, rise: try duration("rise", 150 * ms), hold: try duration("hold", 300 * ms),
                             fall: try duration("fall", 150 * ms))
        default:
            let level = try force("force", 3), wobble = try force("wobble", 0, zero: true)
            guard wobble < level else {
                throw bad("wobble=\(formatDecimal(wobble, places: 6)) reaches force=\(formatDecimal(level, places: 6)): the force would touch 0")
            }
            let hz = try force("wobbleHz", 8)
            shape = .hold(force: level, rise: try duration("rise", 150 * ms), wobble: wobble, wobbleHz: hz)
        }
        let profile = PressProfile(shape: shape, start: try duration("at", 500 * ms, upTo: latestStart),
                                   period: try duration("every", 2 * Nanos.perSecond))
        if profile.period > 0 {
            if let length = profile.pressLength, length > profile.period {
                throw bad("a press lasts \(DurationSyntax.format(length)), longer than every=\(DurationSyntax.format(profile.period))")
            }
            if case .hold(_, let rise, _, _) = shape, rise >= profile.period {
                throw bad("the rise (\(DurationSyntax.format(rise))) does not end before the next press (every=\(DurationSyntax.format(profile.period)))")
            }
        }
        return profile
    }
}
