#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The few libm functions the generators and filters use, under names that
// do not collide with local variables.
@inline(__always) func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func exponential(_ x: Double) -> Double { exp(x) }
