import RealModule

/// A 3-vector of `Double` in metres (or any unit the context names).
///
/// navbench frames follow ARKit: right-handed, +y up (against gravity), metres.
public typealias Vector3 = SIMD3<Double>

extension SIMD3 where Scalar == Double {
    /// Dot product.
    @inlinable public func dot(_ other: Self) -> Double { (self * other).sum() }

    /// Cross product `self × other` (right-handed).
    @inlinable public func cross(_ o: Self) -> Self {
        Self(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    /// Euclidean norm.
    @inlinable public var norm: Double { dot(self).squareRoot() }

    /// Norm of the floor-plane part (x, z): the horizontal distance in an ARKit frame.
    @inlinable public var horizontalNorm: Double { Double.hypot(x, z) }

    /// `true` when every component is finite.
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}
