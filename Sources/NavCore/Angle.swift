import RealModule

/// An angle stored in radians, with explicit wrapping conventions.
///
/// Numerical contract: `wrappedToPi` returns a value in (−π, π]; `wrappedTo2Pi`
/// in [0, 2π). Both are exact for inputs already in range.
public struct Angle: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var radians: Double

    @inlinable public init(radians: Double) { self.radians = radians }
    @inlinable public init(degrees: Double) { self.radians = degrees * .pi / 180 }
    @inlinable public static func radians(_ r: Double) -> Angle { Angle(radians: r) }
    @inlinable public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }

    @inlinable public var degrees: Double { radians * 180 / .pi }

    /// The same direction, in (−π, π].
    public var wrappedToPi: Angle { Angle(radians: Angle.wrapToPi(radians)) }

    /// The same direction, in [0, 2π).
    public var wrappedTo2Pi: Angle {
        var r = radians.truncatingRemainder(dividingBy: 2 * .pi)
        if r < 0 { r += 2 * .pi }
        if r >= 2 * .pi { r = 0 }
        return Angle(radians: r)
    }

    /// Compass-style degrees in [0, 360).
    public var compassDegrees: Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d < 0 { d += 360 }
        if d >= 360 { d = 0 }
        return d
    }

    /// Wraps radians into (−π, π].
    @inlinable public static func wrapToPi(_ r: Double) -> Double {
        if r > -.pi && r <= .pi { return r }
        var w = (r + .pi).truncatingRemainder(dividingBy: 2 * .pi)
        if w <= 0 { w += 2 * .pi }
        return w - .pi
    }

    /// Smallest signed difference `self − other`, in (−π, π].
    public func difference(from other: Angle) -> Angle {
        Angle(radians: Angle.wrapToPi(radians - other.radians))
    }

    public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
    public static func + (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians + b.radians) }
    public static func - (a: Angle, b: Angle) -> Angle { Angle(radians: a.radians - b.radians) }
    public static prefix func - (a: Angle) -> Angle { Angle(radians: -a.radians) }

    public var description: String { "\(degrees)°" }
}

// Angle wraps in degrees (headings, compass offsets): the one implementation for every module.

/// Wraps degrees into (−180, 180].
public func wrapDegrees180(_ d: Double) -> Double {
    var w = (d + 180).truncatingRemainder(dividingBy: 360)
    if w <= 0 { w += 360 }
    return w - 180
}

/// Wraps degrees into [0, 360).
public func wrapDegrees360(_ d: Double) -> Double {
    var w = d.truncatingRemainder(dividingBy: 360)
    if w < 0 { w += 360 }
    if w >= 360 { w -= 360 }
    return w
}
