import LatsimOutput
import SimKernel
import Testing

/// What the sweep's CSV and table rows write into `RawBytes`: decimals as
/// `formatDecimal` writes them, runs of one byte, and a line's trailing
/// spaces taken off without reaching into the line before.
struct RawBytesTextTests {
    static func text(_ b: borrowing RawBytes) -> String { String(decoding: b.bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self) }

    @Test(arguments: [0.0, -0.0, 1, -1, 0.5, 1.0 / 3, 2.0 / 3, 123_456.789_012_345, -0.000_000_4, 1e15, 9.007_199_254_740_993e15,
                      1e300, -1e-300, .nan, .infinity, -.infinity, 4.503_599_627_370_497e15])
    func decimalsAreFormatDecimals(x: Double) {
        for places in [0, 1, 3, 6, 9, 17] {
            for fixed in [false, true] {
                var b = RawBytes()
                b.append(UInt8(ascii: "["))
                b.appendDecimal(x, places: places, fixed: fixed)
                #expect(Self.text(b) == "[" + formatDecimal(x, places: places, fixed: fixed), "\(x) \(places) \(fixed)")
            }
        }
    }

    @Test func runsOfOneByte() {
        var b = RawBytes()
        b.append(repeating: UInt8(ascii: "-"), count: 3)
        b.append(repeating: UInt8(ascii: " "), count: 0)
        b.append(repeating: UInt8(ascii: " "), count: -2)
        b.append(repeating: UInt8(ascii: "x"), count: 100)
        #expect(Self.text(b) == "---" + String(repeating: "x", count: 100))
    }

    @Test func trailingSpacesGoDownToTheLinesStartOnly() {
        var b = RawBytes()
        b.append(repeating: 0x20, count: 2)
        b.append(0x0A)
        let start = b.count
        b.append(repeating: 0x20, count: 4)
        b.removeTrailing(0x20, downTo: start)
        #expect(Self.text(b) == "  \n")
        b.append(UInt8(ascii: "a"))
        b.append(repeating: 0x20, count: 2)
        b.removeTrailing(0x20, downTo: start)
        #expect(Self.text(b) == "  \na")
        b.removeTrailing(0x20, downTo: 0)
        #expect(Self.text(b) == "  \na")
    }
}
