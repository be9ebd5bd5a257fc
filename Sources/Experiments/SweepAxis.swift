import Foundation
import Scenarios
import SimKernel
import TouchModel

/// One varied configuration key and the values it takes, in order.
///
/// Written `PATH=FROM...TO[:STEP]` or `PATH=A,B,C`:
/// - a range of numbers that share a unit: `gpu.render=2ms...16ms:1ms`,
///   `device.scanHz=60...240:60`, `app.commits=1...3`. The values are
///   `FROM`, `FROM+STEP`, ... up to `TO`, computed exactly in decimal, so `TO`
///   is included whenever it lies on the grid. Time units (`ns`, `us`, `ms`,
///   `s`) may be mixed and are written in `FROM`'s unit (a bare `0` takes
///   `TO`'s); `frames` and any other unit must be the same on all three. The
///   default step is 1 when both ends are whole numbers without a unit, else
///   a tenth of the range (11 values).
/// - a list: `os.buffering=double,triple,adaptive`,
///   `device.scanHz=60,120,240`, `app.handler=uniform(2ms,6ms),8ms` (commas
///   inside parentheses do not split). A list whose values themselves hold
///   commas (animation intervals) is separated by `;` instead:
///   `app.animations=never;2s..4s,6s..7s`.
///
/// Each value is the text of a `--set PATH=VALUE`; it is checked when the
/// grid is resolved against a scenario (``Sweep/run(scenario:baseOverrides:axes:seeds:duration:seed:jobs:progress:)``),
/// with the usual ``LatsimError``.
public struct SweepAxis: Sendable, Equatable {
    /// The configuration key varied (see ``ConfigurationKey/all``).
    public let path: String
    /// The values as given: a list is kept as its texts; a range as its
    /// first value, step and count, each value made when asked for (a
    /// shard of a 100,000-value range makes only its own).
    let storage: Storage
    /// The unit the values are written in (`ms`, `frames`, ...), empty for
    /// plain numbers and for non-numeric values.
    public let unit: String
    /// The argument as written, for messages.
    public let argument: String
    /// Where it was given (the command line names it).
    public let source: SettingSource

    enum Storage: Sendable, Equatable {
        /// A list's values and, when all are numbers, those numbers.
        case list([String], [Double]?)
        /// Value k is `(first + k * step) / 10^scale` in the axis's unit.
        case range(first: Int128, step: Int128, count: Int, scale: Int)
    }

    /// The values, as `--set` text, in sweep order (all of them made:
    /// ``value(at:)`` makes one).
    public var values: [String] { (0..<count).map(value(at:)) }

    /// Each value as a number in ``unit``, when every value is a number
    /// (plain or with a unit of the same kind); nil for a list of names or
    /// distributions (``number(at:)`` makes one).
    public var numbers: [Double]? { isNumeric ? (0..<count).map { number(at: $0)! } : nil }

    /// True when every value is a number (``numbers`` is not nil).
    public var isNumeric: Bool {
        switch storage {
        case .list(_, let numbers): return numbers != nil
        case .range: return true
        }
    }

    /// The `--set` text of value `i`.
    public func value(at i: Int) -> String {
        switch storage {
        case .list(let values, _): return values[i]
        case let .range(first, step, _, scale): return Self.format(first + Int128(i) * step, scale: scale) + unit
        }
    }

    /// Value `i` as a number in ``unit``; nil when the axis is not numeric.
    public func number(at i: Int) -> Double? {
        switch storage {
        case .list(_, let numbers): return numbers?[i]
        case let .range(first, step, _, scale):
            let v = first + Int128(i) * step
            return (Int64(exactly: v).map(Double.init) ?? Double(v)) / pow(10, Double(scale))
        }
    }
    /// An axis from its parts (for callers that build values themselves).
    public init(path: String, values: [String], numbers: [Double]? = nil, unit: String = "", source: SettingSource = SettingSource()) {
        self.path = path
        self.storage = .list(values, numbers)
        self.unit = unit
        self.argument = path + "=" + values.joined(separator: ",")
        self.source = source
    }

