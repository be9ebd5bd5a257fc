import Foundation
import SimKernel
import Testing

/// Numbers that cannot overflow when written, names that cannot leave a
/// folder, inputs known by identity.
@Suite struct NumberFormattingTests {
    /// `x * 10^places` once overflowed to infinity above about 1.8e302, and
    /// the result JSON held a bare `inf`.
    @Test(arguments: [1e302, 1.8e302, 1e303, 1e308, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, 4.5e15, 9.3e18])
    func everyFiniteNumberIsWrittenAsItsDigits(_ x: Double) throws {
        for places in [0, 3, 6, 17, 40] {
            let text = formatDecimal(x, places: places)
            #expect(!text.contains("inf") && !text.contains("nan"), "\(x) with \(places) places: \(text)")
            // the digits read back as the same double
            #expect(Double(text) == x, "\(x): \(text)")
            #expect(finiteDecimal(x, places: places) == text)
        }
    }

    /// Below 2^52 units of the last place, a number is written from its
    /// rounded digits rather than through printf: with `fixed` (every
    /// decimal kept) the two agree on every number, at every count of
    /// places, but for printf's negative zero (the rule the shortcut rests
    /// on; the trimming that follows is the same code either way).
    @Test func theDigitsAreThoseOfPrintf() {
        func printf(_ x: Double, _ places: Int) -> String {
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            let s = String(format: "%.\(places)f", (x * scale).rounded() / scale)
            return s.hasPrefix("-") && s.allSatisfy({ $0 == "-" || $0 == "0" || $0 == "." }) ? String(s.dropFirst()) : s
        }
        var rng = SeededRandom(seed: 7, stream: 1)
        var checked = 0
        for _ in 0..<20_000 {
            let magnitude = Double(Int(rng.next() % 30) - 12)
            let x = (rng.nextUnit() * 2 - 1) * pow(10, magnitude)
            let places = Int(rng.next() % 18)
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            guard Swift.abs(x) * scale < 4_503_599_627_370_496 else { continue }
            #expect(formatDecimal(x, places: places, fixed: true) == printf(x, places), "\(x), \(places) places")
            checked += 1
        }
        // near the edges: ties, a unit of the last place, 2^52 units
        for (x, places) in [(0.0005, 3), (-0.0005, 3), (0.125, 2), (2.675, 2), (1e-17, 17), (-0.000001, 6),
                            (4_503_599_627_370.495, 3), (4_503_599_627_370.49, 3), (0.1 + 0.2, 17), (123.456, 0)] {
            #expect(formatDecimal(x, places: places, fixed: true) == printf(x, places), "\(x), \(places) places")
        }
        #expect(checked > 10_000)
    }

    /// A whole number below 10^15 is written from its integer digits,
    /// however many places are asked for (past 2^53 units of the last
    /// place it went through printf): the same text as printf's, trimmed
    /// or padded, and never "-0".
    @Test func wholeNumbersAreTheirDigitsAtAnyPlaces() {
        var rng = SeededRandom(seed: 5, stream: 2)
        var xs: [Double] = [0, -0.0, 1, -1, 7, 10, -100, 999_999_999_999_999, -999_999_999_999_999, 4_503_599_627_370_496, 123_456_789_012]
        for _ in 0..<5_000 { xs.append(((rng.nextUnit() * 2 - 1) * pow(10, Double(rng.next() % 16))).rounded()) }
        for x in xs where Swift.abs(x) < 1e15 {
            for places in [0, 1, 3, 6, 17] {
                let digits = String(format: "%.0f", x)
                let plain = digits == "-0" ? "0" : digits
                #expect(formatDecimal(x, places: places) == plain, "\(x), \(places) places")
                let fixed = places == 0 ? plain : plain + "." + String(repeating: "0", count: places)
                #expect(formatDecimal(x, places: places, fixed: true) == fixed, "\(x), \(places) places, fixed")
            }
        }
    }

