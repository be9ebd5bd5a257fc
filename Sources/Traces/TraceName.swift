import LatsimOutput

/// An event's name as a trace takes it: a literal, or an interpolation of
/// a few integers into literal text ("DrawFrame \(frame)"), kept as its
/// parts and written as bytes into the event's record, with no `String`
/// made; a name with other parts (or more integers) is made as a
/// `String`. A long run's trace names millions of events: making each
/// name as a `String` (its text grown, its integers formatted, often on
/// the heap) was a good part of making the trace.
public struct TraceName: ExpressibleByStringInterpolation, Sendable {
    /// Up to three literal pieces with up to two integers between them.
    private var texts: (StaticString, StaticString, StaticString) = ("", "", "")
    private var numbers: (Int64, Int64) = (0, 0)
    private var numberCount = 0
    /// The name made as text, when it does not fit the parts.
    private var string: String?

    private init() {}

    /// A literal name.
    public init(stringLiteral s: StaticString) { texts.0 = s }

    /// A name made at run time.
    public init(_ s: String) { string = s }

    public init(stringInterpolation i: StringInterpolation) { self = i.name }

    /// The pieces of an interpolated name.
    public struct StringInterpolation: StringInterpolationProtocol {
        var name = TraceName()
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ s: StaticString) { name.append(s) }
        public mutating func appendInterpolation<T: BinaryInteger>(_ n: T) {
            if let n = Int64(exactly: n) { name.append(n) } else { name.append("\(n)" as String) }
        }
        public mutating func appendInterpolation(_ s: String) { name.append(s) }
    }

    private mutating func append(_ s: StaticString) {
        if string != nil { return string! += s.description }
        switch numberCount {
        case 0: texts.0 = s
        case 1: texts.1 = s
        default: texts.2 = s
        }
    }

    private mutating func append(_ n: Int64) {
        guard string == nil, numberCount < 2 else { return append(String(n)) }
        if numberCount == 0 { numbers.0 = n } else { numbers.1 = n }
        numberCount += 1
    }

    private mutating func append(_ s: String) {
        string = text + s
    }

    /// The name as text.
    public var text: String {
        if let string { return string }
        var s = texts.0.description
        if numberCount > 0 { s += String(numbers.0) + texts.1.description }
        if numberCount > 1 { s += String(numbers.1) + texts.2.description }
        return s
    }

    /// Appends the name as a record's text: its length (a varint) and its UTF-8 bytes.
    func write(into out: inout RawBytes) {
        if let string { return EventRecord.text(string, into: &out) }
        var length = texts.0.utf8CodeUnitCount
        if numberCount > 0 { length += Self.digits(numbers.0) + texts.1.utf8CodeUnitCount }
        if numberCount > 1 { length += Self.digits(numbers.1) + texts.2.utf8CodeUnitCount }
        ProtoBytes.varint(UInt64(length), into: &out)
        Self.append(texts.0, into: &out)
        if numberCount > 0 {
            Self.append(numbers.0, into: &out)
            Self.append(texts.1, into: &out)
        }
        if numberCount > 1 {
            Self.append(numbers.1, into: &out)
            Self.append(texts.2, into: &out)
        }
    }

    private static func append(_ s: StaticString, into out: inout RawBytes) {
        out.append(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// The characters of `n` in decimal (with its sign).
    static func digits(_ n: Int64) -> Int {
        var count = n < 0 ? 2 : 1, m = n.magnitude
        while m >= 10 { m /= 10; count += 1 }
        return count
    }

    /// `n` in decimal, as `String(n)` writes it.
    static func append(_ n: Int64, into out: inout RawBytes) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        out.appendDecimal(n.magnitude)
    }
}