    /// Parses `PATH=FROM...TO[:STEP]` or `PATH=A,B,C`.
    ///
    /// - Throws: ``LatsimError`` for a malformed argument (no `=`, a range
    ///   missing an end, a step that is zero, negative or in another unit,
    ///   `FROM` above `TO`, more than ``Sweep/maximumPoints`` values) or a
    ///   key that does not exist.
    public init(parsing argument: String, source: SettingSource = SettingSource()) throws(LatsimError) {
        func bad(_ message: String) -> LatsimError { LatsimError(file: source.file, value: argument, problem: message) }
        guard let eq = argument.firstIndex(of: "=") else {
            throw bad("expected PATH=FROM...TO[:STEP] or PATH=A,B,C (a configuration key, `=`, then a range or a list), e.g. gpu.render=2ms...16ms:1ms or os.buffering=double,triple,adaptive")
        }
        let path = argument[..<eq].trimmedWhitespace
        let spec = argument[argument.index(after: eq)...].trimmedWhitespace
        guard !path.isEmpty else {
            throw bad("no key before `=`: expected PATH=FROM...TO[:STEP] with a key from `latsim keys`, e.g. gpu.render=2ms...16ms:1ms")
        }
        // an unknown key is the standard error, with its "did you mean"
        var probe = Settings()
        try probe.set(path, "", source: source)
        guard !spec.isEmpty else {
            throw bad("no values after `=`: expected a range FROM...TO[:STEP] (e.g. \(path)=\(SweepAxis.example(for: path))) or a list A,B,C")
        }
        self.path = path
        self.argument = argument
        self.source = source
        if spec.contains("...") {
            (storage, unit) = try SweepAxis.range(spec, path: path, bad: bad)
        } else {
            // `2ms..20ms` or `2ms…20ms` meant a range: say how to write one
            if spec.range(of: #"^\s*[0-9][0-9.]*[^0-9.,;]*(\.\.|…)\s*[0-9]"#, options: .regularExpression) != nil {
                throw bad("a range takes three dots: expected \(path)=FROM...TO[:STEP], e.g. \(path)=\(SweepAxis.example(for: path))")
            }
            let items = SweepAxis.split(list: spec)
            if let empty = items.firstIndex(where: { $0.isEmpty }) {
                throw bad("value \(empty + 1) of the list is empty: expected values separated by commas (or by `;` when a value holds commas), e.g. os.buffering=double,triple,adaptive")
            }
            if items.count > Sweep.maximumPoints {
                throw bad("\(items.count) values is more than the \(Sweep.maximumPoints) grid points a sweep may have")
            }
            let (numbers, unit) = SweepAxis.numbers(of: items)
            storage = .list(items, numbers)
            self.unit = unit
        }
    }

    /// The number of values.
    public var count: Int {
        switch storage {
        case .list(let values, _): return values.count
        case .range(_, _, let count, _): return count
        }
    }

    // MARK: parsing

    /// A number with an optional unit, e.g. `2ms`, `60`, `0.5frames`.
    struct Quantity {
        var number: Rational
        /// As written (`ms`, `frame`, `Hz`, or empty).
        var unit: String
        /// What it can be converted to: `time`, `frames`, or the unit itself.
        var family: String { Quantity.timeScale[unit] != nil ? "time" : (unit == "frame" || unit == "frames" ? "frames" : unit) }
        /// Powers of ten from the unit to the family's base (ns for time).
        var exponent: Int { Quantity.timeScale[unit] ?? 0 }
        static let timeScale: [String: Int] = ["ns": 0, "us": 3, "µs": 3, "ms": 6, "s": 9]

        /// Splits `text` into a decimal number and the trailing unit; nil
        /// when the part before the unit is not a plain decimal number.
        init?(_ text: String) {
            let t = text.trimmedWhitespace
            var numberEnd = t.endIndex
            while numberEnd > t.startIndex {
                let c = t[t.index(before: numberEnd)]
                if ("0"..."9").contains(c) || c == "." { break }
                numberEnd = t.index(before: numberEnd)
            }
            guard let r = Rational(decimal: String(t[..<numberEnd])) else { return nil }
            number = r
            unit = t[numberEnd...].trimmedWhitespace
        }
    }

    /// A plausible range for a key, for examples in messages.
    static func example(for path: String) -> String {
        let key = ConfigurationKey.byPath[path]
        let d = key?.defaultValue ?? ""
        if let q = Quantity(d), q.family == "time" { return "1ms...10ms:1ms" }
        if path.hasSuffix("Hz") { return "60...240:60" }
        if Int(d) != nil { return "1...4" }
        return "A,B,C"
    }

