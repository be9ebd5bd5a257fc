import SimKernel

/// A position (or a vector: a displacement, a velocity) on the screen, in
/// points. The origin is the top-left corner; y grows downwards.
public struct TouchPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Horizontal coordinate, points.
    public var x: Double
    /// Vertical coordinate, points.
    public var y: Double

    /// A point from its two coordinates.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin (and the zero vector).
    public static let zero = TouchPoint(x: 0, y: 0)

    /// Component-wise sum.
    @inlinable
    public static func + (a: TouchPoint, b: TouchPoint) -> TouchPoint { TouchPoint(x: a.x + b.x, y: a.y + b.y) }
    /// Component-wise difference.
    @inlinable
    public static func - (a: TouchPoint, b: TouchPoint) -> TouchPoint { TouchPoint(x: a.x - b.x, y: a.y - b.y) }
    /// The vector scaled by `k`.
    @inlinable
    public static func * (a: TouchPoint, k: Double) -> TouchPoint { TouchPoint(x: a.x * k, y: a.y * k) }
    /// The vector scaled by `k`.
    @inlinable
    public static func * (k: Double, a: TouchPoint) -> TouchPoint { TouchPoint(x: a.x * k, y: a.y * k) }
    /// The vector divided by `k`.
    @inlinable
    public static func / (a: TouchPoint, k: Double) -> TouchPoint { TouchPoint(x: a.x / k, y: a.y / k) }
    /// The opposite vector.
    @inlinable
    public static prefix func - (a: TouchPoint) -> TouchPoint { TouchPoint(x: -a.x, y: -a.y) }
    /// Adds `b` in place.
    @inlinable
    public static func += (a: inout TouchPoint, b: TouchPoint) { a = a + b }
    /// Subtracts `b` in place.
    @inlinable
    public static func -= (a: inout TouchPoint, b: TouchPoint) { a = a - b }

    /// The Euclidean length of the vector.
    @inlinable
    public var length: Double { (x * x + y * y).squareRoot() }

    /// The dot product with `other`.
    @inlinable
    public func dot(_ other: TouchPoint) -> Double { x * other.x + y * other.y }

    /// The 2-D cross product (z of the 3-D one): positive when `other` is
    /// counter-clockwise from this vector in a y-up frame.
    @inlinable
    public func cross(_ other: TouchPoint) -> Double { x * other.y - y * other.x }

    /// The distance to `other`.
    @inlinable
    public func distance(to other: TouchPoint) -> Double { (self - other).length }

    /// `(x, y)` with up to 3 decimals.
    public var description: String { "(\(formatDecimal(x, places: 3)), \(formatDecimal(y, places: 3)))" }
}

/// The true state of the finger at one instant.
public struct FingerState: Sendable, Hashable {
    /// Where the finger is, points.
    public var position: TouchPoint
    /// How fast it moves, points per second (the analytic derivative).
    public var velocity: TouchPoint
    /// True while the finger touches the screen.
    public var isDown: Bool
    /// How hard the finger presses, normalised as UIKit's `UITouch.force`:
    /// 1.0 is an average touch (Docs/Force.md). 0 when the finger is up or
    /// the motion carries no force.
    public var force: Double

    /// A state from its parts.
    @inlinable
    public init(position: TouchPoint, velocity: TouchPoint, isDown: Bool, force: Double = 0) {
        self.position = position
        self.velocity = velocity
        self.isDown = isDown
        self.force = force
    }

    /// The speed, points per second.
    @inlinable
    public var speed: Double { velocity.length }
}

/// One touch as the digitizer reports it: when, and where.
public struct TouchSample: Sendable, Hashable {
    /// The instant the digitizer sampled the finger.
    public var time: SimTime
    /// The reported position, points.
    public var position: TouchPoint

    /// A sample from its parts.
    @inlinable
    public init(time: SimTime, position: TouchPoint) {
        self.time = time
        self.position = position
    }
}