    /// Without `fixed`, a number is printf's digits with the zeros after its
    /// point dropped (then a bare point, and the sign of a zero): written
    /// as bytes, that is checked here against the plain definition on
    /// integers, decimals, ties, negative numbers and zero, at every count
    /// of places, and with `fixed` against the same digits padded back.
    @Test func trailingZerosGoAsThePlainDefinitionSays() {
        func plain(_ x: Double, _ places: Int) -> String {
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            var s = String(format: "%.\(places)f", (x * scale).rounded() / scale)
            if s.contains(".") {
                while s.hasSuffix("0") { s.removeLast() }
                if s.hasSuffix(".") { s.removeLast() }
            }
            return s == "-0" ? "0" : s
        }
        func padded(_ s: String, _ places: Int) -> String {
            guard places > 0 else { return s }
            let decimals = s.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count
            return (decimals == nil ? s + "." : s) + String(repeating: "0", count: places - (decimals ?? 0))
        }
        var rng = SeededRandom(seed: 13, stream: 3)
        var xs: [Double] = [0, -0.0, 1, -1, 10, 100, 0.5, -0.5, 0.1, 1.25, -1.25, 1e-7, -1e-7, 999_999.9999995, 123_456_789]
        for _ in 0..<20_000 {
            let magnitude = Double(Int(rng.next() % 24) - 10)
            let x = (rng.nextUnit() * 2 - 1) * pow(10, magnitude)
            // whole numbers and few decimals, as outputs mostly hold
            xs.append(rng.next() % 3 == 0 ? x.rounded() : (rng.next() % 2 == 0 ? (x * 1000).rounded() / 1000 : x))
        }
        for (n, x) in xs.enumerated() {
            let places = n < 15 ? n % 18 : Int(rng.next() % 18)
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            guard Swift.abs(x) * scale < 4_503_599_627_370_496 else { continue }
            #expect(formatDecimal(x, places: places) == plain(x, places), "\(x), \(places) places")
            #expect(formatDecimal(x, places: places, fixed: true) == padded(plain(x, places), places), "\(x), \(places) places, fixed")
        }
    }

    /// An exact decimal held as an integer (a sweep axis's values) is
    /// written as its digits with the point `places` from the right, zeros
    /// put in front and trailing ones dropped, at 0 to 40 places.
    @Test func aMantissaIsWrittenAsItsDigitsWithThePointPlaced() {
        func plain(_ m: UInt64, _ places: Int, _ negative: Bool) -> String {
            // m's digits, zeros in front until a digit is left of the point
            var digits = String(m)
            if digits.count <= places { digits = String(repeating: "0", count: places + 1 - digits.count) + digits }
            let whole = digits.prefix(digits.count - places)
            var fraction = digits.suffix(places)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return (negative && m != 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
        }
        var rng = SeededRandom(seed: 17, stream: 5)
        var cases: [(UInt64, Int, Bool)] = [(0, 0, false), (0, 3, true), (5, 1, true), (10, 1, false), (1000, 3, false),
                                            (UInt64.max, 0, false), (UInt64.max, 40, true), (1, 40, false), (120, 2, false)]
        for _ in 0..<5_000 {
            let m = rng.next() >> (rng.next() % 64)
            cases.append((m, Int(rng.next() % 41), rng.next() % 2 == 0))
        }
        for (m, places, negative) in cases {
            #expect(formatDecimal(mantissa: m, places: places, negative: negative) == plain(m, places, negative), "\(m), \(places) places")
        }
    }

    /// Rounding half up to nanoseconds is floor(x + 0.5), computed without
    /// a call to floor: the same on either side of zero, on halves, on
    /// integers and on values past 2^52, where every double is whole.
    @Test func roundingHalfUpIsFloorOfXPlusAHalf() {
        var rng = SeededRandom(seed: 11, stream: 2)
        var cases: [Double] = [0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.4999999999999996, -2.5000000000000004, 0.49999999999999994,
                               -0.49999999999999994, 4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 9e15, -9e15, 9.2e18, -9.2e18]
        for _ in 0..<20_000 {
            let magnitude = Double(Int(rng.next() % 19))
            cases.append((rng.nextUnit() * 2 - 1) * pow(10, magnitude))
        }
        for x in cases {
            #expect(roundHalfUp(x) == SimTime((x + 0.5).rounded(.down)), "\(x)")
        }
    }

    /// `roundedHalfAway` is `rounded()` to the bit, zeros' signs included,
    /// on halves, next to halves, past 2^52, and for NaN and infinities.
    @Test func roundingHalfAwayIsRounded() {
        var rng = SeededRandom(seed: 12, stream: 2)
        var cases: [Double] = [0, -0.0, 0.3, -0.3, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
                               4_503_599_627_370_495.5, -4_503_599_627_370_495.5, 0x1p52, -0x1p52, 9.2e18, -9.2e18, 1e300,
                               .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude]
        for _ in 0..<20_000 {
            let magnitude = Double(Int(rng.next() % 19))
            let x = (rng.nextUnit() * 2 - 1) * pow(10, magnitude)
            cases += [x, x.rounded(.down) + 0.5, x.rounded(.down) - 0.5]
        }
        for x in cases {
            #expect(roundedHalfAway(x).bitPattern == x.rounded().bitPattern, "\(x)")
        }
        #expect(roundedHalfAway(.nan).isNaN)
    }

    @Test func smallNumbersKeepTheirRoundingAndNonFiniteIsNullInJSON() {
        #expect(formatDecimal(16.6666666, places: 6) == "16.666667")
        #expect(formatDecimal(-0.0000001, places: 6) == "0")
        #expect(formatDecimal(2.5, places: 3, fixed: true) == "2.500")
        #expect(formatDecimal(1e20, places: 2, fixed: true) == "100000000000000000000.00")
        #expect(finiteDecimal(.infinity, places: 6) == "null" && finiteDecimal(.nan, places: 6) == "null")
    }
}

@Suite struct IdentifierTests {
    @Test(arguments: ["ios8", "ios9-coalescing-120hz", "nexus-5x", "a.b_c-d", "A1", String(repeating: "x", count: 64)])
    func identifiers(_ name: String) {
        #expect(Identifier.isValid(name), "\(name)")
    }

