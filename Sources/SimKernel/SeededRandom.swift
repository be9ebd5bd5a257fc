/// The run's random number generator: xoshiro256** (Blackman and Vigna,
/// "Scrambled linear pseudorandom number generators", 2018), its state
/// filled from the seed by SplitMix64 as its authors recommend.
///
/// It is owned by a run and passed `inout`; nothing in latsim uses global or
/// system randomness, so a seed gives the same stream on every machine.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    @usableFromInline var s0, s1, s2, s3: UInt64

    /// A generator whose whole stream follows from `seed`.
    public init(seed: UInt64) {
        var sm = seed
        func splitMix(_ x: inout UInt64) -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s0 = splitMix(&sm); s1 = splitMix(&sm); s2 = splitMix(&sm); s3 = splitMix(&sm)
    }

    /// A generator for an independent stream derived from this seed and a
    /// stream number (used so that, e.g., the finger's motion does not shift
    /// when a duration distribution draws more numbers).
    public init(seed: UInt64, stream: UInt64) {
        self.init(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03) &+ stream)
    }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform double in [0, 1), 53 random bits.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A standard normal deviate (Box-Muller; one uniform pair per deviate).
    @inlinable
    public mutating func nextGaussian() -> Double {
        let u1 = 1.0 - nextUnit() // (0, 1]
        let u2 = nextUnit()
        return (-2.0 * log(u1)).squareRoot() * cos(2.0 * Double.pi * u2)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
