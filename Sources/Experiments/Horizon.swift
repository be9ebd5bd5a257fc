import Foundation
import Scenarios
import SimKernel

/// How far ahead a predictor is asked to predict: a duration, or a number
/// of display frames (resolved against the display rate of the run).
public struct Horizon: Sendable, Hashable, CustomStringConvertible {
    /// As written: `8ms`, `1frame`, `0.5frames`.
    public let description: String

    /// Parses a duration (`8ms`, `1frame`, `0.5frames`); a bare number is a
    /// number of display frames.
    public init(parsing text: String) throws(LatsimError) {
        let t = text.trimmedWhitespace
        let spec = Rational(decimal: t) != nil ? t + "frames" : t
        // checked against a 60 Hz frame here; the run's own rate resolves it
        let ns = try DurationSyntax.parse(spec, framePeriod: Rational(16_666_667))
        guard ns >= 0 else { throw LatsimError(value: text, problem: "a horizon cannot be negative", expected: "a duration of 0 or more") }
        description = spec
    }

    /// The horizon in ns at a display period of `framePeriod` ns.
    public func nanoseconds(framePeriod: Rational) throws(LatsimError) -> SimTime {
        let ns = try DurationSyntax.parse(description, framePeriod: framePeriod)
        guard ns <= ValueLimits.horizon else {
            throw LatsimError(key: "app.prediction.horizon", value: description, problem: "is longer than \(DurationSyntax.format(ValueLimits.horizon))",
                              expected: "a horizon up to \(DurationSyntax.format(ValueLimits.horizon))")
        }
        return ns
    }
}

extension Horizon: Codable {
    /// Reads a horizon as written (``description``).
    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { try self.init(parsing: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: error.description)
        }
    }

    /// Writes ``description``.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