    /// Each of these once went into an output path unchecked.
    @Test(arguments: ["x/../../victim", "..", ".", ".hidden", "-flag", "", "a b", "a\nb", "é", "a\\b", "a:b",
                      String(repeating: "x", count: 65)])
    func notIdentifiers(_ name: String) {
        let problem = Identifier.problem(name)
        #expect(problem != nil, "\(name)")
        #expect((problem ?? "").count < 100)
    }
}

@Suite struct InputFilesTests {
    @Test func anInputIsKnownByItsIdentityAndAReusedInodeIsNot() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("s.yaml").path, link = dir.appendingPathComponent("hard.yaml").path
        try "name: x\n".write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: file, toPath: link)
        #expect(InputFiles.contents(file) != nil)
        #expect(InputFiles.input(sameAs: file)?.path == file)
        #expect(InputFiles.input(sameAs: dir.path + "/./s.yaml")?.path == file, "another spelling")
        #expect(InputFiles.input(sameAs: link)?.path == file, "a hard link")
        #expect(InputFiles.input(sameAs: dir.path) == nil)
        InputFiles.forget(file)
        #expect(InputFiles.input(sameAs: file) == nil)
        // a new file in the old one's place is not the input
        InputFiles.record(file)
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.removeItem(atPath: link)
        usleep(10_000)
        try "other\n".write(toFile: file, atomically: false, encoding: .utf8)
        #expect(InputFiles.input(sameAs: file) == nil)
    }

    /// Reading an input opens it once: a regular file is read whole and
    /// recorded; a FIFO (which would wait for a writer), a directory, a
    /// missing, oversized or unreadable file is bad input saying which.
    @Test func anInputIsReadOnceAndAnythingButARegularFileIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("latsim-read-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("t.csv").path
        let text = String(repeating: "t_ms,x,y\n", count: 1000)
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        #expect(try InputFiles.bytes(file, expected: "a trace") == Array(text.utf8))
        #expect(InputFiles.input(sameAs: file)?.path == file)
        func problem(_ path: String, maximumBytes: Int = 1 << 20) -> String? {
            do { _ = try InputFiles.bytes(path, expected: "a trace", maximumBytes: maximumBytes); return nil }
            catch { return error.problem }
        }
        #expect(problem(file, maximumBytes: 8999) == "has 9000 bytes")
        #expect(problem(file, maximumBytes: 9000) == nil)
        #expect(problem(dir.path) == "is a directory")
        #expect(problem(dir.appendingPathComponent("none.csv").path) == "no such file")
        let fifo = dir.appendingPathComponent("pipe.csv").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(problem(fifo) == "is not a regular file (a device, pipe or socket)")
        #expect(problem("/dev/null") == "is not a regular file (a device, pipe or socket)")
    }
}