    /// Splits a list at commas outside parentheses, or at `;` when there is one.
    static func split(list spec: String) -> [String] {
        if spec.contains(";") {
            return spec.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmedWhitespace }
        }
        var items: [String] = [], current = "", depth = 0
        for c in spec {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(0, depth - 1) }
            if c == "," && depth == 0 {
                items.append(current.trimmedWhitespace)
                current = ""
            } else {
                current.append(c)
            }
        }
        items.append(current.trimmedWhitespace)
        return items
    }

    /// The numbers of a list, in the first value's unit, when every value
    /// is a number of the same kind.
    static func numbers(of items: [String]) -> ([Double]?, String) {
        let qs = items.map(Quantity.init)
        guard let first = qs.first ?? nil, qs.allSatisfy({ $0 != nil && $0!.family == first.family }) else { return (nil, "") }
        let unit = first.unit == "frame" ? "frames" : first.unit
        let values = qs.map { q in
            q!.number.doubleValue * pow(10, Double(q!.exponent - first.exponent))
        }
        return (values, unit)
    }

    /// The values of `FROM...TO[:STEP]` (as a first value, step and count)
    /// and their unit.
    static func range(_ spec: String, path: String, bad: (String) -> LatsimError) throws(LatsimError) -> (Storage, String) {
        let form = "write FROM...TO[:STEP], e.g. \(path)=\(example(for: path))"
        let ends = spec.components(separatedBy: "...")
        guard ends.count == 2 else { throw bad("a range has one `...` between its two ends: \(form)") }
        let fromText = ends[0].trimmedWhitespace
        var toText = ends[1].trimmedWhitespace
        var stepText: String?
        if let colon = toText.firstIndex(of: ":") {
            stepText = toText[toText.index(after: colon)...].trimmedWhitespace
            toText = toText[..<colon].trimmedWhitespace
            if stepText!.isEmpty { throw bad("nothing after `:`: the step is optional, but when given it is a number in the range's unit: \(form)") }
        }
        guard !fromText.isEmpty, !toText.isEmpty else {
            throw bad("a range needs both ends: \(form)")
        }
        guard let from = Quantity(fromText) else { throw bad("'\(fromText)' is not a number with an optional unit: \(form)") }
        guard let to = Quantity(toText) else { throw bad("'\(toText)' is not a number with an optional unit: \(form)") }
        var first = from
        if first.unit.isEmpty && first.number.numerator == 0 && !to.unit.isEmpty { first.unit = to.unit } // a bare 0
        guard first.family == to.family else {
            throw bad("the ends are in different units ('\(fromText)' and '\(toText)'): write both in one unit, \(form)")
        }
        var step: Quantity?
        if let stepText {
            guard let s = Quantity(stepText) else { throw bad("the step '\(stepText)' is not a number with an optional unit: \(form)") }
            guard s.family == first.family else {
                let wanted = first.unit.isEmpty ? "a plain number like the range" : "a step in \(first.family == "time" ? "ns, us, ms or s" : first.unit) like the range"
                throw bad("the step '\(stepText)' has the wrong unit: expected \(wanted); \(form)")
            }
            guard s.number.isPositive else { throw bad("the step '\(stepText)' must be above zero: \(form)") }
            step = s
        }

        // exact decimal arithmetic: every value as an integer count of
        // 10^-scale base units (ns for time)
        let parts = [first, to] + (step.map { [$0] } ?? [])
        var scale = 0
        var decimals: [(Int128, Int)] = []
        for q in parts {
            guard let d = decimal(q.number) else { throw bad("'\(q.number)' has too many digits: \(form)") }
            decimals.append((d.0, d.1 - q.exponent))
            scale = max(scale, d.1 - q.exponent)
        }
        func at(_ i: Int) -> Int128 { decimals[i].0 * power(scale - decimals[i].1) }
        guard at(0) <= at(1) else { throw bad("FROM '\(fromText)' is above TO '\(toText)': \(form)") }
        var lo = at(0), hi = at(1), s: Int128
        if parts.count == 3 {
            s = at(2)
        } else if first.unit.isEmpty && first.number.denominator == 1 && to.number.denominator == 1 {
            s = power(scale) // whole numbers: a step of 1
        } else {
            // ten equal steps: one more decimal place makes the tenth exact
            scale += 1
            s = hi - lo
            lo *= 10
            hi *= 10
        }
        if s == 0 { s = 1 } // FROM == TO: one value
        let count = (hi - lo) / s + 1
        guard count <= Int128(Sweep.maximumPoints) else {
            throw bad("\(count) values is more than the \(Sweep.maximumPoints) grid points a sweep may have: use a larger step, \(form)")
        }
        let unit = first.unit == "frame" ? "frames" : first.unit
        let outScale = scale + first.exponent // digits after the point in `unit`
        // value k is (lo + k s) / 10^scale base units, which is (lo + k s) / 10^outScale in `unit`
        return (.range(first: lo, step: s, count: Int(count), scale: outScale), unit)
    }

    /// `r` as `mantissa / 10^scale`, when its denominator divides a power of ten.
    static func decimal(_ r: Rational) -> (Int128, Int)? {
        var scale = 0
        var p: Int128 = 1
        while p % Int128(r.denominator) != 0 {
            scale += 1
            p *= 10
            if scale > 18 { return nil }
        }
        return (Int128(r.numerator) * (p / Int128(r.denominator)), scale)
    }

    static func power(_ n: Int) -> Int128 {
        var p: Int128 = 1
        for _ in 0..<max(0, n) { p *= 10 }
        return p
    }

    /// `v / 10^scale` as the shortest exact decimal text.
    static func format(_ v: Int128, scale: Int) -> String {
        if scale <= 0 { return String(v * power(-scale)) }
        let magnitude = v < 0 ? -v : v
        // each grid point formats its values (twice: checked, then run)
        if scale <= 40, let m = UInt64(exactly: magnitude) { return formatDecimal(mantissa: m, places: scale, negative: v < 0) }
        // a value past 2^64 in its last unit
        let zero = UInt8(ascii: "0")
        var digits = Array((UInt64(exactly: magnitude).map { String($0) } ?? String(magnitude)).utf8)
        if digits.count <= scale { digits.insert(contentsOf: repeatElement(zero, count: scale - digits.count + 1), at: 0) }
        let point = digits.count - scale
        var end = digits.count
        while end > point && digits[end - 1] == zero { end -= 1 }
        var out: [UInt8] = []
        out.reserveCapacity(end + 2)
        if v < 0 { out.append(UInt8(ascii: "-")) }
        out += digits[..<point]
        if end > point {
            out.append(UInt8(ascii: "."))
            out += digits[point..<end]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
